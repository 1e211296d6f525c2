/// PLUS impending slip where Newton stalls (plus_search.c): the directions one contact at a
/// time (deviation 3).
#ifndef IMPAX_PLUS_SEARCH_H
#define IMPAX_PLUS_SEARCH_H

#include <stddef.h>

#include "plus_ctx.h"

/* nearest: each contact's root nearest its current angle (refining Newton's directions), else
   of all roots the min-norm one (where Newton failed). */
ipx_status plus_search_directions(plus_ctx *c, int nearest);
size_t plus_search_doubles(int k); /* workspace of the search (plus_accel.c) and plus_angles.c */

#endif
