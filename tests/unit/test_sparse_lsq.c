/* PLUS's sparse minimum-norm solve (core/src/numerics/sparse_lsq.c, SuiteSparseQR) against the dense
   path: on PLUS's own systems (Table 1 rows: velocity, sliding friction, prescribed normal) of
   bins and towers of boxes (tests/support/pile_gen.h; W singular wherever boxes touch face on
   face) and of random piles, every answer the sparse path gives equals the dense
   ipx_plus_lsq's and LAPACK's dgelsy (ipx_lsq_min_norm) to 1e-9 relative, with the same rank,
   wherever dgelsy and the SVD (dgelsd) agree to 1e-12; on sparse rank-deficient systems J D J^T the same holds
   for consistent ones (the sparse path answers most of them; it declines those with rows near
   the rank threshold), and it declines inconsistent ones (whose
   least-squares answer it does not compute) instead of answering wrongly. PLUS itself, whose
   large systems go the sparse way, keeps its promises (the invariant checker: no energy gain,
   nothing approaching, friction against the slip) on bins and towers of 48 and 64 contacts,
   and gives the impulses it gives with the sparse path off (sparse_min = 0) to 1e-9 wherever
   neither run spent its cost bound. Within an impact the sparse path stops being offered once it
   has declined IPX_PLUS_SPARSE_GIVE_UP systems more than it answered (seen by the observer). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lapacke.h>

#include "ensure.h"
#include "impax/impax.h"
#include "impax/plus.h"
#include "model_test.h"
#include "pile_gen.h"
#include "plus_table1.h"
#include "problem_gen.h"
#include "models/plus/plus_probe.h"
#include "numerics/sparse_lsq.h"
#include "sparse_scenes.h"
#include "stack_scenes.h"

#define RCOND 1e-11
#define PI 3.14159265358979323846

typedef struct solvers {
    void *state; /* SuiteSparse's */
    double *A, *x, *y, *z, *work;
    int *iwork;
    long answered, declined, ill_conditioned;
    double worst; /* largest difference / largest entry seen */
} solvers;

static solvers make_solvers(int m)
{
    const size_t mm = (size_t)m;
    solvers s = {.state = malloc(ipx_sparse_state_bytes()),
                 .A = malloc(sizeof(double) * mm * mm),
                 .x = malloc(sizeof(double) * mm),
                 .y = malloc(sizeof(double) * mm),
                 .z = malloc(sizeof(double) * mm),
                 .work = malloc(sizeof(double) * (ipx_lsq_work_doubles(m, m) + 8 * mm + mm * mm)),
                 .iwork = malloc(sizeof(int) * mm)};
    ipx_sparse_begin(s.state);
    return s;
}

static void free_solvers(solvers *s)
{
    ipx_sparse_end(s->state);
    free(s->state), free(s->A), free(s->x), free(s->y), free(s->z), free(s->work), free(s->iwork);
}

/* Relative difference of x and y (m entries). */
static double difference(int m, const double *x, const double *y)
{
    double diff = 0.0, size = 0.0;
    for (int j = 0; j < m; j++) {
        diff = fmax(diff, fabs(x[j] - y[j]));
        size = fmax(size, fmax(fabs(x[j]), fabs(y[j])));
    }
    return size > 0.0 ? diff / size : diff;
}

/* x = A^+ w by LAPACK's SVD (dgelsd, the same relative rank rule), into s->z; its rank. */
static int svd_solve(solvers *s, int m, const double *B, const double *w)
{
    lapack_int rank = -1;
    double *sv = malloc(sizeof(double) * (size_t)m);
    memcpy(s->A, B, sizeof(double) * (size_t)m * (size_t)m);
    memcpy(s->z, w, sizeof(double) * (size_t)m);
    ENSURE(LAPACKE_dgelsd(LAPACK_COL_MAJOR, m, m, 1, s->A, m, s->z, m, sv, RCOND, &rank) == 0);
    free(sv);
    return (int)rank;
}

/* The sparse answer (if any) against the dense solvers' (dgelsy and ipx_plus_lsq), where the
   QR-based dgelsy and the SVD-based dgelsd agree to 1e-12 (elsewhere the system is too
   ill-conditioned for any solver to be the reference at 1e-9: counted, not compared). Returns
   1 if the sparse path answered. */
static int compare(solvers *s, int m, const double *B, const double *w, const char *what)
{
    int rank_sparse = -1, rank_dense = -2, rank_plus = -3;
    if (ipx_sparse_min_norm(s->state, m, B, w, RCOND, 1.0, s->x, &rank_sparse) != IPX_OK) {
        s->declined++;
        return 0;
    }
    s->answered++;
    const size_t mm = (size_t)m;
    memcpy(s->A, B, sizeof(double) * mm * mm);
    memcpy(s->y, w, sizeof(double) * mm);
    ENSURE(ipx_lsq_min_norm(m, m, s->A, s->y, RCOND, s->work, s->iwork, &rank_dense) == IPX_OK);
    if (svd_solve(s, m, B, w) != rank_dense || difference(m, s->y, s->z) > 1e-12) {
        s->ill_conditioned++;
        return 1;
    }
    memcpy(s->A, B, sizeof(double) * mm * mm);
    memcpy(s->z, w, sizeof(double) * mm);
    ENSURE(ipx_plus_lsq(m, m, s->A, s->z, RCOND, s->work, s->iwork, &rank_plus) == IPX_OK);
    ENSURE(rank_plus == rank_dense);
    const double d = fmax(difference(m, s->x, s->y), difference(m, s->x, s->z));
    s->worst = fmax(s->worst, d);
    if (d > 1e-9 || rank_sparse != rank_dense)
        fprintf(stderr, "  %s m = %d: sparse and dense differ by %.3g relative, ranks %d / %d\n",
                what, m, d, rank_sparse, rank_dense);
    ENSURE(d <= 1e-9);
    ENSURE(rank_sparse == rank_dense);
    return 1;
}

/* PLUS's systems of one problem: random states, a few sliding directions scanned as the
   direction search does. */
static void plus_systems(solvers *s, int k, const double *W, const double *v, ipx_rng *rng,
                         const char *what)
{
    ipx_test_table1_arrays t = ipx_test_table1_alloc(k);
    int *st = t.st;
    double *phi = t.phi;
    for (int round = 0; round < 4; round++) {
        for (int c = 0; c < k; c++) {
            const int u = (int)(ipx_rng_next(rng) % 10u);
            st[c] = u == 0   ? T1_OFF
                    : u <= 4 ? T1_ROLLING
                    : u <= 7 ? T1_SLIDING
                    : u == 8 ? T1_EXPANDING
                             : T1_FRICTIONLESS;
            if (round == 0) st[c] = T1_ROLLING; /* every contact compressing and rolling */
            phi[c] = ipx_rng_uniform(rng, 0.0, 2.0 * PI);
        }
        const double mu = ipx_rng_uniform(rng, 0.1, 1.0);
        const int imp = (int)(ipx_rng_next(rng) % (uint64_t)k);
        for (int a = 0; a < 4; a++) {
            phi[imp] = 2.0 * PI * a / 4;
            const int m = ipx_test_table1(k, W, v, st, phi, mu, t.B, t.w, t.pos, t.col);
            compare(s, m, t.B, t.w, what);
        }
    }
    ipx_test_table1_free(&t);
}

static void visit_plus_systems(int k, const double *W, const double *v, ipx_rng *rng,
                               const char *what, void *user)
{
    plus_systems(user, k, W, v, rng, what);
}

static void test_plus_systems_of_piles_agree_with_the_dense_path(void)
{
    ipx_rng rng;
    ipx_rng_seed(&rng, 91);
    solvers s = make_solvers(3 * 80);
    ipx_test_sparse_scenes(&rng, visit_plus_systems, &s);
    printf("  PLUS systems: %ld answered (worst difference %.2g; %ld too ill-conditioned to "
           "compare), %ld left "
           "to the dense path\n",
           s.answered, s.worst, s.ill_conditioned, s.declined);
    ENSURE(s.answered > 3 * s.declined); /* the sparse path is what these systems take */
    free_solvers(&s);
}

/* A = J D J^T: J n x q (q < n) with 3 non-zeros per row, D positive diagonal: sparse, PSD,
   rank q at most. b = A x0 (consistent) or that plus noise. */
static void sparse_deficient(ipx_rng *rng, int n, int q, int consistent, double *A, double *b)
{
    double *J = calloc((size_t)n * (size_t)q, sizeof(double)),
           *d = malloc(sizeof(double) * (size_t)q);
    double *x0 = malloc(sizeof(double) * (size_t)n);
    for (int i = 0; i < n; i++)
        for (int e = 0; e < 3; e++)
            J[i + (size_t)n * (ipx_rng_next(rng) % (uint64_t)q)] = ipx_rng_normal(rng);
    for (int l = 0; l < q; l++) d[l] = exp(ipx_rng_uniform(rng, -2.0, 2.0));
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) {
            double s = 0.0;
            for (int l = 0; l < q; l++) s += J[i + (size_t)n * l] * d[l] * J[j + (size_t)n * l];
            A[i + (size_t)n * j] = s;
        }
    for (int j = 0; j < n; j++) x0[j] = ipx_rng_normal(rng);
    for (int i = 0; i < n; i++) {
        double s = 0.0;
        for (int j = 0; j < n; j++) s += A[i + (size_t)n * j] * x0[j];
        b[i] = s + (consistent ? 0.0 : ipx_rng_normal(rng));
    }
    free(J), free(d), free(x0);
}

static void test_sparse_rank_deficient_systems_agree_with_dgelsy(void)
{
    ipx_rng rng;
    ipx_rng_seed(&rng, 92);
    const int max_n = 200;
    solvers s = make_solvers(max_n);
    double *A = malloc(sizeof(double) * max_n * max_n), *b = malloc(sizeof(double) * max_n);
    int inconsistent_answered = 0, consistent = 0, consistent_answered = 0;
    for (int trial = 0; trial < 40; trial++) {
        const int n = 40 + (int)(ipx_rng_next(&rng) % 161u),
                  q = n / 2 + (int)(ipx_rng_next(&rng) % (uint64_t)(n / 2));
        const int is_consistent = trial % 4 != 3;
        sparse_deficient(&rng, n, q, is_consistent, A, b);
        const int answered = compare(&s, n, A, b, "J D J^T");
        consistent += is_consistent;
        consistent_answered += is_consistent && answered;
        inconsistent_answered += !is_consistent && answered;
    }
    printf("  J D J^T: %ld answered (worst difference from dgelsy %.2g; %ld too ill-conditioned to "
           "compare), "
           "consistent answered %d of %d, inconsistent answered %d\n",
           s.answered, s.worst, s.ill_conditioned, consistent_answered, consistent,
           inconsistent_answered);
    ENSURE(inconsistent_answered == 0);
    ENSURE(2 * consistent_answered > consistent); /* the rest: kept rows near the rank threshold */
    free(A), free(b);
    free_solvers(&s);
}

/* One impact with the sparse path (defaults) and without it (sparse_min = 0): the promises
   hold on the first; where neither spent its cost bound (max_solves: the plastic finish then
   ends the impact wherever the budget ran out), the impulses agree to 1e-9 relative while the
   two make the same solves. Where the impending-slip solves took other steps (another count of
   solves), each path's directions are consistent with their end slips only to the model's
   angle tolerance, PLUS_CONSISTENT_ANGLE = 1e-7 rad (plus_consistent, plus_probe.c), and friction
   on the cone (mu <= 1 in these piles) moves with its direction by up to that fraction of the
   largest impulse: the impulses are compared at that scale. Returns 1 if they were compared. */
static int sparse_against_dense(const ipx_problem *p, const char *what)
{
    ipx_params sparse = ipx_test_params("plus", ""),
               dense = ipx_test_params("plus", "sparse_min=0");
    ipx_result rs, rd;
    ENSURE(ipx_solve(&sparse, p, ipx_test_workspace(&sparse, p->k), &rs) == IPX_OK);
    ENSURE(ipx_test_check_kinds(p, &rs, sparse.model->promises(sparse.value),
                                sparse.value[IPX_PLUS_EPS_V]));
    ENSURE(ipx_solve(&dense, p, ipx_test_workspace(&dense, p->k), &rd) == IPX_OK);
    if ((rs.counts.limits_hit | rd.counts.limits_hit) & IPX_PLUS_HIT_MAX_SOLVES) return 0;
    const double d = difference(3 * p->k, rs.impulse, rd.impulse),
                 tol = rs.counts.lsq_solves == rd.counts.lsq_solves ? 1e-9 : PLUS_CONSISTENT_ANGLE;
    if (d > 1e-9)
        fprintf(stderr, "  %s k = %d: impulses differ by %.3g relative (%d / %d solves)\n", what,
                p->k, d, rs.counts.lsq_solves, rd.counts.lsq_solves);
    ENSURE(d <= tol);
    return 1;
}

static void test_plus_on_large_piles_is_the_dense_answer_and_keeps_its_promises(void)
{
    ipx_rng rng;
    ipx_rng_seed(&rng, 93);
    int impacts = 0, compared = 0;
    for (int kind = 0; kind < 2; kind++)
        for (int motion = 0; motion < 2; motion++)
            for (int k = 48; k <= 48 + 16 * motion; k += 16) {
                ipx_pile_options o = ipx_pile_default_options(kind ? IPX_PILE_STACK : IPX_PILE_BIN);
                o.motion = motion ? IPX_PILE_CHURNING : IPX_PILE_SETTLED;
                ipx_pile pile;
                ENSURE(ipx_pile_make(&pile, k, &o, &rng) == 0);
                compared += sparse_against_dense(&pile.problem, kind ? "towers" : "bin");
                impacts++;
                ipx_pile_free(&pile);
            }
    static ipx_scene tower;
    for (int n = 12; n <= 13; n++) {
        ipx_stack_options o = ipx_stack_default_options();
        ipx_scene_box_tower(&tower, n, 4, &o, &rng);
        compared += sparse_against_dense(&tower.problem, "box tower");
        impacts++;
    }
    printf("  %d impacts of 48 to 64 contacts, promises kept; %d within their cost bound, the same "
           "impulses\n",
           impacts, compared);
    ENSURE(2 * compared >= impacts);
}

/* What the observer saw of the sparse path over an impact: the largest excess of declined over
   answered systems after any interval, and the last counts. */
typedef struct sparse_seen {
    int worst_excess, answered, declined;
} sparse_seen;

static void watch_sparse(const ipx_plus_interval *iv, void *user)
{
    sparse_seen *s = user;
    const int excess = iv->sparse_declined - iv->sparse_answered;
    s->worst_excess = excess > s->worst_excess ? excess : s->worst_excess;
    s->answered = iv->sparse_answered;
    s->declined = iv->sparse_declined;
}

/* With sparse_min = 1 every system is offered, and the small dense ones (more than a quarter of
   their entries non-zero) are declined: within an impact the path is offered only until it has
   declined IPX_PLUS_SPARSE_GIVE_UP systems more than it answered, and the answer keeps its
   promises. */
static void test_sparse_path_is_given_up_where_it_declines(void)
{
    ipx_rng rng;
    ipx_rng_seed(&rng, 17);
    ipx_params par = ipx_test_params("plus", "sparse_min=1");
    static ipx_scene scene;
    int given_up = 0;
    for (int trial = 0; trial < 6; trial++) {
        const ipx_gen_options gen = ipx_gen_default_options();
        ipx_gen_random(&scene, 8 + 4 * trial, &gen, &rng);
        const ipx_problem *p = &scene.problem;
        sparse_seen seen = {0, 0, 0};
        ipx_result r;
        ENSURE(ipx_plus_trace(p, par.value, ipx_test_workspace(&par, p->k), watch_sparse, &seen,
                              &r) == IPX_OK);
        ENSURE(
            ipx_test_check_kinds(p, &r, par.model->promises(par.value), par.value[IPX_PLUS_EPS_V]));
        ENSURE(seen.worst_excess <= IPX_PLUS_SPARSE_GIVE_UP);
        given_up += seen.declined - seen.answered == IPX_PLUS_SPARSE_GIVE_UP;
        printf("  k = %d: %d min-norm solves, the sparse path answered %d and declined %d\n", p->k,
               r.counts.lsq_solves, seen.answered, seen.declined);
    }
    ENSURE(given_up >= 4);
}

int main(void)
{
    RUN(test_plus_systems_of_piles_agree_with_the_dense_path);
    RUN(test_sparse_rank_deficient_systems_agree_with_dgelsy);
    RUN(test_plus_on_large_piles_is_the_dense_answer_and_keeps_its_promises);
    RUN(test_sparse_path_is_given_up_where_it_declines);
    return ipx_test_exit();
}
