/// PLUS impending slip (plus_probe.c): the impending contacts' angles and the probe of one, which
/// Newton (plus_slip.c), the search (plus_search.c, plus_accel.c) and Newton on the angles
/// (plus_angles.c) share.
#ifndef IMPAX_PLUS_PROBE_H
#define IMPAX_PLUS_PROBE_H

#include "plus_ctx.h"

#define PLUS_ANGLE_TOL 1e-10 /* rad: the search's bisection stops below this bracket */
/* rad: how far friction may be off the opposite of its end slip and still be consistent
   (plus_consistent): |w x s| <= this |w| */
#define PLUS_CONSISTENT_ANGLE (1e3 * PLUS_ANGLE_TOL)

/* An impending contact's direction and its end slip there. */
typedef struct plus_probe {
    double phi, cross, dot, slip; /* rad; w x s, w . s, |w| (m/s) */
    double norm, pn;              /* |pi| and the contact's pi_n (N*s) */
} plus_probe;
void plus_start_angles(plus_ctx *c); /* numbers the impending contacts (c->imp, c->ni) */
void plus_end_slip(const plus_ctx *c, int k, const double *x, double w[2]); /* m/s, at x */
void plus_probe_here(const plus_ctx *c, int k, plus_probe *pr);             /* at x and s_k */
int plus_consistent(const plus_ctx *c, const plus_probe *pr);               /* friction against w */
void plus_get_angles(const plus_ctx *c, const double *ref, double *phi);    /* nearest ref's */
void plus_set_angles(plus_ctx *c, const double *phi);

#endif
