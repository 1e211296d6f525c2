/* The sparse minimum-norm solve's kept analysis (core/src/numerics/sparse_lsq.c): a state that
   keeps the symbolic analysis of the last pattern and reuses it gives, solve by solve, the
   answer of a fresh state (its own analysis) and of LAPACK's dgelsy (ipx_lsq_min_norm) to
   10 m eps cond, cond = sigma_1 / sigma_r of the system's r kept rows (LAPACK's SVD, dgesdd),
   on sequences of PLUS's Table 1 systems as a Newton solve makes them: one pattern, the
   directions of the sliding contacts turned a little at each step, one of them onto an axis
   (an entry exactly 0: a pattern inside the kept one). It answers where the fresh state does,
   and it analyses once per sequence, not once per step. A rank-deficient system followed by a
   full-rank one of the same pattern (SPQR keeps the first one's map of R's columns) is
   answered correctly, on a fresh analysis. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lapacke.h>

#include "ensure.h"
#include "impax/impax.h"
#include "numerics/sparse_lsq.h"
#include "plus_table1.h"
#include "sparse_scenes.h"

#define RCOND 1e-11
#define PI 3.14159265358979323846
#define STEPS 5 /* systems per Newton-like sequence */

typedef struct bench {
    void *kept, *fresh; /* SuiteSparse states: one kept over a sequence, one begun per solve */
    double *A, *sv, *y, *x_kept, *x_fresh, *work;
    int *iwork;
    long solves, answered, compared;
    double worst; /* largest difference / (10 m eps cond |x|) seen */
} bench;

static bench make_bench(int m)
{
    const size_t mm = (size_t)m;
    bench b = {.kept = malloc(ipx_sparse_state_bytes()),
               .fresh = malloc(ipx_sparse_state_bytes()),
               .A = malloc(sizeof(double) * mm * mm),
               .sv = malloc(sizeof(double) * mm),
               .y = malloc(sizeof(double) * mm),
               .x_kept = malloc(sizeof(double) * mm),
               .x_fresh = malloc(sizeof(double) * mm),
               .work = malloc(sizeof(double) * (ipx_lsq_work_doubles(m, m) + 8 * mm + mm * mm)),
               .iwork = malloc(sizeof(int) * mm)};
    return b;
}

static void free_bench(bench *b)
{
    free(b->kept), free(b->fresh), free(b->A), free(b->sv), free(b->y), free(b->x_kept);
    free(b->x_fresh), free(b->work), free(b->iwork);
}

static double max_abs(int m, const double *x)
{
    double a = 0.0;
    for (int j = 0; j < m; j++) a = fmax(a, fabs(x[j]));
    return a;
}

static double max_diff(int m, const double *x, const double *y)
{
    double d = 0.0;
    for (int j = 0; j < m; j++) d = fmax(d, fabs(x[j] - y[j]));
    return d;
}

/* sigma_1 / sigma_rank of the m x m B (LAPACK's SVD). */
static double kept_condition(bench *b, int m, const double *B, int rank)
{
    memcpy(b->A, B, sizeof(double) * (size_t)m * (size_t)m);
    ENSURE(LAPACKE_dgesdd(LAPACK_COL_MAJOR, 'N', m, m, b->A, m, b->sv, NULL, 1, NULL, 1) == 0);
    return rank > 0 ? b->sv[0] / b->sv[rank - 1] : 1.0;
}

/* One system through the kept state, a fresh state and dgelsy; the sparse answers against each
   other and against dgelsy's to 10 m eps cond. Returns 1 if the kept state answered. */
static int compare(bench *b, int m, const double *B, const double *w, const char *what)
{
    int rank_kept = -1, rank_fresh = -2, rank_dense = -3;
    const int kept =
        ipx_sparse_min_norm(b->kept, m, B, w, RCOND, 1.0, b->x_kept, &rank_kept) == IPX_OK;
    ipx_sparse_begin(b->fresh);
    const int fresh =
        ipx_sparse_min_norm(b->fresh, m, B, w, RCOND, 1.0, b->x_fresh, &rank_fresh) == IPX_OK;
    ipx_sparse_end(b->fresh);
    b->solves++;
    ENSURE(kept == fresh); /* the same vouching on the same system */
    if (!kept || !fresh) return kept;
    b->answered++;
    memcpy(b->A, B, sizeof(double) * (size_t)m * (size_t)m);
    memcpy(b->y, w, sizeof(double) * (size_t)m);
    ENSURE(ipx_lsq_min_norm(m, m, b->A, b->y, RCOND, b->work, b->iwork, &rank_dense) == IPX_OK);
    ENSURE(rank_kept == rank_fresh);
    ENSURE(rank_kept == rank_dense);
    const double bound = 10.0 * m * DBL_EPSILON * kept_condition(b, m, B, rank_dense) *
                         fmax(max_abs(m, b->y), DBL_MIN);
    const double d = fmax(max_diff(m, b->x_kept, b->x_fresh), max_diff(m, b->x_kept, b->y));
    b->worst = fmax(b->worst, d / bound);
    b->compared++;
    if (d > bound)
        fprintf(stderr, "  %s m = %d: kept analysis differs by %.3g, bound %.3g\n", what, m, d,
                bound);
    ENSURE(d <= bound);
    return 1;
}

/* A Newton-like sequence of PLUS's systems of one problem: random contact states, then STEPS
   systems whose sliding directions turn by up to 0.1 rad a step; at step 2 one sliding contact's
   direction lies on an axis (phi = 0: its second friction row's normal entry is exactly 0). */
static void sequence(bench *b, int k, const double *W, const double *v, ipx_rng *rng,
                     const char *what)
{
    ipx_test_table1_arrays t = ipx_test_table1_alloc(k);
    int *st = t.st;
    double *phi = t.phi;
    int axis = -1;
    for (int c = 0; c < k; c++) {
        const int u = (int)(ipx_rng_next(rng) % 10u);
        st[c] = u == 0 ? T1_OFF : u <= 4 ? T1_ROLLING : u <= 8 ? T1_SLIDING : T1_EXPANDING;
        phi[c] = ipx_rng_uniform(rng, 0.2, 2.0 * PI - 0.2);
        if (st[c] == T1_SLIDING) axis = c;
    }
    const double mu = ipx_rng_uniform(rng, 0.1, 1.0);
    ipx_sparse_begin(b->kept);
    for (int step = 0; step < STEPS; step++) {
        for (int c = 0; c < k; c++) phi[c] += ipx_rng_uniform(rng, -0.1, 0.1);
        if (step == 2 && axis >= 0) phi[axis] = 0.0;
        const int m = ipx_test_table1(k, W, v, st, phi, mu, t.B, t.w, t.pos, t.col);
        compare(b, m, t.B, t.w, what);
    }
    const long analyses = ipx_sparse_analyses(b->kept);
    ipx_sparse_end(b->kept);
    /* one analysis, and one more for each return to full rank (none in these systems) */
    ENSURE(analyses == 1);
    ipx_test_table1_free(&t);
}

/* Two sequences of each problem. */
static void visit_sequences(int k, const double *W, const double *v, ipx_rng *rng, const char *what,
                            void *user)
{
    for (int s = 0; s < 2; s++) sequence(user, k, W, v, rng, what);
}

static void test_newton_sequences_reuse_one_analysis_and_agree_with_fresh_solves(void)
{
    ipx_rng rng;
    ipx_rng_seed(&rng, 94);
    bench b = make_bench(3 * 80);
    ipx_test_sparse_scenes(&rng, visit_sequences, &b);
    printf("  %ld systems in sequences of %d: %ld answered, %ld compared; worst difference %.2g "
           "of 10 m eps cond\n",
           b.solves, STEPS, b.answered, b.compared, b.worst);
    ENSURE(2 * b.answered > b.solves); /* these systems are the sparse path's */
    free_bench(&b);
}

/* A sparse n x n matrix of pattern P (diagonal, three more entries a row; rows 0 and 1 of one
   pattern) with random values; deficient: row 1 = 2 row 0, so its rank is n - 1. b = A x0. */
static void patterned(ipx_rng *pattern, ipx_rng *values, int n, int deficient, double *A, double *b)
{
    memset(A, 0, sizeof(double) * (size_t)n * (size_t)n);
    for (int i = 1; i < n; i++) {
        A[i + (size_t)n * i] = 4.0 + ipx_rng_uniform(values, 0.0, 1.0);
        for (int e = 0; e < 3; e++) {
            const size_t j = ipx_rng_next(pattern) % (uint64_t)n;
            A[i + n * j] += ipx_rng_uniform(values, -1.0, 1.0);
        }
    }
    for (int j = 0; j < n; j++) /* row 0: row 1's pattern */
        A[(size_t)n * j] = A[1 + (size_t)n * j] == 0.0 ? 0.0 : ipx_rng_uniform(values, 0.5, 1.0);
    if (deficient)
        for (int j = 0; j < n; j++) A[1 + (size_t)n * j] = 2.0 * A[(size_t)n * j];
    for (int i = 0; i < n; i++) {
        double s = 0.0;
        for (int j = 0; j < n; j++) s += A[i + (size_t)n * j] * (1.0 + 0.01 * j);
        b[i] = s;
    }
}

static void test_full_rank_after_deficient_of_one_pattern_is_answered(void)
{
    const int n = 60;
    bench b = make_bench(n);
    double *A = malloc(sizeof(double) * n * n), *rhs = malloc(sizeof(double) * n);
    ipx_rng values;
    ipx_rng_seed(&values, 95);
    ipx_sparse_begin(b.kept);
    for (int step = 0; step < 4; step++) {
        ipx_rng pattern; /* the same pattern at every step */
        ipx_rng_seed(&pattern, 96);
        patterned(&pattern, &values, n, step % 2 == 0, A, rhs);
        ENSURE(compare(&b, n, A, rhs, step % 2 == 0 ? "deficient" : "full rank"));
    }
    const long analyses = ipx_sparse_analyses(b.kept);
    ipx_sparse_end(b.kept);
    printf("  deficient, full, deficient, full: %ld analyses, worst difference %.2g of 10 m eps "
           "cond\n",
           analyses, b.worst);
    ENSURE(analyses == 3); /* the first system's, and one for each full-rank one after it */
    free(A), free(rhs);
    free_bench(&b);
}

int main(void)
{
    RUN(test_newton_sequences_reuse_one_analysis_and_agree_with_fresh_solves);
    RUN(test_full_rank_after_deficient_of_one_pattern_is_answered);
    return ipx_test_exit();
}
