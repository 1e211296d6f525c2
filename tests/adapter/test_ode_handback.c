/* What ODE does with velocities set before its step (docs/ode-host.md §4.1): the facts the
   handback rests on, as assertions with closed-form values, for both steppers; then the adapter's
   own handback on the same sphere. Sphere r = 0.1 m, m = 1 kg, 1 mm into a plane, attached (b, 0);
   g = -9.81 m/s^2, h = 1 ms, ERP 0.2, CFM 1e-10. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ensure.h"
#include "impax/ode.h"
#include "ode_kit.h"

#define H 0.001
#define G 9.81
#define DEPTH 0.001

enum stepper { WORLD_STEP, QUICK_STEP };

typedef struct sphere_case {
    int mode; /* extra dContact surface mode bits */
    double mu, bounce, bounce_vel;
    double vx, vz;                            /* velocity set before the step (m/s) */
    double max_correcting_vel, surface_layer; /* < 0: world default */
    int disable;                              /* dJointDisable the contact before the step */
} sphere_case;

typedef struct sphere_world {
    dWorldID world;
    dSpaceID space;
    dGeomID plane, ball;
    dBodyID body;
    dJointGroupID group;
    dContact contact;
} sphere_world;

static void sphere_world_make(sphere_world *s, const sphere_case *c)
{
    s->world = dWorldCreate();
    dWorldSetGravity(s->world, 0, 0, -G);
    dWorldSetERP(s->world, 0.2);
    dWorldSetCFM(s->world, 1e-10);
    if (c->max_correcting_vel >= 0)
        dWorldSetContactMaxCorrectingVel(s->world, c->max_correcting_vel);
    if (c->surface_layer >= 0) dWorldSetContactSurfaceLayer(s->world, c->surface_layer);
    s->space = dSimpleSpaceCreate(0);
    s->plane = dCreatePlane(s->space, 0, 0, 1, 0);
    s->ball = dCreateSphere(s->space, 0.1);
    const double at[3] = {0, 0, 0.1 - DEPTH};
    s->body = kit_ball(s->world, 1.0, 0.1, at);
    dGeomSetBody(s->ball, s->body);
    dBodySetLinearVel(s->body, c->vx, 0, c->vz);
    s->group = dJointGroupCreate(0);
    memset(&s->contact, 0, sizeof s->contact);
    ENSURE(dCollide(s->ball, s->plane, 1, &s->contact.geom, sizeof(dContactGeom)) == 1);
    s->contact.surface.mode = c->mode;
    s->contact.surface.mu = c->mu;
    s->contact.surface.bounce = c->bounce;
    s->contact.surface.bounce_vel = c->bounce_vel;
}

static void sphere_world_free(sphere_world *s)
{
    dJointGroupDestroy(s->group);
    dSpaceDestroy(s->space);
    dWorldDestroy(s->world);
}

/* Plain ODE: contact created and attached, one step; returns the velocity after. */
static void ode_after(const sphere_case *c, enum stepper st, double *vx, double *vz)
{
    sphere_world s;
    sphere_world_make(&s, c);
    dJointID j = dJointCreateContact(s.world, s.group, &s.contact);
    dJointAttach(j, s.body, 0);
    if (c->disable) dJointDisable(j);
    if (st == WORLD_STEP) dWorldStep(s.world, H);
    else dWorldQuickStep(s.world, H);
    *vx = dBodyGetLinearVel(s.body)[0];
    *vz = dBodyGetLinearVel(s.body)[2];
    sphere_world_free(&s);
}

static const double gh = G * H;
static const double erp_push = 0.2 * DEPTH / H; /* ERP push-out target, m/s */

static void expect(const char *name, const sphere_case *c, enum stepper st, double ex, double ez,
                   double tol)
{
    double vx, vz;
    ode_after(c, st, &vx, &vz);
    int ok = fabs(vx - ex) <= tol && fabs(vz - ez) <= tol;
    if (!ok)
        printf("  case %s (%s): after (%.6f, %.6f), expected (%.6f, %.6f)\n", name,
               st == WORLD_STEP ? "world" : "quick", vx, vz, ex, ez);
    ENSURE(ok);
}

static void test_odes_handback_table_holds(void)
{
    const double solid_sphere_roll =
        5.0 / 7.0; /* v after the slip is stopped: v0 (1 - 1/(1 + m r^2/I)) */
    for (int st = WORLD_STEP; st <= QUICK_STEP; st++) {
        /* A, F: separating: only gravity; ODE's bounce does not re-fire after a handback */
        expect("A", &(sphere_case){0, 0, 0, 0, 0, 1, -1, -1, 0}, st, 0, 1 - gh, 1e-9);
        expect("F", &(sphere_case){dContactBounce, 0, 0.5, 0.1, 0, 1, -1, -1, 0}, st, 0, 1 - gh,
               1e-9);
        /* G: ODE's own Newton bounce; H, B: plastic plus ERP push-out erp d / h */
        expect("G", &(sphere_case){dContactBounce, 0, 0.5, 0.1, 0, -1, -1, -1, 0}, st, 0, 0.5,
               1e-6);
        expect("H", &(sphere_case){0, 0, 0, 0, 0, -1, -1, -1, 0}, st, 0, erp_push, 1e-6);
        expect("B", &(sphere_case){0, 0, 0, 0, 0, 0, -1, -1, 0}, st, 0, erp_push, 1e-6);
        /* C: push-out capped by max_correcting_vel; D: a surface layer of the depth removes it */
        expect("C", &(sphere_case){0, 0, 0, 0, 0, 0, 0.05, -1, 0}, st, 0, 0.05, 1e-6);
        expect("D", &(sphere_case){0, 0, 0, 0, 0, 0, -1, DEPTH, 0}, st, 0, 0.0, 1e-6);
        /* E: ERP adds to a slowly separating contact */
        expect("E", &(sphere_case){0, 0, 0, 0, 0, 0.1, -1, -1, 0}, st, 0, erp_push, 1e-6);
        /* I: mu = inf without Approx1 sticks a separating contact: the sphere rolls */
        expect("I", &(sphere_case){0, dInfinity, 0, 0, 1, 1, -1, -1, 0}, st, solid_sphere_roll,
               1 - gh, 1e-6);
        /* K: without Approx1 mu is a force limit: impulse mu h */
        expect("K", &(sphere_case){0, 5, 0, 0, 1, 1, -1, -1, 0}, st, 1 - 5 * H, 1 - gh, 1e-6);
        /* N: Approx1, separating (lambda_n = 0): no friction */
        expect("N", &(sphere_case){dContactApprox1, 5, 0, 0, 1, 1, -1, -1, 0}, st, 1, 1 - gh, 1e-9);
        /* a disabled contact adds nothing: no push-out, no friction even with mu = inf */
        expect("disabled", &(sphere_case){0, dInfinity, 0, 0, 1, 0.1, -1, -1, 1}, st, 1, 0.1 - gh,
               1e-9);
    }
    /* J: mu = inf with Approx1: dWorldStep gives no friction, QuickStep sticks (inf * 0 = NaN bounds) */
    expect("J", &(sphere_case){dContactApprox1, dInfinity, 0, 0, 1, 1, -1, -1, 0}, WORLD_STEP, 1,
           1 - gh, 1e-9);
    expect("J", &(sphere_case){dContactApprox1, dInfinity, 0, 0, 1, 1, -1, -1, 0}, QUICK_STEP,
           solid_sphere_roll, 1 - gh, 1e-6);
}

/* The adapter on the same sphere: PLUS with e = bounce hands back v_n = e v_n^- and disables the
   separating contact, so ODE adds only gravity (no push-out, no second bounce); a plastic impact
   stays closed: with recovery=position ODE carries it without push-out (v_n = 0 after the step,
   the penetration moved out at position level), with recovery=ode ODE's push-out remains. */
static void adapter_after(const sphere_case *c, enum stepper st, const char *params, double *vx,
                          double *vz, ipx_ode_stats *stats)
{
    sphere_world s;
    sphere_world_make(&s, c);
    ipx_ode_context *ipx = ipx_ode_create(s.world);
    char msg[256];
    ENSURE(ipx_ode_configure(ipx, "plus", params, msg, sizeof msg) == 0);
    ENSURE(ipx_ode_contact(ipx, s.world, s.group, &s.contact, s.body, 0) != 0);
    if (st == WORLD_STEP) ipx_ode_step(ipx, H);
    else ipx_ode_quick_step(ipx, H);
    *vx = dBodyGetLinearVel(s.body)[0];
    *vz = dBodyGetLinearVel(s.body)[2];
    *stats = ipx_ode_get_stats(ipx);
    ipx_ode_destroy(ipx);
    sphere_world_free(&s);
}

static void test_adapter_bounce_is_not_pushed_out_again(void)
{
    for (int st = WORLD_STEP; st <= QUICK_STEP; st++) {
        double vx, vz;
        ipx_ode_stats stats;
        const sphere_case bounce = {
            dContactBounce | dContactApprox1, 0.5, 0.5, 0.1, 0, -1, -1, -1, 0};
        const sphere_case plastic = {dContactApprox1, 0.5, 0, 0, 0, -1, -1, -1, 0};
        adapter_after(&bounce, st, NULL, &vx, &vz, &stats);
        ENSURE(stats.impact_events == 1 && stats.contacts_disabled == 1 && stats.fallbacks == 0);
        ENSURE_NEAR(vz, 0.5 - gh, 1e-9);
        adapter_after(&plastic, st, NULL, &vx, &vz, &stats);
        ENSURE(stats.impact_events == 1 && stats.contacts_disabled == 0 &&
               stats.recovered_contacts == 1);
        ENSURE_NEAR(vz, 0.0, 1e-9);
        adapter_after(&plastic, st, "recovery=ode", &vx, &vz, &stats);
        ENSURE(stats.impact_events == 1 && stats.contacts_disabled == 0 &&
               stats.recovered_contacts == 0);
        ENSURE_NEAR(vz, erp_push, 1e-6);
        adapter_after(&plastic, st, "recovery=velocity,recovery_speed=0.05", &vx, &vz, &stats);
        ENSURE(stats.recovered_contacts == 1);
        ENSURE_NEAR(vz, 0.05, 1e-6); /* ODE's push-out, limited to recovery_speed */
    }
}

/* mu = dInfinity reaches PLUS as a contact that never slides (docs/models/plus.md §5.9): the
   sphere landing at 1 m/s forward and 1 m/s down rolls at once, v = 5/7 with no limit reached,
   and stays closed (a corner, where a large finite mu would slide first: test_ode_plus.c). */
static void test_adapter_infinite_friction_never_slides(void)
{
    for (int st = WORLD_STEP; st <= QUICK_STEP; st++) {
        double vx, vz;
        ipx_ode_stats stats;
        const sphere_case landing = {0, dInfinity, 0, 0, 1, -1, -1, -1, 0};
        adapter_after(&landing, st, NULL, &vx, &vz, &stats);
        ENSURE(stats.impact_events == 1 && stats.fallbacks == 0 && stats.limits_hit_events == 0);
        ENSURE_NEAR(vx, 5.0 / 7.0, 1e-9);
        ENSURE_NEAR(vz, 0.0, 1e-9);
    }
}

int main(void)
{
    dInitODE2(0);
    RUN(test_odes_handback_table_holds);
    RUN(test_adapter_bounce_is_not_pushed_out_again);
    RUN(test_adapter_infinite_friction_never_slides);
    dCloseODE();
    return ipx_test_exit();
}
