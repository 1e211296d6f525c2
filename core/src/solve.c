/* The solve entry (ipx_solve, see impax/registry.h): starts the result, validates the problem,
   checks the workspace, makes a dense copy of W for a model that reads it densely, runs the
   model, and refuses an answer that gains energy the model promises not to gain. */
#include <stdio.h>
#include <string.h>

#include "impax/check.h"
#include "impax/problem.h"
#include "impax/registry.h"
#include "impax/validate.h"
#include "result_internal.h"
#include "workspace_internal.h"
#include "workspace_size.h"

/* For a model that reads W densely at p's size, a dense copy of p's blocks kept in ws (after the
   result's arrays, so the solve's slices leave it) and *dense = p with that copy; else *dense = *p.
   IPX_ERR_WORKSPACE if ws cannot hold the copy and need more bytes. */
static ipx_status dense_if_needed(const ipx_params *params, const ipx_problem *p, size_t need,
                                  ipx_workspace *ws, ipx_problem *dense, ipx_result *r)
{
    *dense = *p;
    if (ipx_w_route_of(params, p) != IPX_W_COPIED) return IPX_OK;
    const size_t doubles = ipx_w_copy_doubles(p->k), copy = ipx_ws_doubles_bytes(doubles);
    double *W = need + copy <= ipx_ws_available(ws) ? ipx_ws_keep_doubles(ws, doubles) : NULL;
    if (!W) {
        snprintf(r->message, sizeof r->message,
                 "workspace has %zu bytes, model '%s' needs %zu for k = %d with W given as blocks "
                 "(%zu of them its dense copy)",
                 ipx_workspace_capacity(ws), params->model->name,
                 need + copy + ipx_result_bytes(p->k, IPX_ROWS_PER_CONTACT), p->k, copy);
        return r->status = IPX_ERR_WORKSPACE;
    }
    ipx_problem_dense_W(p, W);
    dense->W = W;
    dense->Ws = NULL;
    return IPX_OK;
}

/* J beyond the checker's energy tolerance that r gains on p, if the model promises no gain
   (docs/validation.md "The oracle: the invariant checker"); <= 0 when it keeps the promise.
   The checker's energy test costs O(k). */
static double energy_gain(const ipx_params *params, const ipx_problem *p, const ipx_result *r)
{
    if (!(params->model->promises(params->value) & IPX_CHECK_ENERGY)) return 0.0;
    const ipx_check_options opt = ipx_check_default_options();
    return ipx_check_energy_excess(p, r, &opt);
}

/* Such a model must not hand an energy gain back as an answer: it fails the solve. */
static ipx_status refuse_energy_gain(const ipx_params *params, const ipx_problem *p, ipx_result *r)
{
    const double excess = energy_gain(params, p, r);
    if (!(excess > 0.0)) return IPX_OK;
    snprintf(r->message, sizeof r->message,
             "model '%s' gained %.6g J of kinetic energy (%.3g J beyond the checker's tolerance), "
             "which it promises not to",
             params->model->name, r->delta_ke + r->delta_stored, excess);
    return ipx_result_fail(r, IPX_ERR_NUMERIC);
}

/* r as ipx_result_begin left it, its arrays kept where they are. */
static void restart(ipx_result *r)
{
    const size_t rows = (size_t)r->n_rows, k = (size_t)r->k;
    memset(r->impulse, 0, rows * sizeof(double));
    memset(r->v_post, 0, rows * sizeof(double));
    memset(r->last_step, 0, rows * sizeof(double));
    memset(r->slip_state, 0, k * sizeof(int));
    r->delta_ke = r->delta_stored = r->energy_error = 0.0;
    r->nets = 0;
    memset(&r->counts, 0, sizeof r->counts);
    r->status = IPX_OK;
    r->message[0] = '\0';
}

static void add_counts(ipx_counts *to, const ipx_counts *from)
{
    to->rounds += from->rounds;
    to->intervals += from->intervals;
    to->lsq_solves += from->lsq_solves;
    to->lcp_solves += from->lcp_solves;
    to->pivots += from->pivots;
    to->steps += from->steps;
    to->newton_iters += from->newton_iters;
    to->limits_hit |= from->limits_hit;
}

ipx_status ipx_solve(const ipx_params *params, const ipx_problem *p, ipx_workspace *ws,
                     ipx_result *r)
{
    if (ipx_result_begin(r, p ? p->k : 0, IPX_ROWS_PER_CONTACT, ws) != IPX_OK) return r->status;
    if (!params || !params->model || !p || !ws) {
        r->status = IPX_ERR_INPUT;
        snprintf(r->message, sizeof r->message, "ipx_solve: NULL %s",
                 !params || !params->model ? "params"
                 : !p                      ? "problem"
                                           : "workspace");
        return r->status;
    }
    ipx_ws_reset(ws);
    r->status = ipx_problem_validate(p, ws, r->message, sizeof r->message);
    if (r->status == IPX_OK && !params->model->takes_infinite_mu)
        r->status = ipx_problem_finite_mu(p, params->model->name, r->message, sizeof r->message);
    if (r->status != IPX_OK) return r->status;
    size_t need = ipx_model_workspace_bytes_for(params, p);
    if (need > ipx_ws_available(ws)) {
        r->status = IPX_ERR_WORKSPACE;
        snprintf(r->message, sizeof r->message,
                 "workspace has %zu bytes, model '%s' needs %zu for k = %d",
                 ipx_workspace_capacity(ws), params->model->name,
                 need + ipx_result_bytes(p->k, IPX_ROWS_PER_CONTACT), p->k);
        return r->status;
    }
    ipx_problem dense;
    if (dense_if_needed(params, p, need, ws, &dense, r) != IPX_OK) return r->status;
    ipx_ws_reset(ws);
    ipx_status st = params->model->solve(&dense, params->value, ws, r);
    if (st == IPX_OK && p->v_tol > 0.0 && energy_gain(params, p, r) > 0.0) {
        /* An answer to the host's accuracy (p->v_tol) may gain what its complementarity errors
           push (up to v_tol times the impulses); the accuracy is granted only where the answer
           keeps every promise, so this one is solved again to the model's own tolerances
           (docs/core-api.md "Solve accuracy"). The work of both solves is counted. */
        const ipx_counts first = r->counts;
        restart(r);
        dense.v_tol = 0.0;
        ipx_ws_reset(ws);
        st = params->model->solve(&dense, params->value, ws, r);
        add_counts(&r->counts, &first);
    }
    if (st != IPX_OK) {
        r->k = p->k;
        if (!r->message[0])
            snprintf(r->message, sizeof r->message, "model '%s': %s", params->model->name,
                     ipx_status_name(st));
        return ipx_result_fail(r, st);
    }
    return r->status = refuse_energy_gain(params, p, r);
}
