/* The iterative LCP solver for symmetric PSD operators (impax/lcp_psd.h) against the dense
   Lemke (impax/lcp.h) and against its own accuracy statement:
   - random SPD and rank-deficient PSD LCPs (tests/support/lcp_gen): z >= 0 exactly, the stated
     residual bound checked on w recomputed here, w equal to Lemke's (w is unique for a PSD M),
     z equal to Lemke's where M is SPD (z unique);
   - the normal Delassus blocks W_nn of piles and towers of boxes (tests/support/pile_gen: the
     position recovery's LCP, q = -(displacement targets) at some contacts): the displacement
     M^-1 J_n^T z (unique even where z is not) equal to Lemke's in the M norm;
   - Jacobi scaling on or off, the norm given or estimated, a warm start: the same answer;
   - duplicated rows (a singular M, z not unique), q >= 0 (no product), infeasible LCPs (ray),
     the iteration limit (the last iterate, z >= 0, w = M z + q), a non-finite product, bad input. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ensure.h"
#include "impax/impax.h"
#include "lcp_gen.h"
#include "pile_gen.h"

#define TOL 1e-10

/* A dense column-major M as an operator, counting its products; poison: a NaN from the next product. */
typedef struct dense_op {
    int n;
    const double *M;
    long products;
    int poison;
} dense_op;

static void dense_apply(void *user, const double *x, double *y)
{
    dense_op *d = user;
    for (int i = 0; i < d->n; i++) y[i] = 0.0;
    for (int j = 0; j < d->n; j++)
        for (int i = 0; i < d->n; i++) y[i] += d->M[i + (size_t)d->n * j] * x[j];
    if (d->poison) y[0] = NAN;
    d->products++;
}

static double max_abs(const double *x, int n)
{
    double m = 0.0;
    for (int i = 0; i < n; i++) m = fmax(m, fabs(x[i]));
    return m;
}

/* The header's residual max r_i / max|q| of z, from w = M z + q recomputed here. */
static double stated_residual(int n, const double *M, const double *q, const double *z)
{
    double r = 0.0;
    for (int i = 0; i < n; i++) {
        double w = q[i];
        for (int j = 0; j < n; j++) w += M[i + (size_t)n * j] * z[j];
        r = fmax(r, z[i] > 0.0 ? fabs(w) : -w);
    }
    return r / fmax(max_abs(q, n), 1e-300);
}

/* Solutions of one LCP by both solvers; returns the iterative status. */
typedef struct pair {
    double *z, *w, *zl, *wl;
    ipx_lcp_psd_info info;
} pair;

static void pair_alloc(pair *p, int n)
{
    p->z = calloc((size_t)n, sizeof(double));
    p->w = calloc((size_t)n, sizeof(double));
    p->zl = calloc((size_t)n, sizeof(double));
    p->wl = calloc((size_t)n, sizeof(double));
}

static void pair_free(pair *p) { free(p->z), free(p->w), free(p->zl), free(p->wl); }

static ipx_status solve_iterative(int n, const double *M, const double *q, int scaled, double norm,
                                  const ipx_lcp_psd_options *o, pair *p)
{
    dense_op d = {n, M, 0, 0};
    double *diag = malloc((size_t)n * sizeof *diag),
           *work = malloc(ipx_lcp_psd_work_doubles(n) * sizeof *work);
    for (int i = 0; i < n; i++) diag[i] = M[i + (size_t)n * i];
    ipx_lcp_operator op = {n, dense_apply, &d, scaled ? diag : NULL, norm};
    ipx_status st = ipx_lcp_psd(&op, q, p->z, p->w, o, work, &p->info);
    ENSURE(p->info.products <= d.products); /* every product it reports was made */
    free(diag), free(work);
    return st;
}

static ipx_status solve_lemke(int n, const double *M, const double *q, pair *p)
{
    double *dw = malloc(ipx_lemke_work_doubles(n) * sizeof *dw);
    int *iw = malloc(ipx_lemke_work_ints(n) * sizeof *iw);
    ipx_status st = ipx_lemke(n, M, q, p->zl, p->wl, ipx_lemke_default_max_pivots(n), dw, iw, NULL);
    free(dw), free(iw);
    return st;
}

/* Every z_i >= 0, the stated residual within tol, and w as given equal to M z + q. */
static int meets_statement(int n, const double *M, const double *q, const pair *p, double tol)
{
    int ok = 1;
    for (int i = 0; i < n; i++) {
        double w = q[i];
        for (int j = 0; j < n; j++) w += M[i + (size_t)n * j] * p->z[j];
        ok &= p->z[i] >= 0.0 && fabs(w - p->w[i]) <= 1e-9 * max_abs(q, n);
    }
    return ok && stated_residual(n, M, q, p->z) <= tol;
}

static void test_random_spd_and_psd_match_lemke(void)
{
    ipx_rng rng;
    ipx_rng_seed(&rng, 41);
    const int sizes[] = {1, 2, 5, 12, 40, 100};
    const ipx_lcp_class classes[] = {IPX_LCP_SPD, IPX_LCP_PSD};
    int cases = 0, worst_iter = 0;
    ipx_lcp_psd_options o = ipx_lcp_psd_default_options();
    o.tol = TOL;
    o.max_iter = 100000; /* random PSD matrices are badly conditioned on their range */
    for (size_t c = 0; c < 2; c++)
        for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++)
            for (int rep = 0; rep < 12; rep++) {
                const int n = sizes[s];
                double *M = malloc((size_t)n * n * sizeof *M), *q = malloc((size_t)n * sizeof *q);
                ipx_lcp_generate(classes[c], n, &rng, M, q, NULL);
                pair p;
                pair_alloc(&p, n);
                ENSURE(solve_lemke(n, M, q, &p) == IPX_OK);
                ipx_status st = solve_iterative(n, M, q, rep % 2, 0.0, &o, &p);
                const double scale = fmax(max_abs(p.wl, n), max_abs(q, n));
                double dw = 0.0, dz = 0.0;
                for (int i = 0; i < n; i++) {
                    dw = fmax(dw, fabs(p.w[i] - p.wl[i]));
                    dz = fmax(dz, fabs(p.z[i] - p.zl[i]));
                }
                /* w is unique; z where M is SPD (its error: the residual over M's smallest
                   eigenvalue, 0.1 here, so 1e-6 of z's size is generous) */
                int ok = st == IPX_OK && meets_statement(n, M, q, &p, TOL) && dw <= 1e-7 * scale &&
                         (classes[c] != IPX_LCP_SPD || dz <= 1e-6 * fmax(max_abs(p.zl, n), 1.0));
                ENSURE(ok);
                if (!ok)
                    printf("  %s n %d rep %d: status %d, residual %.3g, |dw| %.3g, |dz| %.3g, "
                           "iterations %d\n",
                           ipx_lcp_class_name(classes[c]), n, rep, st, p.info.residual, dw, dz,
                           p.info.iterations);
                if (p.info.iterations > worst_iter) worst_iter = p.info.iterations;
                cases++;
                pair_free(&p);
                free(M), free(q);
            }
    printf("  %d LCPs, at most %d iterations\n", cases, worst_iter);
}

/* The position recovery's LCP on a pile of k contacts (kind, box masses in [1, mass_ratio] kg,
   from seed): the normal block W_nn (k x k, allocated) of its W, and q_i = -t_i < 0 at about
   half the contacts (the recovering ones, t up to 1 mm times ERP 0.2), 0 elsewhere. Returns k. */
static int recovery_lcp(ipx_pile_kind kind, int k, double mass_ratio, uint64_t seed, double **Wnn,
                        double **q)
{
    ipx_rng rng;
    ipx_rng_seed(&rng, seed);
    ipx_pile pile;
    ipx_pile_options po = ipx_pile_default_options(kind);
    po.mass_ratio = mass_ratio;
    ENSURE(ipx_pile_make(&pile, k, &po, &rng) == 0);
    const int n = 3 * k;
    *Wnn = malloc((size_t)k * k * sizeof **Wnn);
    *q = malloc((size_t)k * sizeof **q);
    for (int j = 0; j < k; j++)
        for (int i = 0; i < k; i++)
            (*Wnn)[i + (size_t)k * j] = pile.W[(3 * i + IPX_N) + (size_t)n * (3 * j + IPX_N)];
    for (int i = 0; i < k; i++)
        (*q)[i] =
            ipx_rng_uniform(&rng, 0.0, 1.0) < 0.5 ? -0.2e-3 * ipx_rng_uniform(&rng, 0.0, 1.0) : 0.0;
    ipx_pile_free(&pile);
    return k;
}

/* sqrt((za - zb)^T W (za - zb) / zb^T W zb): the displacements' difference in the mass norm. */
static double displacement_difference(int k, const double *W, const double *za, const double *zb)
{
    double num = 0.0, den = 0.0;
    for (int i = 0; i < k; i++)
        for (int j = 0; j < k; j++) {
            const double wij = W[i + (size_t)k * j];
            num += (za[i] - zb[i]) * wij * (za[j] - zb[j]);
            den += zb[i] * wij * zb[j];
        }
    return sqrt(fmax(num, 0.0) / fmax(den, 1e-300));
}

static void test_piles_displacement_matches_lemke(void)
{
    const int sizes[] = {16, 64, 200, 400};
    const ipx_pile_kind kinds[] = {IPX_PILE_BIN, IPX_PILE_STACK};
    ipx_lcp_psd_options o = ipx_lcp_psd_default_options();
    o.tol = TOL;
    for (size_t kind = 0; kind < 2; kind++)
        for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
            double *W, *q;
            const int k = recovery_lcp(kinds[kind], sizes[s], kind ? 10.0 : 1.0, 7 + s, &W, &q);
            pair p;
            pair_alloc(&p, k);
            ENSURE(solve_lemke(k, W, q, &p) == IPX_OK);
            ipx_status st = solve_iterative(k, W, q, 1, 0.0, &o, &p);
            const double dd = displacement_difference(k, W, p.z, p.zl);
            int ok = st == IPX_OK && meets_statement(k, W, q, &p, TOL) && dd <= 1e-6;
            ENSURE(ok);
            printf("  %s k %d: %d iterations, %d products, residual %.2g, displacement difference "
                   "%.2g\n",
                   kind ? "towers" : "bin", k, p.info.iterations, p.info.products, p.info.residual,
                   dd);
            pair_free(&p);
            free(W), free(q);
        }
}

static void test_scaling_norm_and_warm_start_give_the_same_answer(void)
{
    double *W, *q;
    const int k = recovery_lcp(IPX_PILE_STACK, 96, 100.0, 3, &W, &q);
    double gersh = 0.0; /* a bound of ||W|| */
    for (int i = 0; i < k; i++) {
        double r = 0.0;
        for (int j = 0; j < k; j++) r += fabs(W[i + (size_t)k * j]);
        gersh = fmax(gersh, r);
    }
    ipx_lcp_psd_options o = ipx_lcp_psd_default_options();
    o.tol = TOL;
    pair a, b, c;
    pair_alloc(&a, k), pair_alloc(&b, k), pair_alloc(&c, k);
    ENSURE(solve_iterative(k, W, q, 1, 0.0, &o, &a) == IPX_OK);
    ENSURE(solve_iterative(k, W, q, 0, gersh, &o, &b) == IPX_OK);
    ENSURE(displacement_difference(k, W, a.z, b.z) <= 1e-6);
    /* a norm 100 times too small: the halvings keep it converging */
    ENSURE(solve_iterative(k, W, q, 0, gersh / 100.0, &o, &c) == IPX_OK);
    ENSURE(displacement_difference(k, W, c.z, b.z) <= 1e-6);
    /* warm from the answer: at most a few steps */
    memcpy(c.z, a.z, (size_t)k * sizeof *c.z);
    o.warm = 1;
    ENSURE(solve_iterative(k, W, q, 1, 0.0, &o, &c) == IPX_OK);
    ENSURE(c.info.iterations <= 2 && c.info.iterations < a.info.iterations);
    printf("  scaled %d iterations, unscaled %d, warm %d\n", a.info.iterations, b.info.iterations,
           c.info.iterations);
    pair_free(&a), pair_free(&b), pair_free(&c);
    free(W), free(q);
}

/* Two identical rows (a contact reported twice): W singular, z not unique, w is. */
static void test_duplicated_rows(void)
{
    const double M[9] = {2, 2, 1, 2, 2, 1, 1, 1, 3}, q[3] = {-1, -1, -0.5};
    pair p;
    pair_alloc(&p, 3);
    ENSURE(solve_lemke(3, M, q, &p) == IPX_OK);
    ENSURE(solve_iterative(3, M, q, 1, 0.0, NULL, &p) == IPX_OK);
    for (int i = 0; i < 3; i++) ENSURE_NEAR(p.w[i], p.wl[i], 1e-9);
    ENSURE_NEAR(2 * (p.z[0] + p.z[1]) + p.z[2], 2 * (p.zl[0] + p.zl[1]) + p.zl[2], 1e-9);
    pair_free(&p);
}

static void test_nonnegative_q_needs_no_product(void)
{
    ENSURE(ipx_lcp_psd_work_doubles(2) <= 32 && ipx_lcp_psd_work_doubles(0) == 0);
    const double M[4] = {1, 0.5, 0.5, 1}, q[2] = {0.0, 3.0};
    dense_op d = {2, M, 0, 0};
    double z[2] = {9, 9}, w[2], work[32]; /* >= ipx_lcp_psd_work_doubles(2) */
    ipx_lcp_operator op = {2, dense_apply, &d, NULL, 0.0};
    ENSURE(ipx_lcp_psd(&op, q, z, w, NULL, work, NULL) == IPX_OK);
    ENSURE(z[0] == 0.0 && z[1] == 0.0 && w[0] == 0.0 && w[1] == 3.0 && d.products == 0);
}

/* PSD and infeasible: z1 - z2 >= 1 and z2 - z1 >= 1; a zero row with q < 0. */
static void test_infeasible_ends_on_a_ray(void)
{
    const double A[4] = {1, -1, -1, 1}, qa[2] = {-1, -1};
    const double B[4] = {1, 0, 0, 0}, qb[2] = {-1, -1};
    pair p;
    pair_alloc(&p, 2);
    ENSURE(solve_iterative(2, A, qa, 0, 0.0, NULL, &p) == IPX_ERR_LCP_RAY);
    ENSURE(p.z[0] >= 0.0 && p.z[1] >= 0.0);
    ENSURE(solve_iterative(2, B, qb, 0, 0.0, NULL, &p) == IPX_ERR_LCP_RAY);
    pair_free(&p);
}

static void test_iteration_limit_keeps_a_feasible_iterate(void)
{
    double *W, *q;
    const int k = recovery_lcp(IPX_PILE_BIN, 120, 1.0, 5, &W, &q);
    ipx_lcp_psd_options o = ipx_lcp_psd_default_options();
    o.max_iter = 2;
    pair p;
    pair_alloc(&p, k);
    ENSURE(solve_iterative(k, W, q, 1, 0.0, &o, &p) == IPX_ERR_NOT_CONVERGED);
    ENSURE(p.info.iterations == 2);
    ENSURE(meets_statement(k, W, q, &p, INFINITY)); /* z >= 0 and w = M z + q */
    pair_free(&p);
    free(W), free(q);
}

static void test_bad_input_and_non_finite_products(void)
{
    const double M[4] = {1, 0, 0, 1}, q[2] = {-1, -1}, bad_diag[2] = {1, 0};
    dense_op d = {2, M, 0, 0};
    double z[2], w[2], work[32]; /* >= ipx_lcp_psd_work_doubles(2) */
    ipx_lcp_operator op = {2, dense_apply, &d, NULL, 0.0};
    ipx_lcp_psd_options o = ipx_lcp_psd_default_options();
    ENSURE(ipx_lcp_psd(NULL, q, z, w, NULL, work, NULL) == IPX_ERR_INPUT);
    ENSURE(ipx_lcp_psd(&op, q, z, w, NULL, NULL, NULL) == IPX_ERR_INPUT);
    o.tol = 0.0;
    ENSURE(ipx_lcp_psd(&op, q, z, w, &o, work, NULL) == IPX_ERR_INPUT);
    const double nan_q[2] = {NAN, -1};
    ENSURE(ipx_lcp_psd(&op, nan_q, z, w, NULL, work, NULL) == IPX_ERR_INPUT);
    op.diag = bad_diag;
    ENSURE(ipx_lcp_psd(&op, q, z, w, NULL, work, NULL) == IPX_ERR_INPUT);
    op.diag = NULL;
    op.n = 0;
    ENSURE(ipx_lcp_psd(&op, q, z, w, NULL, work, NULL) == IPX_ERR_INPUT);
    op.n = 2;
    d.poison = 1;
    ENSURE(ipx_lcp_psd(&op, q, z, w, NULL, work, NULL) == IPX_ERR_NUMERIC);
    ENSURE(z[0] == 0.0 && z[1] == 0.0 && w[0] == 0.0 && w[1] == 0.0);
}

int main(void)
{
    RUN(test_random_spd_and_psd_match_lemke);
    RUN(test_piles_displacement_matches_lemke);
    RUN(test_scaling_norm_and_warm_start_give_the_same_answer);
    RUN(test_duplicated_rows);
    RUN(test_nonnegative_q_needs_no_product);
    RUN(test_infeasible_ends_on_a_ray);
    RUN(test_iteration_limit_keeps_a_feasible_iterate);
    RUN(test_bad_input_and_non_finite_products);
    return ipx_test_exit();
}
