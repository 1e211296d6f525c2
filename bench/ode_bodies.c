#include "ode_bodies.h"

dBodyID bench_box(dWorldID world, dSpaceID space, double mass_kg, const double side_m[3],
                  const double pos_m[3], const dReal *R)
{
    dBodyID b = dBodyCreate(world);
    dMass m;
    dMassSetBoxTotal(&m, mass_kg, side_m[0], side_m[1], side_m[2]);
    dBodySetMass(b, &m);
    dBodySetPosition(b, pos_m[0], pos_m[1], pos_m[2]);
    if (R) dBodySetRotation(b, R);
    dGeomSetBody(dCreateBox(space, side_m[0], side_m[1], side_m[2]), b);
    return b;
}
