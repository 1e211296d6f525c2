/* bench_lcp_scale: per-impact cost of the LCP-based models (aplcp, routh) against the number of
   contacts k on piles of boxes (tests/support/pile_gen.h), for the dense Lemke path and the
   iterative block solver (parameter lcp_switch), and the validation ipx_solve does first.
   Usage:

     bench_lcp_scale [model] [scene] [k ...]     model aplcp|routh, scene bin|stack|churn|random|box

   For each k: `problems` problems, each solved `repeats` times by each path; the figure is the
   median of those per-impact times (ipx_solve, validation included; the validation alone is
   shown). The dense path is skipped above DENSE_MAX contacts (it takes seconds there). Both
   answers are compared (max |v+ difference| / max |v|) and judged by the invariant checker
   (the model's promises, default tolerances). A size whose workspace cannot be allocated is skipped.
   BENCH_PARAMS adds model parameters to both paths; BENCH_DENSE_MAX changes DENSE_MAX. The
   iterative path gets W as blocks (ipx_wsparse, as the ODE adapter gives it to these models
   above their dense fallback; the validation column times that form), or densely with
   BENCH_W=dense (its O(k^2) scan into blocks then counts). Its workspace is sized for each
   problem (ipx_workspace_bytes_for: O(k) for blocks read in place), shown beside the bound
   for any form of W (ipx_workspace_bytes). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "impax/impax.h"
#include "model_test.h"
#include "pile_gen.h"
#include "box_scenes.h"
#include "problem_gen.h"
#include "timing.h"
#include "w_blocks.h"

#define MAX_SAMPLES 256

static double median_of(double *x, int n) { return n > 0 ? ipx_median(x, n) : NAN; }

static double mean_of(const double *x, int n)
{
    double s = 0.0;
    for (int i = 0; i < n; i++) s += x[i];
    return n > 0 ? s / n : NAN;
}

typedef struct scene {
    const char *name;
    int random; /* 1: tests/support/problem_gen.h bodies, 2: box_scenes.h (k <= the core's limit) */
    ipx_pile_options pile;
} scene;

static int parse_scene(const char *s, scene *sc)
{
    sc->name = s;
    sc->random = 0;
    if (!strcmp(s, "bin")) sc->pile = ipx_pile_default_options(IPX_PILE_BIN);
    else if (!strcmp(s, "stack")) sc->pile = ipx_pile_default_options(IPX_PILE_STACK);
    else if (!strcmp(s, "churn")) {
        sc->pile = ipx_pile_default_options(IPX_PILE_BIN);
        sc->pile.motion = IPX_PILE_CHURNING;
    } else if (!strcmp(s, "random")) sc->random = 1;
    else if (!strcmp(s, "box")) sc->random = 2;
    else return -1;
    return 0;
}

/* One problem of the scene (pile arrays allocated; random: static scene storage). */
static const ipx_problem *make(const scene *sc, int k, ipx_rng *rng, ipx_pile *pile)
{
    if (sc->random) {
        static ipx_scene g;
        if (sc->random == 2) { /* a box landing on an edge, 3 corners or a face; a stack above */
            if (k <= 4 && ipx_rng_next(rng) % 2u) ipx_gen_box_landing(&g, k < 2 ? 2 : k, rng);
            else ipx_gen_box_stack(&g, k < 2 ? 2 : k > 8 ? 8 : k, rng);
            return &g.problem;
        }
        ipx_gen_options o = ipx_gen_default_options();
        ipx_gen_random(&g, k, &o, rng);
        return &g.problem;
    }
    if (ipx_pile_make(pile, k, &sc->pile, rng)) return NULL;
    return &pile->problem;
}

typedef struct path_stats {
    double t[MAX_SAMPLES];
    int n, ok, clean, fallbacks, loose, failed;
    double sweeps, pivots, lcps;
} path_stats;

static void run_path(const ipx_params *par, const ipx_problem *prob, ipx_workspace *ws, int repeats,
                     path_stats *ps, ipx_result *r)
{
    for (int rep = 0; rep < repeats; rep++) {
        double t0 = ipx_now_us();
        ipx_status st = ipx_solve(par, prob, ws, r);
        if (ps->n < MAX_SAMPLES) ps->t[ps->n++] = ipx_now_us() - t0;
        if (rep) continue;
        const int aplcp = !strcmp(par->model->name, "aplcp");
        const unsigned loose = aplcp ? IPX_APLCP_HIT_LOOSE_LCP : IPX_ROUTH_HIT_LOOSE_LCP;
        if (st == IPX_OK) {
            ps->ok++;
            /* a flagged approximation is judged at the accuracy it states (lcp_accept) */
            ipx_check_options o = ipx_check_default_options();
            o.kinds = par->model->promises(par->value);
            if (r->counts.limits_hit & loose)
                o.tol_rel = par->value[aplcp ? IPX_APLCP_LCP_ACCEPT : IPX_ROUTH_LCP_ACCEPT];
            ipx_check_report rep_ = {0};
            ps->clean += ipx_check(prob, r, &o, &rep_) == 0;
        } else {
            ps->failed++;
            if (ps->failed == 1) printf("       (%s)\n", r->message);
        }
        const unsigned fb = !strcmp(par->model->name, "aplcp") ? IPX_APLCP_HIT_DENSE_FALLBACK
                                                               : IPX_ROUTH_HIT_DENSE_FALLBACK;
        ps->fallbacks += (r->counts.limits_hit & fb) != 0;
        ps->loose += (r->counts.limits_hit & loose) != 0;
        ps->sweeps += r->counts.steps;
        ps->pivots += r->counts.pivots;
        ps->lcps += r->counts.lcp_solves;
    }
}

int main(int argc, char **argv)
{
    const char *model = argc > 1 ? argv[1] : "aplcp", *scene_name = argc > 2 ? argv[2] : "bin";
    int sizes[32], n_sizes = 0;
    for (int i = 3; i < argc && n_sizes < 32; i++) sizes[n_sizes++] = atoi(argv[i]);
    if (!n_sizes) {
        static const int def[] = {8, 16, 24, 32, 48, 64};
        for (int i = 0; i < 6; i++) sizes[n_sizes++] = def[i];
    }
    scene sc;
    if (parse_scene(scene_name, &sc) || (strcmp(model, "aplcp") && strcmp(model, "routh"))) {
        fprintf(stderr, "usage: %s [aplcp|routh] [bin|stack|churn|random|box] [k ...]\n", argv[0]);
        return 2;
    }
    const int dense_max = getenv("BENCH_DENSE_MAX") ? atoi(getenv("BENCH_DENSE_MAX")) : 128;
    const char *extra = getenv("BENCH_PARAMS");
    char text[512];
    snprintf(text, sizeof text, "lcp_switch=1000000000%s%s", extra ? "," : "", extra ? extra : "");
    ipx_params dense = ipx_test_params(model, text);
    snprintf(text, sizeof text, "lcp_switch=1%s%s", extra ? "," : "", extra ? extra : "");
    ipx_params iter = ipx_test_params(model, text);
    const int as_blocks = !(getenv("BENCH_W") && !strcmp(getenv("BENCH_W"), "dense"));
    printf(
        "%s on %s problems: us per ipx_solve (median; validation included), dense Lemke vs the\n"
        "iterative solver; clean = solved and the checker finds nothing (model's promises, "
        "default\n"
        "tolerances; tol_rel = lcp_accept for a flagged approximation); steps = mean sweeps of the "
        "iterative solver (aplcp) or impulse steps\n"
        "(routh); fb/loose = solves with an LCP redone by the dense Lemke / answered by the best\n"
        "iterate within lcp_accept; d/i = median dense / median iterative;\n"
        "dv = max |v+ dense - v+ iterative| / max |v| (frictional LCPs may have several\n"
        "solutions); \"- valid\" = the iterative path without the validation (median); the\n"
        "iterative path gets W %s; ws = its workspace, sized for each problem\n"
        "(ipx_workspace_bytes_for), against ipx_workspace_bytes(k)\n\n",
        model, scene_name, as_blocks ? "as blocks" : "densely (BENCH_W=dense)");
    printf("%6s %7s %10s %18s %8s %18s %10s %8s %7s %11s %7s %9s %19s\n", "k", "blocks",
           "valid [us]", "dense [us] (mean)", "clean", "iter [us] (mean)", "- valid", "clean",
           "steps", "fb/loose", "d/i", "max dv", "ws / bound [MB]");
    for (int si = 0; si < n_sizes; si++) {
        const int k = sizes[si];
        ipx_workspace *ws_d = k <= dense_max ? ipx_workspace_create(&dense, k) : NULL;
        size_t ws_bytes = 0;
        const int problems = k <= 64 ? 16 : k < 256 ? 6 : 3;
        const int repeats = k <= 64 ? 3 : 1;
        path_stats pd = {0}, pi = {0};
        double tv[MAX_SAMPLES], model_t[MAX_SAMPLES], blocks = 0.0, dv = 0.0;
        int nv = 0, n_model = 0;
        ipx_rng rng;
        ipx_rng_seed(&rng, 1000 + (uint64_t)k);
        ipx_result *rd = malloc(sizeof *rd), *ri = malloc(sizeof *ri);
        for (int p = 0; p < problems; p++) {
            ipx_pile pile = {0};
            const ipx_problem *prob = make(&sc, k, &rng, &pile);
            if (!prob) return 1;
            blocks += pile.blocks;
            ipx_test_blocks wb = {0};
            if (as_blocks && ipx_test_blocks_of(prob, &wb) != 0) return 1;
            const ipx_problem *iprob = as_blocks ? &wb.problem : prob;
            const size_t need = ipx_workspace_bytes_for(&iter, iprob);
            ipx_workspace *ws_i = ipx_workspace_create_bytes(need);
            if (!ws_i) {
                printf("%6d skipped (out of memory for %zu bytes)\n", k, need);
                return 1;
            }
            ws_bytes = need > ws_bytes ? need : ws_bytes;
            char msg[IPX_MESSAGE_SIZE];
            /* the validation ipx_solve makes first, alone (a fresh workspace: it takes slices) */
            ipx_workspace *wv = ipx_workspace_create_bytes(ipx_validate_workspace_bytes(k));
            double t0 = ipx_now_us();
            if (ipx_problem_validate(iprob, wv, msg, sizeof msg) != IPX_OK)
                printf("       (%s)\n", msg);
            const double t_valid = ipx_now_us() - t0;
            ipx_workspace_destroy(wv);
            tv[nv++] = t_valid;
            const int before = pi.n;
            run_path(&iter, iprob, ws_i, repeats, &pi, ri);
            ipx_workspace_destroy(ws_i);
            for (int x = before; x < pi.n; x++) model_t[n_model++] = pi.t[x] - t_valid;
            if (ws_d) {
                run_path(&dense, prob, ws_d, repeats, &pd, rd);
                if (rd->status == IPX_OK && ri->status == IPX_OK) {
                    double vs = 1e-300, d = 0.0;
                    for (int i = 0; i < 3 * k; i++) {
                        vs = fmax(vs, fabs(prob->v[i]));
                        d = fmax(d, fabs(rd->v_post[i] - ri->v_post[i]));
                    }
                    dv = fmax(dv, d / vs);
                }
            }
            ipx_test_blocks_free(&wb);
            if (!sc.random) ipx_pile_free(&pile);
        }
        const double md = mean_of(pd.t, pd.n), mi = mean_of(pi.t, pi.n);
        const double td = median_of(pd.t, pd.n), ti = median_of(pi.t, pi.n);
        char dcol[32] = "-", dclean[16] = "-", dvcol[16] = "-", ratio[16] = "-", iclean[16];
        if (ws_d) {
            snprintf(dcol, sizeof dcol, "%.1f (%.0f)", td, md);
            snprintf(dclean, sizeof dclean, "%d/%d", pd.clean, problems);
            snprintf(dvcol, sizeof dvcol, "%.1e", dv);
            snprintf(ratio, sizeof ratio, "%.2f", td / ti);
        }
        snprintf(iclean, sizeof iclean, "%d/%d", pi.clean, problems);
        char icol[32];
        snprintf(icol, sizeof icol, "%.1f (%.0f)", ti, mi);
        char wcol[48];
        snprintf(wcol, sizeof wcol, "%.2f / %.1f", ws_bytes / 1e6,
                 ipx_workspace_bytes(&iter, k) / 1e6);
        printf("%6d %7.0f %10.1f %18s %8s %18s %10.1f %8s %7.0f %5d/%-5d %7s %9s %19s\n", k,
               blocks / problems, median_of(tv, nv), dcol, dclean, icol,
               median_of(model_t, n_model), iclean, pi.sweeps / problems, pi.fallbacks, pi.loose,
               ratio, dvcol, wcol);
        fflush(stdout);
        free(rd), free(ri);
        ipx_workspace_destroy(ws_d);
    }
    return 0;
}
