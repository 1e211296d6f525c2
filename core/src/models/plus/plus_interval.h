/// PLUS Algorithm 1, one interval (plus_interval.c): what a round (plus_rounds.c) runs.
#ifndef IMPAX_PLUS_INTERVAL_H
#define IMPAX_PLUS_INTERVAL_H

#include "plus_ctx.h"

/* One interval from the current v and classes; sets c->pi, c->wpi, *alpha. */
ipx_status plus_interval(plus_ctx *c, double *alpha);

#endif
