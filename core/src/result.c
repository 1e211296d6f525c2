#include <math.h>
#include <stdio.h>

#include "result_internal.h"

void ipx_apply_W(const ipx_problem *p, const double *x, double *y)
{
    int n = IPX_ROWS_PER_CONTACT * p->k;
    for (int i = 0; i < n; i++) y[i] = 0.0;
    for (int j = 0; j < n; j++) {
        if (x[j] == 0.0) continue;
        const double *col = p->W + (size_t)n * j;
        for (int i = 0; i < n; i++) y[i] += col[i] * x[j];
    }
}

ipx_status ipx_result_finish(const ipx_problem *p, ipx_result *r)
{
    int n = IPX_ROWS_PER_CONTACT * p->k;
    r->k = p->k;
    ipx_apply_W(p, r->impulse, r->v_post);
    double work = 0.0, quad = 0.0; /* pi.v and pi.W pi */
    for (int i = 0; i < n; i++) {
        work += r->impulse[i] * p->v[i];
        quad += r->impulse[i] * r->v_post[i];
        r->v_post[i] += p->v[i];
    }
    r->delta_ke = work + 0.5 * quad;
    for (int i = 0; i < n; i++) {
        if (!isfinite(r->impulse[i]) || !isfinite(r->v_post[i])) {
            snprintf(r->message, sizeof r->message, "non-finite impulse or velocity at contact %d",
                     i / IPX_ROWS_PER_CONTACT);
            return IPX_ERR_NUMERIC;
        }
    }
    return IPX_OK;
}
