/* bench_lcp_nsgs: the LCP models' iterative solver (core/src/numerics/nsgs.h, through aplcp) against
   the library solver it is written after, Siconos Numerics' lcp_nsgs_SBM (projected block
   Gauss-Seidel on a sparse block matrix, each contact's block solved by its lexicographic Lemke), on
   the same Anitescu-Potra LCPs of piles of boxes. Usage:

     bench_lcp_nsgs [scene] [k ...]      scene bin|stack (tests/support/pile_gen.h)

   For each k, a few piles (the problems of bench_lcp_scale: same generator, seeds and W as
   blocks for impax). impax: aplcp with the iterative solver from one contact on (lcp_switch=1,
   its defaults otherwise: lcp_tol 1e-10, max_sweeps 5 000, the stall rule), µs per ipx_solve
   (validation included), its sweeps and the residual of its answer. Siconos: the same LCP
   (tests/support/ap_dense.h, the unknowns ordered contact by contact), its stored blocks, then
   lcp_nsgs_SBM from zero for as many sweeps as impax made and for max_sweeps (never stopped by
   its own error: tolerance 0), µs and the residual of each answer. Every residual is the one
   measure of ap_dense.h (impax's own: the natural map relative to the problem's impulse and
   velocity scales), computed from the impulses each answer gives. Medians over the problems.
   BENCH_SICONOS_SWEEPS changes the long run's sweeps (default 5 000). BENCH_NEWTON=N also runs
   Siconos' semismooth Newton (lcp_newton_FB, dense: up to N contacts, at most 500 steps) on each
   LCP and prints its steps, time, residual and info per problem. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ap_dense.h"
#include "model_test.h"
#include "pile_gen.h"
#include "siconos_lcp.h"
#include "timing.h"
#include "w_blocks.h"

#define MAX_PROBLEMS 16
#define DIRECTIONS 4 /* aplcp's default friction_directions */

static double median_of(double *x, int n) { return n > 0 ? ipx_median(x, n) : NAN; }

/* Siconos from zero for `sweeps` sweeps: time (µs) and the residual of its impulses. */
static double run_siconos(ipx_siconos_sbm *sbm, const ipx_test_ap *a, const ipx_problem *p,
                          int sweeps, double *residual)
{
    const size_t n = (size_t)a->n;
    double *z = calloc(n, sizeof(double)), *w = calloc(n, sizeof(double));
    double *pi = malloc(sizeof(double) * 3 * (size_t)a->k);
    int done = 0;
    const double t0 = ipx_now_us();
    ipx_siconos_nsgs(sbm, sweeps, 0.0, z, w, &done);
    const double t = ipx_now_us() - t0;
    ipx_test_ap_impulse_of(a, z, pi);
    *residual = ipx_test_ap_residual(a, p, pi);
    free(z), free(w), free(pi);
    return t;
}

int main(int argc, char **argv)
{
    const char *scene_name = argc > 1 ? argv[1] : "bin";
    int sizes[32], n_sizes = 0;
    for (int i = 2; i < argc && n_sizes < 32; i++) sizes[n_sizes++] = atoi(argv[i]);
    if (!n_sizes) {
        static const int def[] = {64, 128, 256};
        for (int i = 0; i < 3; i++) sizes[n_sizes++] = def[i];
    }
    ipx_pile_options po;
    if (!strcmp(scene_name, "bin")) po = ipx_pile_default_options(IPX_PILE_BIN);
    else if (!strcmp(scene_name, "stack")) po = ipx_pile_default_options(IPX_PILE_STACK);
    else {
        fprintf(stderr, "usage: %s [bin|stack] [k ...]\n", argv[0]);
        return 2;
    }
    const int long_sweeps =
        getenv("BENCH_SICONOS_SWEEPS") ? atoi(getenv("BENCH_SICONOS_SWEEPS")) : 5000;
    const int newton_max = getenv("BENCH_NEWTON") ? atoi(getenv("BENCH_NEWTON")) : 0;
    ipx_params par = ipx_test_params("aplcp", "lcp_switch=1");
    printf("aplcp's iterative solver (impax) against Siconos' lcp_nsgs_SBM on %s LCPs: medians of\n"
           "us per solve, sweeps, residual (the natural map relative to the problem's scales; "
           "impax's\n"
           "lcp_tol is 1e-10); Siconos for impax's sweeps and for %d\n\n",
           scene_name, long_sweeps);
    printf("%6s %6s %7s %12s %7s %9s %12s %9s %12s %9s %10s\n", "k", "n", "blocks", "impax [us]",
           "sweeps", "residual", "sic same", "residual", "sic long", "residual", "us/sweep");
    for (int si = 0; si < n_sizes; si++) {
        const int k = sizes[si], problems = k < 256 ? 6 : 3;
        double t_i[MAX_PROBLEMS], sw_i[MAX_PROBLEMS], res_i[MAX_PROBLEMS], t_s[MAX_PROBLEMS],
            res_s[MAX_PROBLEMS];
        double t_l[MAX_PROBLEMS], res_l[MAX_PROBLEMS], per_sweep[MAX_PROBLEMS], blocks = 0.0;
        int n_lcp = 0;
        ipx_rng rng;
        ipx_rng_seed(&rng, 1000 + (uint64_t)k); /* bench_lcp_scale's problems */
        for (int pr = 0; pr < problems; pr++) {
            ipx_pile pile = {0};
            if (ipx_pile_make(&pile, k, &po, &rng)) return 1;
            const ipx_problem *p = &pile.problem;
            ipx_test_blocks wb = {0};
            if (ipx_test_blocks_of(p, &wb)) return 1;
            ipx_workspace *ws =
                ipx_workspace_create_bytes(ipx_workspace_bytes_for(&par, &wb.problem));
            ipx_result *r = malloc(sizeof *r);
            ipx_test_ap a;
            if (!ws || !r || ipx_test_ap_make(&a, p, NULL, DIRECTIONS)) {
                fprintf(stderr, "k = %d: out of memory\n", k);
                return 1;
            }
            double t0 = ipx_now_us();
            const ipx_status st = ipx_solve(&par, &wb.problem, ws, r);
            t_i[pr] = ipx_now_us() - t0;
            if (st != IPX_OK) printf("       impax: %s\n", r->message);
            sw_i[pr] = r->counts.steps;
            res_i[pr] = ipx_test_ap_residual(&a, p, r->impulse);

            ipx_siconos_sbm *sbm = ipx_siconos_ap(&a);
            if (!sbm) return 1;
            blocks += ipx_siconos_sbm_blocks(sbm);
            const int same = sw_i[pr] > 0 ? (int)sw_i[pr] : 1;
            t_s[pr] = run_siconos(sbm, &a, p, same, &res_s[pr]);
            t_l[pr] = run_siconos(sbm, &a, p, long_sweeps, &res_l[pr]);
            per_sweep[pr] = t_l[pr] / long_sweeps;
            n_lcp = a.n;
            if (k <= newton_max) {
                double *z = malloc(sizeof(double) * (size_t)a.n),
                       *w = malloc(sizeof(double) * (size_t)a.n);
                double *pi = malloc(sizeof(double) * 3 * (size_t)k);
                int steps = 0;
                t0 = ipx_now_us();
                const int info = ipx_siconos_newton_fb(a.n, a.M, a.q, 500, 1e-12, z, w, &steps);
                const double t = ipx_now_us() - t0;
                ipx_test_ap_impulse_of(&a, z, pi);
                printf("       Newton-FB, problem %d: %d steps, %.0f us, residual %.1e, info %d\n",
                       pr, steps, t, ipx_test_ap_residual(&a, p, pi), info);
                free(z), free(w), free(pi);
            }
            ipx_siconos_sbm_free(sbm);
            ipx_test_ap_free(&a);
            free(r);
            ipx_workspace_destroy(ws);
            ipx_test_blocks_free(&wb);
            ipx_pile_free(&pile);
        }
        printf("%6d %6d %7.0f %12.0f %7.0f %9.1e %12.0f %9.1e %12.0f %9.1e %10.1f\n", k, n_lcp,
               blocks / problems, median_of(t_i, problems), median_of(sw_i, problems),
               median_of(res_i, problems), median_of(t_s, problems), median_of(res_s, problems),
               median_of(t_l, problems), median_of(res_l, problems),
               median_of(per_sweep, problems));
        fflush(stdout);
    }
    return 0;
}
