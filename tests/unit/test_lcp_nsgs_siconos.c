/* The LCP models' iterative solver (core/src/numerics/nsgs.h, through aplcp) against the
   library solver it is written after, Siconos Numerics' lcp_nsgs_SBM, on the same
   Anitescu-Potra LCPs of piles (tests/support/ap_dense.h builds them from W):
   - the sparse block form handed to Siconos is the LCP: Siconos' own product of its blocks
     equals the dense M, and it stores exactly the blocks of the contacts that share a body;
   - frictionless piles (the LCP is a convex QP's, so v+ is unique): Siconos, run until its own
     error is below 1e-14, and aplcp give the same v+ to 1e-9 of the largest velocity, and
     both answers solve the LCP (the one residual of ap_dense.h); routh solves other LCPs (its
     impulse steps), which test_lcp_iterative checks against the dense Lemke;
   - frictional piles (several solutions are common): impax's answer solves the LCP to lcp_tol,
     and Siconos' after the same number of sweeps is no better (bench/bench_lcp_nsgs times the
     two). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ap_dense.h"
#include "ensure.h"
#include "model_test.h"
#include "pile_gen.h"
#include "siconos_lcp.h"

/* A pile of k contacts, its LCP (nd = 4, aplcp's default) and that LCP in Siconos' form. */
typedef struct pile_lcp {
    ipx_pile pile;
    ipx_test_ap a;
    ipx_siconos_sbm *sbm;
} pile_lcp;

static int pile_lcp_make(pile_lcp *x, int k, const ipx_pile_options *o, ipx_rng *rng)
{
    memset(x, 0, sizeof *x);
    if (ipx_pile_make(&x->pile, k, o, rng) || ipx_test_ap_make(&x->a, &x->pile.problem, NULL, 4))
        return -1;
    x->sbm = ipx_siconos_ap(&x->a);
    return x->sbm ? 0 : -1;
}

static void pile_lcp_free(pile_lcp *x)
{
    ipx_siconos_sbm_free(x->sbm);
    ipx_test_ap_free(&x->a);
    ipx_pile_free(&x->pile);
}

/* Siconos' answer as impulses (3k): lcp_nsgs_SBM from zero, each block by lcp_lexicolemke. */
static int siconos_impulses(const pile_lcp *x, int sweeps, double tol, double *pi, int *done)
{
    const size_t n = (size_t)x->a.n;
    double *z = calloc(n, sizeof(double)), *w = calloc(n, sizeof(double));
    const int info = ipx_siconos_nsgs(x->sbm, sweeps, tol, z, w, done);
    ipx_test_ap_impulse_of(&x->a, z, pi);
    free(z), free(w);
    return info;
}

static void test_block_form_is_the_lcp(void)
{
    ipx_rng rng;
    ipx_rng_seed(&rng, 71);
    for (int kind = 0; kind < 2; kind++) {
        ipx_pile_options o = ipx_pile_default_options(kind ? IPX_PILE_STACK : IPX_PILE_BIN);
        if (kind) o.mu = -1.0; /* mu uniform in [0, 1]: blocks of 1 and of nd + 2 unknowns */
        pile_lcp x;
        ENSURE(pile_lcp_make(&x, 48, &o, &rng) == 0);
        ENSURE(ipx_siconos_sbm_blocks(x.sbm) ==
               x.pile.blocks); /* W's non-zero blocks, the diagonal included */
        const size_t n = (size_t)x.a.n;
        double *v = malloc(sizeof(double) * n), *y = malloc(sizeof(double) * n), worst = 0.0,
               scale = 0.0;
        for (size_t i = 0; i < n; i++) v[i] = ipx_rng_uniform(&rng, -1.0, 1.0);
        ipx_siconos_sbm_apply(x.sbm, v, y);
        for (size_t r = 0; r < n; r++) {
            double m = 0.0, s = 0.0;
            for (size_t col = 0; col < n; col++) {
                m += x.a.M[r + n * col] * v[col];
                s += fabs(x.a.M[r + n * col] * v[col]);
            }
            worst = fmax(worst, fabs(m - y[r]));
            scale = fmax(scale, s);
        }
        ENSURE(worst <= 1e-14 * scale);
        free(v), free(y);
        pile_lcp_free(&x);
    }
}

static void test_frictionless_piles_match_siconos(void)
{
    static const int sizes[] = {16, 64, 128};
    ipx_rng rng;
    ipx_rng_seed(&rng, 72);
    for (int kind = 0; kind < 2; kind++)
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
            const int k = sizes[s];
            ipx_pile_options o = ipx_pile_default_options(kind ? IPX_PILE_STACK : IPX_PILE_BIN);
            o.mu = 0.0;
            pile_lcp x;
            ENSURE(pile_lcp_make(&x, k, &o, &rng) == 0);
            const ipx_problem *p = &x.pile.problem;
            double *pi = malloc(sizeof(double) * 3 * (size_t)k),
                   *vs = malloc(sizeof(double) * 3 * (size_t)k);
            int sweeps = 0;
            ENSURE(siconos_impulses(&x, 100000, 1e-14, pi, &sweeps) == 0);
            for (int r = 0; r < 3 * k; r++) {
                vs[r] = p->v[r];
                for (int col = 0; col < 3 * k; col++)
                    vs[r] += p->W[r + (size_t)3 * k * col] * pi[col];
            }
            const double res_s = ipx_test_ap_residual(&x.a, p, pi);
            ipx_params par = ipx_test_params("aplcp", "lcp_switch=1");
            ipx_workspace *ws = ipx_test_workspace(&par, k); /* the ring's: kept */
            ipx_result *r = malloc(sizeof *r);
            ENSURE(ws && ipx_solve(&par, p, ws, r) == IPX_OK);
            double dv = 0.0, vmax = 1e-300;
            for (int i = 0; i < 3 * k; i++) {
                dv = fmax(dv, fabs(r->v_post[i] - vs[i]));
                vmax = fmax(vmax, fabs(p->v[i]));
            }
            const double res_i = ipx_test_ap_residual(&x.a, p, r->impulse);
            printf("  %s k = %3d: Siconos %5d sweeps (residual %.1e), impax %4d sweeps (residual "
                   "%.1e): dv %.1e\n",
                   kind ? "stack" : "bin", k, sweeps, res_s, r->counts.steps, res_i, dv / vmax);
            ENSURE(r->counts.steps > 0); /* the iterative path, not the dense Lemke */
            ENSURE(dv <= 1e-9 * vmax);
            ENSURE(res_s <= 1e-10 && res_i <= 1e-10);
            free(r);
            free(pi), free(vs);
            pile_lcp_free(&x);
        }
}

static void test_frictional_piles_against_siconos(void)
{
    ipx_rng rng;
    ipx_rng_seed(&rng, 73);
    for (int kind = 0; kind < 2; kind++) {
        const int k = 128; /* above aplcp's lcp_fallback (96): no dense redo */
        const ipx_pile_options o = ipx_pile_default_options(kind ? IPX_PILE_STACK : IPX_PILE_BIN);
        pile_lcp x;
        ENSURE(pile_lcp_make(&x, k, &o, &rng) == 0);
        const ipx_problem *p = &x.pile.problem;
        ipx_params par = ipx_test_params("aplcp", "lcp_switch=1");
        ipx_workspace *ws = ipx_test_workspace(&par, k); /* the ring's: kept */
        ipx_result *r = malloc(sizeof *r);
        ENSURE(ws && ipx_solve(&par, p, ws, r) == IPX_OK);
        ENSURE(r->counts.limits_hit == 0 && r->counts.steps > 0); /* converged, iteratively */
        const double res_i = ipx_test_ap_residual(&x.a, p, r->impulse);
        double *pi = malloc(sizeof(double) * 3 * (size_t)k);
        int sweeps = 0;
        siconos_impulses(&x, r->counts.steps, 0.0, pi, &sweeps);
        const double res_s = ipx_test_ap_residual(&x.a, p, pi);
        printf("  %s k = %d, %d sweeps each: residual impax %.1e, Siconos %.1e\n",
               kind ? "stack" : "bin", k, sweeps, res_i, res_s);
        ENSURE(sweeps == r->counts.steps);
        ENSURE(res_i <= 1e-10);
        ENSURE(res_s >= res_i);
        free(pi), free(r);
        pile_lcp_free(&x);
    }
}

int main(void)
{
    RUN(test_block_form_is_the_lcp);
    RUN(test_frictionless_piles_match_siconos);
    RUN(test_frictional_piles_against_siconos);
    return ipx_test_exit();
}
