#include "ensure.h"

int ipx_test_failures = 0;
int ipx_test_checks = 0;

void ipx_test_record(int ok, const char *file, int line, const char *what)
{
    ipx_test_checks++;
    if (!ok) {
        ipx_test_failures++;
        fprintf(stderr, "%s:%d: check failed: %s\n", file, line, what);
    }
}

void ipx_test_near(double a, double b, double tol, const char *file, int line, const char *expr_a,
                   const char *expr_b)
{
    ipx_test_checks++;
    /* written so that a NaN on either side fails */
    if (!(fabs(a - b) <= tol)) {
        ipx_test_failures++;
        fprintf(stderr, "%s:%d: %s = %.12g, %s = %.12g, |diff| = %.3g > tol %.3g\n", file, line,
                expr_a, a, expr_b, b, fabs(a - b), tol);
    }
}

void ipx_test_run(void (*fn)(void), const char *name)
{
    int before = ipx_test_failures;
    fn();
    printf("%s %s\n", ipx_test_failures == before ? "PASS" : "FAIL", name);
    fflush(stdout);
}

int ipx_test_exit(void)
{
    printf("%d checks, %d failed\n", ipx_test_checks, ipx_test_failures);
    return ipx_test_failures == 0 ? 0 : 1;
}
