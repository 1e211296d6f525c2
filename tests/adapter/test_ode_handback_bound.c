/* The handback's bound (issue [hardening] 12; ode.h IPX_ODE_HANDBACK_BOUND): an answer that
   changes a contact velocity by more than handback_bound times the problem's speed scale
   (largest contact speed + |g| h + recovery_speed) is not handed back: the island is left to
   ODE's own step, with a message naming the contact, counted in fallbacks and in
   handback_refused. An energy-consistent impact can reach such changes on a body of tiny mass
   or inertia for its size, and ODE's stepper then fails where its own contact answer runs on.
   - With the bound set below a plain bounce (a 2 kg ball at 1 m/s, e = 0.5: 1.5 m/s against a
     scale of 1.02 m/s), every impact is refused and the run is ODE's own, bit for bit.
   - At the default (100) it never fires on ordinary scenes: a ball, a box on a corner and a
     box on a face, sliding and spinning, under every model; the largest ratio met stays below
     20 (the world files' runs, test_world_runs, assert the same for the paper scenes). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ensure.h"
#include "impax/ode.h"
#include "impax/registry.h"
#include "ode_kit.h"

typedef struct trace {
    double z[400], vz[400];
    ipx_ode_stats stats;
} trace;

/* A 2 kg ball (R 0.1 m) dropped from 5 cm onto the ground, 400 steps of 1 ms. */
static void ball_run(const char *model, const char *params, trace *t)
{
    kit_sim s;
    dSurfaceParameters surface = {
        .mode = dContactBounce, .mu = 0.5, .bounce = 0.5, .bounce_vel = 0.01};
    ENSURE(kit_sim_make(&s, model, params, &surface, 0) == 0);
    const double at[3] = {0.0, 0.0, 0.15};
    dBodyID ball = kit_ball(s.world, 2.0, 0.1, at);
    dGeomSetBody(dCreateSphere(s.space, 0.1), ball);
    for (int i = 0; i < 400; i++) {
        kit_sim_step(&s, 1e-3);
        t->z[i] = dBodyGetPosition(ball)[2];
        t->vz[i] = dBodyGetLinearVel(ball)[2];
    }
    t->stats = ipx_ode_get_stats(s.ipx);
    kit_sim_free(&s);
}

static void test_an_answer_beyond_the_bound_is_left_to_ode(void)
{
    static trace bound, ode;
    ball_run("plus", "handback_bound=0.5", &bound);
    ball_run("ode", "", &ode);
    printf("  refused %ld, fallbacks %ld, events %ld: %s\n", bound.stats.handback_refused,
           bound.stats.fallbacks, bound.stats.impact_events, bound.stats.last_message);
    ENSURE(bound.stats.handback_refused >= 1 && bound.stats.impact_events == 0);
    ENSURE(bound.stats.fallbacks == bound.stats.handback_refused);
    ENSURE(strstr(bound.stats.last_message, "handback refused: contact 0") != NULL);
    int same = 1;
    for (int i = 0; i < 400; i++) same &= bound.z[i] == ode.z[i] && bound.vz[i] == ode.vz[i];
    ENSURE(same); /* the island was left exactly as it was: ODE's own run */
}

static void test_bad_bounds_are_refused_by_name(void)
{
    dWorldID w = dWorldCreate();
    ipx_ode_context *ipx = ipx_ode_create(w);
    char msg[256];
    ENSURE(ipx_ode_configure(ipx, "plus", "handback_bound=0", msg, sizeof msg) != 0 &&
           strstr(msg, "handback_bound"));
    ENSURE(ipx_ode_configure(ipx, "plus", "handback_bound=-3", msg, sizeof msg) != 0 &&
           strstr(msg, "handback_bound"));
    ENSURE(ipx_ode_configure(ipx, "plus", "handback_bound=50", msg, sizeof msg) == 0);
    ENSURE(ipx_ode_get_config(ipx).handback_bound == 50.0);
    ENSURE(ipx_ode_default_config().handback_bound == IPX_ODE_HANDBACK_BOUND);
    ipx_ode_destroy(ipx);
    dWorldDestroy(w);
}

/* A 1 kg box (0.4 x 0.3 x 0.2 m) dropped from 0.3 m tilted about axis, sliding and spinning. */
static ipx_ode_stats box_run(const char *model, const double axis[3], double angle)
{
    kit_sim s;
    dSurfaceParameters surface = {
        .mode = dContactBounce, .mu = 0.6, .bounce = 0.3, .bounce_vel = 0.01};
    ENSURE(kit_sim_make(&s, model, "", &surface, 1) == 0);
    const double side[3] = {0.4, 0.3, 0.2};
    dBodyID box = kit_box(s.world, 1.0, side, (double[3]){0.0, 0.0, 0.3}, axis, angle);
    dGeomSetBody(dCreateBox(s.space, side[0], side[1], side[2]), box);
    dBodySetLinearVel(box, 1.5, -0.5, 0.0);
    dBodySetAngularVel(box, 0.0, 0.0, 4.0);
    for (int i = 0; i < 800; i++) kit_sim_step(&s, 1e-3);
    const ipx_ode_stats st = ipx_ode_get_stats(s.ipx);
    kit_sim_free(&s);
    return st;
}

static void test_the_default_bound_never_fires_on_ordinary_scenes(void)
{
    double worst = 0.0;
    for (int m = 0; m < ipx_model_count(); m++) {
        const char *name = ipx_model_at(m)->name;
        trace t;
        ball_run(name, "", &t);
        const ipx_ode_stats corner = box_run(name, (double[3]){1.0, 1.0, 0.0}, 0.6);
        const ipx_ode_stats face = box_run(name, (double[3]){0.0, 0.0, 1.0}, 0.3);
        const ipx_ode_stats *all[3] = {&t.stats, &corner, &face};
        for (int i = 0; i < 3; i++) {
            ENSURE(all[i]->handback_refused == 0);
            worst = fmax(worst, all[i]->max_handback_ratio);
        }
        printf("  %-8s largest ratio: ball %.3g, corner %.3g, face %.3g\n", name,
               t.stats.max_handback_ratio, corner.max_handback_ratio, face.max_handback_ratio);
    }
    ENSURE(worst < 20.0);
}

int main(void)
{
    dInitODE2(0);
    RUN(test_an_answer_beyond_the_bound_is_left_to_ode);
    RUN(test_bad_bounds_are_refused_by_name);
    RUN(test_the_default_bound_never_fires_on_ordinary_scenes);
    dCloseODE();
    return ipx_test_exit();
}
