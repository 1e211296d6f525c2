/* Completing a result the same way for every model (result_internal.h): its arrays kept in the
   workspace, v_post and delta_ke from the impulses, and a failed solve's cleared answer. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "impax/problem.h"
#include "result_internal.h"
#include "workspace_internal.h"

size_t ipx_result_bytes(int k, int rows_per_contact)
{
    if (k < 1) return 0;
    size_t rows = (size_t)rows_per_contact * (size_t)k;
    return 3 * ipx_ws_doubles_bytes(rows) + ipx_ws_ints_bytes((size_t)k);
}

ipx_status ipx_result_begin(ipx_result *r, int k, int rows_per_contact, ipx_workspace *ws)
{
    memset(r, 0, sizeof *r);
    r->k = k;
    if (!ws) return IPX_OK; /* the caller's argument check names it */
    ipx_ws_begin(ws);
    if (k < 1) return IPX_OK;
    if (ipx_result_bytes(k, rows_per_contact) > ws->capacity) {
        snprintf(r->message, sizeof r->message,
                 "workspace has %zu bytes, the result of k = %d contacts alone needs %zu",
                 ws->capacity, k, ipx_result_bytes(k, rows_per_contact));
        return r->status = IPX_ERR_WORKSPACE;
    }
    size_t rows = (size_t)rows_per_contact * (size_t)k;
    r->impulse = ipx_ws_keep_doubles(ws, rows);
    r->v_post = ipx_ws_keep_doubles(ws, rows);
    r->last_step = ipx_ws_keep_doubles(ws, rows);
    r->slip_state = ipx_ws_keep_ints(ws, (size_t)k);
    r->n_rows = (int)rows;
    return IPX_OK;
}

/* vp = v + vp with vp = W pi on entry; returns pi^T v + 1/2 pi^T W pi (J). */
static double add_velocity(int n, const double *v, const double *pi, double *vp)
{
    double work = 0.0, quad = 0.0; /* pi.v and pi.W pi */
    for (int i = 0; i < n; i++) {
        work += pi[i] * v[i];
        quad += pi[i] * vp[i];
        vp[i] += v[i];
    }
    return work + 0.5 * quad;
}

double ipx_velocity_after(int n, const double *W, const double *v, const double *pi, double *vp)
{
    ipx_apply_dense(n, W, pi, vp);
    return add_velocity(n, v, pi, vp);
}

ipx_status ipx_result_finish_rows(const ipx_problem *p, int rows_per_contact, ipx_result *r)
{
    const int n = rows_per_contact * p->k;
    r->k = p->k;
    if (p->W) {
        r->delta_ke = ipx_velocity_after(n, p->W, p->v, r->impulse, r->v_post);
    } else { /* blocks: only the core's 3 rows per contact come so (ipx_problem_validate_dense) */
        ipx_problem_apply_W(p, r->impulse, r->v_post);
        r->delta_ke = add_velocity(n, p->v, r->impulse, r->v_post);
    }
    for (int i = 0; i < n; i++) {
        if (!isfinite(r->impulse[i]) || !isfinite(r->v_post[i])) {
            snprintf(r->message, sizeof r->message, "non-finite impulse or velocity at contact %d",
                     i / rows_per_contact);
            return IPX_ERR_NUMERIC;
        }
    }
    return IPX_OK;
}

ipx_status ipx_result_finish(const ipx_problem *p, ipx_result *r)
{
    return ipx_result_finish_rows(p, IPX_ROWS_PER_CONTACT, r);
}

ipx_status ipx_result_fail(ipx_result *r, ipx_status st)
{
    size_t rows = r->n_rows > 0 ? (size_t)r->n_rows : 0;
    if (r->impulse) memset(r->impulse, 0, rows * sizeof *r->impulse);
    if (r->v_post) memset(r->v_post, 0, rows * sizeof *r->v_post);
    if (r->last_step) memset(r->last_step, 0, rows * sizeof *r->last_step);
    if (r->slip_state)
        memset(r->slip_state, 0, (size_t)(r->k > 0 ? r->k : 0) * sizeof *r->slip_state);
    r->delta_ke = r->delta_stored = r->energy_error = 0.0;
    return r->status = st;
}
