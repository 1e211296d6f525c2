/* The params' body key inertia_scale (plugin/world/world.h, docs/command.md "Contact keys"):
   it scales the replay body's inertia tensor and nothing else, under every model, ode included,
   and bad values name the key. Closed form: a ball launched sliding at v0 without spin on a
   plane ends rolling at v0 / (1 + I / (m r^2)) (angular momentum about the contact line is
   kept while friction acts), so the rolling speed says which inertia the simulation used. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ensure.h"
#include "world_kit.h"

static const double mass_kg = 1.0, radius_m = 0.1, v0_mps = 1.0;

/* A uniform ball (I = 2/5 m r^2 = 0.004 kg m^2) sliding along x at v0 on a plane, mu 0.5. */
static ipx_scene *ball_world(void)
{
    char body[2048];
    snprintf(body, sizeof body,
             "<model name='ground'><static>true</static><link name='l'><collision name='c'>"
             "<geometry><plane><normal>0 0 1</normal></plane></geometry><surface><friction><ode>"
             "<mu>0.5</mu><mu2>0.5</mu2></ode></friction></surface></collision></link></model>"
             "<model name='ball'><pose>0 0 %.17g 0 0 0</pose><link name='l'><inertial>"
             "<mass>%g</mass><inertia><ixx>0.004</ixx><iyy>0.004</iyy><izz>0.004</izz></inertia>"
             "</inertial><collision name='c'><geometry><sphere><radius>%g</radius></sphere>"
             "</geometry><surface><friction><ode><mu>0.5</mu><mu2>0.5</mu2></ode></friction>"
             "</surface></collision><impax:linear_velocity>%g 0 0</impax:linear_velocity></link>"
             "</model>",
             radius_m, mass_kg, radius_m, v0_mps);
    return kit_world("test_world_body_keys.world", body);
}

/* The ball's speed (m/s) after 1 s, long after it stopped sliding (2 v0 / (7 mu g) = 0.06 s). */
static double rolling_speed(const ipx_scene *scene, const char *model, const char *params,
                            double *inertia, double *mass)
{
    char msg[256];
    ipx_sim *sim = ipx_sim_create(scene, model, params, msg, sizeof msg);
    ENSURE(sim != NULL);
    if (!sim) {
        fprintf(stderr, "  %s %s: %s\n", model, params, msg);
        return NAN;
    }
    dBodyID b = ipx_sim_body(sim, 0);
    dMass m;
    dBodyGetMass(b, &m);
    *inertia = m.I[0];
    *mass = m.mass;
    ENSURE(m.I[0] == m.I[5] && m.I[5] == m.I[10] && m.I[1] == 0 && m.I[2] == 0 && m.I[6] == 0);
    for (int i = 0; i < 1000; i++) ENSURE(ipx_sim_step(sim, msg, sizeof msg) == 0);
    const dReal *v = dBodyGetLinearVel(b);
    const double speed = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    ipx_sim_destroy(sim);
    return speed;
}

static void test_inertia_scale_sets_the_rolling_speed(void)
{
    ipx_scene *scene = ball_world();
    ENSURE(scene != NULL);
    if (!scene) return;
    static const char *const models[] = {"ode", "plus"};
    static const double scales[] = {0.5, 1.0, 2.0};
    for (int i = 0; i < 2; i++)
        for (int k = 0; k < 3; k++) {
            char params[64];
            snprintf(params, sizeof params, "inertia_scale=%g", scales[k]);
            double inertia = 0, mass = 0;
            const double speed = rolling_speed(scene, models[i], params, &inertia, &mass);
            const double I = 0.004 * scales[k];
            const double expect = v0_mps / (1.0 + I / (mass_kg * radius_m * radius_m));
            printf("  %-4s %s: I = %.6g kg m^2, rolls at %.9f m/s (closed form %.9f, off %.1e)\n",
                   models[i], params, inertia, speed, expect, speed - expect);
            ENSURE_NEAR(inertia, I, 1e-15);
            ENSURE(mass == mass_kg);
            /* every step keeps the angular momentum about the contact line (friction acts on it,
               gravity and the normal force through it) and the LCP's stick is exact: the closed
               form to rounding (measured within 3e-14) */
            ENSURE_NEAR(speed, expect, 1e-12);
        }
    ipx_scene_free(scene);
}

static void test_inertia_scale_rejects_bad_values(void)
{
    ipx_scene *scene = ball_world();
    ENSURE(scene != NULL);
    if (!scene) return;
    static const char *const bad[] = {"inertia_scale=0", "inertia_scale=11", "inertia_scale=nan",
                                      "mu=0.3,inertia_scale=abc"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char msg[256] = "";
        ipx_sim *sim = ipx_sim_create(scene, "plus", bad[i], msg, sizeof msg);
        printf("  %-26s -> %s\n", bad[i], msg);
        ENSURE(sim == NULL && strstr(msg, "inertia_scale") != NULL);
        ipx_sim_destroy(sim);
    }
    double lo = -1, hi = -1;
    ENSURE(ipx_body_param_range("inertia_scale", &lo, &hi) == 1 && lo == 0.1 && hi == 10);
    ENSURE(ipx_body_param_range("mu", &lo, &hi) == 0 &&
           ipx_body_param_range(NULL, NULL, NULL) == 0);
    ipx_scene_free(scene);
}

int main(void)
{
    RUN(test_inertia_scale_sets_the_rolling_speed);
    RUN(test_inertia_scale_rejects_bad_values);
    return ipx_test_exit();
}
