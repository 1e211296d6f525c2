/* The host's accuracy (ipx_problem.v_tol; docs/core-api.md "Solve accuracy"): aplcp's and
   routh's iterative solves stop once every contact's conditions hold to v_tol, and the answer
   keeps the stated bound, checked here on velocities recomputed from the impulses with the
   dense W: no contact approaches faster than v_tol, no contact separates faster than v_tol
   under a normal impulse that makes more than v_tol at it (lambda_n W_nn), none does more work
   against complementarity than the largest impulse times v_tol, the friction polygon holds, and the
   checker (default tolerances, which take v_tol into the velocity conditions only) finds every
   promise of the model kept, energy first. An answer to v_tol that would gain energy is solved again to the model's own
   tolerances: ipx_solve's answer is then the exact one and both solves are counted. A bad v_tol
   is refused with a message naming it. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ensure.h"
#include "model_test.h"
#include "pile_gen.h"
#include "problem_gen.h"
#include "mathutil.h"        /* ipx_max_abs */
#include "result_internal.h" /* the model's own answer, before ipx_solve's check */

enum { PILE_K = 512 };

/* m/s: |g| h of a 1 ms step, the ODE adapter's default v_tol (accuracy_steps 1) there */
static const double V_HOST = 9.81e-3;

static ipx_status solve(const ipx_params *par, const ipx_problem *p, ipx_result *r)
{
    ipx_workspace *ws = ipx_test_workspace(par, p->k); /* kept: r's arrays live there */
    ENSURE(ws != NULL);
    return ws ? ipx_solve(par, p, ws, r) : IPX_ERR_WORKSPACE;
}

/* The bound of nsgs.h on aplcp's answer, from v + W pi on the dense W: the largest violation
   in m/s of approach, of separation under load (min(lambda_n W_nn, v_n)), of the friction
   polygon's cone (N s), and the largest complementarity work lambda_n v_n over Z (m/s). */
static void violations(const ipx_problem *p, const ipx_result *r, double out[4])
{
    const int n = 3 * p->k;
    double *vp = malloc(sizeof(double) * (size_t)n);
    ENSURE(vp != NULL);
    for (int i = 0; i < n; i++) { /* by hand, not ipx_problem_apply_W: an independent product */
        double s = p->v[i];
        for (int j = 0; j < n; j++) s += p->W[i + (size_t)n * (size_t)j] * r->impulse[j];
        vp[i] = s;
    }
    const double Z = ipx_max_abs(r->impulse, (size_t)n);
    out[0] = out[1] = out[2] = out[3] = 0.0;
    for (int c = 0; c < p->k; c++) {
        const double *pi = r->impulse + 3 * c, vn = vp[3 * c + IPX_N];
        const double wnn = p->W[(3 * (size_t)c + IPX_N) * (size_t)(n + 1)];
        out[0] = fmax(out[0], -vn);
        out[1] = fmax(out[1], fmin(pi[IPX_N] * wnn, vn));
        out[2] = fmax(out[2], hypot(pi[IPX_T1], pi[IPX_T2]) - p->contact[c].mu * pi[IPX_N]);
        out[3] = fmax(out[3], pi[IPX_N] * vn / Z);
    }
    free(vp);
}

/* A settled bin of k contacts (pile_gen.h), boxes striking its top, drawn from seed. */
static void settled_bin(ipx_pile *pile, int k, uint64_t seed)
{
    ipx_rng rng;
    ipx_rng_seed(&rng, seed);
    const ipx_pile_options o = ipx_pile_default_options(IPX_PILE_BIN);
    ENSURE(ipx_pile_make(pile, k, &o, &rng) == 0);
}

static void test_pile_to_the_host_accuracy(void)
{
    /* a settled bin of 512 contacts, boxes striking its top: to lcp_tol the sweeps stall on a
       plateau (test_lcp_iterative.c); to the host's accuracy they end, within the bound */
    ipx_pile pile;
    settled_bin(&pile, PILE_K, 5);
    ipx_result *r = malloc(sizeof *r);
    for (int m = 0; m < 2; m++) {
        const char *model = m ? "routh" : "aplcp";
        const ipx_params par = ipx_test_params(model, "");
        const unsigned loose = m ? IPX_ROUTH_HIT_LOOSE_LCP : IPX_APLCP_HIT_LOOSE_LCP;
        int work[2], loose_hit[2];
        for (int host = 0; host < 2; host++) {
            ipx_problem p = pile.problem;
            p.v_tol = host ? V_HOST : 0.0;
            const ipx_status st = solve(&par, &p, r);
            ENSURE(st == IPX_OK);
            work[host] = m ? r->counts.lcp_solves : r->counts.steps;
            printf("  %s, v_tol %g m/s: %s, %d %s, limits_hit 0x%x\n", model, p.v_tol,
                   ipx_status_name(st), work[host], m ? "LCPs" : "sweeps", r->counts.limits_hit);
            if (host && st == IPX_OK) {
                ENSURE(!(r->counts.limits_hit & loose)); /* met, not the best of a stall */
                ENSURE(ipx_test_keeps_promises(&par, &p, r));
                if (!m) {
                    double viol[4];
                    violations(&p, r, viol);
                    printf("    approach %.3g m/s, separation under load %.3g m/s, cone %.3g N s, "
                           "work %.3g m/s\n",
                           viol[0], viol[1], viol[2], viol[3]);
                    ENSURE(viol[0] <= V_HOST * (1.0 + 1e-9));
                    ENSURE(viol[1] <= V_HOST * (1.0 + 1e-9));
                    ENSURE(viol[2] <= 1e-12 * ipx_max_abs(r->impulse, 3 * (size_t)p.k));
                    ENSURE(viol[3] <= V_HOST * (1.0 + 1e-9));
                }
            }
            loose_hit[host] = (r->counts.limits_hit & loose) != 0;
        }
        /* to lcp_tol the sweeps end on a stall, the best iterate flagged; to the host's accuracy
           they meet it (above) and, for aplcp's one LCP, in fewer sweeps */
        ENSURE(loose_hit[0] && !loose_hit[1]);
        if (!m) ENSURE(work[1] < work[0]);
    }
    free(r);
    ipx_pile_free(&pile);
}

/* A settled bin of k contacts under model: answered by the dense Lemke (pivots) asked exactly
   with the params `iterative`, and with the params `dense` also where the host gives its
   accuracy; by the iterative solver (no dense pivot, no limit) with `iterative` and v_tol, the
   answer within the bound above (complementarity too where the model promises it of its final
   impulse). */
static void small_pile_solver(const char *model, int k, uint64_t seed, const char *iterative,
                              const char *dense, int complementarity)
{
    ipx_pile pile;
    settled_bin(&pile, k, seed);
    ipx_result *r = malloc(sizeof *r);
    const ipx_params par = ipx_test_params(model, iterative), off = ipx_test_params(model, dense);
    ipx_problem p = pile.problem;
    ENSURE(solve(&par, &p, r) == IPX_OK);
    ENSURE(r->counts.pivots > 0); /* the dense Lemke */
    p.v_tol = V_HOST;
    ENSURE(solve(&off, &p, r) == IPX_OK);
    ENSURE(r->counts.pivots > 0);
    ENSURE(solve(&par, &p, r) == IPX_OK);
    printf("  %s, %d contacts, v_tol %g m/s: %d steps, %d pivots, limits_hit 0x%x\n", model, k,
           p.v_tol, r->counts.steps, r->counts.pivots, r->counts.limits_hit);
    ENSURE(r->counts.pivots == 0 && r->counts.limits_hit == 0);
    ENSURE(ipx_test_keeps_promises(&par, &p, r));
    double viol[4];
    violations(&p, r, viol);
    ENSURE(viol[0] <= V_HOST * (1.0 + 1e-9));
    if (complementarity)
        ENSURE(viol[1] <= V_HOST * (1.0 + 1e-9) && viol[3] <= V_HOST * (1.0 + 1e-9));
    ENSURE(viol[2] <= 1e-12 * ipx_max_abs(r->impulse, 3 * (size_t)p.k));
    free(r);
    ipx_pile_free(&pile);
}

static void test_small_pile_iterative_only_for_the_host(void)
{
    /* aplcp's solver by v_tol (docs/models/aplcp.md §3): a settled bin of 12 contacts, between
       lcp_switch_host (2) and lcp_switch (16), is answered by the dense Lemke when asked exactly
       (v_tol = 0) and by the iterative solver, within the bound above, when the host gives its
       accuracy; lcp_switch_host at or above lcp_switch leaves it to the dense Lemke */
    small_pile_solver("aplcp", 12, 11, "", "lcp_switch_host=16", 1);
}

static void test_routh_small_pile_iterative_only_for_the_host(void)
{
    /* routh's solver by v_tol (impax/routh.h): a settled bin of 6 contacts, between
       lcp_switch_host (2) and lcp_switch (8), has its step LCPs solved by the dense Lemke when
       asked exactly and by the iterative solver when the host gives its accuracy;
       lcp_switch_host=8 leaves it to the Lemke. routh's final impulse is a sum of steps: no complementarity
       of it is promised */
    small_pile_solver("routh", 6, 7, "", "lcp_switch_host=8", 0);
}

/* aplcp's answer, its impulses then ten times as large where the problem grants a v_tol: an
   answer that gains energy (on these problems; the doubled count of LCP solves below shows
   ipx_solve found the gain), as an answer to the host's accuracy could: its complementarity
   errors push up to v_tol times the impulses. */
static ipx_status overshooting_solve(const ipx_problem *p, const double *param, ipx_workspace *ws,
                                     ipx_result *r)
{
    ipx_status st = ipx_model_aplcp.solve(p, param, ws, r);
    if (st != IPX_OK || p->v_tol == 0.0) return st;
    for (int i = 0; i < r->n_rows; i++) r->impulse[i] *= 10.0;
    return ipx_result_finish(p, r);
}

static void test_energy_gain_solved_again(void)
{
    ipx_model overshooting = ipx_model_aplcp;
    overshooting.name = "overshooting";
    overshooting.solve = overshooting_solve;
    const ipx_params exact_par = ipx_test_params("aplcp", "");
    ipx_params par = exact_par;
    par.model = &overshooting;
    ENSURE(par.model->promises(par.value) & IPX_CHECK_ENERGY);
    static ipx_scene s; /* large: static storage */
    ipx_rng rng;
    ipx_rng_seed(&rng, 7);
    ipx_gen_options o = ipx_gen_default_options();
    ipx_result *loose = malloc(sizeof *loose), *exact = malloc(sizeof *exact);
    for (int t = 0; t < 20; t++) {
        ipx_gen_random(&s, 1 + t % 12, &o, &rng);
        ipx_problem p = s.problem;
        ENSURE(solve(&exact_par, &p, exact) == IPX_OK);
        p.v_tol = V_HOST;
        /* the overshooting answer gains; ipx_solve hands back the one to the model's own
           tolerances instead, bit for bit, with the work of both solves counted */
        ENSURE(solve(&par, &p, loose) == IPX_OK);
        ENSURE(memcmp(loose->impulse, exact->impulse, sizeof(double) * 3 * (size_t)p.k) == 0);
        ENSURE(loose->counts.lcp_solves == 2 * exact->counts.lcp_solves);
        ENSURE(ipx_test_keeps_promises(&exact_par, &p, loose));
    }
    free(loose);
    free(exact);
}

static void test_bad_v_tol_refused(void)
{
    static ipx_scene s;
    ipx_rng rng;
    ipx_rng_seed(&rng, 3);
    ipx_gen_options o = ipx_gen_default_options();
    ipx_gen_random(&s, 4, &o, &rng);
    const ipx_params par = ipx_test_params("aplcp", "");
    static const double bad[] = {-1e-3, NAN, INFINITY};
    for (int b = 0; b < 3; b++) {
        ipx_problem p = s.problem;
        p.v_tol = bad[b];
        ipx_result r;
        ENSURE(solve(&par, &p, &r) == IPX_ERR_INPUT);
        ENSURE(strstr(r.message, "v_tol") != NULL);
    }
}

int main(void)
{
    RUN(test_pile_to_the_host_accuracy);
    RUN(test_small_pile_iterative_only_for_the_host);
    RUN(test_routh_small_pile_iterative_only_for_the_host);
    RUN(test_energy_gain_solved_again);
    RUN(test_bad_v_tol_refused);
    return ipx_test_exit();
}
