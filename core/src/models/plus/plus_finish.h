/// PLUS's plastic finish (plus_finish.c): the last round of an impact that the rounds
/// (plus_rounds.c) cannot end.
#ifndef IMPAX_PLUS_FINISH_H
#define IMPAX_PLUS_FINISH_H

#include "plus_ctx.h"

/* The plastic finish (frictionless LCP of the normal rows, Lemke); sets c->pi, c->wpi, the
   classes and states of a final round (not applied). */
ipx_status plus_plastic_finish(plus_ctx *c);

#endif
