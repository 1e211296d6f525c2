/* The small dense min-norm solver of PLUS (ipx_plus_lsq) agrees with LAPACK's dgelsy
   (ipx_lsq_min_norm) on square and rectangular systems of full and deficient rank, consistent
   or not, and its solution is the minimum-norm one (orthogonal to the null space); so does its
   blocked path (dgeqp3, from LSQ_COD_BLOCKED_MIN = 128 columns) on systems around the switch. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ensure.h"
#include "impax/impax.h"
#include "impax/plus.h"
#include "low_rank.h"

#define MAXN 48

static double A[MAXN * MAXN], A1[MAXN * MAXN], A2[MAXN * MAXN];
static double b1[MAXN], b2[MAXN], work[64 * 4 * MAXN + MAXN * MAXN];
static int iwork[MAXN];

/* A = L R with L m x r, R r x n (rank r), entries N(0, 1); b = A x0 (+ noise if inconsistent). */
static void random_system(ipx_rng *rng, int m, int n, int r, int consistent, double *b)
{
    double L[MAXN * MAXN], R[MAXN * MAXN], x0[MAXN];
    ipx_gen_low_rank(rng, m, n, r, A, L, R);
    for (int j = 0; j < n; j++) x0[j] = ipx_rng_normal(rng);
    for (int i = 0; i < m; i++) {
        double s = 0.0;
        for (int j = 0; j < n; j++) s += A[i + m * j] * x0[j];
        b[i] = s + (consistent ? 0.0 : ipx_rng_normal(rng));
    }
}

/* Solves the same system (A1, b1) = (A2, b2) by dgelsy and by ipx_plus_lsq, expects rank r of
   both; returns max |x1 - x2| / max |x1|. */
static double both_solvers(int m, int n, int r, double *A1, double *b1, double *A2, double *b2,
                           double *work, int *iwork)
{
    int rank1 = -1, rank2 = -2;
    ENSURE(ipx_lsq_min_norm(m, n, A1, b1, 1e-11, work, iwork, &rank1) == IPX_OK);
    ENSURE(ipx_plus_lsq(m, n, A2, b2, 1e-11, work, iwork, &rank2) == IPX_OK);
    ENSURE(rank1 == r && rank2 == r);
    double scale = 0.0, diff = 0.0;
    for (int j = 0; j < n; j++) {
        scale = fmax(scale, fabs(b1[j]));
        diff = fmax(diff, fabs(b1[j] - b2[j]));
    }
    return diff / scale;
}

static void test_agrees_with_dgelsy(void)
{
    ipx_rng rng;
    ipx_rng_seed(&rng, 48);
    int worst_case = -1;
    double worst = 0.0;
    for (int trial = 0; trial < 3000; trial++) {
        int m = 1 + (int)(ipx_rng_next(&rng) % MAXN);
        int n = trial % 3 == 0 ? m : 1 + (int)(ipx_rng_next(&rng) % MAXN);
        int full = m < n ? m : n,
            r = trial % 2 ? full : 1 + (int)(ipx_rng_next(&rng) % (uint64_t)full);
        double b[MAXN];
        random_system(&rng, m, n, r, trial % 5 != 0, b);
        memcpy(A1, A, sizeof(double) * (size_t)(m * n));
        memcpy(A2, A, sizeof(double) * (size_t)(m * n));
        memset(b1, 0, sizeof b1);
        memset(b2, 0, sizeof b2);
        memcpy(b1, b, sizeof(double) * (size_t)m);
        memcpy(b2, b, sizeof(double) * (size_t)m);
        const double d = both_solvers(m, n, r, A1, b1, A2, b2, work, iwork);
        if (d > worst) worst = d, worst_case = trial;
    }
    /* random rank-r factors: condition numbers up to ~1e4, so 1e-9 leaves room for both */
    ENSURE(worst < 1e-9);
    printf("  largest relative difference %.2e (trial %d)\n", worst, worst_case);
}

static void test_solution_is_minimum_norm(void)
{
    /* x = A^+ b lies in the row space: for a null vector z of A (A z = 0), z . x = 0 */
    ipx_rng rng;
    ipx_rng_seed(&rng, 7);
    for (int trial = 0; trial < 200; trial++) {
        int n = 2 + trial % 20, m = n, r = 1 + (int)(ipx_rng_next(&rng) % (uint64_t)(n - 1));
        double b[MAXN];
        random_system(&rng, m, n, r, 1, b);
        memcpy(A2, A, sizeof(double) * (size_t)(m * n));
        memcpy(b2, b, sizeof(double) * (size_t)m);
        ENSURE(ipx_plus_lsq(m, n, A2, b2, 1e-11, work, iwork, NULL) == IPX_OK);
        /* residual of the consistent system, and orthogonality to null vectors found as the
           min-norm solution's complement: project random vectors onto null(A) via A^+ A */
        double res = 0.0, xn = 0.0;
        for (int i = 0; i < m; i++) {
            double s = -b[i];
            for (int j = 0; j < n; j++) s += A[i + m * j] * b2[j];
            res = fmax(res, fabs(s));
        }
        for (int j = 0; j < n; j++) xn = fmax(xn, fabs(b2[j]));
        ENSURE(res < 1e-9 * fmax(1.0, xn));
        double z[MAXN], Az[MAXN];
        for (int j = 0; j < n; j++) z[j] = ipx_rng_normal(&rng);
        for (int i = 0; i < m; i++) {
            Az[i] = 0.0;
            for (int j = 0; j < n; j++) Az[i] += A[i + m * j] * z[j];
        }
        memcpy(A2, A, sizeof(double) * (size_t)(m * n));
        ENSURE(ipx_plus_lsq(m, n, A2, Az, 1e-11, work, iwork, NULL) == IPX_OK);
        double dot = 0.0, zn = 0.0; /* z - A^+ A z is in null(A) */
        for (int j = 0; j < n; j++) {
            dot += (z[j] - Az[j]) * b2[j];
            zn = fmax(zn, fabs(z[j] - Az[j]));
        }
        ENSURE(fabs(dot) < 1e-9 * fmax(1.0, zn * xn * n));
    }
}

/* A = L R (m x n, rank r, N(0, 1) factors) and b = A x0 (+ noise if inconsistent), allocated. */
static double *large_system(ipx_rng *rng, int m, int n, int r, int consistent, double **b)
{
    double *L = malloc(sizeof(double) * (size_t)(m * r)),
           *R = malloc(sizeof(double) * (size_t)(r * n));
    double *M = calloc((size_t)(m * n), sizeof(double)), *x0 = malloc(sizeof(double) * (size_t)n);
    *b = calloc((size_t)(m > n ? m : n), sizeof(double));
    for (int i = 0; i < m * r; i++) L[i] = ipx_rng_normal(rng);
    for (int i = 0; i < r * n; i++) R[i] = ipx_rng_normal(rng);
    for (int j = 0; j < n; j++)
        for (int l = 0; l < r; l++)
            for (int i = 0; i < m; i++) M[i + m * j] += L[i + m * l] * R[l + r * j];
    for (int j = 0; j < n; j++) x0[j] = ipx_rng_normal(rng);
    for (int i = 0; i < m; i++) {
        double s = 0.0;
        for (int j = 0; j < n; j++) s += M[i + m * j] * x0[j];
        (*b)[i] = s + (consistent ? 0.0 : ipx_rng_normal(rng));
    }
    free(L), free(R), free(x0);
    return M;
}

static void test_blocked_path_agrees_with_dgelsy(void)
{
    static const int shape[][2] = {{127, 127}, {128, 128}, {200, 200}, {260, 140}, {140, 200}};
    ipx_rng rng;
    ipx_rng_seed(&rng, 128);
    double worst = 0.0;
    for (size_t s = 0; s < sizeof shape / sizeof shape[0]; s++)
        for (int kind = 0; kind < 4; kind++) {
            const int m = shape[s][0], n = shape[s][1], full = m < n ? m : n,
                      r = kind < 2 ? full : full / 2;
            double *b, *M = large_system(&rng, m, n, r, kind % 2 == 0, &b);
            const size_t rows = (size_t)(m > n ? m : n),
                         wn = ipx_lsq_work_doubles(m, n) + ipx_plus_lsq_work_doubles(m, n);
            double *M2 = malloc(sizeof(double) * (size_t)(m * n)),
                   *b2 = malloc(sizeof(double) * rows);
            double *w = malloc(sizeof(double) * wn);
            int *iw = malloc(sizeof(int) * (size_t)n);
            memcpy(M2, M, sizeof(double) * (size_t)(m * n));
            memcpy(b2, b, sizeof(double) * rows);
            worst = fmax(worst, both_solvers(m, n, r, M, b, M2, b2, w, iw));
            free(M), free(M2), free(b), free(b2), free(w), free(iw);
        }
    ENSURE(worst < 1e-9); /* as above: the same bound as the small systems */
    printf("  largest relative difference %.2e\n", worst);
    /* a NaN is refused before LAPACK sees it, as on the unblocked path */
    double *b, *M = large_system(&rng, 130, 130, 130, 1, &b);
    double *w = malloc(sizeof(double) * ipx_plus_lsq_work_doubles(130, 130));
    int iw[130];
    M[5 + 130 * 77] = NAN;
    ENSURE(ipx_plus_lsq(130, 130, M, b, 1e-11, w, iw, NULL) == IPX_ERR_NUMERIC);
    free(M), free(b), free(w);
}

int main(void)
{
    RUN(test_agrees_with_dgelsy);
    RUN(test_blocked_path_agrees_with_dgelsy);
    RUN(test_solution_is_minimum_norm);
    return ipx_test_exit();
}
