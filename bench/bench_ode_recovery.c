/* bench_ode_recovery: the cost of position recovery's projection (adapters/ode/src/
   recovery_project.c) against the island's size, dense Lemke against the iterative LCP, to pick
   recovery_switch (issue [scale]). Each scene is built already penetrating: boxes (0.2 m, 1 kg)
   overlapping the ones below and the ground by 0.5 to 1.5 mm, the top box arriving at 1 m/s.
   Its impact hands the whole island back, so every body recovers for the steps after it; the
   bench times ipx_ode_post_step (where the projection runs; CPU time of the thread, the machine
   is shared) over those steps, once with recovery_switch above the island ("dense": the dense
   Lemke, the iterative solver where it fails) and once at 1 (iterative), from the same start,
   dWorldStep at h = 1 ms, model aplcp:
     tower N    one column of N boxes, each shifted and turned a little: 4 contacts per interface
     block N    N x N x N boxes side by side and stacked, 0.5 mm into their side neighbours too
                (degenerate: the dense Lemke ends on rays and the iterative solver answers)
   Prints per scene: the contacts of the island at the start, projections, failed projections
   (dense / iterative; a failed island keeps its penetration for that step), median us per
   projection of each path over REPEATS runs, their ratio, and the largest difference in body
   position (m) between the two paths after the first projection (both solve the same LCP: the
   displacement is unique; a failure on one side shows as a difference). ODE's messages are
   counted, not printed.
     bench_ode_recovery [steps]          default 20 steps after the impact, 5 repeats */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <ode/ode.h>

#include "impax/ode.h"
#include "ode_bodies.h"
#include "ode_collide.h"
#include "timing.h"

#define H 0.001
#define SIDE 0.2
#define REPEATS 5
#define MAX_BODIES 1000

typedef struct world {
    dWorldID world;
    dSpaceID space;
    dJointGroupID group;
    ipx_ode_context *ipx;
    dBodyID body[MAX_BODIES];
    int n;
} world;

static void near_callback(void *data, dGeomID a, dGeomID b)
{
    world *w = data;
    if (!dGeomGetBody(a) && !dGeomGetBody(b)) return;
    bench_collide(w->ipx, w->world, w->group, a, b);
}

/* dRandReal in [-a, a]. */
static double jitter(double a) { return a * (2.0 * dRandReal() - 1.0); }

static void add_box(world *w, double x, double y, double z, double yaw)
{
    const double side[3] = {SIDE, SIDE, SIDE}, pos[3] = {x, y, z};
    dMatrix3 R;
    dRFromAxisAndAngle(R, 0, 0, 1, yaw);
    w->body[w->n++] = bench_box(w->world, w->space, 1.0, side, pos, R);
}

/* nx x nx columns of nz boxes; lateral gap (m, < 0: overlap). Every layer 0.5 to 1.5 mm into the
   one below; towers (gap > 0) shifted by up to 5 mm and turned by up to 0.05 rad per box. */
static void build(world *w, int nx, int nz, double gap, int recovery_switch)
{
    memset(w, 0, sizeof *w);
    w->world = dWorldCreate();
    dWorldSetGravity(w->world, 0, 0, -9.81);
    w->space = dHashSpaceCreate(0);
    w->group = dJointGroupCreate(0);
    dCreatePlane(w->space, 0, 0, 1, 0);
    w->ipx = ipx_ode_create(w->world);
    char params[64], msg[256];
    snprintf(params, sizeof params, "recovery_switch=%d", recovery_switch);
    if (ipx_ode_configure(w->ipx, "aplcp", params, msg, sizeof msg) != 0) {
        fprintf(stderr, "bench_ode_recovery: %s\n", msg);
        exit(2);
    }
    dRandSetSeed(7); /* the same scene for both paths */
    double z = SIDE / 2;
    for (int k = 0; k < nz; k++) {
        z -= 1e-3 + jitter(0.5e-3);
        for (int i = 0; i < nx; i++)
            for (int j = 0; j < nx; j++) {
                const double loose = gap > 0.0 ? 1.0 : 0.0;
                add_box(w, i * (SIDE + gap) + loose * jitter(5e-3),
                        j * (SIDE + gap) + loose * jitter(5e-3), z, loose * jitter(0.05));
            }
        z += SIDE;
    }
    dBodySetLinearVel(w->body[w->n - 1], 0, 0, -1.0);
}

static void destroy(world *w)
{
    ipx_ode_destroy(w->ipx);
    dJointGroupDestroy(w->group);
    dSpaceDestroy(w->space);
    dWorldDestroy(w->world);
}

/* CPU time of this thread (us): the machine is shared, wall time would time the others too. */
static double thread_cpu_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return 1e6 * (double)t.tv_sec + 1e-3 * (double)t.tv_nsec;
}

static long ode_messages;
static void count_message(int num, const char *msg, va_list ap)
{
    (void)num, (void)msg, (void)ap;
    ode_messages++;
}

typedef struct run {
    double post_us;             /* in post-steps that projected */
    long projections, failures; /* islands projected and projections failed (from the stats) */
    double pos[3 * MAX_BODIES]; /* after the first projection */
} run;

/* The impact step, then steps; *r gets the post-step time of the steps that projected. */
static void simulate(int nx, int nz, double gap, int recovery_switch, int steps, run *r)
{
    world w;
    build(&w, nx, nz, gap, recovery_switch);
    memset(r, 0, sizeof *r);
    for (int s = 0; s <= steps; s++) {
        dSpaceCollide(w.space, &w, near_callback);
        ipx_ode_pre_step(w.ipx, H);
        dWorldStep(w.world, H);
        const long before = ipx_ode_get_stats(w.ipx).recovery_islands;
        const double t0 = thread_cpu_us();
        ipx_ode_post_step(w.ipx);
        const double dt = thread_cpu_us() - t0;
        ipx_ode_empty_group(w.ipx, w.group);
        const ipx_ode_stats st = ipx_ode_get_stats(w.ipx);
        if (st.recovery_islands > before) r->post_us += dt;
        if (before == 0 && st.recovery_islands > 0)
            for (int b = 0; b < w.n; b++)
                memcpy(r->pos + 3 * b, dBodyGetPosition(w.body[b]), 3 * sizeof(double));
    }
    const ipx_ode_stats st = ipx_ode_get_stats(w.ipx);
    r->projections = st.recovery_islands;
    r->failures = st.recovery_failures;
    destroy(&w);
}

static double island_contacts(int nx, int nz, double gap)
{
    return 4.0 * nz * nx * nx + (gap < 0 ? 2.0 * 4.0 * nz * nx * (nx - 1) : 0.0);
}

static void scene(const char *name, int size, int nx, int nz, double gap, int steps)
{
    static run dense, iter;
    double td[REPEATS], ti[REPEATS];
    for (int r = 0; r < REPEATS; r++) {
        simulate(nx, nz, gap, 1 << 30, steps, &dense);
        simulate(nx, nz, gap, 1, steps, &iter);
        td[r] = dense.post_us / (double)(dense.projections ? dense.projections : 1);
        ti[r] = iter.post_us / (double)(iter.projections ? iter.projections : 1);
    }
    double diff = 0.0;
    for (int b = 0; b < 3 * nx * nx * nz; b++) diff = fmax(diff, fabs(dense.pos[b] - iter.pos[b]));
    const double md = ipx_median(td, REPEATS), mi = ipx_median(ti, REPEATS);
    printf("%-6s %4d %6.0f %6ld %5ld / %-5ld %12.1f %12.1f %7.2f %12.2e\n", name, size,
           island_contacts(nx, nz, gap), dense.projections, dense.failures, iter.failures, md, mi,
           mi / md, diff);
    fflush(stdout);
}

int main(int argc, char **argv)
{
    const int steps = argc > 1 ? atoi(argv[1]) : 20;
    dInitODE2(0);
    dSetMessageHandler(count_message);
    printf("scene  size      k  proj.  failed d / i  dense us/proj  iter us/proj  iter/dense  max "
           "|dx| (m)\n");
    const int towers[] = {2, 4, 6, 8, 12, 16, 24, 32, 64};
    for (size_t i = 0; i < sizeof towers / sizeof *towers; i++)
        scene("tower", towers[i], 1, towers[i], 0.01, steps);
    const int blocks[] = {2, 3}; /* block 4 (k ~ 640): hours on the dense path */
    for (size_t i = 0; i < sizeof blocks / sizeof *blocks; i++)
        scene("block", blocks[i], blocks[i], blocks[i], -0.5e-3, steps);
    printf("ODE messages: %ld\n", ode_messages);
    dCloseODE();
    return 0;
}
