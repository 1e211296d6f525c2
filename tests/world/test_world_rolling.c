/* The params' contact keys rolling and spinning (plugin/world/contact_params.c, docs/command.md
   "Contact keys"): ODE's rolling friction, its torque bounded by the coefficient (m) times the
   normal force, under ode and under plus (which leaves rolling contacts to ODE). Closed forms
   for a uniform ball (m, r, I = 2/5 m r^2) on a plane, g = 9.81 m/s^2:
   - rolling without slip at v0 against a torque rho m g, it slows at 5/7 rho g / r (about the
     contact line: (I + m r^2) dv/dt / r = -rho m g);
   - spinning about the vertical at w0 with no sliding friction (mu = 0), it slows at
     rho_n m g / I;
   - a key at 0 adds no rows: the other key alone leaves that motion as it was. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ensure.h"
#include "world_kit.h"

static const double mass_kg = 1.0, radius_m = 0.1, inertia_kg_m2 = 0.004, g_mps2 = 9.81;

/* The ball resting on the plane, moving at v (m/s) along x and turning at w (rad/s, world). */
static ipx_scene *ball_world(double v, const double w[3])
{
    char body[2048];
    snprintf(body, sizeof body,
             "<gravity>0 0 -%g</gravity><physics type='ode'><max_step_size>0.001</max_step_size>"
             "</physics><model name='ground'><static>true</static><link name='l'>"
             "<collision name='c'><geometry><plane><normal>0 0 1</normal></plane></geometry>"
             "</collision></link></model>"
             "<model name='ball'><pose>0 0 %.17g 0 0 0</pose><link name='l'><inertial>"
             "<mass>%g</mass><inertia><ixx>%g</ixx><iyy>%g</iyy><izz>%g</izz></inertia>"
             "</inertial><collision name='c'><geometry><sphere><radius>%g</radius></sphere>"
             "</geometry></collision><impax:linear_velocity>%g 0 0</impax:linear_velocity>"
             "<impax:angular_velocity>%g %g %g</impax:angular_velocity></link></model>",
             g_mps2, radius_m, mass_kg, inertia_kg_m2, inertia_kg_m2, inertia_kg_m2, radius_m, v,
             w[0], w[1], w[2]);
    return kit_world("test_world_rolling.world", body);
}

/* The ball's linear speed along x (m/s) and its spin about z (rad/s) after t_s. */
static void run(double v, const double w[3], const char *model, const char *params, double t_s,
                double *vx, double *wz)
{
    ipx_scene *scene = ball_world(v, w);
    char msg[256];
    ipx_sim *sim = scene ? ipx_sim_create(scene, model, params, msg, sizeof msg) : NULL;
    ENSURE(sim != NULL);
    *vx = *wz = NAN;
    while (sim && ipx_sim_time(sim) < t_s - 1e-9) ENSURE(ipx_sim_step(sim, msg, sizeof msg) == 0);
    if (sim) {
        *vx = dBodyGetLinearVel(ipx_sim_body(sim, 0))[0];
        *wz = dBodyGetAngularVel(ipx_sim_body(sim, 0))[2];
    }
    ipx_sim_destroy(sim);
    ipx_scene_free(scene);
}

/* The motion with the key slows from x0 to expect, as the closed form says, to 0.1 % of the
   decay (first-order stepping); without the key, or with only the other key, it keeps x0. */
static void check_decay(const char *model, const char *what, double x0, double expect, double keyed,
                        double unkeyed, double other_only)
{
    printf("  %s: %s %.6f (closed form %.6f); without the key %.6f, with the other key alone "
           "%.6f (closed form %g)\n",
           model, what, keyed, expect, unkeyed, other_only, x0);
    ENSURE_NEAR(keyed, expect, 1e-3 * fabs(x0 - expect));
    ENSURE_NEAR(unkeyed, x0, 1e-9);
    ENSURE_NEAR(other_only, x0, 1e-9);
}

static void test_rolling_slows_a_rolling_ball(void)
{
    const double v0 = 1.0, t = 0.5, rho = 0.002;
    const double w[3] = {0.0, v0 / radius_m, 0.0}; /* rolling along +x without slip */
    const double expect = v0 - 5.0 / 7.0 * rho * g_mps2 / radius_m * t;
    for (int m = 0; m < 2; m++) {
        const char *model = m ? "plus" : "ode";
        double v[3], wz;
        run(v0, w, model, "mu=1,rolling=0.002", t, &v[0], &wz);
        run(v0, w, model, "mu=1", t, &v[1], &wz);
        run(v0, w, model, "mu=1,spinning=0.002", t, &v[2], &wz);
        check_decay(model, "speed (m/s) after 0.5 s", v0, expect, v[0], v[1], v[2]);
    }
}

static void test_spinning_slows_a_spinning_ball(void)
{
    const double w0 = 10.0, t = 0.5, rho_n = 0.001;
    const double w[3] = {0.0, 0.0, w0};
    const double expect = w0 - rho_n * mass_kg * g_mps2 / inertia_kg_m2 * t;
    for (int m = 0; m < 2; m++) {
        const char *model = m ? "plus" : "ode";
        double vx, wz[3];
        run(0.0, w, model, "mu=0,spinning=0.001", t, &vx, &wz[0]);
        run(0.0, w, model, "mu=0", t, &vx, &wz[1]);
        run(0.0, w, model, "mu=0,rolling=0.001", t, &vx, &wz[2]);
        check_decay(model, "spin (rad/s) after 0.5 s", w0, expect, wz[0], wz[1], wz[2]);
    }
}

/* Out of range or not a number: refused naming the key and its range, no simulation made; the
   ranges are what impax fit bounds its search with. */
static void test_bad_values_are_refused(void)
{
    const double w[3] = {0.0, 0.0, 0.0};
    ipx_scene *scene = ball_world(0.0, w);
    ENSURE(scene != NULL);
    if (!scene) return;
    static const char *const bad[][2] = {
        {"rolling=-0.001", "rolling"}, {"spinning=2", "spinning"}, {"rolling=abc", "rolling"}};
    char msg[256];
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        msg[0] = '\0';
        ipx_sim *sim = ipx_sim_create(scene, "ode", bad[i][0], msg, sizeof msg);
        printf("  %-16s -> %s\n", bad[i][0], msg);
        ENSURE(sim == NULL && strstr(msg, bad[i][1]) != NULL && strstr(msg, "contact") != NULL);
        ipx_sim_destroy(sim);
    }
    ipx_scene_free(scene);
    double lo = -1, hi = -1;
    ENSURE(ipx_contact_param_range("rolling", &lo, &hi) == 1 && lo == 0 && hi == 1);
    ENSURE(ipx_contact_param_range("spinning", &lo, &hi) == 1 && lo == 0 && hi == 1);
}

int main(void)
{
    RUN(test_rolling_slows_a_rolling_ball);
    RUN(test_spinning_slows_a_spinning_ball);
    RUN(test_bad_values_are_refused);
    return ipx_test_exit();
}
