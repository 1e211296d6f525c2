/* Internal to the gonthier model's files: helpers the force law and the island integration
   share. */
#ifndef IMPAX_GONTHIER_INTERNAL_H
#define IMPAX_GONTHIER_INTERNAL_H

#include <math.h>

/* delta^p (delta >= 0, m^p): the depth's power in k delta^p, evaluated several times per
   contact and sub-step; Hertz's p = 3/2 (the default) by a square root, several times cheaper
   than pow and within an ulp of it. */
static inline double ipx_gonthier_depth_power(double delta, double p)
{
    return p == 1.5 ? delta * sqrt(delta) : pow(delta, p);
}

#endif
