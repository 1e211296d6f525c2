/* Impact or resting contact (classify.c): the speed test, then the jitter term. */
#ifndef IMPAX_ODE_CLASSIFY_H
#define IMPAX_ODE_CLASSIFY_H

#include "internal.h"

/* Marks this step's impacting contacts; returns how many. */
int ipx_ode_classify(ipx_ode_context *ctx);

/* After ipx_ode_classify (the speed test, gravity_steps alone): clears the impacting mark of
   the contacts the jitter term calls resting, counts them in the stats (resting_contacts);
   returns how many contacts are still impacting. A compliant model's marks stay. */
int ipx_ode_classify_resting(ipx_ode_context *ctx, double gravity_speed);

#endif
