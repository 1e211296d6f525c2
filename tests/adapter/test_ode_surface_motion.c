/* Contacts with a surface motion (dContactMotion1, 2, N): ODE's rows hold that relative velocity
   as rest (a conveyor's belt, a platform the program moves as a static geom, ODE's demo_motion),
   so the impact models answer for the velocities relative to it (ipx_ode_surface_motion). A
   solid ball (1 kg, r 0.1 m, gravity off) lands at 3 m/s on the plane z = 0, one contact
   attached (ball, 0), and the velocities the pre-step hands back are compared with closed forms:
   - a platform rising at 1 m/s (motionN), e = 0.5, frictionless: the ball approaches it at 4 m/s
     and leaves at 2 relative to it, 3 m/s in the world, as ODE's own bounce rule gives; the
     trace's work_other is the platform's work pi_n motionN = 6 J, and the energies balance;
   - a belt moving at 2 m/s along x (motion1), e = 0: with mu = 0.1 the ball slides on it the
     whole impact and leaves at mu 3 = 0.3 m/s along x; with mu = 1 its contact point is carried
     to the belt's speed, v_x = 2 / (1 + m r^2 / I) = 2 / 3.5;
   - a ball at rest on a platform that rises at 1 m/s is hit by it (an impact, not rest);
   - under gonthier, over host steps, a ball resting on the belt is carried along by it. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ensure.h"
#include "impax/ode.h"
#include "ode_kit.h"

#define MASS 1.0   /* kg */
#define RADIUS 0.1 /* m */
#define STEP 0.001 /* s */

typedef struct landing {
    double v[3], w[3];          /* m/s, rad/s after the pre-step */
    long events;                /* impact events */
    double ke_before, ke_after; /* J, the event's */
    double work_other;          /* J, the event's */
} landing;

static void on_event(const ipx_ode_event *ev, void *user)
{
    landing *l = user;
    l->ke_before = ev->ke_before;
    l->ke_after = ev->ke_after;
    l->work_other = ev->work_other;
}

/* The ball at approach speed vz_in (m/s, downwards) on the plane, its contact moved as given:
   mode adds dContactMotion* bits, motion[3] = motion1, motion2, motionN. model NULL: ODE's own
   dWorldStep of one step. */
static landing land(const char *model, double vz_in, double mu, double e, int mode,
                    const double motion[3])
{
    dWorldID world = dWorldCreate();
    dWorldSetGravity(world, 0, 0, 0);
    dWorldSetCFM(world, 0.0); /* ODE's own step: its rows hard, so its bounce is exact */
    dJointGroupID group = dJointGroupCreate(0);
    const double at[3] = {0, 0, RADIUS - 1e-6};
    dBodyID ball = kit_ball(world, MASS, RADIUS, at);
    dBodySetLinearVel(ball, 0, 0, -vz_in);
    const double p[3] = {0, 0, -1e-6}, n[3] = {0, 0, 1};
    dContact c = kit_contact(p, n, 1e-6, mu, e, 0.01);
    c.surface.mode |= mode | dContactFDir1;
    c.fdir1[0] = 1, c.fdir1[1] = 0, c.fdir1[2] = 0;
    c.surface.motion1 = motion[0];
    c.surface.motion2 = motion[1];
    c.surface.motionN = motion[2];
    landing l;
    memset(&l, 0, sizeof l);
    ipx_ode_context *ipx = NULL;
    if (model) {
        char msg[256];
        ipx = ipx_ode_create(world);
        ENSURE(ipx_ode_configure(ipx, model, NULL, msg, sizeof msg) == 0);
        ipx_ode_set_event_callback(ipx, on_event, &l);
        ipx_ode_contact(ipx, world, group, &c, ball, NULL);
        ipx_ode_pre_step(ipx, STEP);
        l.events = ipx_ode_get_stats(ipx).impact_events;
    } else {
        dJointAttach(dJointCreateContact(world, group, &c), ball, NULL);
        dWorldStep(world, STEP);
    }
    for (int a = 0; a < 3; a++) {
        l.v[a] = dBodyGetLinearVel(ball)[a];
        l.w[a] = dBodyGetAngularVel(ball)[a];
    }
    if (ipx) {
        ipx_ode_post_step(ipx);
        ipx_ode_destroy(ipx);
    }
    dJointGroupDestroy(group);
    dWorldDestroy(world);
    return l;
}

static void test_a_rising_platform_throws_the_ball_as_ode_bounces_it(void)
{
    const double rising[3] = {0, 0, 1.0};
    const landing plus = land("plus", 3.0, 0.0, 0.5, dContactMotionN, rising);
    const landing ode = land(NULL, 3.0, 0.0, 0.5, dContactMotionN, rising);
    const landing aplcp = land("aplcp", 3.0, 0.0, 0.5, dContactMotionN, rising);
    printf("  rising platform: v_z plus %.9f, ODE %.9f, aplcp %.9f m/s; work_other %.9f J\n",
           plus.v[2], ode.v[2], aplcp.v[2], plus.work_other);
    ENSURE(plus.events == 1);
    ENSURE_NEAR(plus.v[2], 1.0 + 0.5 * 4.0, 1e-9); /* leaves at e 4 m/s relative to it */
    ENSURE_NEAR(ode.v[2], plus.v[2], 1e-9);        /* ODE: e (motionN - outgoing) + motionN */
    ENSURE_NEAR(aplcp.v[2], 1.0, 1e-9);            /* inelastic: carried at the platform's speed */
    /* the platform's work pi_n motionN = m 6 m/s x 1 m/s; the ball keeps its 4.5 J in the
       world, and loses m (4^2 - 2^2) / 2 = 6 J relative to the platform */
    ENSURE_NEAR(plus.work_other, 6.0, 1e-9);
    ENSURE_NEAR(plus.ke_after - plus.ke_before - plus.work_other, 0.5 * (4.0 - 16.0), 1e-9);
}

static void test_a_belt_drags_the_ball_along_by_its_friction(void)
{
    const double belt[3] = {2.0, 0, 0};
    const landing slide = land("plus", 3.0, 0.1, 0.0, dContactMotion1, belt);
    const landing grip = land("plus", 3.0, 1.0, 0.0, dContactMotion1, belt);
    const double lever = 1.0 + MASS * RADIUS * RADIUS / (0.4 * MASS * RADIUS * RADIUS); /* 3.5 */
    const double point = grip.v[0] - grip.w[1] * RADIUS; /* v + w x (0, 0, -r), along x */
    printf("  belt at 2 m/s: mu 0.1 v_x %.9f m/s; mu 1 v_x %.9f m/s, contact point %.9f m/s\n",
           slide.v[0], grip.v[0], point);
    ENSURE_NEAR(slide.v[0], 0.1 * 3.0, 1e-9); /* slides throughout: friction mu pi_n */
    ENSURE_NEAR(slide.v[2], 0.0, 1e-9);
    ENSURE_NEAR(slide.w[1], -0.1 * 3.0 * RADIUS / (0.4 * MASS * RADIUS * RADIUS), 1e-9);
    ENSURE_NEAR(grip.v[0], 2.0 / lever, 1e-9); /* its contact point carried to the belt's 2 m/s */
    ENSURE_NEAR(point, 2.0, 1e-9);
    ENSURE_NEAR(grip.work_other, MASS * 2.0 / lever * 2.0, 1e-9); /* pi_t1 motion1 */
}

static void test_a_platform_rising_under_a_resting_ball_hits_it(void)
{
    const double rising[3] = {0, 0, 1.0}, still[3] = {0, 0, 0};
    const landing hit = land("plus", 0.0, 0.0, 0.0, dContactMotionN, rising);
    const landing rest = land("plus", 0.0, 0.0, 0.0, dContactMotionN, still);
    printf("  ball at rest: platform rising at 1 m/s: %ld event(s), v_z %.9f m/s; still: %ld\n",
           hit.events, hit.v[2], rest.events);
    ENSURE(hit.events == 1 && rest.events == 0);
    ENSURE_NEAR(hit.v[2], 1.0, 1e-9);
}

/* The compliant reference in host steps (1 ms, gravity on): a ball resting on a belt that moves
   at 1 m/s along its first friction direction (mu 0.5) is dragged until its contact point moves
   with the belt, v = 1 / 3.5 m/s along it, as ODE's own rows drag it (model NULL). */
static void belt_rest(const char *model, double *along, double *point)
{
    dSurfaceParameters s;
    memset(&s, 0, sizeof s);
    s.mode = dContactApprox1 | dContactMotion1;
    s.mu = 0.5;
    s.motion1 = 1.0;
    kit_sim sim;
    ENSURE(kit_sim_make(&sim, model ? model : "ode", NULL, &s, 0) == 0);
    const double at[3] = {0, 0, RADIUS};
    dBodyID ball = kit_ball(sim.world, MASS, RADIUS, at);
    dGeomSetBody(dCreateSphere(sim.space, RADIUS), ball);
    for (int i = 0; i < 500; i++) kit_sim_step(&sim, 0.001);
    dVector3 n = {0, 0, 1, 0}, t1, t2;
    dPlaneSpace(n, t1, t2); /* the contact's first friction direction (no fdir1) */
    dVector3 vp;
    dBodyGetPointVel(ball, 0, 0, dBodyGetPosition(ball)[2] - RADIUS, vp);
    const dReal *v = dBodyGetLinearVel(ball);
    *along = v[0] * t1[0] + v[1] * t1[1] + v[2] * t1[2];
    *point = vp[0] * t1[0] + vp[1] * t1[1] + vp[2] * t1[2];
    kit_sim_free(&sim);
}

static void test_gonthier_lets_a_belt_carry_a_resting_ball(void)
{
    double g_along, g_point, o_along, o_point;
    belt_rest("gonthier", &g_along, &g_point);
    belt_rest(NULL, &o_along, &o_point);
    printf("  ball on a belt at 1 m/s, 0.5 s: gonthier v %.12f, contact point %.12f; ODE v %.12f "
           "m/s\n",
           g_along, g_point, o_along);
    ENSURE_NEAR(g_along, 1.0 / 3.5, 1e-9);
    ENSURE_NEAR(g_point, 1.0, 1e-9);
    ENSURE_NEAR(o_along, 1.0 / 3.5, 1e-9);
}

int main(void)
{
    dInitODE2(0);
    RUN(test_a_rising_platform_throws_the_ball_as_ode_bounces_it);
    RUN(test_a_belt_drags_the_ball_along_by_its_friction);
    RUN(test_a_platform_rising_under_a_resting_ball_hits_it);
    RUN(test_gonthier_lets_a_belt_carry_a_resting_ball);
    dCloseODE();
    return ipx_test_exit();
}
