/// PLUS Algorithm 2, the impact's rounds (plus_rounds.c): what the entry (plus.c) runs.
#ifndef IMPAX_PLUS_ROUNDS_H
#define IMPAX_PLUS_ROUNDS_H

#include "plus_ctx.h"

/* Runs the whole impact (Algorithm 2); fills r->impulse and the counts. */
ipx_status plus_run(plus_ctx *c);

#endif
