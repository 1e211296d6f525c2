/* A plain ODE program (it knows nothing of impax) that churns the lifetimes an interposer must
   follow, in two worlds stepped by two threads at once: balls bounce on the ground; a body is
   destroyed while its contact joints live (after the collision, before the step); the contact
   group is destroyed and made again mid-run; a contact outside any group is made, stepped and
   destroyed with dJointDestroy; and in the first round the world is destroyed mid-run with its
   group still full (the group after it). Prints one line per thread and round. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "contacts.h"

#define BALLS 4

/* A contact outside any group under ball b, stepped once and destroyed. */
static void loose_contact(client_contacts *s, dBodyID b)
{
    dContact c;
    memset(&c, 0, sizeof c);
    c.surface.mode = dContactBounce;
    c.surface.bounce = 0.5;
    const dReal *p = dBodyGetPosition(b);
    c.geom.pos[0] = p[0], c.geom.pos[1] = p[1], c.geom.pos[2] = 0;
    c.geom.normal[2] = 1;
    dJointID j = dJointCreateContact(s->world, 0, &c);
    dJointAttach(j, b, 0);
    dWorldStep(s->world, 0.001);
    dJointDestroy(j);
}

static void run(int thread, int round)
{
    client_contacts s = {
        .world = dWorldCreate(),
        .group = dJointGroupCreate(0),
        .surface = {.mode = dContactBounce, .mu = 0.3, .bounce = 0.6, .bounce_vel = 0.01}};
    /* ODE's default threading object is shared by all worlds: worlds stepped at the same time
       in different threads each need their own */
    dThreadingImplementationID threading = dThreadingAllocateSelfThreadedImplementation();
    dWorldSetStepThreadingImplementation(s.world, dThreadingImplementationGetFunctions(threading),
                                         threading);
    dSpaceID space = dSimpleSpaceCreate(0);
    dWorldSetGravity(s.world, 0, 0, -9.81);
    dCreatePlane(space, 0, 0, 1, 0);
    dBodyID ball[BALLS];
    dGeomID geom[BALLS];
    for (int i = 0; i < BALLS; i++) {
        ball[i] = dBodyCreate(s.world);
        dMass m;
        dMassSetSphereTotal(&m, 1.0, 0.1);
        dBodySetMass(ball[i], &m);
        dBodySetPosition(ball[i], 0.3 * i, 0, 0.1 + 0.02 * (i + 1));
        geom[i] = dCreateSphere(space, 0.1);
        dGeomSetBody(geom[i], ball[i]);
    }
    int steps = 0;
    for (; steps < 400; steps++) {
        dSpaceCollide(space, &s, client_near);
        if (steps == 100) { /* ball 0 goes while its contacts are in the group */
            dGeomDestroy(geom[0]);
            dBodyDestroy(ball[0]);
        }
        if (steps == 250 && round == 0) break; /* the world goes with a full group */
        dWorldStep(s.world, 0.001);
        if (steps == 150) { /* the group goes and comes back */
            dJointGroupDestroy(s.group);
            s.group = dJointGroupCreate(0);
        } else {
            dJointGroupEmpty(s.group);
        }
        if (steps == 200) loose_contact(&s, ball[1]);
    }
    dSpaceDestroy(space);
    dWorldDestroy(s.world);
    dJointGroupDestroy(s.group);
    dThreadingFreeImplementation(threading);
    printf("thread %d round %d: %d steps\n", thread, round, steps);
}

static void *thread_main(void *arg)
{
    const int thread = *(const int *)arg;
    dAllocateODEDataForThread(dAllocateMaskAll);
    for (int round = 0; round < 2; round++) run(thread, round);
    dCleanupODEAllDataForThread();
    return NULL;
}

int main(void)
{
    dInitODE2(0);
    pthread_t t[2];
    int id[2] = {0, 1};
    for (int i = 0; i < 2; i++) pthread_create(&t[i], NULL, thread_main, &id[i]);
    for (int i = 0; i < 2; i++) pthread_join(t[i], NULL);
    dCloseODE();
    return 0;
}
