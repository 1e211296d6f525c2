/* The Anitescu-Potra simultaneous impact LCP as a model (see impax/aplcp.h). */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "numerics/anitescu_potra.h"
#include "impax/aplcp.h"
#include "impax/check.h"
#include "impax/lcp.h"
#include "numerics/nsgs.h"
#include "result_internal.h"
#include "workspace_internal.h"

static const ipx_param_def aplcp_params[IPX_APLCP_N_PARAMS] = {
    [IPX_APLCP_FRICTION_DIRECTIONS] =
        {"friction_directions", 4, 2, IPX_AP_MAX_DIRECTIONS, 1, "",
         "directions of the inscribed friction polygon (odd counts round up to even)"},
    [IPX_APLCP_NEWTON_RESTITUTION] = {"newton_restitution", 0, 0, 1, 1, "flag",
                                      "1: target v_n+ >= -e v_n- above v_capture; 0: inelastic"},
    [IPX_APLCP_MAX_PIVOTS] = {"max_pivots", 0, 0, 1e7, 1, "", "Lemke pivot limit; 0 = automatic"},
    [IPX_APLCP_LCP_SWITCH] = {"lcp_switch", 16, 1, 1e9, 1, "",
                              "contacts from which the iterative solver replaces the dense Lemke"},
    [IPX_APLCP_LCP_TOL] = {"lcp_tol", 1e-10, 1e-15, 1e-2, 0, "",
                           "relative LCP residual the iterative solver must reach"},
    [IPX_APLCP_MAX_SWEEPS] = {"max_sweeps", 5000, 1, 1e7, 1, "",
                              "sweeps of the iterative solver before it gives up"},
    [IPX_APLCP_LCP_FALLBACK] =
        {"lcp_fallback", 96, 0, 1e9, 1, "",
         "contacts up to which an unconverged iterative solve is redone by the dense Lemke"},
    [IPX_APLCP_LCP_ACCEPT] =
        {"lcp_accept", 1e-3, 0, 1e-1, 0, "",
         "residual accepted above lcp_fallback when lcp_tol is not reached (flagged)"},
    [IPX_APLCP_STALL_SWEEPS] =
        {"stall_sweeps", 500, 0, 1e7, 1, "",
         "plain sweeps without the best residual halving that end an unconverged "
         "solve early (its best taken as after max_sweeps); 0 = never"},
    [IPX_APLCP_LCP_SWITCH_HOST] =
        {"lcp_switch_host", 2, 1, 1e9, 1, "",
         "contacts from which the iterative solver is used when the host gives its accuracy "
         "(v_tol > 0), if below lcp_switch"},
    [IPX_APLCP_BLOCK_ROUNDS] =
        {"block_rounds", 8, 0, 1e3, 1, "",
         "exact blocks (the violating contacts and their neighbours, by the dense Lemke) that "
         "may end an iterative solve above lcp_fallback; 0 = none"},
};

static int directions(const double *param)
{
    int nd = (int)param[IPX_APLCP_FRICTION_DIRECTIONS];
    return nd + (nd & 1); /* an odd count would make the polygon lopsided: round up to even */
}

static size_t dense_bytes(int k, int nd)
{
    size_t n = (size_t)ipx_ap_max_size(k, nd);
    return ipx_ws_doubles_bytes(n * n) + 3 * ipx_ws_doubles_bytes(n) +
           ipx_ws_ints_bytes((size_t)k) + ipx_ws_doubles_bytes((size_t)k) +
           ipx_ws_doubles_bytes(ipx_ap_lemke_work_doubles((int)n)) +
           ipx_ws_ints_bytes(ipx_lemke_work_ints((int)n));
}

static int blocks_from(const double *param)
{
    return ipx_lcp_blocks_from(param[IPX_APLCP_LCP_SWITCH], param[IPX_APLCP_LCP_FALLBACK]);
}

/* Largest k that may take the dense path: below the switch, or as the fallback. */
static int dense_max(int k, const double *param)
{
    const int most = blocks_from(param) - 1;
    return most < k ? most : k;
}

static size_t aplcp_workspace_bytes(int k, const double *param)
{
    const int nd = directions(param), kd = dense_max(k, param);
    const size_t dense = kd > 0 ? dense_bytes(kd, nd) : 0;
    const size_t iterative = ipx_nsgs_bytes(k, nd, 0); /* also the dense Lemke's rescue */
    /* the Newton targets and their scaled copy */
    return 2 * ipx_ws_doubles_bytes((size_t)k) + (dense > iterative ? dense : iterative);
}

/* From blocks_from on, with W given as blocks: the Newton targets and the iterative solver on
   the problem's own blocks, no dense Lemke. O(k). */
static size_t aplcp_blocks_workspace_bytes(int k, const double *param)
{
    return 2 * ipx_ws_doubles_bytes((size_t)k) + ipx_nsgs_bytes(k, directions(param), 1);
}

static unsigned aplcp_promises(const double *param)
{
    unsigned always =
        IPX_CHECK_NONPENETRATION | IPX_CHECK_CONE | IPX_CHECK_UNILATERAL | IPX_CHECK_CONSISTENCY;
    /* A Newton target can add energy in simultaneous impacts and gives impulse to contacts that
       leave; only the inelastic LCP promises dissipation and velocity complementarity. */
    if (param[IPX_APLCP_NEWTON_RESTITUTION] != 0.0) return always;
    return always | IPX_CHECK_ENERGY | IPX_CHECK_COMPLEMENTARITY;
}

/* The dense Lemke on the whole AP LCP (shift: the Newton targets, or NULL), on G + eps I with
   eps = eps_rel max G_ii where eps_rel > 0 (the shifted Lemke, accepted where the velocity the
   shift leaves unmet is within the host's v_tol; anitescu_potra.h). */
static ipx_status solve_dense(const ipx_problem *p, const double *param, const double *shift,
                              double eps_rel, ipx_workspace *ws, ipx_result *r)
{
    int *fric = ipx_ws_ints(ws, (size_t)p->k);
    double *scale = ipx_ws_doubles(ws, (size_t)p->k);
    if (!fric || !scale) return IPX_ERR_WORKSPACE;
    ipx_ap_layout L;
    ipx_ap_layout_init(&L, p, directions(param), fric, scale);
    const int n = L.size;
    double *M = ipx_ws_doubles(ws, (size_t)n * n);
    double *q = ipx_ws_doubles(ws, (size_t)n);
    double *z = ipx_ws_doubles(ws, (size_t)n);
    double *w = ipx_ws_doubles(ws, (size_t)n);
    double *dwork = ipx_ws_doubles(ws, ipx_ap_lemke_work_doubles(n));
    int *iwork = ipx_ws_ints(ws, ipx_lemke_work_ints(n));
    if (!M || !q || !z || !w || !dwork || !iwork) return IPX_ERR_WORKSPACE;

    ipx_ap_fill(&L, p, p->v, M, n, 0, q);
    if (shift)
        for (int i = 0; i < p->k; i++)
            q[i] += ipx_ap_row_scale(&L, i) * shift[i]; /* anitescu_potra.h */
    int max_pivots = (int)param[IPX_APLCP_MAX_PIVOTS];
    if (max_pivots == 0) max_pivots = ipx_lemke_default_max_pivots(n);
    int pivots = 0;
    double v_err = 0.0; /* m/s: what the shift leaves unmet */
    ipx_status st = eps_rel > 0.0 ? ipx_ap_lemke_shifted(&L, M, q, eps_rel, z, w, max_pivots, dwork,
                                                         iwork, &pivots, &v_err)
                                  : ipx_lemke(n, M, q, z, w, max_pivots, dwork, iwork, &pivots);
    r->counts.lcp_solves++;
    r->counts.pivots += pivots;
    if (st != IPX_OK) {
        snprintf(r->message, sizeof r->message,
                 "aplcp: Lemke failed (%s) after %d pivots, LCP size %d", ipx_status_name(st),
                 pivots, n);
        return st;
    }
    if (v_err > p->v_tol) { /* 0 without a shift */
        snprintf(r->message, sizeof r->message,
                 "aplcp: Lemke shifted by %.3g leaves %.3g m/s unmet, above v_tol %.3g", eps_rel,
                 v_err, p->v_tol);
        return IPX_ERR_NUMERIC;
    }
    ipx_ap_impulse(&L, z, r->impulse);
    return ipx_result_finish(p, r);
}

/* What an iterative solve is for: the first solve, the dense Lemke after it if it does not
   settle (up to lcp_fallback); the only solve (above lcp_fallback: the cone stage and the exact
   blocks follow the sweeps); the rescue of a failed dense Lemke (the cone stage; no blocks,
   whose Lemke would take that LCP again where it is small, and the shifted Lemke follows). */
typedef enum { ITERATIVE_DENSE_AFTER, ITERATIVE_ALONE, ITERATIVE_RESCUE } iterative_role;

static ipx_status solve_iterative(const ipx_problem *p, const double *param, const double *shift,
                                  ipx_workspace *ws, ipx_result *r, iterative_role role,
                                  double *residual);

/* Shifts the shifted Lemke tries, sqrt(DBL_EPSILON) max G_ii times 1, 10, 100: on ODE's
   feedback demo under dWorldStep Lemke failed on 101 AP LCPs of 72 unknowns and more (most of
   300 to 470), and on four of them the least shift that solved them grew with their size
   (1e-8 relative at 72 and 210 unknowns, 1e-7 at 228, 1e-6 at 318; docs/models/aplcp.md). */
#define SHIFT_RUNGS 3

/* After the dense Lemke failed on an LCP that has a solution (st), the iterative solver answers
   it with its full sweeps and lcp_accept (IPX_APLCP_HIT_ITERATIVE_RESCUE); where it cannot and
   the host gives its accuracy, the shifted Lemke does; mark: the workspace the dense solve took.
   Returns st (message extended) if neither can. */
static ipx_status rescue(const ipx_problem *p, const double *param, const double *shift,
                         ipx_workspace *ws, ipx_result *r, ipx_status st, size_t mark)
{
    if (!ipx_lemke_rescuable(st)) return st;
    char why[IPX_MESSAGE_SIZE];
    memcpy(why, r->message, sizeof why);
    ws->used = mark;
    double residual = 0.0;
    if (solve_iterative(p, param, shift, ws, r, ITERATIVE_RESCUE, &residual) == IPX_OK) {
        r->counts.limits_hit |= IPX_APLCP_HIT_ITERATIVE_RESCUE;
        r->message[0] =
            '\0'; /* the rescue answered: limits_hit says so, the message is for errors */
        return IPX_OK;
    }
    /* The shifted Lemke, where the host's accuracy allows one and the LCP has a solution: the
       inelastic one always does, so its ray is false. One with Newton targets need not (the
       bisection of scale_targets answers that), and there the shift would meet targets
       that have no solution with impulses of up to v_tol / eps (docs/models/aplcp.md). */
    const int shifts = !shift && p->v_tol > 0.0 ? SHIFT_RUNGS : 0;
    double eps_rel = sqrt(DBL_EPSILON);
    for (int rung = 0; rung < shifts; rung++, eps_rel *= 10.0) {
        ws->used = mark;
        if (solve_dense(p, param, NULL, eps_rel, ws, r) == IPX_OK) {
            r->message[0] = '\0'; /* the failed rescue's words: the message is for errors */
            return IPX_OK;
        }
    }
    snprintf(r->message, sizeof r->message, "%.160s; the iterative solver reached residual %.3g%s",
             why, residual, shifts ? "; Lemke on G + eps I did not answer" : "");
    return st;
}

/* The iterative solver on the whole problem in its role. ITERATIVE_DENSE_AFTER: the dense Lemke
   takes over if it does not reach lcp_tol (its sweeps are then budgeted to about one dense
   solve); else the best iterate within lcp_accept that gains no energy is the answer
   (IPX_APLCP_HIT_LOOSE_LCP). IPX_ERR_NOT_CONVERGED (message set) when neither; *residual gets
   the residual reached. */
static ipx_status solve_iterative(const ipx_problem *p, const double *param, const double *shift,
                                  ipx_workspace *ws, ipx_result *r, iterative_role role,
                                  double *residual)
{
    const int dense_after = role == ITERATIVE_DENSE_AFTER;
    const size_t mark = ws->used; /* the iterative solver's memory, released for the dense one */
    ipx_nsgs s;
    ipx_status st = ipx_nsgs_init(&s, p, directions(param), ws);
    if (st != IPX_OK) return st;
    const int max_sweeps = (int)param[IPX_APLCP_MAX_SWEEPS], rows = IPX_ROWS_PER_CONTACT * p->k;
    const ipx_nsgs_options opt = {param[IPX_APLCP_LCP_TOL],
                                  dense_after ? ipx_nsgs_fallback_sweeps(p->k, max_sweeps)
                                              : max_sweeps,
                                  1,
                                  (int)param[IPX_APLCP_STALL_SWEEPS],
                                  dense_after ? INFINITY : param[IPX_APLCP_LCP_ACCEPT],
                                  p->v_tol,
                                  !dense_after,
                                  role == ITERATIVE_ALONE ? (int)param[IPX_APLCP_BLOCK_ROUNDS] : 0};
    st = ipx_nsgs_solve(&s, p->v, shift, NULL, 0, &opt);
    *residual = s.residual;
    r->counts.lcp_solves++;
    r->counts.pivots += (int)s.pivots;
    r->counts.steps += s.sweeps;
    if (st == IPX_OK) {
        memcpy(r->impulse, s.pi, sizeof(double) * (size_t)rows);
        return ipx_result_finish(p, r);
    }
    if (dense_after) {
        ws->used = mark;
        r->counts.limits_hit |= IPX_APLCP_HIT_DENSE_FALLBACK;
        return rescue(p, param, shift, ws, r, solve_dense(p, param, shift, 0.0, ws, r), mark);
    }
    if (s.residual <= param[IPX_APLCP_LCP_ACCEPT]) {
        memcpy(r->impulse, s.pi, sizeof(double) * (size_t)rows);
        st = ipx_result_finish(p, r);
        if (st != IPX_OK) return st;
        /* an approximate answer must still not gain energy (beyond its accuracy) */
        double work = 0.0, quad = 0.0;
        for (int i = 0; i < rows; i++) {
            work += r->impulse[i] * p->v[i];
            quad += r->impulse[i] * (r->v_post[i] - p->v[i]);
        }
        if (r->delta_ke <= param[IPX_APLCP_LCP_ACCEPT] * (fabs(work) + fabs(quad))) {
            r->counts.limits_hit |= IPX_APLCP_HIT_LOOSE_LCP;
            return IPX_OK;
        }
    }
    memset(r->impulse, 0, sizeof(double) * (size_t)rows);
    snprintf(r->message, sizeof r->message,
             "aplcp: iterative LCP solver reached residual %.3g, not lcp_tol %.3g (nor lcp_accept "
             "%.3g without an energy gain), in %d sweeps",
             s.residual, param[IPX_APLCP_LCP_TOL], param[IPX_APLCP_LCP_ACCEPT], s.sweeps);
    return IPX_ERR_NOT_CONVERGED;
}

/* The LCP with the targets shift (NULL: none), by the solver p's size calls for. */
static ipx_status solve_lcp(const ipx_problem *p, const double *param, const double *shift,
                            ipx_workspace *ws, ipx_result *r)
{
    double residual = 0.0;
    if (p->k >= ipx_lcp_iterative_from(p->v_tol, param[IPX_APLCP_LCP_SWITCH],
                                       param[IPX_APLCP_LCP_SWITCH_HOST]))
        return solve_iterative(p, param, shift, ws, r,
                               p->k <= param[IPX_APLCP_LCP_FALLBACK] ? ITERATIVE_DENSE_AFTER
                                                                     : ITERATIVE_ALONE,
                               &residual);
    const size_t mark = ws->used;
    return rescue(p, param, shift, ws, r, solve_dense(p, param, shift, 0.0, ws, r), mark);
}

#define TARGET_HALVINGS 8

/* The LCP with the Newton targets full times s into scaled, from the workspace at mark. */
static ipx_status solve_scaled(const ipx_problem *p, const double *param, const double *full,
                               double s, double *scaled, size_t mark, ipx_workspace *ws,
                               ipx_result *r)
{
    ws->used = mark;
    for (int i = 0; i < p->k; i++) scaled[i] = s * full[i];
    r->message[0] = '\0';
    return solve_lcp(p, param, scaled, ws, r);
}

/* Newton's targets where the LCP with them is not solved: the largest fraction of them found
   solved by bisection from the inelastic LCP (IPX_APLCP_HIT_TARGETS_SCALED). Where even the
   inelastic LCP fails, that failure is returned. */
static ipx_status scale_targets(const ipx_problem *p, const double *param, const double *full,
                                double *scaled, size_t mark, ipx_workspace *ws, ipx_result *r)
{
    ipx_status st = solve_scaled(p, param, full, 0.0, scaled, mark, ws, r);
    if (st != IPX_OK) return st;
    double lo = 0.0, hi = 1.0;
    int r_at_lo = 1; /* r holds the answer at lo (the last solve made was there) */
    for (int h = 0; h < TARGET_HALVINGS; h++) {
        const double mid = 0.5 * (lo + hi);
        r_at_lo = solve_scaled(p, param, full, mid, scaled, mark, ws, r) == IPX_OK;
        if (r_at_lo) lo = mid;
        else hi = mid;
    }
    if (!r_at_lo) st = solve_scaled(p, param, full, lo, scaled, mark, ws, r);
    if (st == IPX_OK) r->counts.limits_hit |= IPX_APLCP_HIT_TARGETS_SCALED;
    return st;
}

static ipx_status aplcp_solve(const ipx_problem *p, const double *param, ipx_workspace *ws,
                              ipx_result *r)
{
    if (param[IPX_APLCP_NEWTON_RESTITUTION] == 0.0) return solve_lcp(p, param, NULL, ws, r);
    /* Newton's law: 0 <= lambda_n _|_ v_n+ + e v_n- >= 0 where the approach beats v_capture */
    double *full = ipx_ws_doubles(ws, (size_t)p->k), *scaled = ipx_ws_doubles(ws, (size_t)p->k);
    if (!full || !scaled) return IPX_ERR_WORKSPACE;
    for (int i = 0; i < p->k; i++) {
        double approach = -p->v[IPX_ROWS_PER_CONTACT * i + IPX_N];
        full[i] = approach > p->contact[i].v_capture ? -p->contact[i].e * approach : 0.0;
    }
    const size_t mark = ws->used;
    const ipx_status st = solve_lcp(p, param, full, ws, r);
    if (st == IPX_OK || st == IPX_ERR_WORKSPACE) return st;
    char why[IPX_MESSAGE_SIZE], inelastic[IPX_MESSAGE_SIZE];
    memcpy(why, r->message, sizeof why);
    const ipx_status scaled_st = scale_targets(p, param, full, scaled, mark, ws, r);
    if (scaled_st == IPX_OK) return IPX_OK;
    memcpy(inelastic, r->message, sizeof inelastic);
    snprintf(r->message, sizeof r->message, "%.100s; with the targets scaled to 0: %.100s", why,
             inelastic);
    return st;
}

const ipx_model ipx_model_aplcp = {
    .name = "aplcp",
    .doc =
        "Anitescu-Potra simultaneous impact LCP, polygonal friction cone (the ODE-like baseline)",
    .n_params = IPX_APLCP_N_PARAMS,
    .params = aplcp_params,
    .solve = aplcp_solve,
    .workspace_bytes = aplcp_workspace_bytes,
    .promises = aplcp_promises,
    .blocks_from = blocks_from,
    .blocks_workspace_bytes = aplcp_blocks_workspace_bytes,
    .restitution_flag = "newton_restitution", /* the papers' AP-LCP impact is inelastic */
};
