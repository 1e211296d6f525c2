/* bench_ode_bin: a bin of boxes in ODE, alone and through the adapter with one model (issue scale:
   islands of hundreds of contacts). N boxes (0.2 m, 1 kg) in layers of 4 x 4 in a 1 m x 1 m bin
   with walls, dropped from just above their resting places so that one pile forms, then S steps of
   1 ms with dWorldStep (or dWorldQuickStep). Prints the wall time of each run, the ratio to ODE
   alone, the impact events and their contacts (mean, largest), the seconds in impax's pre-steps,
   the events the model left to ODE (and why, the last one) and the events the model answered with
   a flagged approximation (limits_hit). One run each (a run takes minutes at 100 boxes with
   dWorldStep: ODE's own dense LCP of a 300-contact island costs about 0.2 s a step).

     bench_ode_bin [model] [boxes] [steps] [step|quick]      defaults: aplcp 100 300 step

   BENCH_PARAMS passes model and adapter parameters (e.g. recovery=ode); BENCH_DUMP=dir writes the
   problems the model failed on (see dump()). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ode/ode.h>

#include "impax/ode.h"
#include "ode_bodies.h"
#include "ode_collide.h"
#include "impax/registry.h"
#include "impax/rng.h"
#include "timing.h"

typedef struct run {
    dWorldID world;
    dSpaceID space;
    dJointGroupID group;
    ipx_ode_context *ipx;
    /* from the event callback */
    long events, flagged, contacts, k_max;
} run;

static void near_callback(void *data, dGeomID a, dGeomID b)
{
    run *r = data;
    dBodyID b1 = dGeomGetBody(a), b2 = dGeomGetBody(b);
    if (!b1 && !b2) return;
    bench_collide(r->ipx, r->world, r->group, a, b);
}

/* ODE's own messages ("LCP internal error, s <= 0", hundreds in a pile) are counted, not printed. */
static long ode_messages;
static void count_message(int num, const char *msg, va_list ap)
{
    (void)num, (void)msg, (void)ap;
    ode_messages++;
}

/* BENCH_DUMP=dir: every problem the model failed on is written to dir/failed_N.bin as
   int k; double W[9k^2] (column-major), v[3k]; then k ipx_contact, for a look at it offline. */
static void dump(const ipx_problem *p)
{
    static int count;
    const char *dir = getenv("BENCH_DUMP");
    if (!dir || !p) return;
    char path[512];
    snprintf(path, sizeof path, "%s/failed_%d.bin", dir, count++);
    FILE *f = fopen(path, "wb");
    if (!f) return;
    const size_t n = 3 * (size_t)p->k;
    fwrite(&p->k, sizeof p->k, 1, f);
    fwrite(p->W, sizeof(double), n * n, f);
    fwrite(p->v, sizeof(double), n, f);
    fwrite(p->contact, sizeof(ipx_contact), (size_t)p->k, f);
    fclose(f);
}

static void on_event(const ipx_ode_event *e, void *user)
{
    run *r = user;
    if (!e->ok) {
        dump(e->problem);
        return;
    }
    r->events++;
    r->contacts += e->k;
    if (e->k > r->k_max) r->k_max = e->k;
    if (e->counts.limits_hit) r->flagged++;
}

/* Wall time (s) of one simulation; model NULL = ODE alone. */
static double simulate(const char *model, int boxes, int steps, int quick, run *r)
{
    memset(r, 0, sizeof *r);
    r->world = dWorldCreate();
    dWorldSetGravity(r->world, 0, 0, -9.81);
    r->space = dHashSpaceCreate(0);
    r->group = dJointGroupCreate(0);
    dCreatePlane(r->space, 0, 0, 1, 0);
    dCreatePlane(r->space, 1, 0, 0, 0);
    dCreatePlane(r->space, -1, 0, 0, -1.0);
    dCreatePlane(r->space, 0, 1, 0, 0);
    dCreatePlane(r->space, 0, -1, 0, -1.0);
    if (model) {
        char msg[256];
        r->ipx = ipx_ode_create(r->world);
        if (ipx_ode_configure(r->ipx, model, getenv("BENCH_PARAMS"), msg, sizeof msg) != 0) {
            fprintf(stderr, "%s\n", msg);
            exit(2);
        }
        ipx_ode_set_event_callback(r->ipx, on_event, r);
    }
    ipx_rng rng;
    ipx_rng_seed(&rng, 3);
    for (int i = 0; i < boxes; i++) {
        const int layer = i / 16, cell = i % 16;
        const double side[3] = {0.2, 0.2, 0.2};
        /* y's jitter first: the order GCC gave the draws as arguments of one call, so the bin
           is the one its figures were measured on */
        const double y = 0.125 + 0.25 * (cell / 4) + ipx_rng_uniform(&rng, -0.02, 0.02);
        const double x = 0.125 + 0.25 * (cell % 4) + ipx_rng_uniform(&rng, -0.02, 0.02);
        const double pos[3] = {x, y, 0.105 + 0.21 * layer};
        dMatrix3 R;
        dRFromAxisAndAngle(R, ipx_rng_uniform(&rng, -1, 1), ipx_rng_uniform(&rng, -1, 1), 1.0,
                           ipx_rng_uniform(&rng, -0.3, 0.3));
        bench_box(r->world, r->space, 1.0, side, pos, R);
    }
    double t0 = ipx_now_us();
    for (int s = 0; s < steps; s++) {
        dSpaceCollide(r->space, r, near_callback);
        if (r->ipx) {
            if (quick) ipx_ode_quick_step(r->ipx, 0.001);
            else ipx_ode_step(r->ipx, 0.001);
            ipx_ode_empty_group(r->ipx, r->group);
        } else {
            if (quick) dWorldQuickStep(r->world, 0.001);
            else dWorldStep(r->world, 0.001);
            dJointGroupEmpty(r->group);
        }
    }
    return (ipx_now_us() - t0) * 1e-6;
}

static void finish(run *r)
{
    ipx_ode_destroy(r->ipx);
    dJointGroupDestroy(r->group);
    dSpaceDestroy(r->space);
    dWorldDestroy(r->world);
}

int main(int argc, char **argv)
{
    const char *model = argc > 1 ? argv[1] : "aplcp";
    const int boxes = argc > 2 ? atoi(argv[2]) : 100, steps = argc > 3 ? atoi(argv[3]) : 300;
    const int quick = argc > 4 && !strcmp(argv[4], "quick");
    if (boxes < 1 || steps < 1) {
        fprintf(stderr, "usage: %s [model] [boxes] [steps] [step|quick]\n", argv[0]);
        return 2;
    }
    dInitODE2(0);
    dSetMessageHandler(count_message);
    run r;
    printf("%d boxes in a bin, %d steps of 1 ms with %s; BENCH_PARAMS=%s\n", boxes, steps,
           quick ? "dWorldQuickStep" : "dWorldStep",
           getenv("BENCH_PARAMS") ? getenv("BENCH_PARAMS") : "");
    fflush(stdout);
    const double base = simulate(NULL, boxes, steps, quick, &r);
    finish(&r);
    printf("%-8s %9s %7s %8s %12s %7s %9s %8s %8s\n", "model", "s", "ratio", "events",
           "contacts/ev", "max k", "impax s", "to ODE", "flagged");
    printf("%-8s %9.2f %7.2f %62s %ld\n", "(ODE)", base, 1.0, "ODE messages:", ode_messages);
    ode_messages = 0;
    fflush(stdout);
    const double t = simulate(model, boxes, steps, quick, &r);
    const ipx_ode_stats st = ipx_ode_get_stats(r.ipx);
    printf("%-8s %9.2f %7.2f %8ld %12.1f %7ld %9.2f %8ld %8ld\n", model, t, t / base, r.events,
           r.events ? (double)r.contacts / (double)r.events : 0.0, r.k_max, st.seconds,
           st.fallbacks, r.flagged);
    if (st.fallbacks) printf("last left to ODE: %s\n", st.last_message);
    printf("ODE messages: %ld\n", ode_messages);
    finish(&r);
    dCloseODE();
    return 0;
}
