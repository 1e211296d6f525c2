/// PLUS impending slip (plus_slip.c): the top of the impending-slip stage, which an interval's
/// candidate (plus_interval.c) calls when one of its contacts is impending.
#ifndef IMPAX_PLUS_SLIP_H
#define IMPAX_PLUS_SLIP_H

#include "plus_ctx.h"

/* Newton for the impending contacts, then the sliding-form solve with w_hat. */
ipx_status plus_impending(plus_ctx *c);

#endif
