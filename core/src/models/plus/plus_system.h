/// PLUS Table 1 for one active-set candidate (plus_system.c): its unknowns, rows B pi = w and
/// counted min-norm solves, which the interval and the impending-slip stage call.
#ifndef IMPAX_PLUS_SYSTEM_H
#define IMPAX_PLUS_SYSTEM_H

#include "plus_ctx.h"

void plus_columns(plus_ctx *c);             /* unknowns from normal_on and slip */
void plus_assemble(plus_ctx *c);            /* B, rhs; impending rows in sliding form */
void plus_assemble_directions(plus_ctx *c); /* only the impending rows, from c->s: what
                                                       plus_assemble would change when only the
                                                       directions did (the search's probes) */
ipx_status plus_solve_linear(plus_ctx *c);  /* x = B^+ rhs */
ipx_status plus_solve_probe(plus_ctx *c);   /* the same after plus_assemble_directions,
                                                       as a probe: the rest of B is the
                                                       candidate's, and the system differs from
                                                       the last in a few columns (the factor
                                                       cache; never the sparse path) */
void plus_scatter(plus_ctx *c);             /* the solved group's pi from x */
void plus_velocity_change(plus_ctx *c);     /* wpi = W pi */
double plus_tangent_velocity(const plus_ctx *c, int k, const double *x, int t); /* end v_t */
ipx_status plus_lsq_newton(plus_ctx *c, int m, double *A, double *b);           /* Newton's counted
                                                                         min-norm solve */

/* The normal columns of the impending contacts being solved into cols (at most
   IPX_MIN_NORM_MAX_SET stored); returns how many there are. */
int plus_impending_columns(const plus_ctx *c, int *cols);

/* 1 if a system of m unknowns goes to the sparse path, which has answered more of this
   impact's systems than it declined (stacks of boxes; a bin's it declines). */
int plus_sparse_paying(const plus_ctx *c, int m);
void plus_sparse_end(plus_ctx *c); /* frees the sparse solves' state */

#endif
