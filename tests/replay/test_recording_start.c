/// A replay's start fitted to the recorded free flight (recording_start.h), against closed
/// forms: an exact spinning flight gives back its state at the first sample to round-off
/// (where the recorded first sample, a backward difference, is g dt / 2 off), also spinning past
/// pi within the window; the window ends where the flight does (a touch, a turn); noise of the
/// capture's size stays inside the window and averages out; a body at rest or sliding on a
/// table is not taken for a falling one; no window, no fit; the replay
/// starts from the fitted state, and its error is then the integrator's own in closed form.
/// argv[1]: the worlds directory.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ensure.h"
#include "free_flight.h"
#include "recording_start.h"
#include "replay.h"
#include "toss_gen.h"

static const char *worlds_dir;
static const double PI = 3.14159265358979323846, G = 9.81, DT = 1.0 / 148.0;
static const double GRAVITY[3] = {0.0, 0.0, -9.81};

/* The flight of free_flight.h 2 m up, sampled every DT as the cube-toss data set records it:
   the velocity a backward difference of the positions (the one before the first from the
   flight too), the rest exact. */
static cli_recording flight_recording(int n)
{
    cli_recording rec = {.path = "flight.csv", .n = n, .samples = calloc(n, sizeof(cli_sample))};
    for (int k = 0; k < n; k++) {
        cli_sample *s = &rec.samples[k];
        double before[3], q[4], v[3], w[3];
        s->t_s = k * DT;
        ipx_free_flight(2.0, G, s->t_s, s->x_m, s->q, v, s->w_body_radps);
        ipx_free_flight(2.0, G, s->t_s - DT, before, q, v, w);
        for (int i = 0; i < 3; i++) s->v_mps[i] = (s->x_m[i] - before[i]) / DT;
    }
    return rec;
}

/* The angle (rad) between two orientations: the replay's own measure (replay_metric.h, accurate
   near 0 where an acos of the quaternions' dot product cannot tell 1e-8 rad from 0). */
static double angle_between(const double a[4], const double b[4])
{
    return cli_orientation_error_deg(a, b) * PI / 180.0;
}

static void ensure_state(const cli_sample *s, const double x[3], const double q[4],
                         const double v[3], const double w_body[3], double tol)
{
    for (int i = 0; i < 3; i++) {
        ENSURE_NEAR(s->x_m[i], x[i], tol);
        ENSURE_NEAR(s->v_mps[i], v[i], tol);
        ENSURE_NEAR(s->w_body_radps[i], w_body[i], 10 * tol);
    }
    ENSURE(angle_between(s->q, q) <= tol);
}

static void test_start_values_are_read(void)
{
    int n = -1;
    ENSURE(cli_start_parse("recorded", &n) == 0 && n == 0);
    ENSURE(cli_start_parse("fit", &n) == 0 && n == CLI_START_DEFAULT_SAMPLES);
    ENSURE(cli_start_parse("fit:12", &n) == 0 && n == 12);
    ENSURE(cli_start_parse("fit:3", &n) == 0 && n == 3);
    ENSURE(cli_start_parse("fit:1000", &n) == 0 && n == 1000);
    const char *bad[] = {"fit:2", "fit:1001", "fit:", "fit:5x", "fits", "", "Fit", "recorded:3"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        n = 7;
        ENSURE(cli_start_parse(bad[i], &n) == -1 && n == 7);
    }
}

static void test_an_exact_flight_gives_back_its_start(void)
{
    cli_recording rec = flight_recording(30);
    ENSURE(cli_recording_start(&rec) == &rec.samples[0]); /* not fitted yet: as recorded */
    double x[3], q[4], v[3], w[3];
    ipx_free_flight(2.0, G, 0.0, x, q, v, w);
    /* the recorded velocity is the mean over the sample before: g dt / 2 slower in z */
    ENSURE_NEAR(rec.samples[0].v_mps[2] - v[2], 0.5 * G * DT, 1e-9);
    ENSURE(cli_recording_fit_start(&rec, 20, GRAVITY, NULL) == 20);
    ENSURE(rec.start_window == 20 && cli_recording_start(&rec) == &rec.start);
    ensure_state(&rec.start, x, q, v, w, 1e-9);
    ENSURE(rec.start.t_s == 0.0);
    /* the samples themselves stay as recorded */
    ENSURE_NEAR(rec.samples[0].v_mps[2] - v[2], 0.5 * G * DT, 1e-9);
    /* a window longer than the recording takes all of it */
    ENSURE(cli_recording_fit_start(&rec, 1000, GRAVITY, NULL) == 30);
    ensure_state(&rec.start, x, q, v, w, 1e-9);
    free(rec.samples);
}

/* A spin of 40 rad/s turns 5.4 rad in 20 samples: the rotation vectors from the first sample
   pass pi and stay on their line (unwrapped), and the fit takes the whole window. */
static void test_a_spin_past_pi_within_the_window(void)
{
    const int n = 20;
    const double axis[3] = {0.0, 0.6, 0.8}, tilt[3] = {1, 0, 0}; /* w_world = 40 axis */
    double q0[4];
    ipx_quat_about(tilt, 0.4, q0);
    cli_recording rec = {.path = "spin.csv", .n = n, .samples = calloc(n, sizeof(cli_sample))};
    for (int k = 0; k < n; k++) {
        cli_sample *s = &rec.samples[k];
        double turn[4];
        s->t_s = k * DT;
        ipx_quat_about(axis, 40.0 * s->t_s, turn);
        ipx_quat_product(turn, q0, s->q); /* exp(w t / 2) q0: w fixed in the world */
        for (int i = 0; i < 3; i++) s->x_m[i] = 0.5 * GRAVITY[i] * s->t_s * s->t_s;
    }
    ENSURE(40.0 * (n - 1) * DT > PI + 1.5);
    ENSURE(cli_recording_fit_start(&rec, n, GRAVITY, NULL) == n);
    /* w in the body frame of q0 (a turn of 0.4 rad about x): R(q0)^T w_world */
    const double c = cos(0.4), s = sin(0.4);
    const double w_body[3] = {0.0, c * 24.0 + s * 32.0, -s * 24.0 + c * 32.0};
    const double zero[3] = {0, 0, 0};
    ensure_state(&rec.start, zero, q0, zero, w_body, 1e-9);
    free(rec.samples);
}

/* The window ends where the flight does: from sample 9 on the body is thrown off its parabola
   (a touch: 2 m/s upwards more) or turned off its spin (0.1 rad about another axis); the fit
   takes the nine samples before, and gives back the flight's start. */
static void test_the_window_ends_where_the_flight_does(void)
{
    double x[3], q[4], v[3], w[3];
    ipx_free_flight(2.0, G, 0.0, x, q, v, w);
    for (int kind = 0; kind < 2; kind++) {
        cli_recording rec = flight_recording(30);
        for (int k = 9; k < rec.n; k++) {
            cli_sample *s = &rec.samples[k];
            if (kind == 0) {
                s->x_m[2] += 2.0 * (s->t_s - 8 * DT);
            } else {
                const double other[3] = {1, 0, 0};
                double turn[4], q_old[4];
                memcpy(q_old, s->q, sizeof q_old);
                ipx_quat_about(other, 0.1, turn);
                ipx_quat_product(turn, q_old, s->q);
            }
        }
        ENSURE(cli_recording_fit_start(&rec, 20, GRAVITY, NULL) == 9);
        ensure_state(&rec.start, x, q, v, w, 1e-9);
        free(rec.samples);
    }
}

/* Noise of the capture's size (positions within 0.3 mm per axis, orientations within 0.05 deg
   about each axis, a fixed pseudo-random sequence): the window stays 20 samples long, the fitted
   velocity is within a tenth of the recorded one's error (a backward difference of noisy
   positions, g dt / 2 late), and the fitted angular velocity within a tenth of what a
   difference of two samples can be off, 2 sqrt(3) 0.05 deg / dt = 0.45 rad/s. */
static void test_capture_noise_averages_out(void)
{
    cli_recording rec = flight_recording(30);
    unsigned long long state = 12345;
    for (int k = 0; k < 30; k++) {
        double noise[6];
        for (int j = 0; j < 6; j++) {
            state = state * 6364136223846793005ULL + 1442695040888963407ULL;
            noise[j] = (double)(state >> 11) / 9007199254740992.0 * 2.0 - 1.0; /* [-1, 1) */
        }
        cli_sample *s = &rec.samples[k];
        const double len = sqrt(noise[3] * noise[3] + noise[4] * noise[4] + noise[5] * noise[5]);
        const double unit[3] = {noise[3] / len, noise[4] / len, noise[5] / len};
        double turn[4], q_old[4];
        for (int i = 0; i < 3; i++) s->x_m[i] += 3e-4 * noise[i];
        memcpy(q_old, s->q, sizeof q_old);
        ipx_quat_about(unit, len * 0.05 * PI / 180.0, turn);
        ipx_quat_product(turn, q_old, s->q);
        if (k > 0) /* the recorded velocity from the noisy positions */
            for (int i = 0; i < 3; i++) s->v_mps[i] = (s->x_m[i] - s[-1].x_m[i]) / DT;
    }
    double x[3], q[4], v[3], w[3], x1[3], q1[4], v1[3], w1[3];
    ipx_free_flight(2.0, G, 0.0, x, q, v, w);
    ipx_free_flight(2.0, G, DT, x1, q1, v1, w1);
    ENSURE(cli_recording_fit_start(&rec, 20, GRAVITY, NULL) == 20);
    double recorded_v = 0, fitted_v = 0, fitted_w = 0;
    for (int i = 0; i < 3; i++) { /* sample 1's recorded velocity against the flight's there */
        recorded_v = fmax(recorded_v, fabs(rec.samples[1].v_mps[i] - v1[i]));
        fitted_v = fmax(fitted_v, fabs(rec.start.v_mps[i] - v[i]));
        fitted_w = fmax(fitted_w, fabs(rec.start.w_body_radps[i] - w[i]));
    }
    const double two_sample_w = 2.0 * sqrt(3.0) * 0.05 * PI / 180.0 / DT;
    printf("  noise: velocity error fitted %.3g m/s, a recorded backward difference %.3g m/s;"
           " angular velocity error fitted %.3g rad/s (two samples' difference: up to %.3g)\n",
           fitted_v, recorded_v, fitted_w, two_sample_w);
    ENSURE(recorded_v > 0.03); /* g dt / 2 late and the noise over dt */
    ENSURE(fitted_v < 0.1 * recorded_v);
    ENSURE(fitted_w < 0.1 * two_sample_w);
    ENSURE(angle_between(rec.start.q, q) < 0.05 * PI / 180.0);
    free(rec.samples);
}

/* A body that does not fall: at rest on a table, or sliding along it at 0.5 m/s. Free fall
   fits its first few samples within 1 mm (half g t^2 stays under it for 0.04 s), with a velocity
   that points up; the centres lie on a line without gravity too, so no window shows a fall and
   the recording keeps its first sample. Without gravity the same sliding recording is a free
   flight, and its start is fitted. */
static void test_a_body_that_does_not_fall_is_not_fitted(void)
{
    for (int sliding = 0; sliding < 2; sliding++) {
        cli_recording rec = {
            .path = "table.csv", .n = 30, .samples = calloc(30, sizeof(cli_sample))};
        for (int k = 0; k < rec.n; k++) {
            cli_sample *s = &rec.samples[k];
            s->t_s = k * DT;
            s->q[0] = 1.0;
            s->x_m[0] = sliding ? 0.5 * s->t_s : 0.0;
            s->x_m[2] = 0.0524;
            s->v_mps[0] = sliding ? 0.5 : 0.0;
        }
        ENSURE(cli_recording_fit_start(&rec, 20, GRAVITY, NULL) == 0);
        ENSURE(cli_recording_start(&rec) == &rec.samples[0]);
        const double none[3] = {0, 0, 0};
        ENSURE(cli_recording_fit_start(&rec, 20, none, NULL) == 20);
        ENSURE_NEAR(rec.start.v_mps[0], sliding ? 0.5 : 0.0, 1e-9);
        ENSURE_NEAR(rec.start.v_mps[2], 0.0, 1e-9);
        free(rec.samples);
    }
}

/* No window of three samples fits: the recording starts from its first sample as recorded. */
static void test_no_flight_no_fit(void)
{
    cli_recording rec = flight_recording(30);
    rec.samples[1].x_m[0] += 0.005; /* 5 mm off at the second sample */
    ENSURE(cli_recording_fit_start(&rec, 20, GRAVITY, NULL) == 0);
    ENSURE(rec.start_window == 0 && cli_recording_start(&rec) == &rec.samples[0]);
    cli_recording two = flight_recording(2);
    ENSURE(cli_recording_fit_start(&two, 20, GRAVITY, NULL) == 0);
    ENSURE(cli_recording_fit_start(&two, 2, GRAVITY, NULL) == 0);
    /* the summary of a set */
    cli_recording set[2] = {rec, flight_recording(30)};
    char summary[256];
    cli_recordings_fit_start(set, 2, 20, GRAVITY, NULL, summary, sizeof summary);
    ENSURE(strstr(summary, "1 of 2 recordings start from a fit") != NULL);
    ENSURE(strstr(summary, "(20 to 20 samples); 1 from their first sample") != NULL);
    cli_recordings_fit_start(set, 2, 0, GRAVITY, NULL, summary, sizeof summary);
    ENSURE(strstr(summary, "every recording starts from its first sample") != NULL);
    free(set[1].samples);
    free(rec.samples);
    free(two.samples);
}

/* In the cube-toss world: the replay body's free-flight acceleration is the world's gravity,
   and a replay from the fitted start of an exact flight recorded with a backward-difference
   velocity has the integrator's own error (the closed form of free_flight.h) to 1e-9 m, where
   the recorded start adds the velocity's lag times the time. */
static void test_a_replay_starts_from_the_fitted_state(void)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/cube_toss.world", worlds_dir);
    ipx_scene *scene = toss_scene_load_centred(path); /* the flight's centre: its centre of mass */
    ENSURE(scene != NULL);
    if (!scene) return;
    double g[3];
    ipx_scene_replay_gravity(scene, g);
    ENSURE(g[0] == 0.0 && g[1] == 0.0 && g[2] == -9.81);
    const int n = 89;
    cli_recording rec = flight_recording(n);
    const double h = ipx_scene_step_size(scene);
    double sum_pos = 0;
    for (int k = 1; k < n; k++) sum_pos += ipx_free_flight_euler_error_m(G, h, 10.0 * k, k * DT);
    cli_replay_error recorded, fitted;
    char msg[256];
    ENSURE(cli_replay(scene, "plus", NULL, &rec, &recorded, NULL, msg, sizeof msg) == 0);
    ENSURE(cli_recording_fit_start(&rec, 20, g, NULL) == 20);
    cli_sample *states = calloc(n, sizeof(cli_sample));
    ENSURE(cli_replay(scene, "plus", NULL, &rec, &fitted, states, msg, sizeof msg) == 0);
    printf("  replay of a flight: mean position error from the recorded start %.6g m, from the "
           "fitted one %.9g m (the integrator's, closed form: %.9g m)\n",
           recorded.mean_pos_m, fitted.mean_pos_m, sum_pos / (n - 1));
    ENSURE_NEAR(fitted.mean_pos_m, sum_pos / (n - 1), 1e-9);
    /* the recorded start's velocity lags by g dt / 2 = 0.033 m/s: over the flight's 0.6 s that
       moves the centre by 0.01 m on average, ten times the integrator's error */
    ENSURE(recorded.mean_pos_m > 5 * fitted.mean_pos_m);
    ENSURE_NEAR(states[0].v_mps[2], rec.start.v_mps[2], 1e-12); /* it started there */
    free(states);
    free(rec.samples);
    ipx_scene_free(scene);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_recording_start WORLDS_DIR\n");
        return 2;
    }
    worlds_dir = argv[1];
    test_start_values_are_read();
    test_an_exact_flight_gives_back_its_start();
    test_a_spin_past_pi_within_the_window();
    test_the_window_ends_where_the_flight_does();
    test_capture_noise_averages_out();
    test_a_body_that_does_not_fall_is_not_fitted();
    test_no_flight_no_fit();
    test_a_replay_starts_from_the_fitted_state();
    return ipx_test_exit();
}
