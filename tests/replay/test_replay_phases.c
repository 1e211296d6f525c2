/// The phases of a toss (phases.h) and the replay errors per phase (phase_errors.h): the
/// classifier on constructed trajectories whose phase boundaries follow in closed form (a drop
/// onto the table then a slide at constant deceleration mu g; a drop with a bounce and a second
/// landing, on an edge), the cube-toss world's box and plane, a recording the model made itself
/// (zero error in every phase) and the same recording moved by a known offset and turned by a
/// known angle (that offset and angle in every phase, and all the growth at the first sample).
/// argv[1]: the worlds directory.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ensure.h"
#include "phase_errors.h"

static const char *worlds_dir;
static const double G = 9.81, A = 0.05; /* m/s^2; m, the constructed cube's half width */

/* 100 Hz samples; the limits stated here, not the defaults: ±1 sample windows. */
static const cli_phase_limits LIMITS = {
    .contact_tol_m = 0.002, .impact_speed_mps = 0.2, .window_s = 0.015, .rest_speed_mps = 0.015};
static const double RATE_HZ = 100.0;

static cli_phase_box unit_box(void)
{
    return (cli_phase_box){.half_m = {A, A, A}, .quat = {1, 0, 0, 0}, .normal = {0, 0, 1}};
}

static void expect_phases(const unsigned char *got, const cli_phase *want, int n)
{
    int same = 1;
    for (int k = 0; k < n; k++) same &= got[k] == want[k];
    ENSURE(same);
    if (!same)
        for (int k = 0; k < n; k++)
            if (got[k] != want[k])
                printf("    sample %d: %s, expected %s\n", k, cli_phase_name((cli_phase)got[k]),
                       cli_phase_name(want[k]));
}

/* Face down, no spin, from H = 0.2 m above the table moving at 1 m/s along x: the fall ends at
   t_c = sqrt(2 H / g) = 0.2019 s (the first sample within 2 mm is t = 0.21 s: at 0.20 s it is
   3.8 mm up), then slides at 1 - mu g (t - t_c) with mu 0.5 until under 0.015 m/s at
   t_c + 0.985 / (mu g) = 0.4027 s, then rests spinning at 0.1 rad/s about z (vertices at
   0.1 a sqrt 2 = 0.007 m/s: rest). */
static void test_drop_slide_rest_boundaries(void)
{
    enum { N = 60 };
    const double H = 0.2, mu = 0.5, t_c = sqrt(2 * H / G);
    const double t_rest = t_c + (1.0 - LIMITS.rest_speed_mps) / (mu * G);
    cli_sample s[N] = {{0}};
    cli_phase want[N];
    for (int k = 0; k < N; k++) {
        const double t = k / RATE_HZ;
        s[k].t_s = t;
        s[k].q[0] = 1;
        if (t < t_c) {
            s[k].x_m[2] = A + H - 0.5 * G * t * t;
            s[k].v_mps[0] = 1.0;
            s[k].v_mps[2] = -G * t;
        } else {
            s[k].x_m[2] = A;
            s[k].v_mps[0] = fmax(0.0, 1.0 - mu * G * (t - t_c));
            if (t > t_rest) s[k].w_body_radps[2] = 0.1;
        }
        want[k] = k < 20       ? CLI_PHASE_FLIGHT
                  : k < 23     ? CLI_PHASE_FIRST_IMPACT /* 0.20, 0.21, 0.22 s: within 0.015 s */
                  : t < t_rest ? CLI_PHASE_SLIDING
                               : CLI_PHASE_REST;
    }
    ENSURE(want[40] == CLI_PHASE_SLIDING && want[41] == CLI_PHASE_REST); /* 0.40 s, 0.41 s */
    const cli_recording rec = {.path = "drop.csv", .n = N, .samples = s};
    const cli_phase_box box = unit_box();
    unsigned char got[N];
    ENSURE(cli_phases_classify(&rec, &box, &LIMITS, got) == 21);
    expect_phases(got, want, N);
}

/* Resting on an edge (turned 45 deg about x: the lowest vertices are a sqrt 2 below the
   centre), dropped from H so that it lands at t_c = 0.205 s and bounces up at u = 0.3 m/s: at
   0.21 s it is 1.4 mm up (in contact: the first touch, though separating), at 0.23 to 0.25 s
   above 2 mm (airborne), at 0.26 s 1.7 mm up approaching at g (0.26 - t_c) - u = 0.24 m/s
   (a later touch: faster than 0.2 m/s), down at t_c + 2 u / g = 0.2662 s, then at rest. */
static void test_bounce_and_second_landing_on_an_edge(void)
{
    enum { N = 40 };
    const double t_c = 0.205, H = 0.5 * G * t_c * t_c, u = 0.3, t_2 = t_c + 2 * u / G;
    const double lowest = A * sqrt(2.0), half = 3.14159265358979323846 / 8;
    cli_sample s[N] = {{0}};
    cli_phase want[N];
    for (int k = 0; k < N; k++) {
        const double t = k / RATE_HZ, tau = t - t_c;
        s[k].t_s = t;
        s[k].q[0] = cos(half);
        s[k].q[1] = sin(half);
        s[k].x_m[2] = lowest + (t < t_c   ? H - 0.5 * G * t * t
                                : t < t_2 ? u * tau - 0.5 * G * tau * tau
                                          : 0.0);
        s[k].v_mps[2] = t < t_c ? -G * t : t < t_2 ? u - G * tau : 0.0;
        want[k] = k < 20   ? CLI_PHASE_FLIGHT
                  : k < 23 ? CLI_PHASE_FIRST_IMPACT
                  : k < 25 ? CLI_PHASE_AIRBORNE
                  : k < 28 ? CLI_PHASE_LATER_IMPACT /* 0.25, 0.26, 0.27 s */
                           : CLI_PHASE_REST;
    }
    const cli_recording rec = {.path = "bounce.csv", .n = N, .samples = s};
    const cli_phase_box box = unit_box();
    unsigned char got[N];
    ENSURE(cli_phases_classify(&rec, &box, &LIMITS, got) == 21);
    expect_phases(got, want, N);
    /* never lower than 2 mm: flight throughout */
    for (int k = 0; k < N; k++) s[k].x_m[2] = lowest + 0.0021;
    ENSURE(cli_phases_classify(&rec, &box, &LIMITS, got) == -1);
    int flight = 1;
    for (int k = 0; k < N; k++) flight &= got[k] == CLI_PHASE_FLIGHT;
    ENSURE(flight);
}

static ipx_scene *cube_scene(void)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/cube_toss.world", worlds_dir);
    ipx_scene *scene = ipx_scene_load(path, NULL, NULL);
    ENSURE(scene != NULL);
    return scene;
}

static void test_cube_world_box_and_table(void)
{
    ipx_scene *scene = cube_scene();
    if (!scene) return;
    cli_phase_box box;
    char msg[256];
    ENSURE(cli_phase_box_of_scene(scene, &box, msg, sizeof msg) == 0);
    for (int i = 0; i < 3; i++) {
        ENSURE_NEAR(box.half_m[i], 0.05125, 1e-15);
        ENSURE_NEAR(box.pos_m[i], 0.0, 1e-15); /* at the cube's centre, 5.3 mm off the body's */
        ENSURE_NEAR(box.normal[i], i == 2 ? 1.0 : 0.0, 0.0);
    }
    ENSURE_NEAR(box.quat[0], 1.0, 0.0);
    ENSURE_NEAR(box.offset_m, 0.0, 0.0);
    ipx_scene_free(scene);
}

/* The cube-toss world under plus from its own start, 1.5 s at 148 Hz, as a recording. */
static cli_recording own_recording(const ipx_scene *scene, int n)
{
    cli_recording rec = {.path = "own.csv", .n = n, .samples = calloc(n, sizeof(cli_sample))};
    char msg[256];
    ipx_sim *sim = ipx_sim_create(scene, "plus", NULL, msg, sizeof msg);
    ENSURE(sim != NULL && rec.samples != NULL);
    if (!sim || !rec.samples) return rec;
    const double h = ipx_scene_step_size(scene);
    dBodyID body = ipx_sim_body(sim, ipx_sim_body_index(sim, "cube::link"));
    /* the samples track the cube's centre; the body is its centre of mass */
    const cli_body_frame frame = cli_replay_frame(scene);
    cli_sample b;
    cli_body_get_state(body, 0.0, &b);
    cli_body_frame_to_tracked(&frame, &b, &rec.samples[0]);
    cli_body_frame_to_body(&frame, &rec.samples[0], &b);
    ENSURE(cli_body_set_state(body, &b) == 0); /* as a replay starts */
    for (int k = 1; k < n; k++) {
        while (ipx_sim_time(sim) < k / 148.0 - h / 2)
            ENSURE(ipx_sim_step(sim, msg, sizeof msg) == 0);
        cli_body_get_state(body, k / 148.0, &b);
        cli_body_frame_to_tracked(&frame, &b, &rec.samples[k]);
    }
    ipx_sim_destroy(sim);
    return rec;
}

/* The replay's errors of rec under plus, per phase (phases of rec into phase). */
static void replay_by_phase(const ipx_scene *scene, const cli_recording *rec, unsigned char *phase,
                            cli_phase_error err[CLI_PHASE_COUNT])
{
    cli_phase_box box;
    char msg[256];
    const cli_phase_limits limits = cli_phase_default_limits();
    ENSURE(cli_phase_box_of_scene(scene, &box, msg, sizeof msg) == 0);
    ENSURE(cli_phases_classify(rec, &box, &limits, phase) > 0);
    cli_sample *sim = calloc(rec->n, sizeof *sim);
    cli_replay_error e;
    ENSURE(cli_replay(scene, "plus", NULL, rec, &e, sim, msg, sizeof msg) == 0);
    memset(err, 0, CLI_PHASE_COUNT * sizeof *err);
    cli_phase_errors_add(rec, phase, sim, e.samples, err);
    free(sim);
}

/* The model's own recording: zero error in every phase; the phases it shows are printed. Then
   every sample after the first moved by d (5 mm, horizontal) and turned by theta about the
   vertical (heights, approach speeds and vertex speeds unchanged, so the same phases): the
   replay (from the unchanged first sample) is off by |d| and theta in every phase, and the
   error grew at the first compared sample, a flight one. */
static void test_own_recording_zero_and_offset_exact_per_phase(void)
{
    ipx_scene *scene = cube_scene();
    if (!scene) return;
    enum { N = 222 };
    cli_recording rec = own_recording(scene, N);
    unsigned char phase[N], moved_phase[N];
    cli_phase_error err[CLI_PHASE_COUNT], moved[CLI_PHASE_COUNT];
    replay_by_phase(scene, &rec, phase, err);
    for (int p = 0; p < CLI_PHASE_COUNT; p++) {
        printf("  %-16s %3ld samples: %.3g m, %.3g deg\n", cli_phase_name((cli_phase)p),
               err[p].samples, err[p].sum_pos_m, err[p].sum_ori_deg);
        ENSURE(err[p].sum_pos_m <= 1e-12 && err[p].sum_ori_deg <= 1e-9 &&
               fabs(err[p].growth_m) <= 1e-12);
    }
    ENSURE(err[CLI_PHASE_FLIGHT].samples > 0 && err[CLI_PHASE_FIRST_IMPACT].samples > 0 &&
           err[CLI_PHASE_SLIDING].samples > 0 && err[CLI_PHASE_REST].samples > 0);
    const double d[3] = {0.003, -0.004, 0.0}, theta = 0.3; /* m, rad */
    const double c = cos(theta), s = sin(theta), qz[4] = {cos(theta / 2), 0, 0, sin(theta / 2)};
    for (int k = 1; k < N; k++) {
        cli_sample *x = &rec.samples[k];
        const double q[4] = {x->q[0], x->q[1], x->q[2], x->q[3]}, v[2] = {x->v_mps[0], x->v_mps[1]};
        x->q[0] = qz[0] * q[0] - qz[3] * q[3]; /* qz ⊗ q */
        x->q[1] = qz[0] * q[1] - qz[3] * q[2];
        x->q[2] = qz[0] * q[2] + qz[3] * q[1];
        x->q[3] = qz[0] * q[3] + qz[3] * q[0];
        x->v_mps[0] = c * v[0] - s * v[1];
        x->v_mps[1] = s * v[0] + c * v[1];
        for (int i = 0; i < 3; i++) x->x_m[i] += d[i];
    }
    replay_by_phase(scene, &rec, moved_phase, moved);
    ENSURE(memcmp(phase, moved_phase, N) == 0);
    for (int p = 0; p < CLI_PHASE_COUNT; p++) {
        if (!moved[p].samples) continue;
        ENSURE(moved[p].samples == err[p].samples);
        ENSURE_NEAR(moved[p].sum_pos_m / moved[p].samples, 0.005, 1e-12);
        ENSURE_NEAR(moved[p].sum_ori_deg / moved[p].samples, theta * 180 / 3.14159265358979323846,
                    1e-9);
        ENSURE_NEAR(moved[p].growth_m, p == phase[1] ? 0.005 : 0.0, 1e-12);
    }
    ENSURE(phase[1] == CLI_PHASE_FLIGHT);
    free(rec.samples);
    ipx_scene_free(scene);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_replay_phases WORLDS_DIR\n");
        return 2;
    }
    worlds_dir = argv[1];
    RUN(test_drop_slide_rest_boundaries);
    RUN(test_bounce_and_second_landing_on_an_edge);
    RUN(test_cube_world_box_and_table);
    RUN(test_own_recording_zero_and_offset_exact_per_phase);
    return ipx_test_exit();
}
