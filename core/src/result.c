#include <math.h>
#include <stdio.h>
#include <string.h>

#include "result_internal.h"

static void apply(int n, const double *W, const double *x, double *y)
{
    for (int i = 0; i < n; i++) y[i] = 0.0;
    for (int j = 0; j < n; j++) {
        if (x[j] == 0.0) continue;
        const double *col = W + (size_t)n * j;
        for (int i = 0; i < n; i++) y[i] += col[i] * x[j];
    }
}

void ipx_apply_W(const ipx_problem *p, const double *x, double *y)
{
    apply(IPX_ROWS_PER_CONTACT * p->k, p->W, x, y);
}

double ipx_velocity_after(int n, const double *W, const double *v, const double *pi, double *vp)
{
    apply(n, W, pi, vp);
    double work = 0.0, quad = 0.0; /* pi.v and pi.W pi */
    for (int i = 0; i < n; i++) {
        work += pi[i] * v[i];
        quad += pi[i] * vp[i];
        vp[i] += v[i];
    }
    return work + 0.5 * quad;
}

ipx_status ipx_result_finish_rows(const ipx_problem *p, int rows_per_contact, ipx_result *r)
{
    const int n = rows_per_contact * p->k;
    r->k = p->k;
    r->delta_ke = ipx_velocity_after(n, p->W, p->v, r->impulse, r->v_post);
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
    memset(r->impulse, 0, sizeof r->impulse);
    memset(r->v_post, 0, sizeof r->v_post);
    memset(r->last_step, 0, sizeof r->last_step);
    memset(r->slip_state, 0, sizeof r->slip_state);
    r->delta_ke = 0.0;
    return r->status = st;
}
