/* Impacts through the adapter in running ODE worlds: a jointed chain striking the ground keeps its
   joints consistent (checked with ODE's own joint rows) and gains no energy; a ball with e = 0.8
   rebounds to e^2 of its height; a box resting for 10 s causes no impact events once settled; and
   bad data is reported, counted and leaves the world untouched. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ensure.h"
#include "impax/ode.h"
#include "impax/registry.h"
#include "ode_kit.h"

#define MAX_CONTACTS_PER_PAIR 8

typedef struct sim {
    dWorldID world;
    dSpaceID space;
    dJointGroupID group;
    ipx_ode_context *ipx;
    dContact surface; /* template: mode, mu, bounce, bounce_vel */
} sim;

static void near_callback(void *data, dGeomID a, dGeomID b)
{
    sim *s = data;
    dContactGeom g[MAX_CONTACTS_PER_PAIR];
    int n = dCollide(a, b, MAX_CONTACTS_PER_PAIR, g, sizeof g[0]);
    for (int i = 0; i < n; i++) {
        dContact c = s->surface;
        c.geom = g[i];
        ipx_ode_contact(s->ipx, s->world, s->group, &c, dGeomGetBody(a), dGeomGetBody(b));
    }
}

static void sim_make(sim *s, const char *model, const dContact *surface)
{
    char msg[256];
    s->world = dWorldCreate();
    dWorldSetGravity(s->world, 0, 0, -9.81);
    s->space = dSimpleSpaceCreate(0);
    dCreatePlane(s->space, 0, 0, 1, 0);
    s->group = dJointGroupCreate(0);
    s->ipx = ipx_ode_create(s->world);
    ENSURE(ipx_ode_configure(s->ipx, model, NULL, msg, sizeof msg) == 0);
    s->surface = *surface;
}

static void sim_collide(sim *s) { dSpaceCollide(s->space, s, near_callback); }

static void sim_step(sim *s, double h)
{
    sim_collide(s);
    ipx_ode_step(s->ipx, h);
    ipx_ode_empty_group(s->ipx, s->group);
}

static void sim_free(sim *s)
{
    ipx_ode_destroy(s->ipx);
    dJointGroupDestroy(s->group);
    dSpaceDestroy(s->space);
    dWorldDestroy(s->world);
}

/* A surface with ODE's bounce e above 0.01 m/s and friction mu (dContactApprox1). */
static dContact bounce_surface(double mu, double e)
{
    dContact c;
    memset(&c, 0, sizeof c);
    c.surface.mode = dContactBounce | dContactApprox1;
    c.surface.mu = mu;
    c.surface.bounce = e;
    c.surface.bounce_vel = 0.01;
    return c;
}

/* A 1 kg ball of radius 0.1 m whose bottom is 1 m above the ground: it lands at 4.43 m/s. */
static dBodyID drop_ball(sim *s)
{
    const double at[3] = {0, 0, 1.1};
    dBodyID ball = kit_ball(s->world, 1.0, 0.1, at);
    dGeomSetBody(dCreateSphere(s->space, 0.1), ball);
    return ball;
}

static dBodyID box_with_geom(sim *s, double m, const double side[3], const double p[3],
                             const double axis[3], double angle)
{
    dBodyID b = kit_box(s->world, m, side, p, axis, angle);
    dGeomID g = dCreateBox(s->space, side[0], side[1], side[2]);
    dGeomSetBody(g, b);
    return b;
}

/* ---- jointed chain ------------------------------------------------------------------------ */

/* Largest |J u| over the rows ODE itself uses for the joints of the bodies. */
static double joint_violation(dBodyID *b, int n)
{
    double worst = 0.0;
    for (int i = 0; i < n; i++)
        for (int k = 0; k < dBodyGetNumJoints(b[i]); k++) {
            dJointID j = dBodyGetJoint(b[i], k);
            if (dJointGetType(j) == dJointTypeContact) continue;
            double J[8][12];
            int m = ode_oracle_rows(j, J, 8);
            ENSURE(m > 0);
            for (int r = 0; r < m; r++) {
                double v = 0.0;
                for (int side = 0; side < 2; side++) {
                    dBodyID bb = dJointGetBody(j, side);
                    if (!bb) continue;
                    const dReal *lv = dBodyGetLinearVel(bb), *av = dBodyGetAngularVel(bb);
                    for (int a = 0; a < 3; a++)
                        v += J[r][6 * side + a] * lv[a] + J[r][6 * side + 3 + a] * av[a];
                }
                worst = fmax(worst, fabs(v));
            }
        }
    return worst;
}

/* Four boxes in a tilted chain (hinge, ball, universal), moving as one rigid body (so the joints
   are consistent), the lowest link's corners just into the ground. One pre-step resolves the
   impact; the velocities handed back are checked before ODE steps. */
static void chain_impact(const char *model, double *violation, double *ke_before, double *ke_after,
                         ipx_ode_stats *stats)
{
    sim s;
    const dContact surface = bounce_surface(0.4, 0.5);
    sim_make(&s, model, &surface);
    const double side[3] = {0.3, 0.1, 0.1}, axis[3] = {0.2, 1.0, 0.3};
    dBodyID b[4];
    for (int i = 0; i < 4; i++) {
        const double p[3] = {0.28 * i, 0.0, 0.12 + 0.12 * i};
        b[i] = box_with_geom(&s, 1.0 + 0.5 * i, side, p, axis, 0.45);
    }
    const dJointType kind[3] = {dJointTypeHinge, dJointTypeBall, dJointTypeUniversal};
    for (int i = 0; i < 3; i++) {
        const dReal *pa = dBodyGetPosition(b[i]), *pb = dBodyGetPosition(b[i + 1]);
        const double at[3] = {0.5 * (pa[0] + pb[0]), 0.5 * (pa[1] + pb[1]), 0.5 * (pa[2] + pb[2])};
        dJointID j;
        if (kind[i] == dJointTypeHinge) {
            j = dJointCreateHinge(s.world, 0);
            dJointAttach(j, b[i], b[i + 1]);
            dJointSetHingeAnchor(j, at[0], at[1], at[2]);
            dJointSetHingeAxis(j, 0, 1, 0);
        } else if (kind[i] == dJointTypeBall) {
            j = dJointCreateBall(s.world, 0);
            dJointAttach(j, b[i], b[i + 1]);
            dJointSetBallAnchor(j, at[0], at[1], at[2]);
        } else {
            j = dJointCreateUniversal(s.world, 0);
            dJointAttach(j, b[i], b[i + 1]);
            dJointSetUniversalAnchor(j, at[0], at[1], at[2]);
            dJointSetUniversalAxis1(j, 0, 1, 0);
            dJointSetUniversalAxis2(j, 1, 0, 0);
        }
    }
    /* rigid motion: v_i = V + w x (x_i - x_0) */
    const double V[3] = {0.4, 0.1, -1.5}, w[3] = {0.3, -1.2, 0.5};
    const dReal *x0 = dBodyGetPosition(b[0]);
    double x0c[3] = {x0[0], x0[1], x0[2]};
    for (int i = 0; i < 4; i++) {
        const dReal *x = dBodyGetPosition(b[i]);
        double r[3] = {x[0] - x0c[0], x[1] - x0c[1], x[2] - x0c[2]};
        dBodySetLinearVel(b[i], V[0] + w[1] * r[2] - w[2] * r[1], V[1] + w[2] * r[0] - w[0] * r[2],
                          V[2] + w[0] * r[1] - w[1] * r[0]);
        dBodySetAngularVel(b[i], w[0], w[1], w[2]);
    }
    /* lower the chain until its first link touches */
    kit_sink(b, 4, side, 0.001);
    *ke_before = kit_energy(b, 4);
    sim_collide(&s);
    ipx_ode_pre_step(s.ipx, 0.001);
    *violation = joint_violation(b, 4);
    *ke_after = kit_energy(b, 4);
    *stats = ipx_ode_get_stats(s.ipx);
    ipx_ode_post_step(s.ipx);
    ipx_ode_empty_group(s.ipx, s.group);
    sim_free(&s);
}

static void test_chain_impact_keeps_joints_consistent_and_gains_no_energy(void)
{
    for (int m = 0; m < ipx_model_count(); m++) {
        const char *model = ipx_model_at(m)->name;
        double violation, before, after;
        ipx_ode_stats st;
        chain_impact(model, &violation, &before, &after, &st);
        printf("  %-8s events %ld fallbacks %ld |J_b u+| %.2e  KE %.6f -> %.6f J\n", model,
               st.impact_events, st.fallbacks, violation, before, after);
        ENSURE(st.impact_events == 1 && st.fallbacks == 0);
        ENSURE(violation <= 1e-10);
        ENSURE(after <= before * (1 + 1e-12));
        ENSURE(after < before); /* a bounce with e = 0.5 dissipates */
    }
}

/* ---- ball bounce --------------------------------------------------------------------------- */

static void test_ball_with_e_0_8_rebounds_to_0_64_of_its_apex(void)
{
    sim s;
    const dContact surface = bounce_surface(0.5, 0.8);
    sim_make(&s, "plus", &surface);
    dBodyID ball = drop_ball(&s);
    const double h = 1e-4;
    double apex[3] = {0, 0, 0};
    int n_apex = 0;
    double prev_vz = 0.0;
    for (int step = 0; step < 60000 && n_apex < 3; step++) {
        sim_step(&s, h);
        double vz = dBodyGetLinearVel(ball)[2], z = dBodyGetPosition(ball)[2] - 0.1;
        if (prev_vz > 0.0 && vz <= 0.0) apex[n_apex++] = z;
        prev_vz = vz;
    }
    ipx_ode_stats st = ipx_ode_get_stats(s.ipx);
    printf("  apexes %.5f %.5f %.5f m, ratio %.5f, %.5f; events %ld, disabled %ld\n", apex[0],
           apex[1], apex[2], apex[1] / apex[0], apex[2] / apex[1], st.impact_events,
           st.contacts_disabled);
    ENSURE(n_apex == 3);
    ENSURE(fabs(apex[1] / apex[0] / 0.64 - 1.0) <= 0.01);
    ENSURE(fabs(apex[2] / apex[1] / 0.64 - 1.0) <= 0.01);
    ENSURE(st.fallbacks == 0);
    sim_free(&s);
}

/* A ball dropped with bounce 0.8 above 0.01 m/s: aplcp and routh, inelastic unless their
   restitution flag is on, leave that bounce aside, and the adapter's stats say by how much
   (what the shim's IMPAX_VERBOSE summary reports); with the flag, or under plus, nothing is
   ignored. The first impact's rebound says which happened. */
static void test_ignored_restitution_is_counted(void)
{
    static const struct {
        const char *model, *params;
        double ignored, rebound; /* m/s: the ball's speed after the first impact, about */
    } cases[] = {{"aplcp", NULL, 0.8, 0.0},
                 {"routh", NULL, 0.8, 0.0},
                 {"aplcp", "newton_restitution=1", 0.0, 0.8 * 4.43},
                 {"routh", "poisson_restitution=1", 0.0, 0.8 * 4.43},
                 {"plus", NULL, 0.0, 0.8 * 4.43}};
    for (int i = 0; i < 5; i++) {
        sim s;
        const dContact surface = bounce_surface(0.5, 0.8);
        sim_make(&s, cases[i].model, &surface);
        char msg[256];
        ENSURE(ipx_ode_configure(s.ipx, cases[i].model, cases[i].params, msg, sizeof msg) == 0);
        dBodyID ball = drop_ball(&s);
        for (int step = 0; step < 5000 && ipx_ode_get_stats(s.ipx).impact_events == 0; step++)
            sim_step(&s, 1e-4);
        const ipx_ode_stats st = ipx_ode_get_stats(s.ipx);
        const double vz = dBodyGetLinearVel(ball)[2];
        printf("  %s %s: ignored %g, rebound %.3f m/s\n", cases[i].model,
               cases[i].params ? cases[i].params : "", st.ignored_restitution, vz);
        ENSURE(st.impact_events == 1 && st.fallbacks == 0);
        ENSURE(st.ignored_restitution == cases[i].ignored);
        ENSURE(fabs(vz - cases[i].rebound) <= 0.02 * 4.43);
        sim_free(&s);
    }
}

/* ---- resting box --------------------------------------------------------------------------- */

static void test_box_resting_ten_seconds_has_no_impacts_once_settled(void)
{
    sim s;
    const dContact surface = bounce_surface(0.5, 0.3);
    sim_make(&s, "plus", &surface);
    const double side[3] = {0.2, 0.3, 0.1}, p[3] = {0, 0, 0.06}, axis[3] = {0, 0, 1};
    dBodyID box = box_with_geom(&s, 2.0, side, p, axis, 0.3);
    const double h = 0.001;
    long events_settled = -1;
    double ke_max = 0.0;
    for (int step = 0; step < 10000; step++) {
        sim_step(&s, h);
        if (step == 1000) events_settled = ipx_ode_get_stats(s.ipx).impact_events;
        if (step > 1000) ke_max = fmax(ke_max, kit_energy(&box, 1));
    }
    ipx_ode_stats st = ipx_ode_get_stats(s.ipx);
    printf("  impact events: %ld by 1 s, %ld by 10 s; largest KE after 1 s %.3g J; fallbacks %ld\n",
           events_settled, st.impact_events, ke_max, st.fallbacks);
    ENSURE(events_settled >= 1); /* the drop from 1 cm is an impact */
    ENSURE(st.impact_events == events_settled);
    ENSURE(ke_max < 1e-8);
    ENSURE(st.fallbacks == 0);
    sim_free(&s);
}

/* ---- bad data ------------------------------------------------------------------------------ */

static void test_zero_normal_contact_is_refused_and_counted(void)
{
    sim s;
    dContact surface;
    memset(&surface, 0, sizeof surface);
    sim_make(&s, "plus", &surface);
    dBodyID b = dBodyCreate(s.world);
    dContact c = surface; /* normal (0, 0, 0) */
    dJointID j = ipx_ode_contact(s.ipx, s.world, s.group, &c, b, 0);
    ipx_ode_stats st = ipx_ode_get_stats(s.ipx);
    ENSURE(j == 0);
    ENSURE(dBodyGetNumJoints(b) == 0);
    ENSURE(st.fallbacks == 1);
    ENSURE(strstr(st.last_message, "normal") != NULL);
    printf("  message: %s\n", st.last_message);
    sim_free(&s);
}

/* A bad item in an impacting island: the pre-step reports it and writes nothing. */
static void bad_island(const char *what, double vx, double mu, double bounce,
                       const char *expect_word)
{
    sim s;
    const dContact surface = bounce_surface(mu, bounce);
    sim_make(&s, "plus", &surface);
    const double side[3] = {0.2, 0.2, 0.2}, p[3] = {0, 0, 0.099}, axis[3] = {0, 0, 1};
    dBodyID box = box_with_geom(&s, 1.0, side, p, axis, 0.0);
    dBodySetLinearVel(box, vx, 0.0, -1.0);
    dBodySetAngularVel(box, 0.1, 0.2, 0.3);
    sim_collide(&s);
    dReal before[6], after[6];
    memcpy(before, dBodyGetLinearVel(box), 3 * sizeof(dReal));
    memcpy(before + 3, dBodyGetAngularVel(box), 3 * sizeof(dReal));
    int events = ipx_ode_pre_step(s.ipx, 0.001);
    memcpy(after, dBodyGetLinearVel(box), 3 * sizeof(dReal));
    memcpy(after + 3, dBodyGetAngularVel(box), 3 * sizeof(dReal));
    ipx_ode_stats st = ipx_ode_get_stats(s.ipx);
    printf("  %s: %s\n", what, st.last_message);
    ENSURE(events == 0);
    ENSURE(st.fallbacks >= 1 && st.impact_events == 0 && st.contacts_disabled == 0);
    ENSURE(memcmp(before, after, sizeof before) == 0); /* bit for bit, NaN included */
    ENSURE(strstr(st.last_message, expect_word) != NULL);
    for (int i = 0; i < dBodyGetNumJoints(box); i++) ENSURE(dJointIsEnabled(dBodyGetJoint(box, i)));
    ipx_ode_post_step(s.ipx);
    ipx_ode_empty_group(s.ipx, s.group);
    sim_free(&s);
}

static void test_bad_island_data_leaves_the_world_untouched(void)
{
    bad_island("NaN velocity", NAN, 0.5, 0.5, "not finite");
    bad_island("negative mu", 0.0, -0.5, 0.5, "mu");
    bad_island("bounce above 1", 0.0, 0.5, 1.5, "e");
}

int main(void)
{
    dInitODE2(0);
    RUN(test_chain_impact_keeps_joints_consistent_and_gains_no_energy);
    RUN(test_ball_with_e_0_8_rebounds_to_0_64_of_its_apex);
    RUN(test_ignored_restitution_is_counted);
    RUN(test_box_resting_ten_seconds_has_no_impacts_once_settled);
    RUN(test_zero_normal_contact_is_refused_and_counted);
    RUN(test_bad_island_data_leaves_the_world_untouched);
    dCloseODE();
    return ipx_test_exit();
}
