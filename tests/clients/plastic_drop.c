/* A plain ODE program (it knows nothing of impax): a 1 kg sphere of radius 0.1 m dropped from
   1 m onto the ground with no bounce (plastic), mu 0.5, ERP 0.2, h = 1 ms, for 1.5 s, stepped
   with dWorldStep, or dWorldQuickStep when the first argument is "quick". Prints the highest
   the sphere's bottom rises above the ground after it first touches (m): "rebound H". */
#include <stdio.h>
#include <string.h>

#include "contacts.h"

int main(int argc, char **argv)
{
    const int quick = argc > 1 && strcmp(argv[1], "quick") == 0;
    dInitODE2(0);
    client_contacts s = {.world = dWorldCreate(),
                         .group = dJointGroupCreate(0),
                         .surface = {.mode = dContactApprox1, .mu = 0.5}};
    dSpaceID space = dSimpleSpaceCreate(0);
    dWorldSetGravity(s.world, 0, 0, -9.81);
    dCreatePlane(space, 0, 0, 1, 0);
    dBodyID ball = dBodyCreate(s.world);
    dMass m;
    dMassSetSphereTotal(&m, 1.0, 0.1);
    dBodySetMass(ball, &m);
    dBodySetPosition(ball, 0, 0, 1.1);
    dGeomSetBody(dCreateSphere(space, 0.1), ball);
    double rebound = 0.0;
    int touched = 0;
    for (int step = 0; step < 1500; step++) {
        dSpaceCollide(space, &s, client_near);
        touched |= dBodyGetNumJoints(ball) > 0;
        if (quick) dWorldQuickStep(s.world, 0.001);
        else dWorldStep(s.world, 0.001);
        dJointGroupEmpty(s.group);
        if (touched && dBodyGetPosition(ball)[2] - 0.1 > rebound)
            rebound = dBodyGetPosition(ball)[2] - 0.1;
    }
    printf("rebound %.9g\n", rebound);
    dJointGroupDestroy(s.group);
    dSpaceDestroy(space);
    dWorldDestroy(s.world);
    dCloseODE();
    return 0;
}
