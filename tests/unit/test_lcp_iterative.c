/* The iterative LCP solver of the LCP-based models (aplcp, routh; core/src/numerics/nsgs.h) against
   the dense Lemke, and its answers against the LCP itself and the invariant checker:
   - single contacts (the local solver's cases, every friction polygon, Newton targets, Routh's
     caps): the same answer as the dense Lemke;
   - frictionless piles (the velocities are unique): the same v+ as the dense Lemke;
   - frictional piles and random problems (an LCP with friction may have several solutions):
     the answer solves the AP LCP to lcp_tol, measured here on the dense matrix built from the
     layout documented in anitescu_potra.h, and the checker (IPX_CHECK_ALL, default tolerances) passes;
   - the size switch, the dense fallback and the failure above lcp_fallback;
   - islands of a bin of boxes in ODE on which the dense Lemke fails: the iterative solver answers;
   - a pile of several hundred contacts. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ap_dense.h"
#include "ensure.h"
#include "lcp_rescue_data.h"
#include "model_test.h"
#include "pile_gen.h"
#include "problem_gen.h"

#define ITERATIVE "lcp_switch=1"
#define DENSE "lcp_switch=1000000000"

static ipx_scene scene; /* large: static storage */

/* "base,extra" parameters of a model. */
static ipx_params params(const char *model, const char *base, const char *extra)
{
    char text[256];
    snprintf(text, sizeof text, "%s%s%s", base, *base && extra && *extra ? "," : "",
             extra ? extra : "");
    return ipx_test_params(model, text);
}

static double max_abs(const double *x, int n)
{
    double m = 0.0;
    for (int i = 0; i < n; i++) m = fmax(m, fabs(x[i]));
    return m;
}

/* max |a - b| / scale over n entries. */
static double rel_diff(const double *a, const double *b, int n, double scale)
{
    double d = 0.0;
    for (int i = 0; i < n; i++) d = fmax(d, fabs(a[i] - b[i]));
    return d / fmax(scale, 1e-300);
}

static double ap_residual(const ipx_problem *p, const double *pi, const double *shift)
{
    return ipx_test_ap_residual_of(
        p, pi, shift, 4); /* ap_dense.h: the LCP from W, as anitescu_potra.h lays it out */
}

/* aplcp's Newton targets: -e |v_n| where the approach beats v_capture. */
static void newton_shift(const ipx_problem *p, double *shift)
{
    for (int i = 0; i < p->k; i++) {
        const double approach = -p->v[3 * i + IPX_N];
        shift[i] = approach > p->contact[i].v_capture ? -p->contact[i].e * approach : 0.0;
    }
}

/* Solves with a fresh workspace; returns the status. */
static ipx_status solve(const ipx_params *par, const ipx_problem *p, ipx_result *r)
{
    ipx_workspace *ws = ipx_test_workspace(par, p->k); /* kept: r's arrays live there */
    ENSURE(ws != NULL);
    return ws ? ipx_solve(par, p, ws, r) : IPX_ERR_WORKSPACE;
}

/* The checker on the given kinds at its default tolerances (tol_rel > 0: that relative one). */
static int check_tol(const ipx_problem *p, const ipx_result *r, unsigned kinds, double tol_rel)
{
    ipx_check_options opt = ipx_check_default_options();
    opt.kinds = kinds;
    if (tol_rel > 0.0) opt.tol_rel = tol_rel;
    ipx_check_report rep;
    const int bad = ipx_check(p, r, &opt, &rep);
    if (bad) {
        char text[1024];
        ipx_check_format(&rep, text, sizeof text);
        fprintf(stderr, "k = %d:\n%s", p->k, text);
    }
    return bad == 0;
}

static int check_all(const ipx_problem *p, const ipx_result *r, unsigned kinds)
{
    return check_tol(p, r, kinds, 0.0);
}

static void test_single_contact_matches_dense(void)
{
    /* the local solver's cases: separating, sticking, sliding at a vertex or along an edge of
       every polygon, with and without Newton targets, mu up to 2 */
    static const char *extra[] = {"friction_directions=2", "friction_directions=4",
                                  "friction_directions=6", "friction_directions=8",
                                  "friction_directions=4,newton_restitution=1"};
    static const int nds[] = {2, 4, 6, 8, 4};
    ipx_gen_options gen = ipx_gen_default_options();
    gen.mu_max = 2.0;
    ipx_rng rng;
    ipx_rng_seed(&rng, 4242);
    int worse = 0, lemke = 0, total = 0, other = 0;
    for (int e = 0; e < 5; e++) {
        ipx_params it = params("aplcp", ITERATIVE, extra[e]), de = params("aplcp", DENSE, extra[e]);
        for (int t = 0; t < 1000; t++, total++) {
            ipx_gen_random(&scene, 1, &gen, &rng);
            ipx_result ri, rd;
            ENSURE(solve(&it, &scene.problem, &ri) == IPX_OK);
            ENSURE(solve(&de, &scene.problem, &rd) == IPX_OK);
            ENSURE(ri.counts.steps >= 1 && rd.counts.steps == 0); /* the paths taken */
            const double vs = max_abs(scene.problem.v, 3),
                         ps = fmax(max_abs(rd.impulse, 3), 1e-300);
            const double dv = rel_diff(ri.v_post, rd.v_post, 3, vs),
                         dp = rel_diff(ri.impulse, rd.impulse, 3, ps);
            if (!(dv <= 1e-9 && dp <= 1e-8)) {
                /* a single contact with large friction and strong normal-tangential coupling can
                   have several solutions: then both must solve the LCP */
                double shift[1];
                newton_shift(&scene.problem, shift);
                const double *sh = e == 4 ? shift : NULL;
                const double res_i =
                    ipx_test_ap_residual_of(&scene.problem, ri.impulse, sh, nds[e]);
                const double res_d =
                    ipx_test_ap_residual_of(&scene.problem, rd.impulse, sh, nds[e]);
                if (res_i <= 1e-10 && res_d <= 1e-12) {
                    other++;
                } else {
                    worse++;
                    fprintf(
                        stderr,
                        "%s problem %d: dv %.3g dp %.3g, residuals %.3g (iterative) %.3g (dense)\n",
                        extra[e], t, dv, dp, res_i, res_d);
                }
            }
            lemke += ri.counts.pivots > 0; /* the enumeration left it to the local Lemke */
            ENSURE(check_all(&scene.problem, &ri,
                             e == 4 ? ipx_model_aplcp.promises(it.value) : IPX_CHECK_ALL));
        }
    }
    ENSURE(worse == 0);
    printf(
        "  %d single-contact problems: %d another solution than the dense Lemke's; %d left to the "
        "local Lemke\n",
        total, other, lemke);
    ENSURE(lemke <= total / 100);
}

static void test_routh_single_contact_with_caps_matches_dense(void)
{
    /* fixed small steps: several capped step LCPs per sample, the same caps on both paths */
    ipx_gen_options gen = ipx_gen_default_options();
    ipx_rng rng;
    ipx_rng_seed(&rng, 77);
    int worse = 0;
    for (int t = 0; t < 600; t++) {
        const int k = 1 + t % 3;
        gen.mu_max = t % 2 ? 1.0 : 0.0;
        ipx_gen_random(&scene, k, &gen, &rng);
        ipx_params it = params("routh", ITERATIVE, "step_relative=0.2,seed=5");
        ipx_params de = params("routh", DENSE, "step_relative=0.2,seed=5");
        ipx_result ri, rd;
        ENSURE(solve(&it, &scene.problem, &ri) == IPX_OK);
        ENSURE(solve(&de, &scene.problem, &rd) == IPX_OK);
        ENSURE(check_all(&scene.problem, &ri, ipx_model_routh.promises(it.value)));
        /* one contact, or frictionless: every step LCP has one solution, so the samples agree */
        if (k == 1 || gen.mu_max == 0.0) {
            const double dv =
                rel_diff(ri.v_post, rd.v_post, 3 * k, max_abs(scene.problem.v, 3 * k));
            if (!(dv <= 1e-8) || ri.counts.steps != rd.counts.steps) {
                worse++;
                fprintf(stderr, "routh problem %d (k = %d): dv %.3g, steps %d / %d\n", t, k, dv,
                        ri.counts.steps, rd.counts.steps);
            }
        }
    }
    ENSURE(worse == 0);
}

static void test_frictionless_piles_match_dense(void)
{
    /* without friction v+ is unique (the LCP is a convex QP's): both paths give it */
    static const int sizes[] = {8, 16, 32, 48, 64};
    ipx_rng rng;
    ipx_rng_seed(&rng, 9);
    for (int kind = 0; kind < 2; kind++)
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
            const int k = sizes[s];
            ipx_pile_options o = ipx_pile_default_options(kind ? IPX_PILE_STACK : IPX_PILE_BIN);
            o.mu = 0.0;
            ipx_pile pile;
            ENSURE(ipx_pile_make(&pile, k, &o, &rng) == 0);
            for (int m = 0; m < 2; m++) {
                const char *model = m ? "routh" : "aplcp";
                ipx_params it = params(model, ITERATIVE, ""), de = params(model, DENSE, "");
                ipx_result *ri = malloc(sizeof *ri), *rd = malloc(sizeof *rd);
                ENSURE(solve(&it, &pile.problem, ri) == IPX_OK);
                ENSURE(solve(&de, &pile.problem, rd) == IPX_OK);
                const double dv = rel_diff(ri->v_post, rd->v_post, 3 * k, max_abs(pile.v, 3 * k));
                if (!(dv <= 1e-7))
                    fprintf(stderr, "%s %s k = %d: dv %.3g\n", model, kind ? "stack" : "bin", k,
                            dv);
                ENSURE(dv <= 1e-7);
                ENSURE(check_all(&pile.problem, ri,
                                 m ? ipx_model_routh.promises(it.value) : IPX_CHECK_ALL));
                if (!m) ENSURE(ap_residual(&pile.problem, ri->impulse, NULL) <= 1e-9);
                free(ri), free(rd);
            }
            ipx_pile_free(&pile);
        }
}

static void test_frictional_answers_solve_the_lcp(void)
{
    /* friction: several solutions are common in piles (redundant contacts), so the answer is
       judged on the LCP itself and by the checker; the dense answer passes the same test */
    static const int sizes[] = {8, 16, 24, 32, 48, 64};
    ipx_params it = params("aplcp", ITERATIVE, ""), de = params("aplcp", DENSE, "");
    ipx_rng rng;
    ipx_rng_seed(&rng, 31);
    int problems = 0, agree = 0;
    for (int kind = 0; kind < 4; kind++)
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
            const int k = sizes[s];
            ipx_pile pile = {0};
            const ipx_problem *p;
            if (kind == 3) {
                ipx_gen_options gen = ipx_gen_default_options();
                ipx_gen_random(&scene, k, &gen, &rng);
                p = &scene.problem;
            } else {
                ipx_pile_options o =
                    ipx_pile_default_options(kind == 1 ? IPX_PILE_STACK : IPX_PILE_BIN);
                if (kind == 2) o.motion = IPX_PILE_CHURNING;
                o.mu = -1.0; /* mu from [0, 1] */
                ENSURE(ipx_pile_make(&pile, k, &o, &rng) == 0);
                p = &pile.problem;
            }
            ipx_result *ri = malloc(sizeof *ri), *rd = malloc(sizeof *rd);
            ENSURE(solve(&it, p, ri) == IPX_OK);
            ENSURE(solve(&de, p, rd) == IPX_OK);
            const double res_i = ap_residual(p, ri->impulse, NULL),
                         res_d = ap_residual(p, rd->impulse, NULL);
            /* a dense fallback (the bit) is exact; otherwise the iteration met lcp_tol = 1e-10 */
            if (!(res_i <= 1e-9))
                fprintf(stderr, "kind %d k = %d: residual %.3g\n", kind, k, res_i);
            ENSURE(res_i <= 1e-9);
            ENSURE(res_d <= 1e-12);
            ENSURE(check_all(p, ri, IPX_CHECK_ALL));
            agree += rel_diff(ri->v_post, rd->v_post, 3 * k, max_abs(p->v, 3 * k)) <= 1e-7;
            problems++;
            free(ri), free(rd);
            if (kind != 3) ipx_pile_free(&pile);
        }
    printf(
        "  %d frictional problems, %d with the dense Lemke's v+ (the others: another solution)\n",
        problems, agree);
}

static void test_newton_targets_iterative(void)
{
    /* Newton restitution shifts the normal rows' q: frictionless piles match the dense path */
    ipx_rng rng;
    ipx_rng_seed(&rng, 5);
    ipx_pile_options o = ipx_pile_default_options(IPX_PILE_BIN);
    o.mu = 0.0;
    ipx_pile pile;
    ENSURE(ipx_pile_make(&pile, 40, &o, &rng) == 0);
    ipx_params it = params("aplcp", ITERATIVE, "newton_restitution=1");
    ipx_params de = params("aplcp", DENSE, "newton_restitution=1");
    ipx_result *ri = malloc(sizeof *ri), *rd = malloc(sizeof *rd);
    ENSURE(solve(&it, &pile.problem, ri) == IPX_OK);
    ENSURE(solve(&de, &pile.problem, rd) == IPX_OK);
    ENSURE(rel_diff(ri->v_post, rd->v_post, 120, max_abs(pile.v, 120)) <= 1e-7);
    ENSURE(check_all(&pile.problem, ri, ipx_model_aplcp.promises(it.value)));
    free(ri), free(rd);
    ipx_pile_free(&pile);
}

static void test_switch_fallback_and_failure(void)
{
    ipx_rng rng;
    ipx_rng_seed(&rng, 17);
    ipx_pile_options o = ipx_pile_default_options(IPX_PILE_STACK);
    ipx_pile pile;
    ENSURE(ipx_pile_make(&pile, 32, &o, &rng) == 0);
    ipx_result *r = malloc(sizeof *r), *rd = malloc(sizeof *rd);
    /* below the switch: the dense Lemke (pivots, no sweeps); at it: sweeps */
    ipx_params below = params("aplcp", "lcp_switch=33", ""),
               at = params("aplcp", "lcp_switch=32", "");
    ENSURE(solve(&below, &pile.problem, rd) == IPX_OK);
    ENSURE(rd->counts.steps == 0 && rd->counts.pivots > 0);
    ENSURE(solve(&at, &pile.problem, r) == IPX_OK);
    ENSURE(r->counts.steps > 0);
    /* one sweep cannot settle a stack: the dense Lemke redoes it (counted), same answer */
    ipx_params fb = params("aplcp", ITERATIVE, "max_sweeps=1,lcp_fallback=32");
    ENSURE(solve(&fb, &pile.problem, r) == IPX_OK);
    ENSURE(r->counts.limits_hit & IPX_APLCP_HIT_DENSE_FALLBACK);
    ENSURE(r->counts.lcp_solves == 2 && r->counts.steps == 1);
    ENSURE(rel_diff(r->v_post, rd->v_post, 96, max_abs(pile.v, 96)) <= 1e-12);
    /* above lcp_fallback: the exact blocks; the first holds all 32 contacts (up to 64 with 4
       friction directions), so it is the dense Lemke's LCP: the same answer, no limit hit */
    ipx_params block = params("aplcp", ITERATIVE, "max_sweeps=1,lcp_fallback=31");
    ENSURE(solve(&block, &pile.problem, r) == IPX_OK);
    ENSURE(r->counts.limits_hit == 0 && r->counts.steps == 1 && r->counts.pivots > 0);
    ENSURE(rel_diff(r->v_post, rd->v_post, 96, max_abs(pile.v, 96)) <= 1e-12);
    /* without them: not converged, said with the residual; nothing applied */
    ipx_params no = params("aplcp", ITERATIVE, "max_sweeps=1,lcp_fallback=31,block_rounds=0");
    ENSURE(solve(&no, &pile.problem, r) == IPX_ERR_NOT_CONVERGED);
    ENSURE(strstr(r->message, "residual") != NULL);
    ENSURE(max_abs(r->impulse, 96) == 0.0);
    /* ... unless a residual of lcp_accept is good enough: then the best iterate, flagged, judged
       by the checker at that accuracy */
    ipx_params loose =
        params("aplcp", ITERATIVE, "max_sweeps=40,lcp_fallback=31,lcp_accept=0.05,block_rounds=0");
    ENSURE(solve(&loose, &pile.problem, r) == IPX_OK);
    ENSURE(r->counts.limits_hit & IPX_APLCP_HIT_LOOSE_LCP);
    const double res = ap_residual(&pile.problem, r->impulse, NULL);
    ENSURE(res > 1e-10 && res <= 0.05);
    ENSURE(check_tol(&pile.problem, r, IPX_CHECK_ALL, 0.05));
    /* routh: the same fallback bit of its own */
    ipx_params rfb = params("routh", ITERATIVE, "max_sweeps=1,lcp_fallback=32");
    ENSURE(solve(&rfb, &pile.problem, r) == IPX_OK);
    ENSURE(r->counts.limits_hit & IPX_ROUTH_HIT_DENSE_FALLBACK);
    /* ... but not its reference LCP (it only sets the step h) when the best iterate is within
       lcp_accept: with 10 sweeps (the reference gets to 0.1, no step LCP settles) each step costs
       two solves (the sweeps, the dense Lemke) and the reference one; with lcp_accept 0, two */
    for (int accept = 0; accept < 2; accept++) {
        ipx_params ref = params("routh", ITERATIVE,
                                accept ? "max_sweeps=10,lcp_fallback=32,lcp_accept=0.1"
                                       : "max_sweeps=10,lcp_fallback=32,lcp_accept=0");
        ENSURE(solve(&ref, &pile.problem, r) == IPX_OK);
        printf("  routh, lcp_accept %s: %d steps, %d LCP solves\n", accept ? "0.1" : "0",
               r->counts.steps, r->counts.lcp_solves);
        ENSURE(r->counts.steps > 0 &&
               r->counts.lcp_solves == (accept ? 1 : 2) + 2 * r->counts.steps);
        ENSURE(check_tol(&pile.problem, r, ipx_model_routh.promises(ref.value), 1e-9));
    }
    /* where the fallback's dense Lemke fails too (made to, max_pivots=1: a ray or an inaccurate
       basis on the bin's degenerate LCPs did), the iterative solver answers with its full sweeps
       and lcp_accept, as above lcp_fallback; before, the island was left to the host */
    for (int m = 0; m < 2; m++) {
        ipx_params both = params(m ? "routh" : "aplcp", ITERATIVE,
                                 "max_sweeps=40,lcp_fallback=32,lcp_accept=0.05,max_pivots=1");
        const ipx_status st = solve(&both, &pile.problem, r);
        const unsigned bits = m ? IPX_ROUTH_HIT_DENSE_FALLBACK | IPX_ROUTH_HIT_ITERATIVE_RESCUE
                                : IPX_APLCP_HIT_DENSE_FALLBACK | IPX_APLCP_HIT_ITERATIVE_RESCUE;
        printf("  %s, the fallback's Lemke failing: %s, limits_hit 0x%x\n", m ? "routh" : "aplcp",
               ipx_status_name(st), r->counts.limits_hit);
        ENSURE(st == IPX_OK && (r->counts.limits_hit & bits) == bits && r->message[0] == '\0');
        ENSURE(check_tol(&pile.problem, r, m ? ipx_model_routh.promises(both.value) : IPX_CHECK_ALL,
                         0.05));
    }
    free(r), free(rd);
    ipx_pile_free(&pile);
}

static void test_rescue_where_the_dense_lemke_fails(void)
{
    /* captured islands (lcp_rescue_data.h) on which the dense Lemke ends on a false ray or an
       inaccurate basis; below lcp_switch the iterative solver answers them, to lcp_tol */
    struct {
        int k;
        const double *W, *v, *mu;
    } cases[] = {
        {bin_ray4_k, bin_ray4_W, bin_ray4_v, bin_ray4_mu},
        {bin_numeric5_k, bin_numeric5_W, bin_numeric5_v, bin_numeric5_mu},
        {bin_numeric8_k, bin_numeric8_W, bin_numeric8_v, bin_numeric8_mu},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        ipx_contact contact[8];
        for (int i = 0; i < cases[c].k; i++)
            contact[i] =
                (ipx_contact){.mu = cases[c].mu[i], .e = 0.3, .v_capture = 0.05, .v_plastic = 0.0};
        const ipx_problem p = {
            .k = cases[c].k, .W = cases[c].W, .v = cases[c].v, .contact = contact};
        for (int m = 0; m < 2; m++) {
            ipx_params par = ipx_test_params(m ? "routh" : "aplcp", "");
            ipx_result r;
            const ipx_status st = solve(&par, &p, &r);
            if (st != IPX_OK) fprintf(stderr, "%s\n", r.message);
            ENSURE(st == IPX_OK);
            const unsigned rescue =
                m ? IPX_ROUTH_HIT_ITERATIVE_RESCUE : IPX_APLCP_HIT_ITERATIVE_RESCUE;
            ENSURE(check_all(&p, &r, m ? ipx_model_routh.promises(par.value) : IPX_CHECK_ALL));
            if (!m) ENSURE(ap_residual(&p, r.impulse, NULL) <= 1e-9);
            printf("  k = %d, %s: %s\n", p.k, m ? "routh" : "aplcp",
                   r.counts.limits_hit & rescue ? "the iterative solver answered"
                                                : "the dense Lemke answered");
        }
    }
}

static void test_large_pile(void)
{
    /* several hundred contacts, which the dense Lemke cannot do in reasonable time (O(k^3):
       some 50 s at k = 500) */
    ipx_rng rng;
    ipx_rng_seed(&rng, 2);
    static const ipx_pile_kind kinds[] = {IPX_PILE_BIN, IPX_PILE_STACK};
    for (int m = 0; m < 2; m++)
        for (int c = 0; c < 2; c++) {
            const int k = c ? 300 : 500;
            ipx_pile_options o = ipx_pile_default_options(kinds[c]);
            ipx_pile pile;
            ENSURE(ipx_pile_make(&pile, k, &o, &rng) == 0);
            ipx_params par = ipx_test_params(m ? "routh" : "aplcp", "");
            ipx_result *r = malloc(sizeof *r);
            const ipx_status st = solve(&par, &pile.problem, r);
            if (st != IPX_OK) fprintf(stderr, "%s\n", r->message);
            ENSURE(st == IPX_OK);
            if (st == IPX_OK) {
                /* converged to lcp_tol, or (deep piles) the best iterate within lcp_accept: the
                   checker at the accuracy the result states */
                const unsigned loose = m ? IPX_ROUTH_HIT_LOOSE_LCP : IPX_APLCP_HIT_LOOSE_LCP;
                const int approx = (r->counts.limits_hit & loose) != 0;
                const double acc = approx ? 1e-3 : 0.0;
                ENSURE(check_tol(&pile.problem, r,
                                 m ? ipx_model_routh.promises(par.value) : IPX_CHECK_ALL, acc));
                const double res = m ? 0.0 : ap_residual(&pile.problem, r->impulse, NULL);
                if (!m) ENSURE(res <= (approx ? 1e-3 : 1e-9));
                printf("  %s, %s, k = %d: %d %s, %s", m ? "routh" : "aplcp", c ? "stack" : "bin", k,
                       m ? r->counts.lcp_solves : r->counts.steps, m ? "LCPs" : "sweeps",
                       approx ? "best iterate within lcp_accept" : "converged");
                if (!m) printf(", residual %.2g", res);
                printf("\n");
            }
            free(r);
            ipx_pile_free(&pile);
        }
}

static void test_stall_ends_early(void)
{
    /* a deep bin whose sweeps stall on a plateau within lcp_accept: with stall_sweeps the solve
       ends there, flagged as after max_sweeps, far sooner; without it the sweeps run to
       max_sweeps; and a best outside lcp_accept never stops them early */
    ipx_rng rng;
    ipx_rng_seed(&rng, 5);
    ipx_pile_options o = ipx_pile_default_options(IPX_PILE_BIN);
    ipx_pile pile;
    ENSURE(ipx_pile_make(&pile, 512, &o, &rng) == 0);
    ipx_result *r = malloc(sizeof *r);
    for (int m = 0; m < 2; m++) {
        const char *model = m ? "routh" : "aplcp";
        const unsigned loose = m ? IPX_ROUTH_HIT_LOOSE_LCP : IPX_APLCP_HIT_LOOSE_LCP;
        const unsigned promises =
            m ? ipx_model_routh.promises(ipx_test_params("routh", "").value) : IPX_CHECK_ALL;
        int sweeps[3];
        for (int c = 0; c < 3; c++) {
            static const char *extra[] = {"max_sweeps=3000", "max_sweeps=3000,stall_sweeps=0",
                                          "max_sweeps=3000,lcp_accept=1e-12,stall_sweeps=100"};
            ipx_params par = params(model, "", extra[c]);
            const ipx_status st = solve(&par, &pile.problem, r);
            sweeps[c] = m ? r->counts.lcp_solves : r->counts.steps;
            printf("  %s, %s: %s, limits_hit 0x%x, %d %s, residual %.3g\n", model, extra[c],
                   ipx_status_name(st), r->counts.limits_hit, sweeps[c], m ? "LCPs" : "sweeps",
                   st == IPX_OK ? ap_residual(&pile.problem, r->impulse, NULL) : NAN);
            if (c < 2) { /* the best iterate within lcp_accept, flagged, either way */
                ENSURE(st == IPX_OK && (r->counts.limits_hit & loose));
                ENSURE(check_tol(&pile.problem, r, promises, 1e-3));
                if (!m) ENSURE(ap_residual(&pile.problem, r->impulse, NULL) <= 1e-3);
            } else { /* the best is never within 1e-12: no stall exit, and no answer */
                ENSURE(st == IPX_ERR_NOT_CONVERGED);
            }
        }
        if (!m) { /* aplcp's one LCP: the sweeps themselves */
            ENSURE(sweeps[1] == 3000 && sweeps[2] == 3000);
            ENSURE(sweeps[0] < 3000 / 2);
        }
    }
    free(r);
    ipx_pile_free(&pile);
}

int main(void)
{
    RUN(test_single_contact_matches_dense);
    RUN(test_routh_single_contact_with_caps_matches_dense);
    RUN(test_frictionless_piles_match_dense);
    RUN(test_frictional_answers_solve_the_lcp);
    RUN(test_newton_targets_iterative);
    RUN(test_switch_fallback_and_failure);
    RUN(test_rescue_where_the_dense_lemke_fails);
    RUN(test_large_pile);
    RUN(test_stall_ends_early);
    return ipx_test_exit();
}
