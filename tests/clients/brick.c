/* A plain ODE program (it knows nothing of impax): a 0.4 x 0.2 x 0.1 m, 2 kg brick dropped
   flat onto the ground from 5 cm (four corner contacts at once), bounce 0.5 above 1 cm/s,
   mu 0.5, h = 1 ms, dWorldQuickStep. At the first step whose result moves up it prints the
   velocity before that step (vz, m/s) and after it (vx vy vz, m/s; wx wy wz, rad/s), 17
   digits, on one line: "impact VZ_BEFORE VX VY VZ WX WY WZ". */
#include <stdio.h>

#include "contacts.h"

int main(void)
{
    dInitODE2(0);
    client_contacts s = {.world = dWorldCreate(),
                         .group = dJointGroupCreate(0),
                         .surface = {.mode = dContactBounce | dContactApprox1,
                                     .mu = 0.5,
                                     .bounce = 0.5,
                                     .bounce_vel = 0.01}};
    dSpaceID space = dSimpleSpaceCreate(0);
    dWorldSetGravity(s.world, 0, 0, -9.81);
    dCreatePlane(space, 0, 0, 1, 0);
    dBodyID brick = dBodyCreate(s.world);
    dMass m;
    dMassSetBoxTotal(&m, 2.0, 0.4, 0.2, 0.1);
    dBodySetMass(brick, &m);
    dBodySetPosition(brick, 0, 0, 0.05 + 0.05);
    dGeomSetBody(dCreateBox(space, 0.4, 0.2, 0.1), brick);
    for (int step = 0; step < 1000; step++) {
        const double vz = dBodyGetLinearVel(brick)[2];
        dSpaceCollide(space, &s, client_near);
        dWorldQuickStep(s.world, 0.001);
        dJointGroupEmpty(s.group);
        const dReal *v = dBodyGetLinearVel(brick), *w = dBodyGetAngularVel(brick);
        if (vz < 0 && v[2] > 0) {
            printf("impact %.17g %.17g %.17g %.17g %.17g %.17g %.17g\n", vz, v[0], v[1], v[2], w[0],
                   w[1], w[2]);
            break;
        }
    }
    dJointGroupDestroy(s.group);
    dSpaceDestroy(space);
    dWorldDestroy(s.world);
    dCloseODE();
    return 0;
}
