/// PLUS impending slip (plus_angles.c): Newton on the impending contacts' angles alone
/// (deviation 3).
#ifndef IMPAX_PLUS_ANGLES_H
#define IMPAX_PLUS_ANGLES_H

#include <stddef.h>

#include "plus_ctx.h"

ipx_status plus_newton_on_angles(plus_ctx *c, int *moved, int *all);
ipx_status plus_angles_first(plus_ctx *c, int *done);
void plus_expect_directions(plus_ctx *c); /* their columns to the factor cache */
size_t plus_angles_doubles(int k);        /* after the search's history */

#endif
