/* End-to-end cost of impax in an ODE program: 27 boxes dropped in a 3 x 3 x 3 grid onto the
   ground (bounce 0.3, mu 0.6), 2 s at h = 1 ms with dWorldStep, run with ODE alone and through
   the adapter with each model. Prints the median wall time over repeats, the ratio to ODE alone
   in the same run, the impact events, and the time inside impax's pre-steps per impact event
   (classification, islands, assembly, the model, handback). The whole-run ratio also holds
   ODE's own work, which changes with the model because the bodies move differently. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ode/ode.h>

#include "impax/ode.h"
#include "ode_bodies.h"
#include "ode_collide.h"
#include "impax/registry.h"
#include "timing.h"

#define N_SIDE 3
#define REPEATS 5
#define STEPS 2000

typedef struct run {
    dWorldID world;
    dSpaceID space;
    dJointGroupID group;
    ipx_ode_context *ipx;
} run;

static void near_callback(void *data, dGeomID a, dGeomID b)
{
    run *r = data;
    bench_collide(r->ipx, r->world, r->group, a, b);
}

/* Wall time (us) of one simulation; impact events, their contacts and the time spent in impax's
   pre-steps (us) through the pointers. */
static double simulate(const char *model, long *events, long *contacts, double *in_impax)
{
    run r;
    r.world = dWorldCreate();
    dWorldSetGravity(r.world, 0, 0, -9.81);
    r.space = dHashSpaceCreate(0);
    r.group = dJointGroupCreate(0);
    dCreatePlane(r.space, 0, 0, 1, 0);
    r.ipx = NULL;
    if (model) {
        char msg[256];
        r.ipx = ipx_ode_create(r.world);
        if (ipx_ode_configure(r.ipx, model, getenv("BENCH_PARAMS"), msg, sizeof msg) != 0) {
            fprintf(stderr, "bench_ode_step: %s\n", msg); /* not timed under another model's name */
            exit(2);
        }
    }
    for (int i = 0; i < N_SIDE * N_SIDE * N_SIDE; i++) {
        const double side[3] = {0.2, 0.2, 0.2};
        const double pos[3] = {0.5 * (i % N_SIDE), 0.5 * ((i / N_SIDE) % N_SIDE),
                               0.3 + 0.5 * (i / (N_SIDE * N_SIDE))};
        dMatrix3 R;
        dRFromAxisAndAngle(R, 1, 0.3 * i, 0.2, 0.1 * i);
        bench_box(r.world, r.space, 1.0, side, pos, R);
    }
    double t0 = ipx_now_us();
    for (int s = 0; s < STEPS; s++) {
        dSpaceCollide(r.space, &r, near_callback);
        if (r.ipx) {
            ipx_ode_step(r.ipx, 0.001);
            ipx_ode_empty_group(r.ipx, r.group);
        } else {
            dWorldStep(r.world, 0.001);
            dJointGroupEmpty(r.group);
        }
    }
    double us = ipx_now_us() - t0;
    *events = r.ipx ? ipx_ode_get_stats(r.ipx).impact_events : 0;
    *contacts = r.ipx ? ipx_ode_get_stats(r.ipx).impact_contacts : 0;
    *in_impax = r.ipx ? 1e6 * ipx_ode_get_stats(r.ipx).seconds : 0.0;
    ipx_ode_destroy(r.ipx);
    dJointGroupDestroy(r.group);
    dSpaceDestroy(r.space);
    dWorldDestroy(r.world);
    return us;
}

static double median_run(const char *model, long *events, long *contacts, double *in_impax)
{
    double t[REPEATS], inside[REPEATS];
    for (int i = 0; i < REPEATS; i++) t[i] = simulate(model, events, contacts, &inside[i]);
    *in_impax = ipx_median(inside, REPEATS);
    return ipx_median(t, REPEATS);
}

/* argv[1], if given: only that model (for profiling). */
int main(int argc, char **argv)
{
    dInitODE2(0);
    long events, contacts;
    double in_impax;
    double base = median_run(NULL, &events, &contacts, &in_impax);
    printf("27 boxes dropped, %d steps of 1 ms, dWorldStep; median of %d runs\n", STEPS, REPEATS);
    printf("%-8s %10s %8s %8s %16s %12s\n", "model", "ms", "ratio", "events", "contacts/event",
           "impax us/event");
    printf("%-8s %10.1f %8.2f %8s %16s %12s\n", "(ODE)", base / 1000, 1.0, "-", "-", "-");
    const char *extra[] = {"ode"};
    for (int m = -1; m < ipx_model_count(); m++) {
        const char *name = m < 0 ? extra[0] : ipx_model_at(m)->name;
        if (argc > 1 && strcmp(argv[1], name) != 0) continue;
        double t = median_run(name, &events, &contacts, &in_impax);
        printf("%-8s %10.1f %8.2f %8ld %16.1f %12.1f\n", name, t / 1000, t / base, events,
               events ? (double)contacts / (double)events : 0.0,
               events ? in_impax / (double)events : 0.0);
    }
    dCloseODE();
    return 0;
}
