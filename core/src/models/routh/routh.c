/* The Routh set-valued simultaneous impact model as a registry model and as one-sample API
   (see impax/routh.h). The step machinery is in routh_step.c, the set sampler in routh_set.c. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "impax/check.h"
#include "impax/validate.h"
#include "result_internal.h"
#include "routh_step.h"
#include "workspace_internal.h"
#include "impax/problem.h"
#include "validate_internal.h"

static const ipx_param_def routh_params[IPX_ROUTH_N_PARAMS] = {
    [IPX_ROUTH_STEP] =
        {"step", 0, 0, 1e9, 0, "N*s",
         "impulse step h (~ effective mass x approach speed); 0 = step_relative x p_ref"},
    [IPX_ROUTH_STEP_RELATIVE] =
        {"step_relative", 1, 1e-6, 1e6, 0, "",
         "h / p_ref when step = 0; p_ref = total normal impulse of the AP-LCP solution (N*s)"},
    [IPX_ROUTH_MAX_STEPS] =
        {"max_steps", 20, 1, 1e6, 1, "",
         "impulse steps per sample; then one Anitescu-Potra solve ends the impact"},
    [IPX_ROUTH_FRICTION_DIRECTIONS] =
        {"friction_directions", 4, 2, IPX_AP_MAX_DIRECTIONS, 1, "",
         "directions of the inscribed friction polygon (2 = +-t1, planar)"},
    [IPX_ROUTH_RANDOM_CAPS] = {"random_caps", 1, 0, 1, 1, "flag",
                               "1: normal impulse caps h U(0,1] (sampling); 0: every cap = h"},
    [IPX_ROUTH_TOL_V] =
        {"tol_v", 1e-9, 1e-15, 1e-2, 0, "",
         "impact ends when min v_n >= -tol_v x (largest initial approach), or -v_tol if larger"},
    [IPX_ROUTH_TOL_LCP] =
        {"tol_lcp", 1e-6, 1e-15, 1e-3, 0, "",
         "accepted relative LCP residual (authors' code: 1e-6) and per-step energy gain"},
    [IPX_ROUTH_MAX_PIVOTS] = {"max_pivots", 0, 0, 1e7, 1, "",
                              "Lemke pivot limit per LCP; 0 = automatic"},
    [IPX_ROUTH_POISSON_RESTITUTION] =
        {"poisson_restitution", 0, 0, 1, 1, "flag",
         "1: extra normal impulse e x inelastic one (energy-capped); not in the paper"},
    [IPX_ROUTH_SEED] =
        {"seed", 0, 0, 9007199254740991.0, 1, "",
         "generator seed of one solve, mixed with a hash of the problem (shim: IMPAX_SEED)"},
    [IPX_ROUTH_LCP_SWITCH] = {"lcp_switch", 8, 1, 1e9, 1, "",
                              "contacts from which the iterative solver replaces the dense Lemke"},
    [IPX_ROUTH_LCP_TOL] =
        {"lcp_tol", 1e-10, 1e-15, 1e-2, 0, "",
         "relative LCP residual the iterative solver must reach (keep below tol_v)"},
    [IPX_ROUTH_MAX_SWEEPS] = {"max_sweeps", 5000, 1, 1e7, 1, "",
                              "sweeps of the iterative solver per LCP before it gives up"},
    [IPX_ROUTH_LCP_FALLBACK] =
        {"lcp_fallback", 96, 0, 1e9, 1, "",
         "contacts up to which an unconverged iterative LCP is redone by the dense Lemke"},
    [IPX_ROUTH_LCP_ACCEPT] =
        {"lcp_accept", 1e-3, 0, 1e-1, 0, "",
         "residual accepted above lcp_fallback when lcp_tol is not reached (flagged)"},
    [IPX_ROUTH_STALL_SWEEPS] =
        {"stall_sweeps", 500, 0, 1e7, 1, "",
         "plain sweeps without the best residual halving that end an unconverged "
         "LCP early (its best taken as after max_sweeps); 0 = never"},
    [IPX_ROUTH_LCP_SWITCH_HOST] =
        {"lcp_switch_host", 2, 1, 1e9, 1, "",
         "contacts from which the iterative solver is used when the host gives its accuracy "
         "(v_tol > 0), if below lcp_switch"},
    [IPX_ROUTH_BLOCK_ROUNDS] =
        {"block_rounds", 8, 0, 1e3, 1, "",
         "exact blocks (as aplcp's) that may end an uncapped iterative LCP above lcp_fallback; "
         "0 = none"},
};

/* Largest relative tolerance of the terminal normal velocity for which the invariant checker's
   default relative tolerance (check.h) still accepts the result as non-penetrating. */
#define ROUTH_CHECKED_TOL_V 1e-9

static unsigned routh_promises(const double *param)
{
    /* The total impulse of a contact that took impulse and then lifted off (the rocking block's
       first corner) breaks velocity complementarity: the model does not promise it. The cone
       holds because every step's impulse is inside the polygon, and the polygon is convex. */
    unsigned promised =
        IPX_CHECK_ENERGY | IPX_CHECK_CONE | IPX_CHECK_UNILATERAL | IPX_CHECK_CONSISTENCY;
    if (param[IPX_ROUTH_TOL_V] <= ROUTH_CHECKED_TOL_V) promised |= IPX_CHECK_NONPENETRATION;
    return promised;
}

static ipx_status check_params(const double *param, char *message)
{
    for (int i = 0; i < IPX_ROUTH_N_PARAMS; i++) {
        const ipx_param_def *d = &routh_params[i];
        double x = param[i];
        if (!(x >= d->min && x <= d->max) || (d->integer && x != floor(x))) {
            snprintf(message, IPX_MESSAGE_SIZE, "routh: parameter %s = %g is not %s in [%g, %g]",
                     d->name, x, d->integer ? "a whole number" : "a number", d->min, d->max);
            return IPX_ERR_INPUT;
        }
    }
    return IPX_OK;
}

ipx_status ipx_routh_check_call(const ipx_problem *p, const double *param, const ipx_rng *rng,
                                ipx_workspace *ws, char *message)
{
    if (!p || !param || !rng || !ws) {
        snprintf(message, IPX_MESSAGE_SIZE, "routh: NULL %s",
                 !p       ? "problem"
                 : !param ? "parameters"
                 : !rng   ? "generator"
                          : "workspace");
        return IPX_ERR_INPUT;
    }
    ipx_status st = check_params(param, message);
    if (st != IPX_OK) return st;
    ipx_ws_reset(ws);
    st = ipx_problem_validate_dense(p, ws, "routh (ipx_routh_sample, ipx_routh_set)", message,
                                    IPX_MESSAGE_SIZE);
    ipx_ws_reset(ws);
    if (st != IPX_OK) return st;
    size_t need = ipx_routh_workspace_bytes(p->k, param);
    if (need > ipx_ws_available(ws)) {
        snprintf(message, IPX_MESSAGE_SIZE, "routh: workspace has %zu bytes, needs %zu for k = %d",
                 ipx_workspace_capacity(ws), need, p->k);
        return IPX_ERR_WORKSPACE;
    }
    return IPX_OK;
}

/* One sample into r (Algorithm 1 with the simulation fallback), problem already validated. */
static ipx_status sample(const ipx_problem *p, const double *param, ipx_rng *rng, ipx_workspace *ws,
                         ipx_result *r)
{
    ipx_routh_ctx c;
    ipx_status st = ipx_routh_ctx_init(&c, p, param, rng, ws, &r->counts, r->message);
    if (st == IPX_OK) st = ipx_routh_resolve(&c, r->impulse, 1);
    if (st == IPX_OK) st = ipx_result_finish(p, r);
    return st;
}

/* 64-bit FNV-1a over the bit patterns of n doubles, a word at a time. */
static uint64_t fnv1a_doubles(uint64_t h, const double *x, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        uint64_t bits;
        memcpy(&bits, &x[i], sizeof bits);
        h = (h ^ bits) * 0x100000001b3ULL;
    }
    return h;
}

/* Hash of the problem's v and W's diagonal: the registry model's generator is seeded with
   seed ^ hash, so one seed gives reproducible but different cap streams to different impacts.
   O(k): hashing all of W (k^2 words) cost as much as a small solve on big islands. */
static uint64_t problem_hash(const ipx_problem *p)
{
    const size_t rows = (size_t)IPX_ROWS_PER_CONTACT * (size_t)p->k;
    uint64_t h = fnv1a_doubles(0xcbf29ce484222325ULL, p->v, rows);
    for (size_t i = 0; i < rows; i++) {
        const double w = ipx_problem_W_diag(p, (int)i);
        h = fnv1a_doubles(h, &w, 1);
    }
    return h;
}

static ipx_status routh_solve(const ipx_problem *p, const double *param, ipx_workspace *ws,
                              ipx_result *r)
{
    ipx_rng rng;
    ipx_rng_seed(&rng, (uint64_t)param[IPX_ROUTH_SEED] ^ problem_hash(p));
    return sample(p, param, &rng, ws, r);
}

ipx_status ipx_routh_sample(const ipx_problem *p, const double *param, ipx_rng *rng,
                            ipx_workspace *ws, ipx_result *r)
{
    if (!r) return IPX_ERR_INPUT;
    ipx_status st = ipx_result_begin(r, p ? p->k : 0, IPX_ROWS_PER_CONTACT, ws);
    if (st != IPX_OK) return st;
    st = ipx_routh_check_call(p, param, rng, ws, r->message);
    if (st == IPX_OK) st = sample(p, param, rng, ws, r);
    if (st != IPX_OK) return ipx_result_fail(r, st);
    r->status = st;
    return st;
}

static int routh_blocks_from(const double *param)
{
    return ipx_lcp_blocks_from(param[IPX_ROUTH_LCP_SWITCH], param[IPX_ROUTH_LCP_FALLBACK]);
}

const ipx_model ipx_model_routh = {
    .name = "routh",
    .doc = "Halm-Posa Routh multi-contact impact: random impulse-rate caps, one LCP per step; "
           "one sample of the set of outcomes, inelastic",
    .n_params = IPX_ROUTH_N_PARAMS,
    .params = routh_params,
    .solve = routh_solve,
    .workspace_bytes = ipx_routh_workspace_bytes,
    .blocks_workspace_bytes = ipx_routh_blocks_workspace_bytes,
    .promises = routh_promises,
    .blocks_from = routh_blocks_from,
    .restitution_flag = "poisson_restitution", /* Halm-Posa's impact is inelastic */
};
