/* The Flickinger-Bowling model (see impax/bowling.h): parameters, workspace size, the registry
   entry and the public entry point with its validation of angular-row problems. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "numerics/anitescu_potra.h"
#include "bowling_ctx.h"
#include "impax/check.h"
#include "impax/linalg.h"
#include "impax/validate.h"
#include "result_internal.h"
#include "workspace_internal.h"
#include "validate_internal.h"

static const ipx_param_def bowling_params[IPX_BOWLING_N_PARAMS] = {
    [IPX_BOWLING_E_STAR] =
        {"e_star", 1, 0, 1, 0, "",
         "energy-modifying COR e_*: T+ <= e_* T- of the impact subspace (paper: 0.5; 1 = no gain)"},
    [IPX_BOWLING_CAP_READING] =
        {"cap_reading", 0, 0, 1, 1, "",
         "0: T+ <= e_* T-; 1: T+ <= (1 - e_*) T- (the other reading of the paper)"},
    [IPX_BOWLING_CAP_FALLBACK] = {"cap_fallback", 0, 0, 1, 1, "",
                                  "cap unreachable with all CORs 0: 0 = keep that (flag); 1 = "
                                  "scale impact-subspace v+ (may pull)"},
    [IPX_BOWLING_CAP_SCOPE] = {"cap_scope", 0, 0, 1, 1, "",
                               "T- of the cap: 0 = KE of the impacting contacts' subspace "
                               "(approach > v_capture); 1 = of every contact row"},
    [IPX_BOWLING_E_T] =
        {"e_t", 0, -1, 1, 0, "",
         "tangential COR: v_t+ = -e_t v_t- in stick (0 stick, -1 unchanged, > 0 reversal)"},
    [IPX_BOWLING_E_M] =
        {"e_m", 0, -1, 1, 0, "",
         "moment COR: w+ = -e_m w- on angular rows (patch contacts via ipx_bowling_solve only)"},
    [IPX_BOWLING_MU_DYNAMIC_RATIO] = {"mu_dynamic_ratio", 1, 0, 1, 0, "",
                                      "mu_d / mu_s, mu_s = contact mu (paper example: 0.25 / 0.5)"},
    [IPX_BOWLING_ENERGETIC] =
        {"energetic", 0, 0, 1, 1, "flag",
         "1: Stronge-type energetic COR e_energetic sets one common normal COR"},
    [IPX_BOWLING_E_ENERGETIC] =
        {"e_energetic", 1, 0, 1, 0, "",
         "energetic COR e_E: T+ = T_c + e_E^2 (T- - T_c), T_c after compression"},
    [IPX_BOWLING_SLIP_REFERENCE] = {"slip_reference", 0, 0, 1, 1, "",
                                    "slip impulse opposes 0: v_t+ - (stick target); 1: v_t+"},
    [IPX_BOWLING_ENUMERATE_MAX] =
        {"enumerate_max", 81, 0, 1e6, 1, "",
         "solve every candidate active set (maximum dissipation) when there are at most this many"},
    [IPX_BOWLING_MAX_ITERATIONS] = {"max_iterations", 200, 1, 1e6, 1, "",
                                    "guard: iterations of the active-set loop (limits_hit bit 16)"},
    [IPX_BOWLING_LOOP_SEED] =
        {"loop_seed", 1, 0, 1, 1, "",
         "active-set loop starts from 0: approaching/persistent contacts sticking; 1: the "
         "polygonal LCP's set (0's start if that LCP fails: limits_hit 128)"},
    [IPX_BOWLING_LCP_FALLBACK] =
        {"lcp_fallback", 1, 0, 1, 1, "flag",
         "1: polygonal Anitescu-Potra LCP when no admissible active set is found"},
    [IPX_BOWLING_LCP_DIRECTIONS] = {"lcp_directions", 8, 2, IPX_AP_MAX_DIRECTIONS, 1, "",
                                    "friction polygon directions of the fallback LCP (even)"},
    [IPX_BOWLING_MOMENT_LIMITS] =
        {"moment_limits", 0, 0, 1, 1, "flag",
         "1: |torsion| <= mu torsion_radius pi_n, |roll| <= mu roll_radius pi_n; 0: unlimited"},
    [IPX_BOWLING_TORSION_RADIUS] = {"torsion_radius", 0.01, 0, 1e3, 0, "m",
                                    "radius of the torsional friction limit (moment_limits = 1)"},
    [IPX_BOWLING_ROLL_RADIUS] = {"roll_radius", 0.01, 0, 1e3, 0, "m",
                                 "radius of the rolling-moment limit (moment_limits = 1)"},
    [IPX_BOWLING_FORCE_LAW] =
        {"force_law", 1, 0, 1, 1, "",
         "ipx_bowling_impact_forces: 1 = minimise F^T W F s.t. work-energy (18); 0 = F_p = 0"},
    [IPX_BOWLING_ROOT_ITERATIONS] = {"root_iterations", 100, 2, 1e4, 1, "",
                                     "guard: solves of one root search (e_* cap, energetic COR)"},
    [IPX_BOWLING_TOL] = {"tol", 1e-10, 1e-15, 1e-3, 0, "",
                         "relative tolerance of the admissibility tests (targets: 1000 tol)"},
    [IPX_BOWLING_RCOND] =
        {"rcond", 1e-10, 1e-16, 1e-2, 0, "",
         "singular values below rcond x largest count as zero (redundant contacts)"},
    [IPX_BOWLING_MAX_WORK] =
        {"max_work", 0, 0, 1e15, 0, "",
         "cost bound: work units per impact (limits_hit bit 256: the loop ends, the LCP "
         "decides or the solve fails), a solve of m unknowns counting m^3; 0 = 2e9"},
    [IPX_BOWLING_LCP_SWITCH] =
        {"lcp_switch", 16, 1, 1e9, 1, "",
         "contacts from which the polygonal LCP is solved by the iterative solver, the dense "
         "Lemke where it does not converge (below: Lemke, rescued by the iterative solver)"},
    [IPX_BOWLING_LOOP_MAX] =
        {"loop_max", 24, 0, 1e9, 1, "",
         "most contacts of an active-set search (exhaustive or loop); above, the polygonal "
         "LCP's outcome is the law's"},
    [IPX_BOWLING_MAX_SWEEPS] = {"max_sweeps", 5000, 1, 1e7, 1, "",
                                "sweeps of one iterative solve of the polygonal LCP"},
    [IPX_BOWLING_REFINE_MEMO] =
        {"refine_memo", 1, 0, 1, 1, "flag",
         "1: a slip-direction root search reuses x at a direction it solved (0 solves it again)"},
};

/* What a solve takes after its result's arrays. */
static size_t solve_bytes(int k, const double *param)
{
    return bw_ctx_bytes(k, param) + ipx_validate_workspace_bytes(k);
}

size_t ipx_bowling_workspace_bytes(int k_max, const double *param)
{
    if (k_max < 1 || !param) return 0;
    return ipx_result_bytes(k_max, BW_MAX_ROWS_PER_CONTACT) + solve_bytes(k_max, param);
}

static unsigned bowling_promises(const double *param)
{
    unsigned promised = IPX_CHECK_ENERGY | IPX_CHECK_NONPENETRATION | IPX_CHECK_CONSISTENCY;
    if (param[IPX_BOWLING_CAP_FALLBACK] == 0.0) promised |= IPX_CHECK_CONE | IPX_CHECK_UNILATERAL;
    return promised;
}

static ipx_status run(const ipx_problem *p, int rows, const double *param, double ke_before,
                      ipx_workspace *ws, ipx_result *r)
{
    bw_ctx c;
    ipx_status st = bw_ctx_init(&c, p, rows, param, ws, &r->counts, r->message);
    if (st == IPX_OK) st = bw_impact(&c, ke_before);
    if (c.out_of_work) c.counts->limits_hit |= IPX_BOWLING_WORK;
    if (st != IPX_OK && c.out_of_work) return bw_out_of_work(&c);
    if (st != IPX_OK) return st;
    memcpy(r->impulse, c.sol.pi, sizeof(double) * (size_t)c.n);
    return ipx_result_finish_rows(p, rows, r);
}

static ipx_status bowling_solve(const ipx_problem *p, const double *param, ipx_workspace *ws,
                                ipx_result *r)
{
    return run(p, IPX_ROWS_PER_CONTACT, param, 0.0, ws, r);
}

/* Validation of a problem with r rows per contact: its [t1, t2, n] part as every problem, then
   the whole of W and v (finite, symmetric PSD). */
static ipx_status validate_rows(const ipx_problem *p, int rows, const double *param,
                                ipx_workspace *ws, char *msg)
{
    if (rows == IPX_ROWS_PER_CONTACT)
        return ipx_problem_validate_dense(p, ws, "bowling", msg, IPX_MESSAGE_SIZE);
    if (p->k < 1 || !p->W || !p->v || !p->contact) {
        snprintf(msg, IPX_MESSAGE_SIZE,
                 "bowling: k = %d contacts of %d rows: need 1 <= k and "
                 "non-NULL W, v, contacts",
                 p->k, rows);
        return IPX_ERR_INPUT;
    }
    ipx_counts unused;
    bw_ctx c;
    ipx_status st = bw_ctx_init(&c, p, rows, param, ws, &unused, msg);
    if (st != IPX_OK) return st;
    bw_gather3(&c);
    ipx_problem p3 = {.k = p->k, .W = c.W3, .v = c.v3, .contact = p->contact, .flags = p->flags};
    st = ipx_problem_validate(&p3, ws, msg, IPX_MESSAGE_SIZE);
    if (st != IPX_OK) return st;
    for (int i = 0; i < c.n; i++)
        if (!isfinite(p->v[i])) {
            snprintf(msg, IPX_MESSAGE_SIZE, "contact %d: velocity row %d = %g is not finite",
                     i / rows, i % rows, p->v[i]);
            return IPX_ERR_INPUT;
        }
    for (size_t i = 0; i < (size_t)c.n * (size_t)c.n; i++)
        if (!isfinite(p->W[i])) {
            snprintf(msg, IPX_MESSAGE_SIZE, "W entry %zu is not finite", i);
            return IPX_ERR_INPUT;
        }
    return ipx_check_symmetric_psd(c.n, p->W, IPX_W_TOLERANCE, c.A0, c.iwork, msg,
                                   IPX_MESSAGE_SIZE);
}

static ipx_status check_call(const ipx_params *params, const ipx_problem *p,
                             const ipx_bowling_host *host, ipx_workspace *ws, char *msg)
{
    if (!params || params->model != &ipx_model_bowling || !p || !ws) {
        snprintf(msg, IPX_MESSAGE_SIZE, "ipx_bowling_solve: %s",
                 !params || params->model != &ipx_model_bowling
                     ? "params are not of model 'bowling'"
                 : !p ? "NULL problem"
                      : "NULL workspace");
        return IPX_ERR_INPUT;
    }
    int rows = host && host->rows_per_contact ? host->rows_per_contact : IPX_ROWS_PER_CONTACT;
    if (rows != 3 && rows != 4 && rows != 6) {
        snprintf(msg, IPX_MESSAGE_SIZE, "bowling: rows_per_contact = %d is not 0, 3, 4 or 6", rows);
        return IPX_ERR_INPUT;
    }
    if (host && !(isfinite(host->ke_before) && host->ke_before >= 0.0)) {
        snprintf(msg, IPX_MESSAGE_SIZE, "bowling: ke_before = %g J must be finite and >= 0",
                 host->ke_before);
        return IPX_ERR_INPUT;
    }
    size_t need = solve_bytes(p->k, params->value);
    if (p->k >= 1 && need > ipx_ws_available(ws)) {
        snprintf(msg, IPX_MESSAGE_SIZE, "bowling: workspace has %zu bytes, needs %zu for k = %d",
                 ipx_workspace_capacity(ws), ipx_bowling_workspace_bytes(p->k, params->value),
                 p->k);
        return IPX_ERR_WORKSPACE;
    }
    ipx_ws_reset(ws);
    ipx_status st = validate_rows(p, rows, params->value, ws, msg);
    if (st == IPX_OK) st = ipx_problem_finite_mu(p, "bowling", msg, IPX_MESSAGE_SIZE);
    ipx_ws_reset(ws);
    return st;
}

ipx_status ipx_bowling_solve(const ipx_params *params, const ipx_problem *p,
                             const ipx_bowling_host *host, ipx_workspace *ws, ipx_result *r)
{
    const int rows = host && host->rows_per_contact ? host->rows_per_contact : IPX_ROWS_PER_CONTACT;
    const int rows_ok = rows == 3 || rows == 4 || rows == 6; /* check_call names a bad one */
    ipx_status st = ipx_result_begin(r, p ? p->k : 0, rows_ok ? rows : IPX_ROWS_PER_CONTACT, ws);
    if (st != IPX_OK) return st;
    st = check_call(params, p, host, ws, r->message);
    if (st == IPX_OK) st = run(p, rows, params->value, host ? host->ke_before : 0.0, ws, r);
    if (st != IPX_OK) return ipx_result_fail(r, st);
    r->status = st;
    return st;
}

static size_t bowling_workspace_bytes(int k, const double *param)
{
    return ipx_bowling_workspace_bytes(k, param);
}

const ipx_model ipx_model_bowling = {
    .name = "bowling",
    .doc = "Flickinger-Bowling algebraic impact: normal/tangential/moment CORs, energy cap e_*, "
           "maximum-dissipation active set",
    .n_params = IPX_BOWLING_N_PARAMS,
    .params = bowling_params,
    .solve = bowling_solve,
    .workspace_bytes = bowling_workspace_bytes,
    .promises = bowling_promises,
};
