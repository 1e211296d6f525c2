/* PLUS impending slip (deviation 3 of impax/plus.h): the impending contacts' angles and the
   probe of one, shared by the three ways of finding their directions: Newton on impulse and
   angles (plus_slip.c), the search one contact at a time (plus_search.c, its acceleration in
   plus_accel.c) and Newton on the angles alone (plus_angles.c). The impending contacts are
   numbered (c->imp, c->ni); an angle phi is the direction s_k = (cos phi, sin phi); a probe reads
   the end slip w_k at the current solution against s_k. */
#include <math.h>

#include "mathutil.h"
#include "plus_probe.h"
#include "plus_system.h"

/* Numbers the impending contacts and starts their angles from the direction guesses. */
void plus_start_angles(plus_ctx *c)
{
    c->ni = 0;
    for (int k = 0; k < c->k; k++) {
        const int impending = plus_solving_impending(c, k);
        c->imp[k] = impending ? c->ni++ : -1;
        c->slip_failed[k] = 0;
        if (impending) c->x[c->m + c->imp[k]] = atan2(c->s[2 * k + 1], c->s[2 * k]);
    }
}

/* The end slip w_k of contact k at the solution x, m/s. */
void plus_end_slip(const plus_ctx *c, int k, const double *x, double w[2])
{
    w[0] = plus_tangent_velocity(c, k, x, IPX_T1);
    w[1] = plus_tangent_velocity(c, k, x, IPX_T2);
}

/* The probe of contact k at the current solution x and direction s_k. */
void plus_probe_here(const plus_ctx *c, int k, plus_probe *pr)
{
    double w[2];
    plus_end_slip(c, k, c->x, w);
    pr->phi = atan2(c->s[2 * k + 1], c->s[2 * k]);
    pr->cross = w[0] * c->s[2 * k + 1] - w[1] * c->s[2 * k];
    pr->dot = w[0] * c->s[2 * k] + w[1] * c->s[2 * k + 1];
    pr->slip = hypot(w[0], w[1]);
    pr->norm = ipx_norm2(c->x, c->m);
    pr->pn = c->x[c->pos[IPX_ROWS_PER_CONTACT * k + IPX_N]];
}

/* Friction at contact k opposes the end slip (or there is none) to within
   PLUS_CONSISTENT_ANGLE. */
int plus_consistent(const plus_ctx *c, const plus_probe *pr)
{
    if (pr->slip <= c->slip_floor) return 1;
    return pr->dot > 0.0 && fabs(pr->cross) <= PLUS_CONSISTENT_ANGLE * pr->slip;
}

/* The impending contacts' angles into phi (ni), each the one nearest ref's (NULL: atan2's). */
void plus_get_angles(const plus_ctx *c, const double *ref, double *phi)
{
    for (int k = 0; k < c->k; k++) {
        const int j = c->imp[k];
        if (j < 0) continue;
        const double a = atan2(c->s[2 * k + 1], c->s[2 * k]);
        phi[j] = ref ? ref[j] + remainder(a - ref[j], 2.0 * IPX_PI) : a;
    }
}

/* The impending contacts' directions from their angles phi (ni). */
void plus_set_angles(plus_ctx *c, const double *phi)
{
    for (int k = 0; k < c->k; k++) {
        const int j = c->imp[k];
        if (j < 0) continue;
        c->s[2 * k] = cos(phi[j]);
        c->s[2 * k + 1] = sin(phi[j]);
    }
}
