/* The Anitescu-Potra simultaneous impact LCP as a model (see impax/aplcp.h). */
#include <stdio.h>

#include "ap_lcp.h"
#include "impax/aplcp.h"
#include "impax/check.h"
#include "impax/lcp.h"
#include "result_internal.h"
#include "workspace_internal.h"

static const ipx_param_def aplcp_params[IPX_APLCP_N_PARAMS] = {
    [IPX_APLCP_FRICTION_DIRECTIONS] = {"friction_directions", 4, 2, IPX_AP_MAX_DIRECTIONS, 1, "",
                                       "directions of the inscribed friction polygon (odd counts round up to even)"},
    [IPX_APLCP_NEWTON_RESTITUTION] = {"newton_restitution", 0, 0, 1, 1, "flag",
                                      "1: target v_n+ >= -e v_n- above v_capture; 0: inelastic"},
    [IPX_APLCP_MAX_PIVOTS] = {"max_pivots", 0, 0, 1e7, 1, "",
                              "Lemke pivot limit; 0 = automatic"},
};

static int directions(const double *param)
{
    int nd = (int)param[IPX_APLCP_FRICTION_DIRECTIONS];
    return nd + (nd & 1); /* an odd count would make the polygon lopsided: round up to even */
}

static size_t aplcp_workspace_bytes(int k, const double *param)
{
    size_t n = (size_t)ipx_ap_max_size(k, directions(param));
    return ipx_ws_doubles_bytes(n * n) + 3 * ipx_ws_doubles_bytes(n) + ipx_ws_ints_bytes((size_t)k) +
           ipx_ws_doubles_bytes(ipx_lemke_work_doubles((int)n)) +
           ipx_ws_ints_bytes(ipx_lemke_work_ints((int)n));
}

static unsigned aplcp_promises(const double *param)
{
    unsigned always = IPX_CHECK_NONPENETRATION | IPX_CHECK_CONE | IPX_CHECK_UNILATERAL |
                      IPX_CHECK_CONSISTENCY;
    /* A Newton target can add energy in simultaneous impacts and gives impulse to contacts that
       leave; only the inelastic LCP promises dissipation and velocity complementarity. */
    if (param[IPX_APLCP_NEWTON_RESTITUTION] != 0.0) return always;
    return always | IPX_CHECK_ENERGY | IPX_CHECK_COMPLEMENTARITY;
}

static ipx_status aplcp_solve(const ipx_problem *p, const double *param, ipx_workspace *ws,
                              ipx_result *r)
{
    int *fric = ipx_ws_ints(ws, (size_t)p->k);
    if (!fric) return IPX_ERR_WORKSPACE;
    ipx_ap_layout L;
    ipx_ap_layout_init(&L, p, directions(param), fric);
    const int n = L.size;
    double *M = ipx_ws_doubles(ws, (size_t)n * n);
    double *q = ipx_ws_doubles(ws, (size_t)n);
    double *z = ipx_ws_doubles(ws, (size_t)n);
    double *w = ipx_ws_doubles(ws, (size_t)n);
    double *dwork = ipx_ws_doubles(ws, ipx_lemke_work_doubles(n));
    int *iwork = ipx_ws_ints(ws, ipx_lemke_work_ints(n));
    if (!M || !q || !z || !w || !dwork || !iwork) return IPX_ERR_WORKSPACE;

    ipx_ap_fill(&L, p, p->v, M, n, 0, q);
    if (param[IPX_APLCP_NEWTON_RESTITUTION] != 0.0) {
        /* Newton's law: 0 <= lambda_n _|_ v_n+ + e v_n- >= 0 where the approach beats v_capture */
        for (int i = 0; i < p->k; i++) {
            double approach = -p->v[IPX_ROWS_PER_CONTACT * i + IPX_N];
            if (approach > p->contact[i].v_capture) q[i] -= p->contact[i].e * approach;
        }
    }
    int max_pivots = (int)param[IPX_APLCP_MAX_PIVOTS];
    if (max_pivots == 0) max_pivots = ipx_lemke_default_max_pivots(n);
    int pivots = 0;
    ipx_status st = ipx_lemke(n, M, q, z, w, max_pivots, dwork, iwork, &pivots);
    r->counts.lcp_solves = 1;
    r->counts.pivots = pivots;
    if (st != IPX_OK) {
        snprintf(r->message, sizeof r->message, "aplcp: Lemke failed (%s) after %d pivots, LCP size %d",
                 ipx_status_name(st), pivots, n);
        return st;
    }
    ipx_ap_impulse(&L, z, r->impulse);
    return ipx_result_finish(p, r);
}

const ipx_model ipx_model_aplcp = {
    .name = "aplcp",
    .doc = "Anitescu-Potra simultaneous impact LCP, polygonal friction cone (the ODE-like baseline)",
    .n_params = IPX_APLCP_N_PARAMS,
    .params = aplcp_params,
    .solve = aplcp_solve,
    .workspace_bytes = aplcp_workspace_bytes,
    .promises = aplcp_promises,
};
