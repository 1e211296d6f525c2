/// impax replay's numbers against closed forms (replay.h): the orientation error of known
/// rotations (double cover, small angles), the body-to-world turn of the angular velocity, and
/// the replay of an exact ballistic, spinning free flight of the cube-toss world, whose error is
/// ODE's own integrator's in closed form: symplectic Euler puts the centre ½ |g| h t below the
/// parabola (plus v0 times any time offset), and the quaternion step turns by 2 atan(|w| h / 2)
/// per step instead of |w| h. A replay that compared at the wrong step, turned the angular
/// velocity the wrong way or started from the wrong state would be off by orders of magnitude.
/// argv[1]: the worlds directory.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ensure.h"
#include "free_flight.h"
#include "replay.h"
#include "toss_gen.h"

static const char *worlds_dir;
static const double PI = 3.14159265358979323846, G = 9.81;

static void test_orientation_error_of_known_rotations(void)
{
    const double id[4] = {1, 0, 0, 0}, axis[3] = {0.6, 0.0, 0.8};
    const double angles_deg[] = {1e-9, 1e-4, 0.5, 30, 90, 179.5};
    for (size_t i = 0; i < sizeof angles_deg / sizeof angles_deg[0]; i++) {
        double q[4], q0[4], q1[4], minus[4];
        ipx_quat_about(axis, angles_deg[i] * PI / 180, q);
        ENSURE_NEAR(cli_orientation_error_deg(id, q), angles_deg[i],
                    1e-12 * fmax(1, angles_deg[i]));
        for (int k = 0; k < 4; k++) minus[k] = -q[k]; /* the same orientation */
        ENSURE_NEAR(cli_orientation_error_deg(id, minus), angles_deg[i],
                    1e-12 * fmax(1, angles_deg[i]));
        /* left-invariant: q_a^-1 q_b does not change when both turn by the same q0 first */
        const double turn[3] = {0, 1, 0};
        ipx_quat_about(turn, 1.1, q0);
        ipx_quat_product(q0, q, q1);
        ENSURE_NEAR(cli_orientation_error_deg(q0, q1), angles_deg[i],
                    1e-9 * fmax(1, angles_deg[i]));
    }
    double half[4]; /* 270 deg one way is 90 deg the other */
    ipx_quat_about(axis, 1.5 * PI, half);
    ENSURE_NEAR(cli_orientation_error_deg(id, half), 90.0, 1e-12);
}

/* The cube-toss world with the cube's centre of mass at its centre (toss_gen.h): the closed
   forms below are of a body whose tracked centre is its centre of mass. */
static ipx_scene *cube_scene(void)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/cube_toss.world", worlds_dir);
    ipx_scene *scene = toss_scene_load_centred(path);
    ENSURE(scene != NULL);
    return scene;
}

/* Body frame 90 deg about world z: body x is world y, so w_body (1 2 3) is w_world (-2 1 3). */
static void test_body_angular_velocity_turns_into_the_world_frame(void)
{
    ipx_scene *scene = cube_scene();
    char msg[256];
    ipx_sim *sim = scene ? ipx_sim_create(scene, "ode", NULL, msg, sizeof msg) : NULL;
    ENSURE(sim != NULL);
    if (!sim) return;
    dBodyID body = ipx_sim_body(sim, ipx_sim_body_index(sim, "cube::link"));
    const double z[3] = {0, 0, 1};
    cli_sample s = {.t_s = 0, .x_m = {1, 2, 3}, .v_mps = {4, 5, 6}, .w_body_radps = {1, 2, 3}};
    ipx_quat_about(z, PI / 2, s.q);
    ENSURE(cli_body_set_state(body, &s) == 0);
    cli_sample bad = s; /* refused, body untouched */
    bad.v_mps[1] = NAN;
    ENSURE(cli_body_set_state(body, &bad) == -1);
    bad = s;
    bad.q[0] = bad.q[1] = bad.q[2] = bad.q[3] = 0;
    ENSURE(cli_body_set_state(body, &bad) == -1);
    const dReal *w = dBodyGetAngularVel(body), *x = dBodyGetPosition(body),
                *v = dBodyGetLinearVel(body);
    const double expect[3] = {-2, 1, 3};
    for (int i = 0; i < 3; i++) {
        ENSURE_NEAR(w[i], expect[i], 1e-15);
        ENSURE_NEAR(x[i], s.x_m[i], 0);
        ENSURE_NEAR(v[i], s.v_mps[i], 0);
    }
    cli_sample back;
    cli_body_get_state(body, 0.5, &back);
    ENSURE(back.t_s == 0.5);
    for (int i = 0; i < 3; i++) ENSURE_NEAR(back.w_body_radps[i], s.w_body_radps[i], 1e-15);
    ENSURE_NEAR(cli_orientation_error_deg(back.q, s.q), 0.0, 1e-12);
    ipx_sim_destroy(sim);
    ipx_scene_free(scene);
}

/* A free flight 2 m above the table (0.95 m at the end), exact (free_flight.h). */
static void flight_sample(double t, cli_sample *s)
{
    s->t_s = t;
    ipx_free_flight(2.0, G, t, s->x_m, s->q, s->v_mps, s->w_body_radps);
}

static void test_free_flight_error_is_the_integrators(void)
{
    ipx_scene *scene = cube_scene();
    if (!scene) return;
    const int n = 89; /* 0.6 s at 148 Hz */
    cli_recording rec = {.path = "flight.csv", .n = n, .samples = calloc(n, sizeof(cli_sample))};
    for (int k = 0; k < n; k++) flight_sample(k / 148.0, &rec.samples[k]);
    const double h = ipx_scene_step_size(scene), wn = sqrt(29.0);
    double sum_pos = 0, sum_ori = 0, final_pos = 0;
    for (int k = 1; k < n; k++) {
        const double t = k / 148.0, steps = 10.0 * k;
        final_pos = ipx_free_flight_euler_error_m(G, h, steps, t);
        sum_pos += final_pos;
        sum_ori += fabs(steps * 2 * atan(wn * h / 2) - wn * t) * 180 / PI;
    }
    cli_replay_error err;
    cli_sample *sim_states = calloc(n, sizeof(cli_sample));
    char msg[256];
    for (int m = 0; m < 2; m++) {
        const char *model = m ? "plus" : "ode";
        ENSURE(cli_replay(scene, model, NULL, &rec, &err, sim_states, msg, sizeof msg) == 0);
        printf("  %s: mean position error %.9g m (closed form %.9g), final %.9g m (%.9g), "
               "orientation %.6g deg "
               "(%.6g)\n",
               model, err.mean_pos_m, sum_pos / (n - 1), err.final_pos_m, final_pos,
               err.mean_ori_deg, sum_ori / (n - 1));
        ENSURE(err.samples == n - 1 && err.impact_events == 0 && err.fallbacks == 0);
        ENSURE_NEAR(err.length_m, 0.1048, 0);
        ENSURE_NEAR(err.mean_pos_m, sum_pos / (n - 1), 1e-12);
        ENSURE_NEAR(err.final_pos_m, final_pos, 1e-12);
        ENSURE_NEAR(err.mean_ori_deg, sum_ori / (n - 1), 1e-9);
        ENSURE(err.mean_pos_m > 5e-4); /* the integrator's error is there to be seen */
        ENSURE_NEAR(sim_states[0].x_m[2], 2.0, 0);
        ENSURE_NEAR(sim_states[n - 1].t_s, rec.samples[n - 1].t_s, 0);
    }
    /* a hand-made recording whose first sample is not finite is refused: nothing simulated */
    rec.samples[0].w_body_radps[2] = NAN;
    msg[0] = '\0';
    ENSURE(cli_replay(scene, "plus", NULL, &rec, &err, NULL, msg, sizeof msg) == 2 &&
           strstr(msg, "flight.csv"));
    ENSURE(err.samples == 0);
    free(sim_states);
    free(rec.samples);
    ipx_scene_free(scene);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_replay_closed_forms WORLDS_DIR\n");
        return 2;
    }
    worlds_dir = argv[1];
    RUN(test_orientation_error_of_known_rotations);
    RUN(test_body_angular_velocity_turns_into_the_world_frame);
    RUN(test_free_flight_error_is_the_integrators);
    return ipx_test_exit();
}
