/* The ODE benches' bodies: a dynamic box with its collision geometry. */
#ifndef IMPAX_BENCH_ODE_BODIES_H
#define IMPAX_BENCH_ODE_BODIES_H

#include <ode/ode.h>

/* A box of mass_kg and sides side_m (m, its local axes) centred at pos_m (m, world frame),
   turned by R (NULL: identity), with a box geometry of the same sides in space. */
dBodyID bench_box(dWorldID world, dSpaceID space, double mass_kg, const double side_m[3],
                  const double pos_m[3], const dReal *R);

#endif
