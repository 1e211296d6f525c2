/* The piles of issue [piles] (ode_pile_scene.h): the draw of a scene from its seed, its one-line
   description, and the plain ODE program that runs it. Bodies are placed on a grid of layers
   whose pitch (2 x the largest extent) keeps any two of them apart whatever their rotation, so a
   scene starts without overlaps; a sequential release makes body i at its grid place at step
   i x release_every / h, after the bodies below it have fallen away. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ode_pile_scene.h"
#include "impax/rng.h"

#define G 9.81 /* m/s^2 */
#define PI 3.14159265358979323846

pile_draw_range pile_default_range(void)
{
    const pile_draw_range r = {50, 400, 60};
    return r;
}

/* Log-uniform in [lo, hi]. */
static double log_uniform(ipx_rng *rng, double lo, double hi)
{
    return exp(ipx_rng_uniform(rng, log(lo), log(hi)));
}

static int chance(ipx_rng *rng, double p) { return ipx_rng_uniform(rng, 0.0, 1.0) < p; }

void pile_draw(uint64_t seed, const pile_draw_range *range, double seconds, pile_spec *s)
{
    ipx_rng rng;
    ipx_rng_seed(&rng, seed);
    memset(s, 0, sizeof *s);
    s->seed = seed;
    s->seconds = seconds;
    /* the stepper first: it bounds the body count */
    s->iterations = chance(&rng, 0.25) ? 0 : 10 + (int)ipx_rng_uniform(&rng, 0.0, 41.0);
    const int hi = s->iterations                              ? range->bodies_hi
                   : range->step_bodies_hi < range->bodies_hi ? range->step_bodies_hi
                                                              : range->bodies_hi;
    const int lo = range->bodies_lo < hi ? range->bodies_lo : hi;
    s->bodies = (int)floor(log_uniform(&rng, lo, hi + 1.0));
    if (s->bodies > hi) s->bodies = hi;
    s->shapes = (pile_shapes)(int)ipx_rng_uniform(&rng, 0.0, 4.0);
    s->size_m = log_uniform(&rng, 0.03, 0.2);
    s->aspect = ipx_rng_uniform(&rng, 1.0, 3.0);
    s->mass_lo_kg = log_uniform(&rng, 0.05, 5.0);
    s->mass_hi_kg = fmin(5.0, s->mass_lo_kg * log_uniform(&rng, 1.0, 10.0));
    s->bin = chance(&rng, 0.5);
    s->layers = 2 + (int)ipx_rng_uniform(&rng, 0.0, 7.0);
    s->mu = chance(&rng, 0.1) ? dInfinity : ipx_rng_uniform(&rng, 0.1, 1.0);
    s->approx1 = chance(&rng, 0.5);
    s->bounce = chance(&rng, 0.3) ? 0.0 : ipx_rng_uniform(&rng, 0.0, 0.8);
    s->bounce_vel = ipx_rng_uniform(&rng, 0.0, 0.5);
    s->max_points = chance(&rng, 0.5) ? 4 : 8;
    s->cfm = log_uniform(&rng, 1e-10, 1e-4);
    s->erp = ipx_rng_uniform(&rng, 0.1, 0.9);
    s->max_correct = chance(&rng, 0.3) ? dInfinity : log_uniform(&rng, 0.1, 10.0);
    s->surface_layer = chance(&rng, 0.2) ? 0.0 : ipx_rng_uniform(&rng, 0.0, 2e-3);
    s->h = 1e-3 * log_uniform(&rng, 1.0, 20.0);
    const double window = seconds * ipx_rng_uniform(&rng, 0.2, 0.5);
    s->release_every = chance(&rng, 0.5) ? window / s->bodies : 0.0;
    s->drop_gap_m = ipx_rng_uniform(&rng, 0.0, 2.0) * s->size_m;
}

static const char *shape_name(pile_shapes s)
{
    static const char *const names[] = {"boxes", "spheres", "capsules", "mixed"};
    return names[s];
}

int pile_format(const pile_spec *s, char *buf, size_t size)
{
    char mu[32], corr[32], step[32], release[48];
    if (isinf(s->mu)) snprintf(mu, sizeof mu, "inf");
    else snprintf(mu, sizeof mu, "%.3f", s->mu);
    if (isinf(s->max_correct)) snprintf(corr, sizeof corr, "inf");
    else snprintf(corr, sizeof corr, "%.3g", s->max_correct);
    if (s->iterations) snprintf(step, sizeof step, "quick%d", s->iterations);
    else snprintf(step, sizeof step, "world");
    if (s->release_every > 0)
        snprintf(release, sizeof release, "every %.2f ms", 1e3 * s->release_every);
    else snprintf(release, sizeof release, "at once");
    return snprintf(buf, size,
                    "seed %llu: %d %s size %.3f m aspect %.2f mass %.3g-%.3g kg %s layers %d "
                    "gap %.3f m | mu %s %s bounce %.2f vel %.3f m/s points %d | cfm %.2e erp %.2f "
                    "max_vel %s m/s layer %.2f mm | %s h %.2f ms %.2f s | drop %s",
                    (unsigned long long)s->seed, s->bodies, shape_name(s->shapes), s->size_m,
                    s->aspect, s->mass_lo_kg, s->mass_hi_kg, s->bin ? "bin" : "floor", s->layers,
                    s->drop_gap_m, mu, s->approx1 ? "approx1" : "fixed-bound", s->bounce,
                    s->bounce_vel, s->max_points, s->cfm, s->erp, corr, 1e3 * s->surface_layer,
                    step, 1e3 * s->h, s->seconds, release);
}

/* ---- the world ------------------------------------------------------------------------- */

typedef struct grid {
    int side;     /* places per row */
    double pitch; /* m */
} grid;

static grid grid_of(const pile_spec *s)
{
    const int per_layer = (s->bodies + s->layers - 1) / s->layers;
    grid g = {(int)ceil(sqrt((double)per_layer)), 2.0 * s->size_m};
    return g;
}

static void near_callback(void *data, dGeomID a, dGeomID b)
{
    pile_world *w = data;
    dBodyID b1 = dGeomGetBody(a), b2 = dGeomGetBody(b);
    if (!b1 && !b2) return;
    dContactGeom g[8];
    const int n = dCollide(a, b, w->spec.max_points, g, sizeof g[0]);
    for (int i = 0; i < n; i++) {
        dContact c;
        memset(&c, 0, sizeof c);
        c.surface.mode = w->spec.approx1 ? dContactApprox1 : 0;
        if (w->spec.bounce > 0) c.surface.mode |= dContactBounce;
        c.surface.mu = w->spec.mu;
        c.surface.bounce = w->spec.bounce;
        c.surface.bounce_vel = w->spec.bounce_vel;
        c.geom = g[i];
        w->contact_points++;
        if (w->ipx) ipx_ode_contact(w->ipx, w->world, w->group, &c, b1, b2);
        else dJointAttach(dJointCreateContact(w->world, w->group, &c), b1, b2);
    }
}

/* Body i: its shape, size and mass from a stream of its own (the same in every run), at its grid
   place with a random rotation. */
static void release(pile_world *w, int i)
{
    const pile_spec *s = &w->spec;
    ipx_rng rng;
    ipx_rng_seed(&rng, ipx_mix64(s->seed * 1000003u + (uint64_t)i + 1u));
    const pile_shapes shape =
        s->shapes == PILE_MIXED ? (pile_shapes)(int)ipx_rng_uniform(&rng, 0.0, 3.0) : s->shapes;
    const double L = s->size_m, m = log_uniform(&rng, s->mass_lo_kg, s->mass_hi_kg);
    dBodyID b = dBodyCreate(w->world);
    dMass mass;
    dGeomID geom;
    if (shape == PILE_BOXES) {
        double side[3];
        for (int a = 0; a < 3; a++) side[a] = L * ipx_rng_uniform(&rng, 1.0 / s->aspect, 1.0);
        dMassSetBoxTotal(&mass, m, side[0], side[1], side[2]);
        geom = dCreateBox(w->space, side[0], side[1], side[2]);
    } else if (shape == PILE_SPHERES) {
        const double r = 0.5 * L * ipx_rng_uniform(&rng, 0.5, 1.0);
        dMassSetSphereTotal(&mass, m, r);
        geom = dCreateSphere(w->space, r);
    } else { /* total length L x u, diameter at least that over the aspect */
        const double total = L * ipx_rng_uniform(&rng, 0.5, 1.0);
        const double r = 0.5 * total / ipx_rng_uniform(&rng, 1.0, s->aspect);
        dMassSetCapsuleTotal(&mass, m, 3, r, total - 2.0 * r);
        geom = dCreateCapsule(w->space, r, total - 2.0 * r);
    }
    dBodySetMass(b, &mass);
    dGeomSetBody(geom, b);
    const grid g = grid_of(s);
    const int per_layer = g.side * g.side, cell = i % per_layer, layer = i / per_layer;
    const double centre = 0.5 * (g.side - 1);
    const double x = g.pitch * (cell % g.side - centre) + ipx_rng_uniform(&rng, -0.1, 0.1) * L;
    const double y = g.pitch * (cell / g.side - centre) + ipx_rng_uniform(&rng, -0.1, 0.1) * L;
    const double z = s->drop_gap_m + g.pitch * (0.5 + layer);
    dBodySetPosition(b, x, y, z);
    dMatrix3 R;
    dRFromAxisAndAngle(R, ipx_rng_normal(&rng), ipx_rng_normal(&rng), ipx_rng_normal(&rng) + 1e-9,
                       ipx_rng_uniform(&rng, 0.0, 2.0 * PI));
    dBodySetRotation(b, R);
    w->body[i] = b;
}

static void release_due(pile_world *w)
{
    while (w->released < w->spec.bodies &&
           (w->spec.release_every <= 0 ||
            w->released * w->spec.release_every <= (double)w->step * w->spec.h + 1e-12)) {
        release(w, w->released);
        w->released++;
    }
}

/* Four static walls around the grid, 0.5 of the pile's height tall (at least 2 sizes). */
static void add_bin(pile_world *w)
{
    const grid g = grid_of(&w->spec);
    const double in = 0.5 * g.side * g.pitch, t = w->spec.size_m;
    const double top = fmax(0.5 * w->spec.layers * g.pitch, 2.0 * w->spec.size_m);
    const double long_side = 2.0 * in + 2.0 * t;
    dGeomSetPosition(dCreateBox(w->space, t, long_side, top), in + t / 2, 0, top / 2);
    dGeomSetPosition(dCreateBox(w->space, t, long_side, top), -in - t / 2, 0, top / 2);
    dGeomSetPosition(dCreateBox(w->space, 2.0 * in, t, top), 0, in + t / 2, top / 2);
    dGeomSetPosition(dCreateBox(w->space, 2.0 * in, t, top), 0, -in - t / 2, top / 2);
}

int pile_world_make(pile_world *w, const pile_spec *spec, const char *model, const char *params,
                    char *message, size_t size)
{
    memset(w, 0, sizeof *w);
    w->spec = *spec;
    w->steps = (long)ceil(spec->seconds / spec->h - 1e-9);
    w->body = calloc((size_t)spec->bodies, sizeof *w->body);
    if (!w->body) {
        snprintf(message, size, "no memory for %d bodies", spec->bodies);
        return -1;
    }
    dRandSetSeed((unsigned long)spec->seed); /* QuickStep's row order */
    w->world = dWorldCreate();
    dWorldSetGravity(w->world, 0, 0, -G);
    dWorldSetCFM(w->world, spec->cfm);
    dWorldSetERP(w->world, spec->erp);
    dWorldSetContactMaxCorrectingVel(w->world, spec->max_correct);
    dWorldSetContactSurfaceLayer(w->world, spec->surface_layer);
    if (spec->iterations) dWorldSetQuickStepNumIterations(w->world, spec->iterations);
    w->space = dHashSpaceCreate(0);
    w->group = dJointGroupCreate(0);
    dCreatePlane(w->space, 0, 0, 1, 0);
    if (spec->bin) add_bin(w);
    if (model) {
        w->ipx = ipx_ode_create(w->world);
        if (!w->ipx || ipx_ode_configure(w->ipx, model, params, message, size) != 0) {
            if (!w->ipx) snprintf(message, size, "no memory for the adapter");
            pile_world_free(w);
            return -1;
        }
    }
    release_due(w);
    return 0;
}

int pile_world_step(pile_world *w)
{
    release_due(w);
    dSpaceCollide(w->space, w, near_callback);
    int r;
    if (w->ipx) {
        r = w->spec.iterations ? ipx_ode_quick_step(w->ipx, w->spec.h)
                               : ipx_ode_step(w->ipx, w->spec.h);
        ipx_ode_empty_group(w->ipx, w->group);
    } else {
        r = w->spec.iterations ? dWorldQuickStep(w->world, w->spec.h)
                               : dWorldStep(w->world, w->spec.h);
        dJointGroupEmpty(w->group);
    }
    w->step++;
    return r;
}

double pile_world_kinetic_energy(const pile_world *w)
{
    double ke = 0.0;
    for (int b = 0; b < w->released; b++) {
        dMass m;
        dBodyGetMass(w->body[b], &m);
        const dReal *v = dBodyGetLinearVel(w->body[b]), *om = dBodyGetAngularVel(w->body[b]);
        const dReal *R = dBodyGetRotation(w->body[b]); /* 3 x 4, row-major, body to world */
        double wb[3], Iw = 0.0; /* omega in the body frame, then omega . I omega */
        for (int i = 0; i < 3; i++) wb[i] = R[i] * om[0] + R[4 + i] * om[1] + R[8 + i] * om[2];
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++) Iw += wb[i] * m.I[4 * i + j] * wb[j];
        ke += 0.5 * m.mass * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]) + 0.5 * Iw;
    }
    return ke;
}

void pile_world_free(pile_world *w)
{
    if (w->ipx) ipx_ode_destroy(w->ipx);
    if (w->group) dJointGroupDestroy(w->group);
    if (w->space) dSpaceDestroy(w->space);
    if (w->world) dWorldDestroy(w->world);
    free(w->body);
    memset(w, 0, sizeof *w);
}
