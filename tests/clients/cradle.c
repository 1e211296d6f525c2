/* A plain ODE program (it knows nothing of impax): Newton's cradle. Five 1 kg balls of radius
   0.1 m in a row along x, each overlapping the next by 1 nm, no gravity, perfectly elastic
   frictionless contacts (bounce 1); the first ball moves at 1 m/s into the row. Prints the
   balls' x velocities after 0.1 s, one per line, with 17 digits. */
#include <stdio.h>

#include "contacts.h"

#define BALLS 5

int main(void)
{
    dInitODE2(0);
    client_contacts s = {
        .world = dWorldCreate(),
        .group = dJointGroupCreate(0),
        .surface = {.mode = dContactBounce, .mu = 0.0, .bounce = 1.0, .bounce_vel = 0.0}};
    dSpaceID space = dSimpleSpaceCreate(0);
    dWorldSetGravity(s.world, 0, 0, 0);
    dBodyID ball[BALLS];
    const double r = 0.1;
    for (int i = 0; i < BALLS; i++) {
        ball[i] = dBodyCreate(s.world);
        dMass m;
        dMassSetSphereTotal(&m, 1.0, r);
        dBodySetMass(ball[i], &m);
        dBodySetPosition(ball[i], i * (2 * r - 1e-9), 0, 0);
        dGeomSetBody(dCreateSphere(space, r), ball[i]);
    }
    dBodySetLinearVel(ball[0], 1.0, 0, 0);
    for (int step = 0; step < 100; step++) {
        dSpaceCollide(space, &s, client_near);
        dWorldStep(s.world, 0.001);
        dJointGroupEmpty(s.group);
    }
    for (int i = 0; i < BALLS; i++) printf("%.17g\n", dBodyGetLinearVel(ball[i])[0]);
    dJointGroupDestroy(s.group);
    dSpaceDestroy(space);
    dWorldDestroy(s.world);
    dCloseODE();
    return 0;
}
