/* ipx_lemke on hand-solved, random, degenerate and infeasible LCPs, checked against the LCP
   conditions themselves and against Siconos Numerics' lcp_lexicolemke. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ensure.h"
#include "impax/impax.h"
#include "siconos_lcp.h"

#define N_MAX 48

static double M[N_MAX * N_MAX], q[N_MAX], z[N_MAX], w[N_MAX], zs[N_MAX], ws[N_MAX];
static double dwork[N_MAX * (2 * N_MAX + 2) + N_MAX * N_MAX + N_MAX + 64 * 2 * N_MAX + 4 * N_MAX];
static int iwork[3 * N_MAX];

static ipx_status lemke(int n, int max_pivots, int *pivots)
{
    ENSURE(ipx_lemke_work_doubles(n) <= sizeof dwork / sizeof dwork[0]);
    ENSURE(ipx_lemke_work_ints(n) <= sizeof iwork / sizeof iwork[0]);
    return ipx_lemke(n, M, q, z, w, max_pivots, dwork, iwork, pivots);
}

/* Largest violation of the LCP conditions, with w recomputed from M and q. */
static double violation(int n, const double *zz)
{
    double worst = 0.0;
    for (int i = 0; i < n; i++) {
        double wi = q[i];
        for (int j = 0; j < n; j++) wi += M[i + n * j] * zz[j];
        worst = fmax(worst, fmax(fmax(-zz[i], -wi), fabs(zz[i] * wi)));
    }
    return worst;
}

static double scale(int n)
{
    double s = 1.0;
    for (int i = 0; i < n * n; i++) s = fmax(s, fabs(M[i]));
    for (int i = 0; i < n; i++) s = fmax(s, fabs(q[i]));
    return s;
}

static void test_two_by_two_interior_solution(void)
{
    /* 2 z1 + z2 = 5, z1 + 2 z2 = 6: z = (4/3, 7/3), w = 0 */
    M[0] = 2, M[1] = 1, M[2] = 1, M[3] = 2;
    q[0] = -5, q[1] = -6;
    ENSURE(lemke(2, 100, NULL) == IPX_OK);
    ENSURE_NEAR(z[0], 4.0 / 3.0, 1e-14);
    ENSURE_NEAR(z[1], 7.0 / 3.0, 1e-14);
    ENSURE_NEAR(w[0], 0.0, 1e-14);
}

static void test_three_by_three_with_one_inactive_row(void)
{
    /* M = I, q = (-1, 2, -3): z = (1, 0, 3), w = (0, 2, 0) */
    memset(M, 0, sizeof(double) * 9);
    M[0] = M[4] = M[8] = 1.0;
    q[0] = -1, q[1] = 2, q[2] = -3;
    int pivots = 0;
    ENSURE(lemke(3, 100, &pivots) == IPX_OK);
    ENSURE_NEAR(z[0], 1.0, 1e-15);
    ENSURE_NEAR(z[1], 0.0, 1e-15);
    ENSURE_NEAR(z[2], 3.0, 1e-15);
    ENSURE_NEAR(w[1], 2.0, 1e-15);
    ENSURE(pivots >= 2);
}

static void test_nonnegative_q_is_solved_by_zero_without_pivots(void)
{
    M[0] = -7, M[1] = 3, M[2] = 2, M[3] = -1; /* any M */
    q[0] = 0, q[1] = 4;
    int pivots = -1;
    ENSURE(lemke(2, 100, &pivots) == IPX_OK);
    ENSURE(pivots == 0);
    ENSURE(z[0] == 0.0 && z[1] == 0.0 && w[1] == 4.0);
}

/* Random matrices of several classes, each solvable for every q. */
/* (The impact LCPs of the aplcp model, copositive but not copositive-plus, are covered on 10 000
   problems from random rigid bodies in test_aplcp.) */
enum { SPD, P_MATRIX, PSD_RANK_DEFICIENT, N_CLASSES };

static void random_matrix(int cls, int n, ipx_rng *rng)
{
    double B[N_MAX * N_MAX];
    int r = cls == PSD_RANK_DEFICIENT ? 1 + n / 2 : n;
    for (int i = 0; i < n * r; i++) B[i] = ipx_rng_normal(rng);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double s = 0.0;
            for (int c = 0; c < r; c++) s += B[i + n * c] * B[j + n * c];
            M[i + n * j] = s;
        }
    if (cls == SPD)
        for (int i = 0; i < n; i++) M[i + n * i] += 0.1;
    if (cls == P_MATRIX) /* strictly diagonally dominant with a positive diagonal: a P-matrix */
        for (int i = 0; i < n; i++) {
            double off = 0.0;
            for (int j = 0; j < n; j++) {
                if (j != i) M[i + n * j] = ipx_rng_normal(rng);
                if (j != i) off += fabs(M[i + n * j]);
            }
            M[i + n * i] = off + ipx_rng_uniform(rng, 0.1, 1.0);
        }
}

/* q = w* - M z* for a random complementary pair (z*, w*) >= 0: the LCP has the solution z*. */
static void planted_q(int n, ipx_rng *rng, double *z_star)
{
    for (int i = 0; i < n; i++) {
        int active = ipx_rng_uniform(rng, 0.0, 1.0) < 0.5;
        z_star[i] = active ? ipx_rng_uniform(rng, 0.0, 2.0) : 0.0;
        q[i] = active ? 0.0 : ipx_rng_uniform(rng, 0.0, 2.0); /* w*_i */
    }
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) q[i] -= M[i + n * j] * z_star[j];
}

static void test_random_corpus_agrees_with_planted_solutions_and_siconos(void)
{
    ipx_rng rng;
    ipx_rng_seed(&rng, 4242);
    int solved[N_CLASSES] = {0}, tried[N_CLASSES] = {0}, siconos_valid[N_CLASSES] = {0};
    double z_star[N_MAX];
    for (int t = 0; t < 2400; t++) {
        int cls = t % N_CLASSES, n = 1 + (int)(ipx_rng_next(&rng) % 40);
        random_matrix(cls, n, &rng);
        planted_q(n, &rng, z_star);
        tried[cls]++;
        double tol = 1e-9 * scale(n);
        int ours = lemke(n, ipx_lemke_default_max_pivots(n), NULL) == IPX_OK && violation(n, z) <= tol;
        solved[cls] += ours;
        int info = ipx_siconos_lexicolemke(n, M, q, zs, ws);
        int reference = info == 0 && violation(n, zs) <= tol; /* Siconos sometimes claims garbage */
        siconos_valid[cls] += reference;
        ENSURE(ours || !reference); /* never fails where the reference succeeds */
        if (!ours) continue;
        if (cls == SPD || cls == P_MATRIX) /* unique solution: the planted one */
            for (int i = 0; i < n; i++) ENSURE_NEAR(z[i], z_star[i], 1e-8 * scale(n));
        if (cls == PSD_RANK_DEFICIENT) { /* w = Mz + q is unique for a symmetric PSD M */
            for (int i = 0; i < n; i++) {
                double wi = q[i], w_star = q[i];
                for (int j = 0; j < n; j++) wi += M[i + n * j] * z[j], w_star += M[i + n * j] * z_star[j];
                ENSURE_NEAR(wi, w_star, 1e-8 * scale(n));
            }
        }
    }
    for (int c = 0; c < N_CLASSES; c++) {
        printf("  class %d: ours solved %d / %d, Siconos valid on %d\n", c, solved[c], tried[c], siconos_valid[c]);
        ENSURE(solved[c] == tried[c]); /* every planted problem has a solution */
    }
}

static void test_degenerate_ties_terminate_with_a_solution(void)
{
    /* M = ones (rank 1), q = -1 everywhere: every ratio ties at every step */
    for (int n = 2; n <= 30; n += 7) {
        for (int i = 0; i < n * n; i++) M[i] = 1.0;
        for (int i = 0; i < n; i++) q[i] = -1.0;
        ENSURE(lemke(n, ipx_lemke_default_max_pivots(n), NULL) == IPX_OK);
        ENSURE(violation(n, z) <= 1e-12);
    }
    /* duplicated rows and columns (two identical contacts), zeros in q */
    const double base[9] = {2, 1, 0, 1, 2, 1, 0, 1, 2};
    memset(M, 0, sizeof(double) * 36);
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) {
            int bi = i < 3 ? i : 0, bj = j < 3 ? j : 0; /* row/column 3 copies 0 */
            M[i + 4 * j] = base[bi + 3 * bj];
        }
    q[0] = -1, q[1] = 0, q[2] = -1, q[3] = -1;
    ENSURE(lemke(4, 200, NULL) == IPX_OK);
    ENSURE(violation(4, z) <= 1e-12);
    /* a zero row and column whose q is non-negative: that variable stays out */
    memset(M, 0, sizeof(double) * 9);
    M[0] = 1, M[8] = 1;
    q[0] = -1, q[1] = 0, q[2] = -2;
    ENSURE(lemke(3, 200, NULL) == IPX_OK);
    ENSURE(violation(3, z) <= 1e-12);
}

static void test_infeasible_problems_end_on_a_ray(void)
{
    M[0] = -1.0, q[0] = -1.0; /* w = -z - 1 < 0 for every z >= 0 */
    z[0] = 7.0;
    ENSURE(lemke(1, 100, NULL) == IPX_ERR_LCP_RAY);
    ENSURE(z[0] == 0.0);
    memset(M, 0, sizeof(double) * 9); /* M = 0 with a negative q: w = q */
    q[0] = -1, q[1] = 1, q[2] = 0;
    ENSURE(lemke(3, 100, NULL) == IPX_ERR_LCP_RAY);
    M[0] = 0, M[1] = 1, M[2] = -1, M[3] = 0; /* skew (PSD): w1 = -z2 - 1 */
    q[0] = -1, q[1] = -1;
    ENSURE(lemke(2, 100, NULL) == IPX_ERR_LCP_RAY);
}

static void test_pivot_limit_is_reported(void)
{
    M[0] = 2, M[1] = 1, M[2] = 1, M[3] = 2;
    q[0] = -5, q[1] = -6;
    int pivots = 0;
    ENSURE(lemke(2, 1, &pivots) == IPX_ERR_LCP_PIVOTS);
    ENSURE(pivots == 1);
    ENSURE(z[0] == 0.0 && z[1] == 0.0);
}

static void test_bad_input_is_rejected(void)
{
    M[0] = 1.0, q[0] = NAN;
    ENSURE(lemke(1, 10, NULL) == IPX_ERR_INPUT);
    q[0] = -1.0, M[0] = INFINITY;
    ENSURE(lemke(1, 10, NULL) == IPX_ERR_INPUT);
    ENSURE(ipx_lemke(0, M, q, z, w, 10, dwork, iwork, NULL) == IPX_ERR_INPUT);
}

int main(void)
{
    RUN(test_two_by_two_interior_solution);
    RUN(test_three_by_three_with_one_inactive_row);
    RUN(test_nonnegative_q_is_solved_by_zero_without_pivots);
    RUN(test_random_corpus_agrees_with_planted_solutions_and_siconos);
    RUN(test_degenerate_ties_terminate_with_a_solution);
    RUN(test_infeasible_problems_end_on_a_ray);
    RUN(test_pivot_limit_is_reported);
    RUN(test_bad_input_is_rejected);
    return ipx_test_exit();
}
