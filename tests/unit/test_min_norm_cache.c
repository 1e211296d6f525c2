/* PLUS's minimum-norm solve with its factorisation cache (core/src/numerics/min_norm.c) gives the same
   answers as a fresh dense solve, LAPACK's dgelsy (ipx_lsq_min_norm) and ipx_plus_lsq, to
   1e-9 relative, on every path of the cache: one column changed (the direction search), a few
   columns changed in turn (several impending contacts), columns changed in the same two rows
   (split once, then combined), only the right-hand side changed, the
   same system again, and fresh systems (the dense path); on random systems of every rank, consistent or not, on
   PLUS systems (Table 1 rows: velocity, sliding friction, prescribed normal) of box stacks with
   4 contacts per interface (W singular: every interface redundant) and of random piles; and
   with a work array holding garbage, another size's cache or another rcond's; a cache begun
   for a new impact takes up nothing of the last one's. A base answer whose rounding bound is
   above the limit is refined where the base's factors lie far from the rank cut (a
   constructed cancellation, and a feedback island's system whose error lay along the null
   space), and goes to the dense path where they do not. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ensure.h"
#include "impax/impax.h"
#include "impax/plus.h"
#include "mathutil.h"
#include "min_norm_refine_data.h"
#include "numerics/min_norm.h"
#include "plus_table1.h"
#include "problem_gen.h"

#define MAXM 120
#define RCOND 1e-11
#define PI 3.14159265358979323846

static double work_mem[1 << 20];
static ipx_min_norm_cache cache; /* on work_mem */
static double fresh_work[64 * 4 * MAXM + MAXM * MAXM + 8 * MAXM];
static int iwork[MAXM], fresh_iwork[MAXM];
static double worst_seen;
static long solves, checked, ill_conditioned;
static long paths[4];     /* solves by ipx_min_norm_path */
static double worst_well; /* largest difference where the dense solvers agree to 1e-12 */

/* x against both fresh dense solvers' answers to B x = w (LAPACK's dgelsy, ipx_plus_lsq):
   *diff the larger of x's differences from them, *own theirs from each other, both relative to
   the answer's largest entry; returns ipx_plus_lsq's rank, dgelsy's in *r1. */
static int against_dense(int m, const double *B, const double *w, const double *x, double *diff,
                         double *own, int *r1)
{
    static double F[MAXM * MAXM], y1[MAXM], y2[MAXM];
    int r2 = -2;
    memcpy(F, B, sizeof(double) * (size_t)(m * m));
    memcpy(y1, w, sizeof(double) * (size_t)m);
    ENSURE(ipx_lsq_min_norm(m, m, F, y1, RCOND, fresh_work, fresh_iwork, r1) == IPX_OK);
    memcpy(F, B, sizeof(double) * (size_t)(m * m));
    memcpy(y2, w, sizeof(double) * (size_t)m);
    ENSURE(ipx_plus_lsq(m, m, F, y2, RCOND, fresh_work, fresh_iwork, &r2) == IPX_OK);
    double scale = 0.0, d = 0.0, d12 = 0.0;
    for (int j = 0; j < m; j++) {
        scale = fmax(scale, fabs(y1[j]));
        d = fmax(d, fmax(fabs(x[j] - y1[j]), fabs(x[j] - y2[j])));
        d12 = fmax(d12, fabs(y1[j] - y2[j]));
    }
    *diff = scale > 0.0 ? d / scale : d;
    *own = scale > 0.0 ? d12 / scale : d12;
    return r2;
}

/* x from the cached path against both fresh solvers; returns max |difference| / max |x|,
   scaled down where the system is ill-conditioned (below). */
static double solve_and_compare(int m, const double *B, const double *w, int *rank_cached)
{
    static double A[MAXM * MAXM], x[MAXM];
    memcpy(A, B, sizeof(double) * (size_t)(m * m));
    memcpy(x, w, sizeof(double) * (size_t)m);
    ENSURE(ipx_min_norm_solve(m, A, x, RCOND, &cache, iwork, rank_cached) == IPX_OK);
    paths[ipx_min_norm_path(m, &cache)]++;
    int r1 = -1;
    double diff, own;
    const int r2 = against_dense(m, B, w, x, &diff, &own, &r1);
    double rel = diff;
    /* the two dense solvers' own disagreement measures the system's conditioning: where 4
       times it is above 1e-9 no solver can promise 1e-9, and the cache is held to 4 times it */
    if (own < 1e-12) worst_well = fmax(worst_well, rel);
    if (4.0 * own > 1e-9) {
        ill_conditioned++;
        rel = rel * 1e-9 / (4.0 * own);
    }
    ENSURE(r2 == *rank_cached);
    solves++;
    worst_seen = fmax(worst_seen, diff);
    return rel;
}

static void check(int m, const double *B, const double *w, const char *what)
{
    int rank = -1;
    double rel = solve_and_compare(m, B, w, &rank);
    checked++;
    if (!(rel < 1e-9))
        printf("  %s: m = %d, rank %d, relative difference %.3e\n", what, m, rank, rel);
    ENSURE(rel < 1e-9);
}

/* ---- random systems -------------------------------------------------------------------- */

static void random_matrix(ipx_rng *rng, int m, int r, double *B)
{
    static double L[MAXM * MAXM], R[MAXM * MAXM];
    for (int i = 0; i < m * r; i++) L[i] = ipx_rng_normal(rng), R[i] = ipx_rng_normal(rng);
    for (int j = 0; j < m; j++)
        for (int i = 0; i < m; i++) {
            double s = 0.0;
            for (int l = 0; l < r; l++) s += L[i + m * l] * R[l + r * j];
            B[i + m * j] = s;
        }
}

/* b = B x0 (+ noise if not consistent) */
static void random_rhs(ipx_rng *rng, int m, const double *B, int consistent, double *w)
{
    double x0[MAXM];
    for (int j = 0; j < m; j++) x0[j] = ipx_rng_normal(rng);
    for (int i = 0; i < m; i++) {
        double s = 0.0;
        for (int j = 0; j < m; j++) s += B[i + m * j] * x0[j];
        w[i] = s + (consistent ? 0.0 : ipx_rng_normal(rng));
    }
}

/* Sequences of systems on one work array: each step changes one column of a small set (two
   entries, as the direction search does, or all of it, or zeroes it), several columns, only
   the right-hand side, nothing, or everything. */
static void test_random_sequences(void)
{
    static double B[MAXM * MAXM], w[MAXM];
    ipx_rng rng;
    ipx_rng_seed(&rng, 2024);
    for (int seq = 0; seq < 30; seq++) {
        const int m = 16 + (int)(ipx_rng_next(&rng) % 60u);
        const int r = seq % 3 == 0 ? m : 1 + (int)(ipx_rng_next(&rng) % (uint64_t)m);
        const int consistent = seq % 4 != 0;
        random_matrix(&rng, m, r, B);
        random_rhs(&rng, m, B, consistent, w);
        int set[10];
        for (int i = 0; i < 10; i++) set[i] = (int)(ipx_rng_next(&rng) % (uint64_t)m);
        for (int step = 0; step < 30; step++) {
            const int what = (int)(ipx_rng_next(&rng) % 10u);
            const int j = set[ipx_rng_next(&rng) % (seq % 2 ? 10u : 3u)];
            double *col = B + (size_t)m * j;
            if (what <= 3) { /* two entries of a column, like a slip angle */
                const double phi = ipx_rng_uniform(&rng, 0.0, 2.0 * PI);
                col[(j + 1) % m] = 0.7 * cos(phi);
                col[(j + 2) % m] = 0.7 * sin(phi);
            } else if (what == 4) {
                for (int i = 0; i < m; i++) col[i] = ipx_rng_normal(&rng);
            } else if (what == 5) { /* a column in the span of the others, or zero */
                const int a = (j + 3) % m, b = (j + 5) % m;
                for (int i = 0; i < m; i++)
                    col[i] = step % 2 ? 0.0 : B[i + (size_t)m * a] - 2.0 * B[i + (size_t)m * b];
            } else if (what == 6) { /* two or three columns at once */
                for (int c = 0; c < 2 + step % 2; c++) {
                    double *cc = B + (size_t)m * set[(step + c) % 10];
                    for (int i = 0; i < m; i++) cc[i] += 0.1 * ipx_rng_normal(&rng);
                }
            } else if (what == 7) {
                random_rhs(&rng, m, B, consistent, w);
            } else if (what == 8 && step % 13 == 0) {
                random_matrix(&rng, m, r, B);
            } /* else: the same system again */
            check(m, B, w, "random sequence");
        }
    }
}

/* ---- PLUS systems ---------------------------------------------------------------------- */

/* A stack of k/4 boxes, 4 contacts per interface (as bench_plus_scale's). */
typedef struct stack {
    ipx_body bodies[32];
    ipx_contact_frame frames[MAXM / 3];
    double vel[6 * 32], W[MAXM * MAXM], v[MAXM];
} stack;

/* Box masses 10^(+-decades/2) times 0.5-5 kg. */
static void make_stack(stack *s, int k, double decades, ipx_rng *rng)
{
    double z = 0.0, below[2] = {1e9, 1e9};
    int n = 0;
    for (int i = 0; i < k; n++) {
        const double h[3] = {ipx_rng_uniform(rng, 0.1, 0.25), ipx_rng_uniform(rng, 0.1, 0.25),
                             ipx_rng_uniform(rng, 0.03, 0.1)};
        double mass = ipx_rng_uniform(rng, 0.5, 5.0);
        if (decades > 0.0) mass *= pow(10.0, decades * ipx_rng_uniform(rng, -0.5, 0.5));
        const double R[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
        const double com[3] = {ipx_rng_uniform(rng, -0.02, 0.02), ipx_rng_uniform(rng, -0.02, 0.02),
                               z + h[2]};
        const double I[3] = {mass / 3 * (h[1] * h[1] + h[2] * h[2]),
                             mass / 3 * (h[0] * h[0] + h[2] * h[2]),
                             mass / 3 * (h[0] * h[0] + h[1] * h[1])};
        s->bodies[n] = ipx_body_make(mass, I, R, com);
        for (int a = 0; a < 6; a++) s->vel[6 * n + a] = ipx_rng_normal(rng);
        const double ox = fmin(h[0], below[0]) * 0.95, oy = fmin(h[1], below[1]) * 0.95;
        for (int c = 0; c < 4 && i < k; c++, i++) {
            const double a = ipx_rng_uniform(rng, 0.0, 2.0 * PI);
            s->frames[i] = (ipx_contact_frame){
                .body1 = n - 1,
                .body2 = n,
                .point = {com[0] + (c & 1 ? ox : -ox), com[1] + (c & 2 ? oy : -oy), z},
                .n = {0, 0, 1},
                .t1 = {cos(a), sin(a), 0},
                .t2 = {-sin(a), cos(a), 0}};
        }
        below[0] = h[0], below[1] = h[1];
        z += 2.0 * h[2];
    }
    ipx_bodies_assemble(n, s->bodies, k, s->frames, s->vel, s->W, s->v);
}

/* The direction search's sequence of solves on one problem: a few contacts made impending
   (sliding form), each one's angle scanned every 30 degrees and then at random angles, in
   Gauss-Seidel sweeps; between searches the active set changes (a fresh system). */
static void search_sequence(int k, const double *W, const double *v, ipx_rng *rng, const char *what)
{
    static double B[MAXM * MAXM], w[MAXM];
    int st[MAXM / 3], pos[MAXM], col[MAXM];
    double phi[MAXM / 3];
    for (int round = 0; round < 3; round++) {
        for (int c = 0; c < k; c++) {
            const int u = (int)(ipx_rng_next(rng) % 10u);
            st[c] = u == 0 ? 0 : u <= 4 ? 1 : u <= 7 ? 2 : u == 8 ? 3 : 4;
            phi[c] = ipx_rng_uniform(rng, 0.0, 2.0 * PI);
        }
        int imp[4], ni = 1 + round;
        for (int i = 0; i < ni; i++) {
            imp[i] = (int)(ipx_rng_next(rng) % (uint64_t)k);
            st[imp[i]] = 2;
        }
        const double mu = ipx_rng_uniform(rng, 0.1, 1.0);
        int m = ipx_test_table1(k, W, v, st, phi, mu, B, w, pos, col);
        if (m < IPX_MIN_NORM_CACHE_MIN) continue;
        check(m, B, w, what);
        for (int sweep = 0; sweep < 2; sweep++)
            for (int i = 0; i < ni; i++)
                for (int a = 0; a < 15; a++) {
                    phi[imp[i]] = a < 12 ? 2.0 * PI * a / 12 : ipx_rng_uniform(rng, 0.0, 2.0 * PI);
                    ipx_test_table1(k, W, v, st, phi, mu, B, w, pos, col);
                    check(m, B, w, what);
                }
    }
}

static void test_box_stacks(void)
{
    static stack s;
    ipx_rng rng;
    ipx_rng_seed(&rng, 44);
    for (int trial = 0; trial < 12; trial++) {
        const int k = 8 + 4 * (trial % 6); /* 8 .. 28 contacts, 2 .. 7 boxes */
        make_stack(&s, k, 0.0, &rng);
        search_sequence(k, s.W, s.v, &rng, "box stack");
    }
}

static void test_random_piles(void)
{
    static ipx_scene scene;
    ipx_rng rng;
    ipx_rng_seed(&rng, 45);
    ipx_gen_options opt = ipx_gen_default_options();
    for (int trial = 0; trial < 12; trial++) {
        const int k = 6 + 2 * trial;
        ipx_gen_random(&scene, k, &opt, &rng);
        search_sequence(k, scene.W, scene.v, &rng, "random pile");
    }
}

/* Stacks of boxes whose masses span six decades: systems as ill-conditioned as a bin's (1e5-1e11
   with every column in place), and the base factor without the searched columns no worse. The
   search's solves take the base factor (the dense path's own rounding error is as large there),
   most of them; a limit on the base factor's error bound alone (1e-11) sent 1 273 of these
   1 464 solves to the dense path. Every answer is checked against the dense solvers. */
static void test_ill_conditioned_stacks(void)
{
    static stack s;
    ipx_rng rng;
    ipx_rng_seed(&rng, 50);
    memset(paths, 0, sizeof paths);
    for (int trial = 0; trial < 8; trial++) {
        const int k = 12 + 4 * (trial % 4);
        make_stack(&s, k, 6.0, &rng);
        search_sequence(k, s.W, s.v, &rng, "ill-conditioned stack");
    }
    const long all =
        paths[IPX_MIN_NORM_SAME] + paths[IPX_MIN_NORM_BASE] + paths[IPX_MIN_NORM_DENSE];
    printf("  ill-conditioned stacks: %ld solves, %ld base, %ld dense, %ld same, %ld "
           "ill-conditioned so far\n",
           all, paths[IPX_MIN_NORM_BASE], paths[IPX_MIN_NORM_DENSE], paths[IPX_MIN_NORM_SAME],
           ill_conditioned);
    ENSURE(paths[IPX_MIN_NORM_BASE] > all / 2);
}

/* A base factor that sees a near-dependency the system's own factor cut off: the searched
   column v is 1e3 times longer than the others and u + d v lies beside u. With rcond 1e-8, B's
   factor (|R_11| ~ |v|) counts [u, u + d v, v] as rank m - 1, while B without v leaves
   A = [u, u + d v, ...], whose factor (|R_11| ~ |u|) keeps the pair at a condition of ~1e7: a
   rank the dense path does not have, and a rounding bound far above the dense factor's own.
   Those solves go to the dense path, bitwise ipx_plus_lsq's answers. */
static void test_worse_base_goes_dense(void)
{
    static double B[MAXM * MAXM], w[MAXM], A[MAXM * MAXM], x[MAXM], F[MAXM * MAXM], y[MAXM];
    ipx_rng rng;
    ipx_rng_seed(&rng, 51);
    const int m = 24, last_dense = 2; /* a fresh system, then BUILD_AFTER solves changing v */
    const double rcond = 1e-8;
    ipx_min_norm_begin(&cache, work_mem); /* no cache from the tests before */
    random_matrix(&rng, m, m, B);
    for (int i = 0; i < m; i++) B[i + (size_t)m * i] += 10.0; /* well conditioned but for ud */
    double *u = B, *ud = B + m, *v = B + 2 * m;
    for (int i = 0; i < m; i++) v[i] *= 1e3;
    random_rhs(&rng, m, B, 1, w);
    const double d = 1e-7 * sqrt(ipx_norm2(u, m) / ipx_norm2(v, m));
    long dense = 0;
    for (int a = 0; a < 12; a++) {
        const double phi = 2.0 * PI * a / 12;
        v[3] = 7e2 * cos(phi), v[4] = 7e2 * sin(phi); /* like a slip angle */
        if (a == 0)
            for (int i = 0; i < m; i++) ud[i] = u[i] + d * v[i];
        memcpy(A, B, sizeof(double) * (size_t)(m * m));
        memcpy(x, w, sizeof(double) * (size_t)m);
        ENSURE(ipx_min_norm_solve(m, A, x, rcond, &cache, iwork, NULL) == IPX_OK);
        if (a <= last_dense) continue;
        memcpy(F, B, sizeof(double) * (size_t)(m * m));
        memcpy(y, w, sizeof(double) * (size_t)m);
        ENSURE(ipx_plus_lsq(m, m, F, y, rcond, fresh_work, fresh_iwork, NULL) == IPX_OK);
        dense += ipx_min_norm_path(m, &cache) == IPX_MIN_NORM_DENSE &&
                 memcmp(x, y, sizeof(double) * (size_t)m) == 0;
    }
    ENSURE(dense == 12 - last_dense - 1);
}

/* A base whose rounding bound is far above the limit while its answer is not: the searched
   column g has a part along the one direction that A (B without g) reaches only through a
   near-dependent pair, u and u + d e (d = 1e-5), so A^+ w and A^+ g are some 1e5 times the
   answer and cancel (as on a jointed bridge's systems, min_norm.c's refine). The bound,
   A's condition times that cancellation, is then above the limit (without the refinement
   these solves take the dense path); every pivot lies far from the cut, so the answer is
   refined on the base path instead, and agrees with the dense solvers (check). */
static void test_cancelling_base_is_refined(void)
{
    static double B[MAXM * MAXM], w[MAXM], e[MAXM];
    ipx_rng rng;
    ipx_rng_seed(&rng, 53);
    const int m = 24, last_dense = 2; /* a fresh system, then BUILD_AFTER solves changing g */
    ipx_min_norm_begin(&cache, work_mem);
    random_matrix(&rng, m, m, B);
    for (int i = 0; i < m; i++) B[i + (size_t)m * i] += 10.0;
    for (int i = 0; i < m; i++) e[i] = ipx_rng_normal(&rng);
    double *u = B, *ud = B + m, *g = B + 5 * (size_t)m;
    for (int i = 0; i < m; i++) {
        ud[i] = u[i] + 1e-5 * e[i];
        g[i] += 3.0 * e[i];
    }
    random_rhs(&rng, m, B, 1, w);
    long base = 0;
    for (int a = 0; a < 12; a++) {
        const double phi = 2.0 * PI * a / 12;
        g[3] = 7.0 * cos(phi), g[4] = 7.0 * sin(phi); /* like a slip angle */
        check(m, B, w, "cancelling base");
        base += a > last_dense && ipx_min_norm_path(m, &cache) == IPX_MIN_NORM_BASE;
    }
    ENSURE(base == 12 - last_dense - 1);
}

/* A base answer whose error lies along B's null space (min_norm_refine_data.h, a feedback
   island's system with 15 columns left out and a null space of 10 among them): its rounding
   bound is above the limit, and the refined answer agrees with the dense solvers only because
   refine also removes that part (project_out_null); the residual's correction alone left it
   1e-8 off. */
static void test_refined_answer_is_min_norm(void)
{
    static double B[MAXM * MAXM], B0[MAXM * MAXM], A[MAXM * MAXM], x[MAXM];
    const int m = refine_m;
    const size_t mm = (size_t)m * (size_t)m;
    int cols[refine_left_out];
    memset(B, 0, sizeof(double) * mm);
    for (int i = 0; i < refine_nnz; i++) B[refine_index[i]] = refine_value[i];
    memcpy(B0, B, sizeof(double) * mm); /* the cache first holds B with those columns changed */
    for (int j = 0; j < refine_left_out; j++) {
        cols[j] = j;
        for (int i = 0; i < m; i++) B0[i + (size_t)m * j] *= 2.0;
    }
    ipx_min_norm_begin(&cache, work_mem);
    memcpy(x, refine_w, sizeof(double) * (size_t)m);
    ENSURE(ipx_min_norm_solve(m, B0, x, RCOND, &cache, iwork, NULL) == IPX_OK);
    ipx_min_norm_expect(m, &cache, cols, refine_left_out);
    memcpy(A, B, sizeof(double) * mm);
    memcpy(x, refine_w, sizeof(double) * (size_t)m);
    int rank = -1, r1 = -1;
    ENSURE(ipx_min_norm_solve_again(m, A, x, RCOND, &cache, iwork, &rank) == IPX_OK);
    ENSURE(ipx_min_norm_path(m, &cache) == IPX_MIN_NORM_BASE);
    double diff, own;
    const int r2 = against_dense(m, B, refine_w, x, &diff, &own, &r1);
    printf("  rank %d, refined against dense %.2e, the dense solvers' own difference %.2e\n", rank,
           diff, own);
    ENSURE(rank == r2 && r1 == r2);
    ENSURE(own < 1e-11);
    ENSURE(diff < 1e-10);
}

/* ipx_min_norm_solve_again (the direction search's probes): the first system that differs
   from the cached one in a column is already solved from a base factor, where
   ipx_min_norm_solve makes BUILD_AFTER dense solves first; the answers are the same. */
static void test_again_builds_at_once(void)
{
    static double B[MAXM * MAXM], w[MAXM], A[MAXM * MAXM], x[MAXM];
    ipx_rng rng;
    ipx_rng_seed(&rng, 52);
    const int m = 30, j = 4;
    for (int variant = 0; variant < 2; variant++) {
        random_matrix(&rng, m, m - 3, B);
        random_rhs(&rng, m, B, 1, w);
        check(m, B, w, "fresh"); /* a dense solve: the cache holds B */
        for (int a = 0; a < 6; a++) {
            B[(j + 1) + (size_t)m * j] = 0.7 * cos(a), B[(j + 2) + (size_t)m * j] = 0.7 * sin(a);
            memcpy(A, B, sizeof(double) * (size_t)(m * m));
            memcpy(x, w, sizeof(double) * (size_t)m);
            if (variant)
                ENSURE(ipx_min_norm_solve_again(m, A, x, RCOND, &cache, iwork, NULL) == IPX_OK);
            else ENSURE(ipx_min_norm_solve(m, A, x, RCOND, &cache, iwork, NULL) == IPX_OK);
            const int path = ipx_min_norm_path(m, &cache);
            ENSURE(path == (variant || a >= 2 ? IPX_MIN_NORM_BASE : IPX_MIN_NORM_DENSE));
            check(m, B, w, variant ? "again" : "not again"); /* agrees with the dense solvers */
        }
    }
}

/* ipx_min_norm_expect (Newton on the slip angles, the direction search's sweeps): solves that
   change three columns in turn, each put back before the next changes, build one base factor
   that leaves all three out where the expected columns are told, and one per new column where
   they are not (the set grows a column at a time); the answers agree with the dense solvers
   either way, and an expectation for a cache of another size is ignored. */
static void test_expected_columns_build_once(void)
{
    static double B[MAXM * MAXM], B0[MAXM * MAXM], w[MAXM], A[MAXM * MAXM], x[MAXM];
    ipx_rng rng;
    ipx_rng_seed(&rng, 61);
    const int m = 40, cols[3] = {29, 5, 17}; /* told in any order */
    for (int told = 0; told < 2; told++) {
        random_matrix(&rng, m, m - 2, B0);
        random_rhs(&rng, m, B0, 1, w);
        check(m, B0, w, "fresh");                    /* a dense solve: the cache holds B0 */
        ipx_min_norm_expect(m + 1, &cache, cols, 3); /* another size: ignored */
        if (told) ipx_min_norm_expect(m, &cache, cols, 3);
        const long before = ipx_min_norm_base_builds(m, &cache);
        for (int round = 0; round < 2; round++)
            for (int i = 0; i < 3; i++) {
                const int j = cols[i];
                memcpy(B, B0, sizeof(double) * (size_t)(m * m));
                B[(j + 1) % m + (size_t)m * j] += 0.5 + 0.1 * round;
                memcpy(A, B, sizeof(double) * (size_t)(m * m));
                memcpy(x, w, sizeof(double) * (size_t)m);
                ENSURE(ipx_min_norm_solve_again(m, A, x, RCOND, &cache, iwork, NULL) == IPX_OK);
                ENSURE(ipx_min_norm_path(m, &cache) == IPX_MIN_NORM_BASE);
                check(m, B, w, told ? "expected" : "not expected");
            }
        const long built = ipx_min_norm_base_builds(m, &cache) - before;
        printf("  columns %s: %ld base factors for 6 solves\n", told ? "expected" : "not expected",
               built);
        ENSURE(built == (told ? 1 : 3));
    }
}

/* A left-out column that changes only in two rows (an impending contact's friction rows,
   mu cos(phi) and mu sin(phi)) is split once, at its first change (min_norm.c split_column),
   and its later changes are combined from the split: the search's scan of 12 angles and
   Newton's steps on three coupled contacts' angles, 40 solves from one base, each answer the
   dense solvers'. A change in a third row of a split column sends that column back to the
   full solves, with the same answers. */
static void test_changed_rows_split_once(void)
{
    static double B[MAXM * MAXM], A[MAXM * MAXM], x[MAXM], w[MAXM];
    ipx_rng rng;
    ipx_rng_seed(&rng, 64);
    const int m = 48, cols[3] = {7, 22, 40}, rows[3][2] = {{8, 9}, {23, 24}, {41, 42}};
    random_matrix(&rng, m, m - 3, B);
    random_rhs(&rng, m, B, 1, w);
    check(m, B, w, "fresh"); /* a dense solve: the cache holds B */
    ipx_min_norm_expect(m, &cache, cols, 3);
    const long built = ipx_min_norm_base_builds(m, &cache), split = ipx_min_norm_splits(m, &cache);
    for (int step = 0; step < 40; step++) {
        const int i = step < 36 ? step / 12 : step - 36 < 3 ? step - 36 : 0;
        const double phi = 2.0 * PI * (step % 12) / 12 + 0.1 * step, mu = 0.6;
        B[rows[i][0] + (size_t)m * cols[i]] = mu * cos(phi);
        B[rows[i][1] + (size_t)m * cols[i]] = mu * sin(phi);
        if (step == 39) B[(size_t)m * cols[0]] += 0.25; /* a third row of column 7 */
        memcpy(A, B, sizeof(double) * (size_t)(m * m));
        memcpy(x, w, sizeof(double) * (size_t)m);
        ENSURE(ipx_min_norm_solve_again(m, A, x, RCOND, &cache, iwork, NULL) == IPX_OK);
        ENSURE(ipx_min_norm_path(m, &cache) == IPX_MIN_NORM_BASE);
        check(m, B, w, "split column");
    }
    printf("  40 solves: %ld base factor, %ld columns split\n",
           ipx_min_norm_base_builds(m, &cache) - built, ipx_min_norm_splits(m, &cache) - split);
    ENSURE(ipx_min_norm_base_builds(m, &cache) - built == 1);
    ENSURE(ipx_min_norm_splits(m, &cache) - split == 3);
}

/* ipx_min_norm_solve_columns, told the columns a probe changed, compares only those and
   neither copies nor modifies A: the same answers as the dense solvers on a fresh cache (a
   dense solve, in the scratch), on a base with split columns, and after the matrix changed
   elsewhere as told (a column that is no longer left out of the base). */
static void test_known_columns(void)
{
    static double B[MAXM * MAXM], B0[MAXM * MAXM], scratch[MAXM * MAXM], x[MAXM], w[MAXM];
    ipx_rng rng;
    ipx_rng_seed(&rng, 65);
    const int m = 56, cols[2] = {30, 11}, rows[2][2] = {{31, 32}, {12, 13}};
    random_matrix(&rng, m, m - 4, B);
    random_rhs(&rng, m, B, 0, w);
    ipx_min_norm_begin(&cache, work_mem); /* no cache */
    for (int step = 0; step < 30; step++) {
        const int i = step % 2, told = step == 0 ? 0 : 1;
        const double phi = 0.37 * step, mu = 0.8;
        if (step > 0) {
            B[rows[i][0] + (size_t)m * cols[i]] = mu * cos(phi);
            B[rows[i][1] + (size_t)m * cols[i]] = mu * sin(phi);
        }
        int changed[2] = {cols[i], 44}, ntold = told;
        if (step == 20) { /* another column too, told */
            B[5 + (size_t)m * 44] += 0.3;
            ntold = 2;
        }
        memcpy(B0, B, sizeof(double) * (size_t)(m * m));
        memcpy(x, w, sizeof(double) * (size_t)m);
        ENSURE(ipx_min_norm_solve_columns(m, B, scratch, x, RCOND, &cache, iwork, NULL, changed,
                                          ntold) == IPX_OK);
        ENSURE(memcmp(B, B0, sizeof(double) * (size_t)(m * m)) == 0); /* only read */
        if (step == 0) ENSURE(ipx_min_norm_path(m, &cache) == IPX_MIN_NORM_DENSE);
        if (step == 5) ENSURE(ipx_min_norm_path(m, &cache) == IPX_MIN_NORM_BASE);
        /* the same system again on work returns the stored answer, which check compares */
        check(m, B, w, "known columns");
        ENSURE(ipx_min_norm_path(m, &cache) == IPX_MIN_NORM_SAME);
    }
}

/* The most columns a base leaves out grows with the system (ipx_min_norm_set_limit: n / 4,
   from 8 to 32): at 120 unknowns twelve impending contacts' columns, expected, changed in
   turn, cost one base factor and are solved from it, with the dense solvers' answers; a system
   that differs in more than the limit (31 columns) is factorised afresh. At 40 unknowns the
   limit is 10, at 16 it is 8. */
static void test_set_limit_grows_with_size(void)
{
    static double B[MAXM * MAXM], B0[MAXM * MAXM], w[MAXM], A[MAXM * MAXM], x[MAXM];
    ENSURE(ipx_min_norm_set_limit(16) == 8);
    ENSURE(ipx_min_norm_set_limit(40) == 10);
    ENSURE(ipx_min_norm_set_limit(120) == 30);
    ENSURE(ipx_min_norm_set_limit(100000) == IPX_MIN_NORM_MAX_SET);
    ipx_rng rng;
    ipx_rng_seed(&rng, 67);
    const int m = 120;
    int cols[31];
    for (int i = 0; i < 31; i++) cols[i] = 3 * i + 1;
    random_matrix(&rng, m, m - 4, B0);
    random_rhs(&rng, m, B0, 1, w);
    check(m, B0, w, "fresh");
    ipx_min_norm_expect(m, &cache, cols, 12);
    const long before = ipx_min_norm_base_builds(m, &cache);
    for (int i = 0; i < 12; i++) {
        memcpy(B, B0, sizeof(double) * (size_t)(m * m));
        B[(cols[i] + 1) % m + (size_t)m * cols[i]] += 0.3;
        memcpy(A, B, sizeof(double) * (size_t)(m * m));
        memcpy(x, w, sizeof(double) * (size_t)m);
        ENSURE(ipx_min_norm_solve_again(m, A, x, RCOND, &cache, iwork, NULL) == IPX_OK);
        ENSURE(ipx_min_norm_path(m, &cache) == IPX_MIN_NORM_BASE);
        check(m, B, w, "twelve expected");
    }
    ENSURE(ipx_min_norm_base_builds(m, &cache) - before == 1);
    memcpy(B, B0, sizeof(double) * (size_t)(m * m));
    for (int i = 0; i < 31; i++) B[(cols[i] + 1) % m + (size_t)m * cols[i]] -= 0.2;
    memcpy(A, B, sizeof(double) * (size_t)(m * m));
    memcpy(x, w, sizeof(double) * (size_t)m);
    ENSURE(ipx_min_norm_solve_again(m, A, x, RCOND, &cache, iwork, NULL) == IPX_OK);
    ENSURE(ipx_min_norm_path(m, &cache) == IPX_MIN_NORM_DENSE); /* 31 columns: above 30 */
    check(m, B, w, "31 changed");
}

/* Redundant contacts: two copies of every contact of a stack (W has every row twice). */
static void test_duplicated_contacts(void)
{
    static stack s;
    static double W2[MAXM * MAXM], v2[MAXM];
    ipx_rng rng;
    ipx_rng_seed(&rng, 46);
    for (int trial = 0; trial < 4; trial++) {
        const int k = 8 + 4 * trial, n = 3 * k;
        make_stack(&s, k, 0.0, &rng);
        for (int a = 0; a < 2 * n; a++) {
            v2[a] = s.v[a % n];
            for (int b = 0; b < 2 * n; b++) W2[a + 2 * n * b] = s.W[(a % n) + n * (b % n)];
        }
        search_sequence(2 * k, W2, v2, &rng, "duplicated contacts");
    }
}

/* ---- the cache itself ------------------------------------------------------------------- */

/* Garbage, another size's cache, another rcond's: never trusted. */
static void test_stale_work(void)
{
    static double B[MAXM * MAXM], w[MAXM], A[MAXM * MAXM], x[MAXM];
    ipx_rng rng;
    ipx_rng_seed(&rng, 47);
    for (size_t i = 0; i < sizeof work_mem / sizeof work_mem[0]; i++)
        work_mem[i] = ipx_rng_normal(&rng);
    ipx_min_norm_begin(&cache, work_mem);
    random_matrix(&rng, 40, 25, B);
    random_rhs(&rng, 40, B, 1, w);
    check(40, B, w, "garbage work");
    random_matrix(&rng, 30, 30, B); /* another size on the same work array */
    random_rhs(&rng, 30, B, 1, w);
    check(30, B, w, "other size");
    memcpy(A, B, sizeof(double) * 900);
    memcpy(x, w, sizeof(double) * 30);
    ENSURE(ipx_min_norm_solve(30, A, x, 1e-3, &cache, iwork, NULL) == IPX_OK); /* another rcond */
    check(30, B, w, "other rcond");
    /* a non-finite system fails and is not kept */
    B[5] = NAN;
    memcpy(A, B, sizeof(double) * 900);
    memcpy(x, w, sizeof(double) * 30);
    ENSURE(ipx_min_norm_solve(30, A, x, RCOND, &cache, iwork, NULL) == IPX_ERR_NUMERIC);
    B[5] = 1.0;
    check(30, B, w, "after a failure");
}

/* Impact A leaves a base factor of its last matrix in the work array (one column changed again
   and again); impact B begins the cache afresh, as PLUS and bowling do at each impact, and
   solves a system that differs from A's last in that column only: B's answer is bitwise the
   fresh dense solve's, not a base solve from A's factor. Before the cache's state was kept in
   typed fields begun with each impact, the header A left in the work array let B take up A's
   base factor (another rounding: B's answer depended on the impact before it). */
static void test_new_impact_starts_empty(void)
{
    static double B[MAXM * MAXM], w[MAXM], A[MAXM * MAXM], x[MAXM], F[MAXM * MAXM], y[MAXM];
    ipx_rng rng;
    ipx_rng_seed(&rng, 53);
    const int m = 40;
    random_matrix(&rng, m, m, B);
    random_rhs(&rng, m, B, 1, w);
    ipx_min_norm_begin(&cache, work_mem); /* impact A */
    for (int step = 0; step < 6; step++) {
        B[7 + (size_t)m * 5] = cos(step);
        memcpy(A, B, sizeof(double) * (size_t)(m * m));
        memcpy(x, w, sizeof(double) * (size_t)m);
        ENSURE(ipx_min_norm_solve_again(m, A, x, RCOND, &cache, iwork, NULL) == IPX_OK);
    }
    ENSURE(ipx_min_norm_path(m, &cache) == IPX_MIN_NORM_BASE);
    ipx_min_norm_begin(&cache, work_mem); /* impact B, on the work array A left */
    B[7 + (size_t)m * 5] = 0.3;
    random_rhs(&rng, m, B, 1, w);
    memcpy(A, B, sizeof(double) * (size_t)(m * m));
    memcpy(x, w, sizeof(double) * (size_t)m);
    ENSURE(ipx_min_norm_solve(m, A, x, RCOND, &cache, iwork, NULL) == IPX_OK);
    ENSURE(ipx_min_norm_path(m, &cache) == IPX_MIN_NORM_DENSE);
    memcpy(F, B, sizeof(double) * (size_t)(m * m));
    memcpy(y, w, sizeof(double) * (size_t)m);
    ENSURE(ipx_plus_lsq(m, m, F, y, RCOND, fresh_work, fresh_iwork, NULL) == IPX_OK);
    ENSURE(memcmp(x, y, sizeof(double) * (size_t)m) == 0);
}

/* A new right-hand side alone gives bitwise the uncached answer (the dense path), and the same
   sequence of systems gives bitwise the same answers whatever the work array held before. */
static void test_reproducible(void)
{
    static double B[MAXM * MAXM], w[MAXM], A[MAXM * MAXM], x1[MAXM], x2[MAXM], seqx[2][20][MAXM];
    static double F[MAXM * MAXM], y[MAXM];
    ipx_rng rng;
    ipx_rng_seed(&rng, 48);
    const int m = 50;
    random_matrix(&rng, m, 35, B);
    random_rhs(&rng, m, B, 0, w);
    memcpy(A, B, sizeof(double) * m * m);
    memcpy(x1, w, sizeof(double) * m);
    ENSURE(ipx_min_norm_solve(m, A, x1, RCOND, &cache, iwork, NULL) == IPX_OK);
    random_rhs(&rng, m, B, 1, w);
    memcpy(A, B, sizeof(double) * m * m);
    memcpy(x2, w, sizeof(double) * m);
    ENSURE(ipx_min_norm_solve(m, A, x2, RCOND, &cache, iwork, NULL) == IPX_OK); /* rhs only */
    memcpy(F, B, sizeof(double) * m * m);
    memcpy(y, w, sizeof(double) * m);
    ENSURE(ipx_plus_lsq(m, m, F, y, RCOND, fresh_work, fresh_iwork, NULL) == IPX_OK);
    ENSURE(memcmp(x2, y, sizeof(double) * m) == 0);
    for (int pass = 0; pass < 2; pass++) {
        ipx_rng seq;
        ipx_rng_seed(&seq, 49);
        if (pass == 1) /* something else in the work array first */
            for (size_t i = 0; i < 4096; i++) work_mem[i] = (double)i;
        ipx_min_norm_begin(&cache, work_mem);
        random_matrix(&seq, m, 30, B);
        random_rhs(&seq, m, B, 1, w);
        for (int step = 0; step < 20; step++) {
            B[(step % 3) * m + 7] = cos(step);
            memcpy(A, B, sizeof(double) * m * m);
            memcpy(seqx[pass][step], w, sizeof(double) * m);
            ENSURE(ipx_min_norm_solve(m, A, seqx[pass][step], RCOND, &cache, iwork, NULL) ==
                   IPX_OK);
        }
    }
    ENSURE(memcmp(seqx[0], seqx[1], sizeof seqx[0]) == 0);
}

int main(void)
{
    ENSURE(ipx_min_norm_work_doubles(MAXM) <= sizeof work_mem / sizeof work_mem[0]);
    ipx_min_norm_begin(&cache, work_mem);
    RUN(test_random_sequences);
    RUN(test_box_stacks);
    RUN(test_random_piles);
    RUN(test_duplicated_contacts);
    RUN(test_ill_conditioned_stacks);
    RUN(test_worse_base_goes_dense);
    RUN(test_cancelling_base_is_refined);
    RUN(test_refined_answer_is_min_norm);
    RUN(test_again_builds_at_once);
    RUN(test_expected_columns_build_once);
    RUN(test_changed_rows_split_once);
    RUN(test_known_columns);
    RUN(test_set_limit_grows_with_size);
    RUN(test_stale_work);
    RUN(test_new_impact_starts_empty);
    RUN(test_reproducible);
    printf("  %ld solves compared, largest relative difference %.2e, %.2e where the dense solvers "
           "agree to 1e-12 (%ld ill-conditioned: held to 4 times the dense solvers' own "
           "difference)\n",
           solves, worst_seen, worst_well, ill_conditioned);
    return ipx_test_exit();
}
