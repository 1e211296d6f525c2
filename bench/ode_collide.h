/* The ODE benches' contacts: one surface for every pair, handed to impax or to ODE itself. */
#ifndef IMPAX_BENCH_ODE_COLLIDE_H
#define IMPAX_BENCH_ODE_COLLIDE_H

#include <ode/ode.h>

#include "impax/ode.h"

/* Collides a and b (up to 4 points) and makes each point a contact with mu 0.6 and bounce 0.3
   above 0.05 m/s (dContactApprox1): through ipx_ode_contact when ipx is not NULL, else as
   ODE's own contact joint. Returns the number of points. */
int bench_collide(ipx_ode_context *ipx, dWorldID world, dJointGroupID group, dGeomID a, dGeomID b);

#endif
