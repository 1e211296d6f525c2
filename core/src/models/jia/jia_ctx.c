/* The run of one jia impact (ipx_jia_run, jia_ctx.h) as both integrators and the
   frictionless case report it: the events, and a guard reached. */
#include <stdio.h>

#include "jia_ctx.h"

void ipx_jia_record(ipx_jia_run *u, ipx_jia_event_kind kind, double I_n)
{
    ipx_jia_report *rep = u->rep;
    if (rep->n_events < IPX_JIA_MAX_EVENTS) {
        rep->event[rep->n_events] = kind;
        rep->event_impulse[rep->n_events] = I_n;
    }
    rep->n_events++;
}

ipx_status ipx_jia_limit_hit(ipx_jia_run *u, unsigned bit, const char *what, int value, double I_n)
{
    u->r->counts.limits_hit |= bit;
    snprintf(u->r->message, sizeof u->r->message,
             "jia: %s = %d reached at I_n = %g N*s, before the end of the impact", what, value,
             I_n);
    return IPX_ERR_NOT_CONVERGED;
}
