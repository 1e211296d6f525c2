/* The dense least squares of core/src/numerics/dense_lsq.c give the same bits in the build the
   loader picked for this processor (its AVX2 clone where the processor has AVX2) as in the
   build for x86-64's baseline (tests/support/dense_lsq_baseline.c): the solution and rank of
   ipx_plus_lsq, and every array of the factor (lsq_cod_factor, lsq_cod_apply_qt,
   lsq_cod_solve), on square and rectangular systems of full and deficient rank, consistent or
   not, on both sides of the blocked path's switch (LSQ_COD_BLOCKED_MIN). That the answers are
   LAPACK's own, to rounding, is test_plus_lsq's part. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "dense_lsq_baseline.h"
#include "cpu_build.h"
#include "ensure.h"
#include "impax/impax.h"
#include "impax/plus.h"
#include "low_rank.h"

#define MAXN 200

static double A0[MAXN * MAXN], A1[MAXN * MAXN], A2[MAXN * MAXN];
static double b0[MAXN], b1[MAXN], b2[MAXN], x1[MAXN], x2[MAXN], y[MAXN];
static double work1[3 * MAXN + LSQ_COD_SCRATCH(MAXN)], work2[3 * MAXN + LSQ_COD_SCRATCH(MAXN)];
static int iwork1[MAXN], iwork2[MAXN];

/* A0 = L R (m x n, rank r, entries N(0, 1) products); b0 = A0 x (+ noise if inconsistent). */
static void random_system(ipx_rng *rng, int m, int n, int r, int consistent)
{
    static double L[MAXN * MAXN], R[MAXN * MAXN];
    ipx_gen_low_rank(rng, m, n, r, A0, L, R);
    for (int i = 0; i < m; i++) b0[i] = consistent ? 0.0 : ipx_rng_normal(rng);
    for (int j = 0; j < n; j++) {
        const double xj = ipx_rng_normal(rng);
        for (int i = 0; i < m; i++) b0[i] += A0[i + m * j] * xj;
    }
}

static int same_doubles(const double *a, const double *b, size_t n)
{
    return memcmp(a, b, sizeof(double) * n) == 0;
}

/* The systems of every kind for m x n; calls check on each. */
static void each_system(int m, int n, void (*check)(int m, int n, int r))
{
    ipx_rng rng;
    ipx_rng_seed(&rng, (uint64_t)(1000 * m + n));
    const int k = m < n ? m : n, ranks[] = {k, (3 * k + 3) / 4, (k + 1) / 2, 1};
    for (int i = 0; i < 4; i++)
        for (int consistent = 0; consistent <= 1; consistent++) {
            random_system(&rng, m, n, ranks[i], consistent);
            check(m, n, ranks[i]);
        }
}

static void check_solution(int m, int n, int r)
{
    const size_t mn = (size_t)m * (size_t)n, len = (size_t)(m > n ? m : n);
    int rank1 = -1, rank2 = -2;
    memcpy(A1, A0, sizeof(double) * mn);
    memcpy(A2, A0, sizeof(double) * mn);
    memcpy(b1, b0, sizeof(double) * (size_t)m);
    memcpy(b2, b0, sizeof(double) * (size_t)m);
    ENSURE(ipx_plus_lsq(m, n, A1, b1, 1e-11, work1, iwork1, &rank1) == IPX_OK);
    ENSURE(baseline_plus_lsq(m, n, A2, b2, 1e-11, work2, iwork2, &rank2) == IPX_OK);
    const int same = rank1 == rank2 && same_doubles(b1, b2, len) && same_doubles(A1, A2, mn);
    if (!same)
        printf("  %d x %d of rank %d: the clones differ (ranks %d, %d)\n", m, n, r, rank1, rank2);
    ENSURE(same);
}

static void test_min_norm_solutions_are_the_baselines_bits(void)
{
    const int sizes[] = {1, 2, 3, 4, 5, 7, 8, 12, 16, 24, 31, 48, 64, 97, 127, 128, 129, 160, 200};
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
        each_system(sizes[i], sizes[i], check_solution);
        if (sizes[i] > 2) each_system(sizes[i], sizes[i] - 2, check_solution); /* tall */
        if (sizes[i] > 2) each_system(sizes[i] - 2, sizes[i], check_solution); /* wide */
    }
}

/* The factor's arrays of one system by both builds: A (factored), tau, tau2, perm, rank,
   |R_11|, Q^T b, and the solution from Q^T b. */
static void check_factor(int m, int n, int r)
{
    const size_t mn = (size_t)m * (size_t)n;
    int perm1[MAXN], perm2[MAXN];
    double tau1[MAXN], tau2[MAXN], tz1[MAXN], tz2[MAXN];
    memcpy(A1, A0, sizeof(double) * mn);
    memcpy(A2, A0, sizeof(double) * mn);
    lsq_cod f1 = {.m = m, .n = n, .A = A1, .tau = tau1, .tau2 = tz1, .perm = perm1};
    lsq_cod f2 = {.m = m, .n = n, .A = A2, .tau = tau2, .tau2 = tz2, .perm = perm2};
    lsq_cod_factor(&f1, 1e-11, 0.0, NULL, work1);
    baseline_lsq_cod_factor(&f2, 1e-11, 0.0, NULL, work2);
    int same = f1.r == f2.r && same_doubles(&f1.r11, &f2.r11, 1) && same_doubles(A1, A2, mn) &&
               same_doubles(tau1, tau2, (size_t)f1.r) &&
               (f1.r == n || same_doubles(tz1, tz2, (size_t)f1.r)) && /* Z: only if r < n */
               memcmp(perm1, perm2, sizeof(int) * (size_t)n) == 0;
    memcpy(b1, b0, sizeof(double) * (size_t)m);
    memcpy(b2, b0, sizeof(double) * (size_t)m);
    lsq_cod_apply_qt(&f1, b1);
    baseline_lsq_cod_apply_qt(&f2, b2);
    same = same && same_doubles(b1, b2, (size_t)m);
    lsq_cod_solve(&f1, b1, x1, y);
    baseline_lsq_cod_solve(&f2, b2, x2, y);
    same = same && same_doubles(x1, x2, (size_t)n);
    if (!same) printf("  %d x %d of rank %d: the factors differ\n", m, n, r);
    ENSURE(same);
    ENSURE(f1.r == r); /* the rank the system was made with */
}

static void test_factors_are_the_baselines_bits(void)
{
    const int sizes[] = {3, 16, 48, 127, 128, 200};
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
        each_system(sizes[i], sizes[i], check_factor);
        each_system(sizes[i], sizes[i] / 2 + 1, check_factor);
    }
}

int main(void)
{
    ipx_print_clone_build();
    RUN(test_min_norm_solutions_are_the_baselines_bits);
    RUN(test_factors_are_the_baselines_bits);
    return ipx_test_exit();
}
