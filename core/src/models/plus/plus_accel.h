/// PLUS direction search (plus_accel.c): the Anderson acceleration of its sweeps.
#ifndef IMPAX_PLUS_ACCEL_H
#define IMPAX_PLUS_ACCEL_H

#include <stddef.h>

#include "plus_ctx.h"

int plus_accelerate(plus_ctx *c, int *len); /* the next point after a sweep */
size_t plus_search_history_doubles(int k);  /* the acceleration's part; plus_angles.c's follows */

#endif
