/* The PLUS impact model (impax/plus.h): the entry. Parameter table, registry entry, the
   impact's context and its workspace, ipx_plus_trace.

   The model's files, from the top down; a file calls only files below it:
     plus.c           the entry: parameters, workspace, registry entry, ipx_plus_trace
     plus_rounds.c    Algorithm 2: rounds, classes, COR per round, energy cap, fallback
     plus_interval.c  Algorithm 1: one interval, the active-set search
     plus_finish.c    the plastic finish: a frictionless LCP round that ends the impact
     plus_step.c      interval length alpha (2.12)-(2.14)
     plus_slip.c      impending slip (2.9b): Newton with an analytic Jacobian
     plus_search.c    impending slip: the directions one contact at a time
     plus_angles.c    impending slip: Newton on the slip angles alone
     plus_accel.c     impending slip: the Anderson acceleration of the search's sweeps
     plus_probe.c     impending slip: the contacts' angles and the probe of one
     plus_system.c    Table 1 / docs/models/plus.md §5.3: unknowns, rows B pi = w, min-norm solve
     plus_cor.c       the coefficient of restitution (Fig. 2), public (ipx_plus_cor)
     plus_ctx.h       the impact's context and the predicates every stage asks
   Each file's interface is the header of its name. The min-norm solves are in core/src/numerics:
   dense_lsq.c (small dense, complete orthogonal factorisation), min_norm.c (its factor cache)
   and sparse_lsq.c. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "impax/check.h"
#include "impax/validate.h"
#include "numerics/min_norm.h"
#include "plus_ctx.h"
#include "plus_rounds.h"
#include "plus_search.h"
#include "plus_system.h"
#include "numerics/sparse_lsq.h"
#include "result_internal.h"
#include "units.h"
#include "validate_internal.h"
#include "workspace_internal.h"

#define PI_6 0.52359877559829887 /* rad, Simbody's default theta_max */

static const ipx_param_def plus_params[IPX_PLUS_N_PARAMS] = {
    [IPX_PLUS_THETA_MAX] =
        {"theta_max", PI_6, 1e-6, 1.5, 0, "rad",
         "largest slip-direction change per sliding interval (2.14); paper Ex.1: 0.01"},
    [IPX_PLUS_V_TRANSITION] = {"v_transition", 0.1, 0.0, 100.0, 0, "m/s",
                               "slip speed below which a contact rolls (2.9), (2.12)"},
    [IPX_PLUS_V_CAPTURE] =
        {"v_capture", -1.0, -1.0, 1e3, 0, "m/s",
         "overrides every contact's v_capture (no bounce below); < 0 = contact's value"},
    [IPX_PLUS_V_PLASTIC] = {"v_plastic", -1.0, -1.0, 1e3, 0, "m/s",
                            "overrides every contact's v_plastic (COR reaches e_min there; 0 = "
                            "v_capture); < 0 = none"},
    [IPX_PLUS_E_MIN] =
        {"e_min", -1.0, -1.0, 1.0, 0, "",
         "overrides every contact's e (the high-speed COR e_min); < 0 = contact's value"},
    [IPX_PLUS_ALPHA_MIN] = {"alpha_min", 1e-6, 1e-12, 0.5, 0, "",
                            "smallest interval fraction the direction limit (2.14) may give"},
    [IPX_PLUS_MAX_ROUNDS] = {"max_rounds", 0, 0, 1e6, 1, "",
                             "rounds before the inelastic fallback rounds (limits_hit bit 0); "
                             "0 = 100 + 4k (a wave crosses a chain of k contacts in k rounds)"},
    [IPX_PLUS_MAX_INTERVALS] =
        {"max_intervals", 1000, 1, 1e7, 1, "",
         "intervals per round before alpha is forced to 1 (limits_hit bit 1)"},
    [IPX_PLUS_MAX_PASSES] =
        {"max_passes", 0, 0, 1e6, 1, "",
         "active-set passes per interval; 0 = (k+1)^2 + 1, never binding (bit 2)"},
    [IPX_PLUS_NEWTON_MAX_ITERS] = {"newton_max_iters", 20, 1, 1000, 1, "",
                                   "Newton iterations per impending-slip solve (bit 3)"},
    [IPX_PLUS_NEWTON_TOL] = {"newton_tol", 1e-12, 1e-15, 1e-2, 0, "",
                             "impending-slip residual, relative to velocity x impulse scale"},
    [IPX_PLUS_EPS_V] =
        {"eps_v", 1e-5, 1e-12, 1.0, 0, "m/s",
         "velocity noise: a contact with v_n >= -eps_v observes; the impact ends when all do"},
    [IPX_PLUS_EPS_PI] =
        {"eps_pi", 1e-10, 1e-15, 1e-3, 0, "",
         "impulse tolerance relative to the largest impulse (violations, non-zero)"},
    [IPX_PLUS_RCOND] =
        {"rcond", 1e-11, 1e-15, 1e-3, 0, "",
         "relative rank threshold of the min-norm solves (complete orthogonal factorisation)"},
    [IPX_PLUS_EPS_POS] =
        {"eps_pos", 1e-4, 0.0, 1.0, 0, "m",
         "proximity tolerance: hosts include contacts this close (not read by the solve)"},
    [IPX_PLUS_ALL_PARTICIPATE] =
        {"all_participate", 0, 0, 1, 1, "flag",
         "1: every contact compresses in round 1 (the paper's contrast model)"},
    [IPX_PLUS_ENERGY_CAP] = {"energy_cap", 1, 0, 1, 1, "flag",
                             "1: scale down a round that would gain energy (limits_hit bit 4)"},
    [IPX_PLUS_HOLD_PLASTIC] =
        {"hold_plastic", 1, 0, 1, 1, "flag",
         "1: a contact that compressed with e = 0 stays closed while its group "
         "expands; 0 = the paper's rounds"},
    [IPX_PLUS_SETTLE_ROUNDS] = {"settle_rounds", 4, 0, 1e6, 1, "",
                                "rounds in which the same contacts stay closed and active while "
                                "energy is dissipated, after which they are held closed (the limit "
                                "of that ping-pong); 0 = the paper's rounds"},
    [IPX_PLUS_MAX_SOLVES] = {"max_solves", 0, 0, 1e9, 1, "",
                             "cost bound: min-norm solves per impact (active-set passes, Newton "
                             "steps) before the plastic finish (limits_hit bit 8); 0 = "
                             "2000 + 100 k for k contacts"},
    [IPX_PLUS_SPARSE_MIN] =
        {"sparse_min", PLUS_SPARSE_MIN, 0, 1e9, 1, "",
         "systems of this many unknowns and more try the sparse min-norm solve "
         "(SuiteSparseQR; the dense one where it cannot vouch for the same answer); "
         "0 = always dense"},
    [IPX_PLUS_MAX_WORK] =
        {"max_work", 0, 0, 1e15, 0, "",
         "cost bound: work units per impact before the plastic finish (limits_hit "
         "bit 8), a factorisation of m unknowns counting m^3; 0 = 2e10"},
    [IPX_PLUS_SLIP_ROOT] =
        {"slip_root", PLUS_SLIP_ROOT_NEWTON, PLUS_SLIP_ROOT_NEWTON, PLUS_SLIP_ROOT_MIN_NORM, 1, "",
         "impending-slip root where Newton from the current direction converged with an angle "
         "off its end slip: 0 = newton, the root nearest Newton's; 1 = min_norm, the min-norm "
         "root of all (the choice where Newton fails)"},
    [IPX_PLUS_RESET_SCOPE] =
        {"reset_scope", PLUS_RESET_BESIDE, PLUS_RESET_GROUP, PLUS_RESET_BESIDE, 1, "",
         "after the active set drops a normal, the contacts it turned impending that roll "
         "again and are decided anew: 1 = beside, those that share a body with a dropped "
         "contact; 0 = group, all of the dropped contact's group"},
};

static void plus_cfg_from_params(const double *param, plus_cfg *cfg)
{
    cfg->cos_theta = cos(param[IPX_PLUS_THETA_MAX]);
    cfg->v_t = param[IPX_PLUS_V_TRANSITION];
    cfg->v_capture = param[IPX_PLUS_V_CAPTURE];
    cfg->v_plastic = param[IPX_PLUS_V_PLASTIC];
    cfg->e_min = param[IPX_PLUS_E_MIN];
    cfg->alpha_min = param[IPX_PLUS_ALPHA_MIN];
    cfg->max_rounds = (int)param[IPX_PLUS_MAX_ROUNDS];
    cfg->max_intervals = (int)param[IPX_PLUS_MAX_INTERVALS];
    cfg->max_passes = (int)param[IPX_PLUS_MAX_PASSES];
    cfg->newton_max_iters = (int)param[IPX_PLUS_NEWTON_MAX_ITERS];
    cfg->newton_tol = param[IPX_PLUS_NEWTON_TOL];
    cfg->eps_v = param[IPX_PLUS_EPS_V];
    cfg->eps_pi = param[IPX_PLUS_EPS_PI];
    cfg->rcond = param[IPX_PLUS_RCOND];
    cfg->all_participate = param[IPX_PLUS_ALL_PARTICIPATE] != 0.0;
    cfg->energy_cap = param[IPX_PLUS_ENERGY_CAP] != 0.0;
    cfg->hold_plastic = param[IPX_PLUS_HOLD_PLASTIC] != 0.0;
    cfg->settle_rounds = (int)param[IPX_PLUS_SETTLE_ROUNDS];
    cfg->max_solves = (long)param[IPX_PLUS_MAX_SOLVES];
    cfg->sparse_min = (int)param[IPX_PLUS_SPARSE_MIN];
    cfg->max_work = param[IPX_PLUS_MAX_WORK];
    cfg->slip_root = (int)param[IPX_PLUS_SLIP_ROOT];
    cfg->reset_scope = (int)param[IPX_PLUS_RESET_SCOPE];
}

/* Slices of the workspace, in the order plus_ctx_init takes them. */
static size_t enum_doubles(size_t count) { return (count * sizeof(ipx_plus_class) + 7) / 8; }

static size_t sparse_doubles(void) { return (ipx_sparse_state_bytes() + 7) / 8; }

/* nn: Newton systems have one more unknown per impending contact (its slip angle), up to 4k. */
static size_t plus_workspace_bytes(int k)
{
    size_t n = (size_t)IPX_ROWS_PER_CONTACT * (size_t)k, kk = (size_t)k, nn = n + kk;
    return 3 * ipx_ws_doubles_bytes(n) + 5 * ipx_ws_doubles_bytes(kk) +
           ipx_ws_doubles_bytes(2 * kk) + 2 * ipx_ws_doubles_bytes(enum_doubles(kk)) +
           ipx_ws_doubles_bytes(n * n) + ipx_ws_doubles_bytes(nn * nn) +
           3 * ipx_ws_doubles_bytes(n) + 4 * ipx_ws_doubles_bytes(nn) +
           ipx_ws_doubles_bytes(ipx_min_norm_work_doubles((int)nn)) + 14 * ipx_ws_ints_bytes(kk) +
           ipx_ws_doubles_bytes(sparse_doubles()) + ipx_ws_doubles_bytes(nn) +
           2 * ipx_ws_ints_bytes(n) + 2 * ipx_ws_ints_bytes(nn) +
           ipx_ws_doubles_bytes(plus_search_doubles(k)) +
           ipx_ws_doubles_bytes(ipx_plus_lsq_work_doubles((int)nn, (int)nn));
}

static size_t plus_model_workspace_bytes(int k, const double *param)
{
    (void)param;
    return plus_workspace_bytes(k);
}

static ipx_status plus_ctx_init(plus_ctx *c, const ipx_problem *p, const double *param,
                                ipx_workspace *ws, ipx_result *r)
{
    memset(c, 0, sizeof *c);
    c->p = p;
    c->mass_unit = ipx_mass_unit(p->k, p->W);
    c->k = p->k;
    c->n = IPX_ROWS_PER_CONTACT * p->k;
    plus_cfg_from_params(param, &c->cfg);
    /* the host's accuracy (types.h v_tol): an approach it cannot tell from rest is not an
       impact's to stop (docs/models/plus.md §5.1) */
    c->cfg.v_approach = fmax(c->cfg.eps_v, p->v_tol);
    if (c->cfg.max_rounds == 0) c->cfg.max_rounds = 100 + 4 * p->k;
    c->max_solves = c->cfg.max_solves > 0 ? c->cfg.max_solves : PLUS_AUTO_SOLVES(p->k);
    c->max_work = c->cfg.max_work > 0.0 ? c->cfg.max_work : PLUS_AUTO_WORK;
    c->r = r;
    c->pi_total = r->impulse;
    if (ws->capacity - ws->used < plus_workspace_bytes(p->k)) {
        snprintf(r->message, sizeof r->message, "plus: workspace too small for k = %d", p->k);
        return IPX_ERR_WORKSPACE;
    }
    size_t n = (size_t)c->n, k = (size_t)c->k, nn = n + k;
    c->v = ipx_ws_doubles(ws, n);
    c->v_round = ipx_ws_doubles(ws, n);
    c->pi_round = ipx_ws_doubles(ws, n);
    c->pi_acc = ipx_ws_doubles(ws, k);
    c->pi_exp = ipx_ws_doubles(ws, k);
    c->e = ipx_ws_doubles(ws, k);
    c->p_slide = ipx_ws_doubles(ws, k);
    c->group_worst = ipx_ws_doubles(ws, k);
    c->s = ipx_ws_doubles(ws, 2 * k);
    c->cls = (ipx_plus_class *)ipx_ws_doubles(ws, enum_doubles(k));
    c->slip = (ipx_plus_slip *)ipx_ws_doubles(ws, enum_doubles(k));
    c->B = ipx_ws_doubles(ws, n * n);
    c->fac = ipx_ws_doubles(ws, nn * nn);
    c->rhs = ipx_ws_doubles(ws, n);
    c->x = ipx_ws_doubles(ws, nn);
    c->pi = ipx_ws_doubles(ws, n);
    c->wpi = ipx_ws_doubles(ws, n);
    c->g = ipx_ws_doubles(ws, nn);
    c->dx = ipx_ws_doubles(ws, nn);
    c->xs = ipx_ws_doubles(ws, nn);
    ipx_min_norm_begin(&c->lsq, ipx_ws_doubles(ws, ipx_min_norm_work_doubles((int)nn)));
    c->inert = ipx_ws_ints(ws, k);
    c->held = ipx_ws_ints(ws, k);
    c->plastic = ipx_ws_ints(ws, k);
    c->act_prev = ipx_ws_ints(ws, k);
    c->normal_on = ipx_ws_ints(ws, k);
    c->turn = ipx_ws_ints(ws, k);
    c->imp = ipx_ws_ints(ws, k);
    c->slip_failed = ipx_ws_ints(ws, k);
    c->chatter = ipx_ws_ints(ws, k);
    c->from_rolling = ipx_ws_ints(ws, k);
    c->group = ipx_ws_ints(ws, k);
    c->dropped = ipx_ws_ints(ws, k);
    c->focus_of = ipx_ws_ints(ws, k);
    c->member = ipx_ws_ints(ws, k);
    c->members = p->k;
    for (int i = 0; i < p->k; i++) c->member[i] = i;
    c->focus = -1; /* focus_of: set by every interval (active_sets) and the plastic finish */
    c->col = ipx_ws_ints(ws, n);
    c->pos = ipx_ws_ints(ws, n);
    c->lsq_iwork = ipx_ws_ints(ws, nn);
    c->sparse = ipx_ws_doubles(ws, sparse_doubles());
    c->sparse_x = ipx_ws_doubles(ws, nn);
    c->search_hist = ipx_ws_doubles(ws, plus_search_doubles(p->k));
    c->newton_work = ipx_ws_doubles(ws, ipx_plus_lsq_work_doubles((int)nn, (int)nn));
    c->newton_iwork = ipx_ws_ints(ws, nn);
    return IPX_OK; /* every slice fits: checked above */
}

static unsigned plus_promises(const double *param)
{
    /* Poisson restitution gives impulse to contacts that end separating: no velocity
       complementarity. Non-penetration holds to eps_v (observing threshold). The energy cap is
       a safety net: with it on, no gain is promised, and whether it fired is the result's
       nets (IPX_CHECK_SAFETY_NET, not a promise). */
    unsigned always = IPX_CHECK_NONPENETRATION | IPX_CHECK_CONE | IPX_CHECK_UNILATERAL |
                      IPX_CHECK_CONSISTENCY | IPX_CHECK_FRICTION_DIRECTION;
    return param[IPX_PLUS_ENERGY_CAP] != 0.0 ? always | IPX_CHECK_ENERGY : always;
}

static ipx_status plus_solve(const ipx_problem *p, const double *param, ipx_workspace *ws,
                             ipx_result *r)
{
    plus_ctx c;
    ipx_status st = plus_ctx_init(&c, p, param, ws, r);
    if (st != IPX_OK) return st;
    st = plus_run(&c);
    plus_sparse_end(&c);
    return st;
}

ipx_status ipx_plus_trace(const ipx_problem *p, const double *param, ipx_workspace *ws,
                          ipx_plus_observer observer, void *user, ipx_result *r)
{
    ipx_status st = ipx_result_begin(r, p->k, IPX_ROWS_PER_CONTACT, ws);
    if (st != IPX_OK) return st;
    st = ipx_problem_validate_dense(p, ws, "ipx_plus_trace", r->message, sizeof r->message);
    if (st == IPX_OK && plus_workspace_bytes(p->k) > ipx_ws_available(ws)) {
        snprintf(r->message, sizeof r->message,
                 "workspace has %zu bytes, model 'plus' needs %zu for k = %d",
                 ipx_workspace_capacity(ws), plus_workspace_bytes(p->k), p->k);
        st = IPX_ERR_WORKSPACE;
    }
    if (st != IPX_OK) return ipx_result_fail(r, st);
    ipx_ws_reset(ws);
    plus_ctx c;
    st = plus_ctx_init(&c, p, param, ws, r);
    c.observer = observer;
    c.user = user;
    if (st == IPX_OK) st = plus_run(&c);
    plus_sparse_end(&c);
    if (st != IPX_OK) return ipx_result_fail(r, st);
    r->status = st;
    return st;
}

const ipx_model ipx_model_plus = {
    .name = "plus",
    .doc = "PLUS (Uchida, Sherman & Delp 2015): Poisson phases, sliding/rolling intervals, "
           "min-norm impulses, impact rounds",
    .n_params = IPX_PLUS_N_PARAMS,
    .params = plus_params,
    .solve = plus_solve,
    .workspace_bytes = plus_model_workspace_bytes,
    .promises = plus_promises,
    .takes_infinite_mu = 1,
};
