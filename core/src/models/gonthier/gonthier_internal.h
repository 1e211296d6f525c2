/* Internal to the gonthier model's files: helpers the force law and the island integration
   share. */
#ifndef IMPAX_GONTHIER_INTERNAL_H
#define IMPAX_GONTHIER_INTERNAL_H

#include <math.h>

#include "impax/gonthier.h"

/* delta^p (delta >= 0, m^p): the depth's power in k delta^p, evaluated several times per
   contact and sub-step; Hertz's p = 3/2 (the default) by a square root, several times cheaper
   than pow and within an ulp of it. */
static inline double ipx_gonthier_depth_power(double delta, double p)
{
    return p == 1.5 ? delta * sqrt(delta) : pow(delta, p);
}

/* The part of the friction force on body 1 (N, t1 and t2) that does not depend on the normal
   force: what ipx_gonthier_friction gives with the Coulomb pull left out, before its passivity
   bound and saturation (gonthier_law.c). State unchanged. */
void ipx_gonthier_friction_stick(const ipx_gonthier_state *s, const ipx_gonthier_law *law,
                                 const double v_t[2], double h, double w_t, double f_t[2]);

#endif
