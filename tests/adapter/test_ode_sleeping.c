/* Islands whose bodies are all disabled (docs/ode-host.md §4.2, item 6): ODE's step leaves them
   as they are, and so must impax.
   - A disabled ball 1 mm deep in the ground and approaching it at 1 m/s: under each model it
     keeps its position, its velocity and its sleep exactly (plain ODE does), no event is
     counted and the island is counted as sleeping.
   - Under gonthier a resting ball put to sleep for 5 steps and woken carries on exactly as one
     that was never put to sleep: its contact's cached state is held while it sleeps, not pruned
     (a pruned state makes the contact new on waking, moved back to first touch). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ensure.h"
#include "impax/ode.h"
#include "ode_kit.h"

static const double radius = 0.1, h = 0.01; /* m, s */

static dBodyID ball_in(kit_sim *s, double z)
{
    const double p[3] = {0.0, 0.0, z};
    dBodyID b = kit_ball(s->world, 1.0, radius, p);
    dGeomSetBody(dCreateSphere(s->space, radius), b);
    return b;
}

static dSurfaceParameters surface_of(void)
{
    dSurfaceParameters surface;
    memset(&surface, 0, sizeof surface);
    surface.mode = dContactBounce;
    surface.mu = 0.5;
    surface.bounce = 0.5;
    return surface;
}

static void test_a_sleeping_island_is_left_as_ode_leaves_it(void)
{
    const char *models[] = {"plus", "aplcp", "routh", "bowling", "jia", "gonthier"};
    for (size_t m = 0; m < sizeof models / sizeof *models; m++) {
        kit_sim s;
        const dSurfaceParameters surface = surface_of();
        ENSURE(kit_sim_make(&s, models[m], "", &surface, 0) == 0);
        dBodyID ball = ball_in(&s, radius - 1e-3);
        dBodySetLinearVel(ball, 0.0, 0.0, -1.0);
        dBodyDisable(ball);
        kit_sim_step(&s, h);
        const dReal *x = dBodyGetPosition(ball), *v = dBodyGetLinearVel(ball);
        const ipx_ode_stats st = ipx_ode_get_stats(s.ipx);
        printf("  %-8s z %.6f m, v_z %.6f m/s, enabled %d, events %ld, sleeping islands %ld\n",
               models[m], x[2], v[2], dBodyIsEnabled(ball), st.impact_events, st.sleeping_islands);
        ENSURE(x[0] == 0.0 && x[1] == 0.0 && x[2] == radius - 1e-3);
        ENSURE(v[0] == 0.0 && v[1] == 0.0 && v[2] == -1.0);
        ENSURE(!dBodyIsEnabled(ball));
        ENSURE(st.impact_events == 0 && st.fallbacks == 0);
        ENSURE(st.sleeping_islands == 1);
        kit_sim_free(&s);
    }
}

/* A gonthier ball dropped from touching and settled for 100 steps, then `asleep` steps asleep,
   then 10 awake: its height (m) and vertical velocity (m/s) at the end. */
static void settle(int asleep, double *z, double *vz)
{
    kit_sim s;
    const dSurfaceParameters surface = surface_of();
    ENSURE(kit_sim_make(&s, "gonthier", "", &surface, 0) == 0);
    dBodyID ball = ball_in(&s, radius);
    for (int i = 0; i < 100; i++) kit_sim_step(&s, h);
    dBodyDisable(ball);
    for (int i = 0; i < asleep; i++) kit_sim_step(&s, h);
    dBodyEnable(ball);
    for (int i = 0; i < 10; i++) kit_sim_step(&s, h);
    *z = dBodyGetPosition(ball)[2];
    *vz = dBodyGetLinearVel(ball)[2];
    ENSURE(ipx_ode_get_stats(s.ipx).sleeping_islands == asleep);
    ENSURE(ipx_ode_get_stats(s.ipx).fallbacks == 0);
    kit_sim_free(&s);
}

static void test_gonthier_wakes_where_it_slept(void)
{
    double z_awake, v_awake, z_slept, v_slept;
    settle(0, &z_awake, &v_awake);
    settle(5, &z_slept, &v_slept);
    printf("  never asleep: z %.12f m, v_z %.3e m/s; asleep 5 steps: z %.12f m, v_z %.3e m/s\n",
           z_awake, v_awake, z_slept, v_slept);
    ENSURE(z_slept == z_awake && v_slept == v_awake);
}

int main(void)
{
    dInitODE2(0);
    RUN(test_a_sleeping_island_is_left_as_ode_leaves_it);
    RUN(test_gonthier_wakes_where_it_slept);
    dCloseODE();
    return ipx_test_exit();
}
