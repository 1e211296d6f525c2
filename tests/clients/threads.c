/* A plain ODE program (it knows nothing of impax) with three threads, each using only its own
   ODE objects, as ODE allows. The stepper throws 16 balls at the ground at 2 m/s from 5 mm
   above it with h = 10 ms and no bounce, so each impact step leaves up to 2 cm of penetration to
   recover, and throws them again every 10 steps. The world maker creates a world with one body,
   steps it once and destroys it, over and over. The emptier creates two contacts in its own
   (never stepped) world and empties their group, over and over. The three meet only inside an
   interposer, whose locks they all take (tests/preload runs it under the shim); a barrier
   starts each round in all three at once, so that their calls overlap in every round. Each
   thread does a fixed amount of work (argument 1: the rounds); after the joins the program
   prints one line per thread and exits 1 if a ball ends non-finite or below the ground, or a
   contact force it read (dJointSetFeedback on every ball's contact) was not finite. */
#define _POSIX_C_SOURCE 200809L /* pthread_barrier_t */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "contacts.h"

#define BALLS 16
#define RADIUS_M 0.1
#define STEP_S 0.01
#define STEPS_PER_THROW 10
/* per round */
#define THROWS 60
#define WORLDS 200
#define EMPTIES 30000
#define ROUNDS 20 /* without an argument */

static int rounds = ROUNDS;
static pthread_barrier_t round_start;

/* ODE's default threading object is shared by all worlds: a world stepped while another
   thread steps its own needs one of its own. */
static dThreadingImplementationID own_threading(dWorldID world)
{
    dThreadingImplementationID t = dThreadingAllocateSelfThreadedImplementation();
    dWorldSetStepThreadingImplementation(world, dThreadingImplementationGetFunctions(t), t);
    return t;
}

/* result: the steps taken and the balls that end non-finite or below the ground. */
static void *stepper(void *result)
{
    dAllocateODEDataForThread(dAllocateMaskAll);
    client_feedback feedback[BALLS];
    client_contacts s = {
        .world = dWorldCreate(),
        .group = dJointGroupCreate(0),
        .surface = {.mode = dContactBounce, .mu = 0.3, .bounce = 0.0, .bounce_vel = 0.01},
        .feedback = feedback,
        .max_feedback = BALLS};
    dThreadingImplementationID threading = own_threading(s.world);
    dSpaceID space = dSimpleSpaceCreate(0);
    dWorldSetGravity(s.world, 0, 0, -9.81);
    dCreatePlane(space, 0, 0, 1, 0);
    dBodyID ball[BALLS];
    for (int i = 0; i < BALLS; i++) {
        ball[i] = dBodyCreate(s.world);
        dMass m;
        dMassSetSphereTotal(&m, 1.0, RADIUS_M);
        dBodySetMass(ball[i], &m);
        dGeomSetBody(dCreateSphere(space, RADIUS_M), ball[i]);
    }
    int steps = 0, bad_forces = 0; /* steps whose contact forces read are not all finite */
    for (int round = 0; round < rounds; round++) {
        pthread_barrier_wait(&round_start);
        for (int throw = 0; throw < THROWS; throw ++) {
            for (int i = 0; i < BALLS; i++) {
                dBodySetPosition(ball[i], 0.5 * (i % 4), 0.5 * (i / 4), RADIUS_M + 0.005);
                dBodySetLinearVel(ball[i], 0, 0, -2.0);
                dBodySetAngularVel(ball[i], 0, 0, 0);
            }
            for (int k = 0; k < STEPS_PER_THROW; k++, steps++) {
                s.n_feedback = 0;
                dSpaceCollide(space, &s, client_near);
                dWorldStep(s.world, STEP_S);
                double largest;
                bad_forces += !client_feedback_finite(&s, &largest);
                dJointGroupEmpty(s.group);
            }
        }
    }
    int bad = 0;
    for (int i = 0; i < BALLS; i++) {
        const double z = dBodyGetPosition(ball[i])[2];
        bad += !isfinite(z) || z < 0.0;
    }
    dSpaceDestroy(space);
    dJointGroupDestroy(s.group);
    dWorldDestroy(s.world);
    dThreadingFreeImplementation(threading);
    dCleanupODEAllDataForThread();
    int *out = result;
    out[0] = steps, out[1] = bad + bad_forces;
    return NULL;
}

/* result: the worlds made. */
static void *world_maker(void *result)
{
    dAllocateODEDataForThread(dAllocateMaskAll);
    for (int round = 0; round < rounds; round++) {
        pthread_barrier_wait(&round_start);
        for (int i = 0; i < WORLDS; i++) {
            dWorldID world = dWorldCreate();
            dThreadingImplementationID threading = own_threading(world);
            dWorldSetGravity(world, 0, 0, -9.81);
            dBodyCreate(world);
            dWorldStep(world, STEP_S);
            dWorldDestroy(world);
            dThreadingFreeImplementation(threading);
            ++*(int *)result;
        }
    }
    dCleanupODEAllDataForThread();
    return NULL;
}

/* result: the empties done. */
static void *emptier(void *result)
{
    dAllocateODEDataForThread(dAllocateMaskAll);
    dWorldID world = dWorldCreate();
    dJointGroupID group = dJointGroupCreate(0);
    dBodyID body = dBodyCreate(world);
    dContact c;
    memset(&c, 0, sizeof c);
    c.geom.normal[2] = 1;
    for (int round = 0; round < rounds; round++) {
        pthread_barrier_wait(&round_start);
        for (int i = 0; i < EMPTIES; i++) {
            for (int k = 0; k < 2; k++)
                dJointAttach(dJointCreateContact(world, group, &c), body, 0);
            dJointGroupEmpty(group);
            ++*(int *)result;
        }
    }
    dJointGroupDestroy(group);
    dWorldDestroy(world);
    dCleanupODEAllDataForThread();
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc > 1 && (rounds = atoi(argv[1])) < 1) {
        fprintf(stderr, "usage: client_threads [rounds >= 1, default %d]\n", ROUNDS);
        return 2;
    }
    dInitODE2(0);
    pthread_barrier_init(&round_start, NULL, 3);
    int stepped[2] = {0, 0}, worlds = 0, empties = 0;
    pthread_t t[3];
    pthread_create(&t[0], NULL, stepper, stepped);
    pthread_create(&t[1], NULL, world_maker, &worlds);
    pthread_create(&t[2], NULL, emptier, &empties);
    for (int i = 0; i < 3; i++) pthread_join(t[i], NULL);
    pthread_barrier_destroy(&round_start);
    dCloseODE();
    /* printed after the joins, in a fixed order: the output does not depend on the schedule */
    printf("stepper: %d steps, %d balls out of place\n", stepped[0], stepped[1]);
    printf("world maker: %d worlds\n", worlds);
    printf("emptier: %d empties\n", empties);
    return stepped[1] ? 1 : 0;
}
