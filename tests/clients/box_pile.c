/* A plain ODE program (it knows nothing of impax) whose impacts have many contacts: a raft of
   four 0.2 m, 1 kg cubes side by side (0.5 mm into one another) dropped flat from 2 cm, and two
   cubes stacked above it that land on it a few steps later, so that islands of 16 to 24
   contacts meet the ground and one another in successive impacts. Bounce 0.3 above 1 cm/s,
   mu 0.6, h = 2 ms, dWorldStep, STEPS steps (short: the valgrind tests run it). Every contact
   reports its forces (dJointSetFeedback), as a program that measures them would ask. Prints
   the top cube's final height (m) and the largest contact force read (N) on one line:
   "top Z force F"; exits 1 if a force read is not finite. */
#include <math.h>
#include <stdio.h>

#include "contacts.h"

#define RAFT 2 /* cubes a side */
#define STEPS 50
#define SIDE 0.2    /* m */
#define FEEDBACK 64 /* contacts a step that report their forces */

static dBodyID cube(dWorldID world, dSpaceID space, double x, double y, double z)
{
    dBodyID b = dBodyCreate(world);
    dMass m;
    dMassSetBoxTotal(&m, 1.0, SIDE, SIDE, SIDE);
    dBodySetMass(b, &m);
    dBodySetPosition(b, x, y, z);
    dGeomSetBody(dCreateBox(space, SIDE, SIDE, SIDE), b);
    return b;
}

int main(void)
{
    dInitODE2(0);
    client_feedback feedback[FEEDBACK];
    client_contacts s = {
        .world = dWorldCreate(),
        .group = dJointGroupCreate(0),
        .surface = {.mode = dContactBounce, .mu = 0.6, .bounce = 0.3, .bounce_vel = 0.01},
        .feedback = feedback,
        .max_feedback = FEEDBACK};
    dSpaceID space = dSimpleSpaceCreate(0);
    dWorldSetGravity(s.world, 0, 0, -9.81);
    dCreatePlane(space, 0, 0, 1, 0);
    const double pitch = SIDE - 0.0005; /* m, cube to cube */
    for (int i = 0; i < RAFT * RAFT; i++)
        cube(s.world, space, pitch * (i % RAFT), pitch * (i / RAFT), 0.02 + 0.5 * SIDE);
    cube(s.world, space, 0.5 * pitch, 0.5 * pitch, 0.04 + 1.5 * SIDE);
    dBodyID top = cube(s.world, space, 0.5 * pitch + 0.01, 0.5 * pitch, 0.06 + 2.5 * SIDE);
    double force = 0.0; /* N */
    int finite = 1;
    for (int step = 0; step < STEPS; step++) {
        s.n_feedback = 0;
        dSpaceCollide(space, &s, client_near);
        dWorldStep(s.world, 0.002);
        double largest;
        finite &= client_feedback_finite(&s, &largest);
        force = fmax(force, largest);
        dJointGroupEmpty(s.group);
    }
    printf("top %.6f force %.3f\n", dBodyGetPosition(top)[2], force);
    dJointGroupDestroy(s.group);
    dSpaceDestroy(space);
    dWorldDestroy(s.world);
    dCloseODE();
    return finite ? 0 : 1;
}
