/* Impact events of a settling pile (docs/ode-adapter.md "Impact or resting contact"): n boxes (1 kg, side
   0.1 m) dropped into a square bin, h = 1 ms, mu 0.6, no bounce, model aplcp, 2 s to settle,
   then 2 s measured; then one more box dropped from 5 cm above the pile. Each pile runs with
   the plain speed test (jitter_steps=0) and the default rule. Printed per run: impact events per
   step once settled (solved, or left to ODE because an island of the whole pile has more than
   64 contacts), the approach speeds of those with a problem (median and largest, m/s and in
   |g| h), contacts per step that the jitter term left to ODE as resting contact, the pile's
   kinetic energy at the end, and the speed at which the dropped box's first impact event came.
   Usage: bench_ode_pile [n [world|quick [model]]]; default: 27, 100 and 200 boxes under
   QuickStep (dWorldStep: 27 boxes cost about 100 s, and its settled pile makes no events). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ode/ode.h>

#include "impax/ode.h"
#include "ode_bodies.h"
#include "timing.h"

#define H 0.001
#define G 9.81
#define BOX 0.1
#define SETTLE 2000
#define MEASURE 2000
#define MAX_EVENTS 100000

typedef struct pile {
    dWorldID world;
    dSpaceID space;
    dJointGroupID group;
    ipx_ode_context *ipx;
    dBodyID *body;
    int n;
    /* events of the current window */
    long events, assembled;
    double *approach; /* per assembled event, its fastest contact (m/s) */
    dBodyID watch;
    double watch_speed;
} pile;

static void on_event(const ipx_ode_event *ev, void *user)
{
    pile *p = user;
    if (p->events++ == 0 && p->watch) p->watch_speed = -dBodyGetLinearVel(p->watch)[2];
    if (!ev->vn_before || p->assembled == MAX_EVENTS) return;
    double fastest = 0.0;
    for (int c = 0; c < ev->k; c++) fastest = fmax(fastest, -ev->vn_before[c]);
    p->approach[p->assembled++] = fastest;
}

static void near_callback(void *data, dGeomID a, dGeomID b)
{
    pile *p = data;
    dBodyID b1 = dGeomGetBody(a), b2 = dGeomGetBody(b);
    if (!b1 && !b2) return;
    dContactGeom g[4];
    int n = dCollide(a, b, 4, g, sizeof g[0]);
    for (int i = 0; i < n; i++) {
        dContact c;
        memset(&c, 0, sizeof c);
        c.surface.mode = dContactApprox1;
        c.surface.mu = 0.6;
        c.geom = g[i];
        ipx_ode_contact(p->ipx, p->world, p->group, &c, b1, b2);
    }
}

static dBodyID add_box(pile *p, double x, double y, double z, const double axis[3], double angle)
{
    const double side[3] = {BOX, BOX, BOX}, pos[3] = {x, y, z};
    dMatrix3 R;
    dRFromAxisAndAngle(R, axis[0], axis[1], axis[2], angle);
    return bench_box(p->world, p->space, 1.0, side, pos, R);
}

static int pile_make(pile *p, int n, const char *model, const char *params)
{
    memset(p, 0, sizeof *p);
    dRandSetSeed(1); /* QuickStep's row order */
    p->n = n;
    p->world = dWorldCreate();
    dWorldSetGravity(p->world, 0, 0, -G);
    p->space = dHashSpaceCreate(0);
    p->group = dJointGroupCreate(0);
    dCreatePlane(p->space, 0, 0, 1, 0);
    p->ipx = ipx_ode_create(p->world);
    char msg[256];
    if (ipx_ode_configure(p->ipx, model, params, msg, sizeof msg) != 0) {
        fprintf(stderr, "%s\n", msg);
        return -1;
    }
    ipx_ode_set_event_callback(p->ipx, on_event, p);
    p->approach = malloc(sizeof *p->approach * MAX_EVENTS);
    p->body = malloc(sizeof *p->body * (size_t)n);
    int side = (int)ceil(sqrt(n / 3.0));
    if (side < 3) side = 3;
    const double L = side * 0.13 + 0.05; /* about three layers once settled */
    for (int w = 0; w < 4; w++) {
        dGeomID g = w < 2 ? dCreateBox(p->space, 0.05, L + 0.1, 2.0)
                          : dCreateBox(p->space, L + 0.1, 0.05, 2.0);
        dGeomSetPosition(g,
                         w == 0   ? -0.025
                         : w == 1 ? L + 0.025
                                  : L / 2,
                         w == 2   ? -0.025
                         : w == 3 ? L + 0.025
                                  : L / 2,
                         1.0);
    }
    unsigned long long rng = 12345;
    for (int i = 0; i < n; i++) {
        rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
        const double axis[3] = {1, 0.3 * i, 0.2};
        p->body[i] = add_box(p, 0.09 + 0.13 * (i % side), 0.09 + 0.13 * ((i / side) % side),
                             0.1 + 0.15 * (i / (side * side)), axis,
                             3.0 * (double)(rng >> 11) / 9007199254740992.0);
    }
    return 0;
}

static void pile_free(pile *p)
{
    ipx_ode_destroy(p->ipx);
    dJointGroupDestroy(p->group);
    dSpaceDestroy(p->space);
    dWorldDestroy(p->world);
    free(p->approach);
    free(p->body);
}

static void steps(pile *p, int n, int quick)
{
    for (int i = 0; i < n; i++) {
        dSpaceCollide(p->space, p, near_callback);
        if (quick) ipx_ode_quick_step(p->ipx, H);
        else ipx_ode_step(p->ipx, H);
        ipx_ode_empty_group(p->ipx, p->group);
    }
}

static double kinetic(const pile *p)
{
    double T = 0.0;
    for (int i = 0; i < p->n; i++) {
        const dReal *v = dBodyGetLinearVel(p->body[i]), *w = dBodyGetAngularVel(p->body[i]);
        T += 0.5 * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]) +
             0.5 * (BOX * BOX / 6.0) * (w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
    }
    return T;
}

static int by_value(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void run(int n, int quick, const char *model, const char *params)
{
    pile p;
    if (pile_make(&p, n, model, params) != 0) exit(2);
    const double t0 = ipx_now_us();
    steps(&p, SETTLE, quick);
    p.events = p.assembled = 0;
    const long resting0 = ipx_ode_get_stats(p.ipx).resting_contacts;
    steps(&p, MEASURE, quick);
    const long events = p.events, assembled = p.assembled;
    const double resting = (double)(ipx_ode_get_stats(p.ipx).resting_contacts - resting0) / MEASURE;
    const double ke = kinetic(&p);
    qsort(p.approach, (size_t)assembled, sizeof *p.approach, by_value);
    const double median = assembled ? p.approach[assembled / 2] : 0.0,
                 fastest = assembled ? p.approach[assembled - 1] : 0.0;
    /* one more box, 5 cm above the highest one */
    double top = 0.0, x = 0.0, y = 0.0;
    for (int i = 0; i < n; i++) {
        const dReal *c = dBodyGetPosition(p.body[i]);
        if (c[2] > top) {
            top = c[2];
            x = c[0];
            y = c[1];
        }
    }
    const double axis[3] = {0, 0, 1};
    p.events = p.assembled = 0;
    p.watch = add_box(&p, x, y, top + BOX + 0.05, axis, 0.3);
    steps(&p, 300, quick);
    printf(
        "%4d %-6s %-15s %9.4f %6ld/%-6ld %7.4f %5.2f %7.4f %5.2f %9.4f %10.2e %8.3f %6ld %7.1f\n",
        n, quick ? "quick" : "world", params ? params : "(default)", (double)events / MEASURE,
        assembled, events, median, median / (G * H), fastest, fastest / (G * H), resting, ke,
        p.watch_speed, p.events, (ipx_now_us() - t0) / 1e6);
    pile_free(&p);
}

int main(int argc, char **argv)
{
    dInitODE2(0);
    ipx_ode_capture_messages(
        0); /* ODE's "LCP internal error" warnings: counted, listed at the end */
    const char *model = argc > 3 ? argv[3] : "aplcp";
    printf("settling piles: events once settled (t = 2..4 s), then a box dropped from 5 cm; model "
           "%s\n",
           model);
    printf("%4s %-6s %-15s %9s %13s %7s %5s %7s %5s %9s %10s %8s %6s %7s\n", "n", "step", "params",
           "events/st", "assem/events", "med m/s", "/gh", "max m/s", "/gh", "resting/st",
           "pile KE J", "drop m/s", "events", "s");
    const char *settings[] = {"jitter_steps=0", NULL};
    if (argc > 1) {
        const int quick = argc > 2 ? strcmp(argv[2], "world") != 0 : 1;
        for (int s = 0; s < 2; s++) run(atoi(argv[1]), quick, model, settings[s]);
    } else {
        const int n[] = {27, 100, 200};
        for (int r = 0; r < 3; r++)
            for (int s = 0; s < 2; s++) run(n[r], 1, model, settings[s]);
    }
    ipx_ode_report_messages(stdout, "ODE: ");
    dCloseODE();
    return 0;
}
