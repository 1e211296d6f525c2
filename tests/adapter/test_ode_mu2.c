/* A contact's second friction coefficient (dContactMu2, ODE's friction along fdir1 x normal):
   the impact models take the cone (pi_t1 / mu)^2 + (pi_t2 / mu2)^2 <= pi_n^2 (assemble.c,
   elliptic_cones). A solid ball (1 kg, r 0.1 m, gravity off) lands at 3 m/s, e = 0, with
   fdir1 = x, mu = 0.4 and mu2 = 0.05, and slips at 1 m/s:
   - along x: mu pi_n = 1.2 N s is more than the 1 / 3.5 N s that brings its contact point to
     rest (the contact's tangential W is 3.5 / m), so it rolls away at 1 - 1 / 3.5 m/s;
   - along y: mu2 pi_n = 0.15 N s is less, so it slides throughout and leaves at 0.85 m/s;
   - along the diagonal: friction stays in the ellipse and does negative work.
   With isotropic friction (mu2 not taken) both axes would give the first answer.
   With one coefficient 0 (friction along one direction only, as ODE's row of lo = hi = 0) the
   other direction's slip is left as it was, on the ball and on a box's corner, where the two
   tangent rows are coupled (and jia's frictionless axis on the ball). A negative or NaN mu2 or
   mu is refused, and the step left to ODE. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ensure.h"
#include "impax/ode.h"
#include "ode_kit.h"

#define MASS 1.0   /* kg */
#define RADIUS 0.1 /* m */
#define MU1 0.4
#define MU2 0.05
#define MU_SLIDE 0.05 /* 3 N s of normal impulse: 0.15 N s, less than the 1 / 3.5 to roll */

typedef struct landing {
    double v[3];  /* m/s after the pre-step */
    double pi[3]; /* N s, the event's impulse [t1, t2, n] */
    double ke[2]; /* J, before and after */
} landing;

static void on_event(const ipx_ode_event *ev, void *user)
{
    landing *l = user;
    if (ev->impulse) memcpy(l->pi, ev->impulse, sizeof l->pi);
    l->ke[0] = ev->ke_before;
    l->ke[1] = ev->ke_after;
}

static landing land_mu(const char *model, const char *params, double mu1, double mu2, double vx,
                       double vy)
{
    dWorldID world = dWorldCreate();
    dWorldSetGravity(world, 0, 0, 0);
    dJointGroupID group = dJointGroupCreate(0);
    const double at[3] = {0, 0, RADIUS - 1e-6};
    dBodyID ball = kit_ball(world, MASS, RADIUS, at);
    dBodySetLinearVel(ball, vx, vy, -3.0);
    const double p[3] = {0, 0, -1e-6}, n[3] = {0, 0, 1};
    dContact c = kit_contact(p, n, 1e-6, mu1, 0.0, 0.0);
    c.surface.mode |= dContactMu2 | dContactFDir1;
    c.surface.mu2 = mu2;
    c.fdir1[0] = 1, c.fdir1[1] = 0, c.fdir1[2] = 0;
    landing l;
    memset(&l, 0, sizeof l);
    char msg[256];
    ipx_ode_context *ipx = ipx_ode_create(world);
    ENSURE(ipx_ode_configure(ipx, model, params, msg, sizeof msg) == 0);
    ipx_ode_set_event_callback(ipx, on_event, &l);
    ipx_ode_contact(ipx, world, group, &c, ball, NULL);
    ipx_ode_pre_step(ipx, 0.001);
    ENSURE(ipx_ode_get_stats(ipx).impact_events == 1);
    for (int a = 0; a < 3; a++) l.v[a] = dBodyGetLinearVel(ball)[a];
    kit_finish(ipx, group, world);
    return l;
}

static landing land(const char *model, const char *params, double vx, double vy)
{
    return land_mu(model, params, MU1, MU2, vx, vy);
}

/* aplcp and routh also from W's blocks (assemble.c), their iterative solver from 1 contact */
static const char *const models[][2] = {{"plus", NULL},
                                        {"aplcp", NULL},
                                        {"routh", NULL},
                                        {"bowling", NULL},
                                        {"aplcp", "lcp_switch=1,lcp_fallback=0,lcp_tol=1e-13"},
                                        {"routh", "lcp_switch=1,lcp_fallback=0,lcp_tol=1e-13"}};
#define N_MODELS (sizeof models / sizeof models[0])

static void test_each_axis_slides_with_its_own_coefficient(void)
{
    for (size_t m = 0; m < N_MODELS; m++) {
        const landing x = land(models[m][0], models[m][1], 1.0, 0.0);
        const landing y = land(models[m][0], models[m][1], 0.0, 1.0);
        printf("  %-8s %-20s along x: v_x %.9f; along y: v_y %.9f m/s\n", models[m][0],
               models[m][1] ? "(W's blocks)" : "", x.v[0], y.v[1]);
        ENSURE_NEAR(x.v[0], 1.0 - 1.0 / 3.5, 1e-9); /* rolls: mu 3 N s would allow 1.2 */
        ENSURE_NEAR(y.v[1], 1.0 - MU2 * 3.0, 1e-9); /* slides: mu2 3 N s = 0.15 */
        ENSURE_NEAR(x.v[1], 0.0, 1e-9);
        ENSURE_NEAR(y.v[0], 0.0, 1e-9);
    }
}

static void test_a_diagonal_slip_keeps_friction_in_the_ellipse(void)
{
    const landing d = land("plus", NULL, 1.0, 1.0);
    const double e = hypot(d.pi[0] / MU1, d.pi[1] / MU2) / d.pi[2];
    printf("  diagonal: pi (%.6f, %.6f, %.6f) N s, ellipse %.9f of the normal, KE %.6f -> %.6f J\n",
           d.pi[0], d.pi[1], d.pi[2], e, d.ke[0], d.ke[1]);
    ENSURE_NEAR(d.pi[2], 3.0, 1e-9);
    ENSURE(e <= 1.0 + 1e-9);
    ENSURE(d.pi[0] < 0.0 && d.pi[1] < 0.0); /* against both components of the slip */
    ENSURE(d.ke[1] < d.ke[0]);
}

/* mu = 0.4 or 0.05 along one axis, 0 along the other (either way round): the frictionless axis
   keeps its 1 m/s of slip, the other rolls or slides as above, alone or on the diagonal (the
   ball's two tangent rows are uncoupled). Before, the impact took mu along both axes. */
static void test_one_direction_friction_on_a_ball(void)
{
    for (size_t m = 0; m < N_MODELS; m++)
        for (int axis = 0; axis < 2; axis++)
            for (int slide = 0; slide < 2; slide++) {
                const double mu = slide ? MU_SLIDE : MU1;
                const double mu1 = axis == 0 ? mu : 0.0, mu2 = axis == 0 ? 0.0 : mu;
                const double kept = slide ? 1.0 - 3.0 * MU_SLIDE : 1.0 - 1.0 / 3.5; /* m/s */
                const char *model = models[m][0], *params = models[m][1];
                const landing x = land_mu(model, params, mu1, mu2, 1.0, 0.0);
                const landing y = land_mu(model, params, mu1, mu2, 0.0, 1.0);
                const landing d = land_mu(model, params, mu1, mu2, 1.0, 1.0);
                printf("  %-8s %-13s mu %.2f mu2 %.2f: v_x %.9f, v_y %.9f, diagonal (%.9f, %.9f)"
                       " m/s\n",
                       model, params ? "(W's blocks)" : "", mu1, mu2, x.v[0], y.v[1], d.v[0],
                       d.v[1]);
                ENSURE_NEAR(x.v[0], axis == 0 ? kept : 1.0, 1e-9);
                ENSURE_NEAR(y.v[1], axis == 1 ? kept : 1.0, 1e-9);
                ENSURE_NEAR(d.v[0], axis == 0 ? kept : 1.0, 1e-9);
                ENSURE_NEAR(d.v[1], axis == 1 ? kept : 1.0, 1e-9);
                ENSURE_NEAR(d.pi[1 - axis], 0.0, 1e-12); /* no impulse on the frictionless row */
                ENSURE_NEAR(d.pi[2], 3.0, 1e-9);
            }
    /* jia's tangential compliance gives the rolling ball back part of its stopped slip (its own
       answer, not the rigid one above); the frictionless axis and the slide are as above */
    for (int axis = 0; axis < 2; axis++)
        for (int slide = 0; slide < 2; slide++) {
            const double mu = slide ? MU_SLIDE : MU1;
            const landing d =
                land_mu("jia", NULL, axis == 0 ? mu : 0.0, axis == 0 ? 0.0 : mu, 1.0, 1.0);
            printf("  jia      mu along %s %.2f: diagonal (%.9f, %.9f) m/s\n", axis ? "y" : "x", mu,
                   d.v[0], d.v[1]);
            ENSURE_NEAR(d.v[1 - axis], 1.0, 1e-9);
            ENSURE_NEAR(d.pi[1 - axis], 0.0, 1e-12);
            if (slide) ENSURE_NEAR(d.v[axis], 1.0 - 3.0 * MU_SLIDE, 1e-9);
            else ENSURE(d.v[axis] < 1.0 && d.pi[axis] < 0.0);
        }
}

/* A box (2 kg, 0.3 x 0.2 x 0.1 m, tilted, gravity off) lands on one corner at 1 m/s, slipping
   and spinning, e = 0, fdir1 = x, mu = 2 and mu2 = 0. The corner's two tangent rows are coupled
   through the box's rotation. The corner stops along n and along x (it sticks there: the
   friction it takes is inside mu pi_n) and no impulse acts along y; its y velocity is what
   the normal and x impulses leave, not 0, as isotropic friction would give. */
static void test_one_direction_friction_on_a_coupled_corner(void)
{
    const double side[3] = {0.3, 0.2, 0.1}, axis[3] = {1.0, 2.0, 0.5}, origin[3] = {0, 0, 1};
    for (size_t m = 0; m < N_MODELS; m++) {
        double vp[2][3]; /* the corner's velocity after the impact: mu2 = 0, then isotropic */
        landing l = {0};
        for (int iso = 0; iso < 2; iso++) {
            dWorldID world = dWorldCreate();
            dWorldSetGravity(world, 0, 0, 0);
            dJointGroupID group = dJointGroupCreate(0);
            dBodyID box = kit_box(world, 2.0, side, origin, axis, 0.6);
            dVector3 low = {0, 0, INFINITY, 0};
            for (int c = 0; c < 8; c++) {
                dVector3 q;
                dBodyGetRelPointPos(box, (c & 1 ? 0.5 : -0.5) * side[0],
                                    (c & 2 ? 0.5 : -0.5) * side[1], (c & 4 ? 0.5 : -0.5) * side[2],
                                    q);
                if (q[2] < low[2]) memcpy(low, q, sizeof low);
            }
            dBodySetPosition(box, origin[0], origin[1], origin[2] - low[2] - 1e-6);
            low[2] = -1e-6;
            dBodySetLinearVel(box, 0.3, 0.2, -1.0);
            dBodySetAngularVel(box, 0.5, -0.3, 0.2);
            const double n[3] = {0, 0, 1};
            dContact c = kit_contact(low, n, 1e-6, 2.0, 0.0, 0.0);
            c.surface.mode |= dContactFDir1 | (iso ? 0 : dContactMu2);
            c.surface.mu2 = 0.0;
            c.fdir1[0] = 1, c.fdir1[1] = 0, c.fdir1[2] = 0;
            char msg[256];
            ipx_ode_context *ipx = ipx_ode_create(world);
            ENSURE(ipx_ode_configure(ipx, models[m][0], models[m][1], msg, sizeof msg) == 0);
            if (!iso) ipx_ode_set_event_callback(ipx, on_event, &l);
            ipx_ode_contact(ipx, world, group, &c, box, NULL);
            ipx_ode_pre_step(ipx, 0.001);
            ENSURE(ipx_ode_get_stats(ipx).impact_events == 1);
            dBodyGetPointVel(box, low[0], low[1], low[2], vp[iso]);
            kit_finish(ipx, group, world);
        }
        printf("  %-8s %-13s corner (%.3g, %.3g, %.3g) m/s, pi (%.6f, %.3g, %.6f) N s;"
               " isotropic v_y %.3g\n",
               models[m][0], models[m][1] ? "(W's blocks)" : "", vp[0][0], vp[0][1], vp[0][2],
               l.pi[0], l.pi[1], l.pi[2], vp[1][1]);
        ENSURE_NEAR(vp[0][2], 0.0, 1e-9);
        ENSURE_NEAR(vp[0][0], 0.0, 1e-9);
        ENSURE_NEAR(l.pi[1], 0.0, 1e-12);
        ENSURE(fabs(l.pi[0]) < 2.0 * l.pi[2]); /* inside the cone: it sticks along x */
        ENSURE(fabs(vp[0][1]) > 0.05);         /* coupled: the y slip moved, and stays */
        ENSURE_NEAR(vp[1][1], 0.0, 1e-9);      /* isotropic friction stops it */
        ENSURE(l.ke[1] < l.ke[0]);
    }
}

/* mu2 < 0 or NaN under dContactMu2 is refused by name, and so is mu < 0 beside a valid mu2;
   the body is left as it was and ODE takes the step. */
static void test_a_bad_coefficient_is_refused_and_left_to_ode(void)
{
    const double bad_mu[3] = {MU1, MU1, -0.1}, bad_mu2[3] = {-0.1, NAN, 0.0};
    const char *named[3] = {"mu2 = -0.1", "mu2 = nan", "mu = -0.1"};
    for (int b = 0; b < 3; b++) {
        dWorldID world = dWorldCreate();
        dWorldSetGravity(world, 0, 0, 0);
        dJointGroupID group = dJointGroupCreate(0);
        const double at[3] = {0, 0, RADIUS - 1e-6}, p[3] = {0, 0, -1e-6}, n[3] = {0, 0, 1};
        dBodyID ball = kit_ball(world, MASS, RADIUS, at);
        dBodySetLinearVel(ball, 1.0, 0.0, -3.0);
        dContact c = kit_contact(p, n, 1e-6, bad_mu[b], 0.0, 0.0);
        c.surface.mode |= dContactMu2;
        c.surface.mu2 = bad_mu2[b];
        char msg[256];
        ipx_ode_context *ipx = ipx_ode_create(world);
        ENSURE(ipx_ode_configure(ipx, "plus", NULL, msg, sizeof msg) == 0);
        ipx_ode_contact(ipx, world, group, &c, ball, NULL);
        ipx_ode_pre_step(ipx, 0.001);
        const ipx_ode_stats st = ipx_ode_get_stats(ipx);
        printf("  mu %g, mu2 %g: %s\n", bad_mu[b], bad_mu2[b], st.last_message);
        ENSURE(st.impact_events == 0 && st.fallbacks == 1);
        ENSURE(strstr(st.last_message, named[b]) != NULL);
        const dReal *v = dBodyGetLinearVel(ball);
        ENSURE(v[0] == 1.0 && v[1] == 0.0 && v[2] == -3.0);
        kit_finish(ipx, group, world);
    }
}

int main(void)
{
    dInitODE2(0);
    RUN(test_each_axis_slides_with_its_own_coefficient);
    RUN(test_a_diagonal_slip_keeps_friction_in_the_ellipse);
    RUN(test_one_direction_friction_on_a_ball);
    RUN(test_one_direction_friction_on_a_coupled_corner);
    RUN(test_a_bad_coefficient_is_refused_and_left_to_ode);
    dCloseODE();
    return ipx_test_exit();
}
