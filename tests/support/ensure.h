/// Tiny assertion macros for the impax tests: they print what failed, with the numbers, and
/// count failures; a test program returns ipx_test_exit() from main.
#ifndef IMPAX_TEST_ENSURE_H
#define IMPAX_TEST_ENSURE_H

#include <math.h>
#include <stdio.h>

extern int ipx_test_failures;
extern int ipx_test_checks;

/// Records one check; prints file, line, message on failure.
void ipx_test_record(int ok, const char *file, int line, const char *what);
/// Records |a - b| <= tol, printing both values and the difference on failure.
void ipx_test_near(double a, double b, double tol, const char *file, int line, const char *expr_a,
                   const char *expr_b);
/// Runs one named test function, printing its name and outcome.
void ipx_test_run(void (*fn)(void), const char *name);
/// Prints the summary line and returns the exit status for main.
int ipx_test_exit(void);

#define ENSURE(cond) ipx_test_record(!!(cond), __FILE__, __LINE__, #cond)
#define ENSURE_NEAR(a, b, tol) ipx_test_near((a), (b), (tol), __FILE__, __LINE__, #a, #b)
#define RUN(fn) ipx_test_run(fn, #fn)

#endif
