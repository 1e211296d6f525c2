/* A contact's second friction coefficient (dContactMu2, ODE's friction along fdir1 x normal):
   the impact models take the cone (pi_t1 / mu)^2 + (pi_t2 / mu2)^2 <= pi_n^2 (assemble.c,
   elliptic_cones). A solid ball (1 kg, r 0.1 m, gravity off) lands at 3 m/s, e = 0, with
   fdir1 = x, mu = 0.4 and mu2 = 0.05, and slips at 1 m/s:
   - along x: mu pi_n = 1.2 N s is more than the 1 / 3.5 N s that brings its contact point to
     rest (the contact's tangential W is 3.5 / m), so it rolls away at 1 - 1 / 3.5 m/s;
   - along y: mu2 pi_n = 0.15 N s is less, so it slides throughout and leaves at 0.85 m/s;
   - along the diagonal: friction stays in the ellipse and does negative work.
   With isotropic friction (mu2 not taken) both axes would give the first answer. */
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

static landing land(const char *model, const char *params, double vx, double vy)
{
    dWorldID world = dWorldCreate();
    dWorldSetGravity(world, 0, 0, 0);
    dJointGroupID group = dJointGroupCreate(0);
    const double at[3] = {0, 0, RADIUS - 1e-6};
    dBodyID ball = kit_ball(world, MASS, RADIUS, at);
    dBodySetLinearVel(ball, vx, vy, -3.0);
    const double p[3] = {0, 0, -1e-6}, n[3] = {0, 0, 1};
    dContact c = kit_contact(p, n, 1e-6, MU1, 0.0, 0.0);
    c.surface.mode |= dContactMu2 | dContactFDir1;
    c.surface.mu2 = MU2;
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
    ipx_ode_post_step(ipx);
    ipx_ode_destroy(ipx);
    dJointGroupDestroy(group);
    dWorldDestroy(world);
    return l;
}

static void test_each_axis_slides_with_its_own_coefficient(void)
{
    /* aplcp and routh also from W's blocks (assemble.c), their iterative solver from 1 contact */
    static const char *const models[][2] = {{"plus", NULL},
                                            {"aplcp", NULL},
                                            {"routh", NULL},
                                            {"bowling", NULL},
                                            {"aplcp", "lcp_switch=1,lcp_fallback=0,lcp_tol=1e-13"},
                                            {"routh", "lcp_switch=1,lcp_fallback=0,lcp_tol=1e-13"}};
    for (size_t m = 0; m < sizeof models / sizeof models[0]; m++) {
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

int main(void)
{
    dInitODE2(0);
    RUN(test_each_axis_slides_with_its_own_coefficient);
    RUN(test_a_diagonal_slip_keeps_friction_in_the_ellipse);
    dCloseODE();
    return ipx_test_exit();
}
