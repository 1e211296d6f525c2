/* BLAS threads inside impax (docs/ode-adapter.md "BLAS threads"): a tower of n boxes resting on the ground
   (n = 8: 32 contacts, n = 16: 64, one island), the top box arriving at 1 m/s, solved again and
   again. For each run: process CPU time over the calling thread's CPU time (1.00: nothing ran
   on other threads) and the wall time per solve, (a) calling the core's ipx_solve directly on
   the captured problem (the core leaves the BLAS's threads as the host set them) and (b)
   through the adapter's pre-step and post-step, which pin OpenBLAS to one thread. The host's
   OpenBLAS thread count is its default (the number of cores, or OPENBLAS_NUM_THREADS) unless
   argv[2] sets it. Usage: bench_ode_blas_threads [model [blas_threads]] (model: aplcp). */
#define _GNU_SOURCE /* RTLD_DEFAULT */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <ode/ode.h>

#include "impax/impax.h"
#include "impax/ode.h"
#include "ode_bodies.h"
#include "ode_collide.h"
#include "timing.h"

#define SIDE 0.2
#define MAX_BOXES 16

typedef struct tower {
    dWorldID world;
    dSpaceID space;
    dJointGroupID group;
    ipx_ode_context *ipx;
    dBodyID box[MAX_BOXES];
    int n;
    /* the last event's problem, copied (malloc'd) */
    int k;
    double *W, *v;
    ipx_contact *contact;
} tower;

static int blas_threads(void)
{
    int (*get)(void);
    void *p = dlsym(RTLD_DEFAULT, "openblas_get_num_threads");
    memcpy(&get, &p, sizeof get);
    return get ? get() : -1;
}

static void blas_set_threads(int n)
{
    void (*set)(int);
    void *p = dlsym(RTLD_DEFAULT, "openblas_set_num_threads");
    memcpy(&set, &p, sizeof set);
    if (set) set(n);
}

static double cpu_seconds(clockid_t clock)
{
    struct timespec t;
    clock_gettime(clock, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void on_event(const ipx_ode_event *ev, void *user)
{
    tower *t = user;
    if (!ev->problem) return;
    const ipx_problem *p = ev->problem;
    const size_t rows = (size_t)IPX_ROWS_PER_CONTACT * (size_t)p->k;
    double *W = realloc(t->W, sizeof(double) * rows * rows),
           *v = realloc(t->v, sizeof(double) * rows);
    ipx_contact *contact = realloc(t->contact, sizeof(ipx_contact) * (size_t)p->k);
    if (W) t->W = W;
    if (v) t->v = v;
    if (contact) t->contact = contact;
    if (!W || !v || !contact) {
        t->k = 0;
        return;
    }
    t->k = p->k;
    ipx_problem_dense_W(p, t->W); /* a large island's W comes as blocks */
    memcpy(t->v, p->v, sizeof(double) * rows);
    memcpy(t->contact, p->contact, sizeof(ipx_contact) * (size_t)p->k);
}

static void near_callback(void *data, dGeomID a, dGeomID b)
{
    tower *t = data;
    /* one order per pair whatever the space's list order (which moves geoms that moved to its
       front): the same contact points at every call, so every call solves the same problem */
    if (!dGeomGetBody(a) || (dGeomGetBody(b) && a > b)) {
        dGeomID swap = a;
        a = b;
        b = swap;
    }
    bench_collide(t->ipx, t->world, t->group, a, b);
}

/* The resting tower (each box 10 um into the one below) with the top box arriving at 1 m/s,
   slightly turned so that its contacts are not symmetric. */
static void reset(tower *t)
{
    for (int i = 0; i < t->n; i++) {
        dBodySetPosition(t->box[i], 0.003 * i, 0.0, SIDE / 2 - 1e-5 + i * (SIDE - 1e-5));
        dMatrix3 R;
        dRFromAxisAndAngle(R, 0, 0, 1, 0.02 * i);
        dBodySetRotation(t->box[i], R);
        dBodySetLinearVel(t->box[i], 0, 0, i == t->n - 1 ? -1.0 : 0.0);
        dBodySetAngularVel(t->box[i], 0, 0, 0);
    }
}

static int tower_make(tower *t, int n, const char *model)
{
    memset(t, 0, sizeof *t);
    t->n = n;
    t->world = dWorldCreate();
    dWorldSetGravity(t->world, 0, 0, -9.81);
    t->space = dSimpleSpaceCreate(0);
    t->group = dJointGroupCreate(0);
    dCreatePlane(t->space, 0, 0, 1, 0);
    t->ipx = ipx_ode_create(t->world);
    char msg[256];
    if (ipx_ode_configure(t->ipx, model, NULL, msg, sizeof msg) != 0) {
        fprintf(stderr, "%s\n", msg);
        return -1;
    }
    ipx_ode_set_event_callback(t->ipx, on_event, t);
    for (int i = 0; i < n; i++) {
        const double side[3] = {SIDE, SIDE, SIDE}, origin[3] = {0, 0, 0}; /* placed per run */
        t->box[i] = bench_box(t->world, t->space, 1.0, side, origin, NULL);
    }
    return 0;
}

static void tower_free(tower *t)
{
    free(t->W);
    free(t->v);
    free(t->contact);
    ipx_ode_destroy(t->ipx);
    dJointGroupDestroy(t->group);
    dSpaceDestroy(t->space);
    dWorldDestroy(t->world);
}

/* One impact through the adapter: contacts, pre-step, post-step (no ODE step). */
static void adapter_impact(tower *t)
{
    reset(t);
    dSpaceCollide(t->space, t, near_callback);
    ipx_ode_pre_step(t->ipx, 0.001);
    ipx_ode_post_step(t->ipx);
    ipx_ode_empty_group(t->ipx, t->group);
}

typedef struct measure {
    double ratio, us;
} measure;

static measure timed(void (*fn)(void *), void *arg, int repeats)
{
    /* OpenBLAS's idle threads spin for a while after their last job before they sleep: wait
       for that outside the measured window, so that one run's spinning is not the next one's */
    const struct timespec pause = {0, 500000000};
    nanosleep(&pause, NULL);
    const double p0 = cpu_seconds(CLOCK_PROCESS_CPUTIME_ID),
                 t0 = cpu_seconds(CLOCK_THREAD_CPUTIME_ID);
    const double w0 = ipx_now_us();
    for (int r = 0; r < repeats; r++) fn(arg);
    const double w = ipx_now_us() - w0;
    const double p = cpu_seconds(CLOCK_PROCESS_CPUTIME_ID) - p0,
                 th = cpu_seconds(CLOCK_THREAD_CPUTIME_ID) - t0;
    return (measure){p / th, w / repeats};
}

typedef struct core_run {
    tower *t;
    ipx_params params;
    ipx_workspace *ws;
} core_run;

static void core_solve(void *arg)
{
    core_run *c = arg;
    ipx_problem p = {.k = c->t->k, .W = c->t->W, .v = c->t->v, .contact = c->t->contact};
    ipx_result r;
    ipx_solve(&c->params, &p, c->ws, &r);
}

static void adapter_run(void *arg) { adapter_impact(arg); }

int main(int argc, char **argv)
{
    const char *model = argc > 1 ? argv[1] : "aplcp";
    if (argc > 2) blas_set_threads(atoi(argv[2]));
    dInitODE2(0);
    printf("tower of n boxes (one island), top box at 1 m/s; model %s; host's OpenBLAS threads: %d "
           "(-1: not OpenBLAS)\n",
           model, blas_threads());
    printf("%4s %4s %8s | %22s | %22s | %s\n", "n", "k", "repeats", "core ipx_solve: cpu/thr",
           "adapter: cpu/thread", "us per solve (core, adapter)");
    const int sizes[] = {8, 12, 16};
    for (int s = 0; s < 3; s++) {
        tower t;
        if (tower_make(&t, sizes[s], model) != 0) return 2;
        adapter_impact(&t); /* captures the problem */
        const int before = blas_threads();
        core_run c = {&t, {0}, NULL};
        char msg[256];
        if (t.k == 0 || ipx_params_init(&c.params, model, msg, sizeof msg) != IPX_OK ||
            !(c.ws = ipx_workspace_create(&c.params, t.k))) {
            fprintf(stderr, "no problem captured for n = %d\n", sizes[s]);
            return 2;
        }
        /* about half a second of work per measurement */
        const double once = timed(adapter_run, &t, 1).us;
        int repeats = (int)(5e5 / (once > 1.0 ? once : 1.0));
        if (repeats < 5) repeats = 5;
        measure m_core[3], m_adapter[3];
        for (int r = 0; r < 3; r++) {
            m_core[r] = timed(core_solve, &c, repeats);
            m_adapter[r] = timed(adapter_run, &t, repeats);
        }
        double rc[3], ra[3], uc[3], ua[3];
        for (int r = 0; r < 3; r++) {
            rc[r] = m_core[r].ratio;
            ra[r] = m_adapter[r].ratio;
            uc[r] = m_core[r].us;
            ua[r] = m_adapter[r].us;
        }
        printf("%4d %4d %8d | %22.3f | %22.3f | %.1f, %.1f%s\n", sizes[s], t.k, repeats,
               ipx_median(rc, 3), ipx_median(ra, 3), ipx_median(uc, 3), ipx_median(ua, 3),
               blas_threads() == before ? "" : "  (the host's BLAS setting changed!)");
        ipx_workspace_destroy(c.ws);
        tower_free(&t);
    }
    dCloseODE();
    return 0;
}
