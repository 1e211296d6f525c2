/* Lemke's method (core/src/numerics/lemke.c) gives the same bits in the build the loader picked
   for this processor (its pivots' AVX2 clone where the processor has AVX2) as in the build for
   x86-64's baseline (tests/support/lemke_baseline.c): the status, the pivots and every entry of
   z and w, on random LCPs of every class of lcp_gen.h from 1 to 200 unknowns, on paths cut short
   by the pivot limit, and on the degenerate impact LCPs whose ratio tests are contested and
   whose paths are walked again from rebuilt tableaux (test_lcp_degenerate.c). That the answers
   solve the LCPs is test_lcp's and test_lcp_degenerate's part. */
#include <stdio.h>
#include <string.h>

#include "cpu_build.h"
#include "ensure.h"
#include "impax/impax.h"
#include "lcp_gen.h"
#include "lemke_baseline.h"

#include "lcp_degenerate_data.h"

#define MAXN 200

static double M[MAXN * MAXN], q[MAXN];
static double z1[MAXN], w1[MAXN], z2[MAXN], w2[MAXN];
static double dwork1[MAXN * (2 * MAXN + 2) + 3 * MAXN], dwork2[MAXN * (2 * MAXN + 2) + 3 * MAXN];
static int iwork1[2 * MAXN], iwork2[2 * MAXN];

static int pivots_made; /* over every solve: the paths compared are not trivial */

/* LCP(q, M) of n unknowns by both builds with the pivot limit given; 1 if they agree bit for
   bit (the answers are NaN-free, so memcmp is equality). */
static int same_answers(const char *name, int n, const double *Mx, const double *qx, int max_pivots)
{
    ENSURE(ipx_lemke_work_doubles(n) == baseline_lemke_work_doubles(n));
    ENSURE(ipx_lemke_work_doubles(n) <= sizeof dwork1 / sizeof dwork1[0]);
    int p1 = -1, p2 = -2;
    const ipx_status s1 = ipx_lemke(n, Mx, qx, z1, w1, max_pivots, dwork1, iwork1, &p1);
    const ipx_status s2 = baseline_lemke(n, Mx, qx, z2, w2, max_pivots, dwork2, iwork2, &p2);
    const size_t bytes = sizeof(double) * (size_t)n;
    const int same =
        s1 == s2 && p1 == p2 && memcmp(z1, z2, bytes) == 0 && memcmp(w1, w2, bytes) == 0;
    if (!same)
        printf("  %s (n = %d): the clones differ: %s after %d pivots, %s after %d\n", name, n,
               ipx_status_name(s1), p1, ipx_status_name(s2), p2);
    pivots_made += p1;
    return same;
}

static void test_random_lcps_are_the_baselines_bits(void)
{
    const int sizes[] = {1, 2, 3, 4, 7, 8, 16, 31, 48, 64, 97, 128, 200};
    ipx_rng rng;
    ipx_rng_seed(&rng, 20261203);
    for (int cls = 0; cls < IPX_LCP_N_CLASSES; cls++)
        for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
            for (int rep = 0; rep < 3; rep++) {
                const int n = sizes[i];
                ipx_lcp_generate((ipx_lcp_class)cls, n, &rng, M, q, NULL);
                ENSURE(same_answers(ipx_lcp_class_name((ipx_lcp_class)cls), n, M, q,
                                    ipx_lemke_default_max_pivots(n)));
                /* a path cut short: the pivot limit's status and the zeroed answers */
                if (n >= 8) ENSURE(same_answers("cut short", n, M, q, n / 4));
            }
    printf("  %d pivots in all\n", pivots_made);
    ENSURE(pivots_made > 3000);
}

static void test_degenerate_lcps_are_the_baselines_bits(void)
{
    ENSURE(same_answers("wall", 36, M_wall, q_wall_0, ipx_lemke_default_max_pivots(36)));
    ENSURE(same_answers("drop13_cor50", 80, M_drop13_cor50, q_drop13_cor50_0,
                        ipx_lemke_default_max_pivots(80)));
    ENSURE(same_answers("drop13_cor25 #1", 60, M_drop13_cor25, q_drop13_cor25_0,
                        ipx_lemke_default_max_pivots(60)));
    ENSURE(same_answers("drop13_cor25 #2", 60, M_drop13_cor25, q_drop13_cor25_1,
                        ipx_lemke_default_max_pivots(60)));
}

int main(void)
{
    ipx_print_clone_build();
    RUN(test_random_lcps_are_the_baselines_bits);
    RUN(test_degenerate_lcps_are_the_baselines_bits);
    return ipx_test_exit();
}
