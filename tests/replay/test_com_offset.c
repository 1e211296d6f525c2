/// A body whose centre of mass sits off the frame its recordings track, against closed forms:
/// - body_frame.h: a tracked state and the body's differ by r = R com in position and by w x r
///   in velocity, the axes by the frame's turn; the two directions invert each other; the
///   identity frame copies a sample exactly; cli_quat_from_rotation on all four of its branches;
/// - com_offset.h: the tracked frame's samples of exact free flights whose centre of mass sits at
///   com give com and g back to round-off; the samples after a landing are not taken (taken, the
///   estimate is off); flights that do not turn, flights that all spin about one body axis, and
///   a single flight leave it undetermined;
/// - recording_start.h: the fitted start of such a flight is its tracked state when the frame
///   is given, and off it when it is not;
/// - replay.h: a toss that impax simulates in the cube-toss world with its <inertial><pose> at
///   (2, -1, 4) mm replays in that world to round-off and is measured at that pose; the same
///   world with the pose at the centre replays it millimetres off;
/// - bench/com_offset prints the estimate, exits 2 on bad usage and 1 on a missing file.
/// argv[1]: the worlds directory; argv[2]: a scratch directory; argv[3]: the program, or "-".
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli_run.h"
#include "com_offset.h"
#include "ensure.h"
#include "free_flight.h"
#include "phase_errors.h"
#include "quat.h"
#include "recording_start.h"
#include "replay.h"
#include "toss_gen.h"

static const char *worlds_dir, *scratch, *program;
static const double G = 9.81, DT = 1.0 / 148.0, HALF = 0.05;
static const double GRAVITY[3] = {0.0, 0.0, -9.81};
static const double COM[3] = {0.002, -0.001, 0.006}; /* m, in the tracked frame */

static void ensure_vec(const double *a, const double *b, int n, double tol)
{
    for (int i = 0; i < n; i++) ENSURE_NEAR(a[i], b[i], tol);
}

static void test_a_frame_of_known_offset(void)
{
    const double none[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, com[3] = {0, 0, 0.01};
    const cli_body_frame f = cli_body_frame_make(com, none);
    const cli_sample tracked = {
        .x_m = {1, 2, 3}, .q = {1, 0, 0, 0}, .v_mps = {0.5, 0, 0}, .w_body_radps = {2, 0, 0}};
    cli_sample body, back;
    cli_body_frame_to_body(&f, &tracked, &body);
    const double x[3] = {1, 2, 3.01}, v[3] = {0.5, -0.02, 0}, q[4] = {1, 0, 0, 0};
    ensure_vec(body.x_m, x, 3, 1e-15);
    ensure_vec(body.v_mps, v, 3, 1e-15); /* w x r = (2, 0, 0) x (0, 0, 0.01) */
    ensure_vec(body.q, q, 4, 1e-15);
    ensure_vec(body.w_body_radps, tracked.w_body_radps, 3, 1e-15);
    cli_body_frame_to_tracked(&f, &body, &back);
    ensure_vec(back.x_m, tracked.x_m, 3, 1e-15);
    ensure_vec(back.v_mps, tracked.v_mps, 3, 1e-15);
}

/* Inertial axes turned 90 deg about z: the tracked x axis is the body's -y axis' turn. */
static void test_turned_axes(void)
{
    const double turned[9] = {0, -1, 0, 1, 0, 0, 0, 0, 1}, zero[3] = {0, 0, 0};
    const cli_body_frame f = cli_body_frame_make(zero, turned);
    const double h = sqrt(0.5), q_f[4] = {h, 0, 0, h};
    ensure_vec(f.q, q_f, 4, 1e-15);
    const cli_sample tracked = {.q = {1, 0, 0, 0}, .w_body_radps = {1, 0, 0}};
    cli_sample body;
    cli_body_frame_to_body(&f, &tracked, &body);
    const double w[3] = {0, -1, 0};
    ensure_vec(body.w_body_radps, w, 3, 1e-15);
    ensure_vec(body.q, q_f, 4, 1e-15);
}

static void test_the_two_directions_invert_each_other(void)
{
    double axis[3] = {0.48, 0.64, 0.6}, R[9], q_f[4];
    ipx_quat_about(axis, 2.2, q_f);
    cli_quat_rotation(q_f, R);
    const cli_body_frame f = cli_body_frame_make(COM, R);
    cli_sample tracked = {
        .t_s = 0.25, .x_m = {0.3, -0.1, 0.2}, .v_mps = {1, -2, 0.5}, .w_body_radps = {3, -4, 2}};
    ipx_quat_about(axis, -0.7, tracked.q);
    cli_sample body, back;
    cli_body_frame_to_body(&f, &tracked, &body);
    cli_body_frame_to_tracked(&f, &body, &back);
    ENSURE(back.t_s == tracked.t_s);
    ensure_vec(back.x_m, tracked.x_m, 3, 1e-15);
    ensure_vec(back.v_mps, tracked.v_mps, 3, 1e-14);
    ensure_vec(back.q, tracked.q, 4, 1e-15);
    ensure_vec(back.w_body_radps, tracked.w_body_radps, 3, 1e-14);
    /* the centre of mass is |COM| from the tracked origin */
    double d2 = 0.0;
    for (int i = 0; i < 3; i++)
        d2 += (body.x_m[i] - tracked.x_m[i]) * (body.x_m[i] - tracked.x_m[i]);
    ENSURE_NEAR(sqrt(d2), sqrt(COM[0] * COM[0] + COM[1] * COM[1] + COM[2] * COM[2]), 1e-15);
}

/* The identity copies a sample bit for bit (a quaternion off unit by 5e-4 included), and so
   does any frame a sample whose quaternion is zero. */
static void test_identity_and_unusable_samples_pass_unchanged(void)
{
    const cli_body_frame id = cli_body_frame_identity(), f = {{0, 0, 0.01}, {1, 0, 0, 0}};
    const cli_sample s = {.x_m = {0.1, 0.2, 0.3},
                          .q = {1.0005, 0, 0, 0},
                          .v_mps = {1, 2, 3},
                          .w_body_radps = {4, 5, 6}};
    cli_sample out;
    cli_body_frame_to_body(&id, &s, &out);
    ENSURE(memcmp(&out, &s, sizeof s) == 0);
    cli_body_frame_to_tracked(&id, &s, &out);
    ENSURE(memcmp(&out, &s, sizeof s) == 0);
    cli_sample zero_q = s;
    memset(zero_q.q, 0, sizeof zero_q.q);
    cli_body_frame_to_body(&f, &zero_q, &out);
    ENSURE(memcmp(&out, &zero_q, sizeof s) == 0);
}

/* Rotations whose largest of 4 w^2, 4 x^2, 4 y^2, 4 z^2 is each one in turn, back to their
   quaternions (w >= 0). */
static void test_quaternions_of_rotation_matrices(void)
{
    const double axes[5][3] = {{1, 2, 3}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, 1, 0}};
    const double angles[5] = {0.3, 3.1, 3.1, 3.1, 3.14159265358979};
    for (int k = 0; k < 5; k++) {
        const double n =
            sqrt(axes[k][0] * axes[k][0] + axes[k][1] * axes[k][1] + axes[k][2] * axes[k][2]);
        const double axis[3] = {axes[k][0] / n, axes[k][1] / n, axes[k][2] / n};
        double q[4], R[9], back[4];
        ipx_quat_about(axis, angles[k], q);
        cli_quat_rotation(q, R);
        cli_quat_from_rotation(R, back);
        ENSURE(back[0] >= 0.0);
        ensure_vec(back, q, 4, 1e-15);
    }
}

/* The tracked frame's samples of flight k, every DT: the centre of mass thrown from 2 m up and
   falling freely, the body spinning at a constant body-frame rate (isotropic inertia) about an
   axis of its own for each k (all about the first with same_axis), or not at all (turning 0);
   the centre of mass at com; after `flying` samples the box lies on the table (lowest vertex at
   the plane). */
static cli_recording tracked_flight(int k, int flying, int resting, const double com[3],
                                    int turning, int same_axis)
{
    static const double spins[4][3] = {{3, -4, 2}, {-2, 1, 5}, {4, 3, -1}, {1, 5, 2}};
    const double *w = spins[same_axis ? 0 : k % 4];
    const double rate = turning ? sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]) : 0.0;
    const double axis[3] = {w[0] / rate, w[1] / rate, w[2] / rate}, tilt[3] = {0.48, 0.64, 0.6};
    const int n = flying + resting;
    cli_recording rec = {.path = "flight.csv", .n = n, .samples = calloc(n, sizeof(cli_sample))};
    const double none[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    const cli_body_frame f = cli_body_frame_make(com, none);
    double q0[4];
    ipx_quat_about(tilt, 0.9 + 0.4 * k, q0);
    for (int i = 0; i < n && rec.samples; i++) {
        const double t = i * DT, v0[3] = {0.7 - 0.2 * k, -0.4, 1.2};
        cli_sample body = {.t_s = t};
        double turn[4] = {1, 0, 0, 0};
        if (turning) ipx_quat_about(axis, rate * t, turn);
        ipx_quat_product(q0, turn, body.q); /* q0 exp(w_b t / 2) */
        for (int c = 0; c < 3; c++) {
            body.x_m[c] = 0.1 * k + v0[c] * t + 0.5 * GRAVITY[c] * t * t + (c == 2 ? 2.0 : 0.0);
            body.v_mps[c] = v0[c] + GRAVITY[c] * t;
            body.w_body_radps[c] = turning ? w[c] : 0.0;
        }
        cli_body_frame_to_tracked(&f, &body, &rec.samples[i]);
        if (i >= flying) {
            const cli_sample on_table = {.t_s = t, .x_m = {0.1, 0.1, HALF}, .q = {1, 0, 0, 0}};
            rec.samples[i] = on_table;
        }
    }
    return rec;
}

static cli_phase_box unit_box(void)
{
    return (cli_phase_box){.half_m = {HALF, HALF, HALF}, .quat = {1, 0, 0, 0}, .normal = {0, 0, 1}};
}

static void free_all(cli_recording *recs, int n)
{
    for (int i = 0; i < n; i++) free(recs[i].samples);
}

static void test_flights_give_their_centre_of_mass_back(void)
{
    cli_recording recs[4];
    for (int k = 0; k < 4; k++) recs[k] = tracked_flight(k, 20, 10, COM, 1, 0);
    const cli_phase_box box = unit_box();
    com_limits limits = com_default_limits();
    com_estimate e;
    ENSURE(com_measure(recs, NULL, 4, &box, &limits, &e) == 0);
    ensure_vec(e.com_m, COM, 3, 1e-10);
    ENSURE_NEAR(e.g_mps2, G, 1e-9);
    ENSURE(e.recordings == 4 && e.samples == 80);
    ENSURE(e.rms_m < 1e-12);
    /* a subset by index: flights 1 and 3 */
    const int which[2] = {1, 3};
    ENSURE(com_measure(recs, which, 2, &box, &limits, &e) == 0);
    ENSURE(e.recordings == 2 && e.samples == 40);
    ensure_vec(e.com_m, COM, 3, 1e-10);
    /* the samples on the table taken as flight: the estimate is off */
    limits.clearance_m = -1.0;
    ENSURE(com_measure(recs, NULL, 4, &box, &limits, &e) == 0);
    ENSURE(e.samples == 4 * limits.max_samples);
    ENSURE(fabs(e.com_m[2] - COM[2]) > 1e-4 || fabs(e.g_mps2 - G) > 1e-3);
    /* at most max_samples of each flight */
    limits = com_default_limits();
    limits.max_samples = 8;
    ENSURE(com_measure(recs, NULL, 4, &box, &limits, &e) == 0);
    ENSURE(e.samples == 32);
    ensure_vec(e.com_m, COM, 3, 1e-9);
    free_all(recs, 4);
}

static void test_flights_that_cannot_tell_are_refused(void)
{
    const cli_phase_box box = unit_box();
    const com_limits limits = com_default_limits();
    com_estimate e;
    cli_recording still[3], one_axis[3];
    for (int k = 0; k < 3; k++) {
        still[k] = tracked_flight(k, 20, 0, COM, 0, 0);
        one_axis[k] = tracked_flight(k, 20, 0, COM, 1, 1);
    }
    ENSURE(com_measure(still, NULL, 3, &box, &limits, &e) == -1);
    ENSURE(com_measure(one_axis, NULL, 3, &box, &limits, &e) == -1);
    cli_recording one = tracked_flight(0, 20, 0, COM, 1, 0);
    ENSURE(com_measure(&one, NULL, 1, &box, &limits, &e) == -1);
    /* flights shorter than min_samples do not count */
    cli_recording short_ones[2] = {tracked_flight(0, 5, 5, COM, 1, 0),
                                   tracked_flight(1, 5, 5, COM, 1, 0)};
    ENSURE(com_measure(short_ones, NULL, 2, &box, &limits, &e) == -1);
    ENSURE(e.recordings == 0);
    free_all(still, 3);
    free_all(one_axis, 3);
    free(one.samples);
    free_all(short_ones, 2);
}

/* The fitted start of a flight whose centre of mass is off: its tracked state at the first
   sample when the frame is given (the centre of mass is what falls freely). */
static void test_the_fitted_start_falls_with_the_centre_of_mass(void)
{
    cli_recording rec = tracked_flight(1, 20, 0, COM, 1, 0);
    const cli_sample first = rec.samples[0];
    const double none[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    const cli_body_frame f = cli_body_frame_make(COM, none);
    ENSURE(cli_recording_fit_start(&rec, 20, GRAVITY, &f) == 20);
    ensure_vec(rec.start.x_m, first.x_m, 3, 1e-9);
    ensure_vec(rec.start.v_mps, first.v_mps, 3, 1e-8);
    ensure_vec(rec.start.w_body_radps, first.w_body_radps, 3, 1e-8);
    /* without the frame, the tracked origin is taken to fall freely: a different start or none */
    const int window = cli_recording_fit_start(&rec, 20, GRAVITY, NULL);
    double off = 0.0;
    for (int i = 0; i < 3 && window > 0; i++)
        off = fmax(off, fabs(rec.start.v_mps[i] - first.v_mps[i]));
    ENSURE(window == 0 || off > 1e-3);
    free(rec.samples);
}

/* Two tosses impax simulates in world, written at 148 Hz: spinning from 0.45 m up, landing
   within 0.45 s. */
static int write_tosses(const char *world, char paths[2][512])
{
    for (int k = 0; k < 2; k++) {
        cli_sample start = {.x_m = {0.2, 0.1, 0.45},
                            .v_mps = {-1.0, 0.5 * k, 0.2},
                            .w_body_radps = {-3.0 + 2.0 * k, 1.0, 4.0}};
        const double axis[3] = {0.6, 0.0, 0.8};
        ipx_quat_about(axis, 0.7 + k, start.q);
        snprintf(paths[k], sizeof paths[k], "%s/com_toss_%d.csv", scratch, k);
        if (toss_write(world, "plus", "", &start, 0.45, 148.0, paths[k]) != 0) return -1;
    }
    return 0;
}

static void test_a_simulated_toss_replays_with_its_centre_of_mass(void)
{
    char with[512], centred[512], paths[2][512], msg[512];
    snprintf(with, sizeof with, "%s/com_world.world", scratch);
    snprintf(centred, sizeof centred, "%s/com_centred.world", scratch);
    char cube[512];
    snprintf(cube, sizeof cube, "%s/cube_toss.world", worlds_dir);
    ENSURE(toss_world_with_com(cube, "0.002 -0.001 0.004 0 0 0", with) == 0 &&
           toss_world_with_com(cube, "0 0 0 0 0 0", centred) == 0);
    ENSURE(write_tosses(with, paths) == 0);
    ipx_scene *scene = toss_scene_load(with), *scene0 = toss_scene_load(centred);
    ENSURE(scene && scene0);
    cli_recording recs[2];
    for (int k = 0; k < 2; k++)
        ENSURE(cli_recording_load(paths[k], &recs[k], msg, sizeof msg) == 0);
    cli_replay_error err, err0;
    ENSURE(cli_replay(scene, "plus", "", &recs[0], &err, NULL, msg, sizeof msg) == 0);
    ENSURE(cli_replay(scene0, "plus", "", &recs[0], &err0, NULL, msg, sizeof msg) == 0);
    ENSURE(err.mean_pos_m < 1e-9);
    ENSURE(err0.mean_pos_m > 1e-3);
    /* the flights measure the world's centre of mass */
    cli_phase_box box;
    ENSURE(cli_phase_box_of_scene(scene, &box, msg, sizeof msg) == 0);
    const double box_centre[3] = {0, 0, 0};
    ensure_vec(box.pos_m, box_centre, 3, 1e-15); /* the box sits at the tracked origin */
    const com_limits limits = com_default_limits();
    com_estimate e;
    ENSURE(com_measure(recs, NULL, 2, &box, &limits, &e) == 0);
    const double world_com[3] = {0.002, -0.001, 0.004};
    ensure_vec(e.com_m, world_com, 3, 1e-9);
    for (int k = 0; k < 2; k++) cli_recording_free(&recs[k]);
    ipx_scene_free(scene);
    ipx_scene_free(scene0);
}

/* 1 if text has a line that starts with label and holds what. */
static int line_has(const char *text, const char *label, const char *what)
{
    const char *line = text ? strstr(text, label) : NULL;
    const char *end = line ? strchr(line, '\n') : NULL, *found = line ? strstr(line, what) : NULL;
    return found && (!end || found < end) && (line == text || line[-1] == '\n');
}

static void test_the_program(void)
{
    if (strcmp(program, "-") == 0) return;
    char dir[512], cube[512], world[512], paths[2][512];
    snprintf(dir, sizeof dir, "%s/com_tosses", scratch);
    mkdir(dir, 0755);
    snprintf(cube, sizeof cube, "%s/cube_toss.world", worlds_dir);
    snprintf(world, sizeof world, "%s/com_program.world", scratch);
    ENSURE(toss_world_with_com(cube, "0.002 -0.001 0.004 0 0 0", world) == 0);
    const char *saved = scratch;
    scratch = dir;
    ENSURE(write_tosses(world, paths) == 0);
    scratch = saved;
    cli_result r = cli_exec(program, scratch, "%s --data %s --folds 2 --seed 1", world, dir);
    ENSURE(r.exit_status == 0);
    ENSURE(r.out && strstr(r.out, "the world's centre of mass (mm): 2.00 -1.00 4.00"));
    const char *all = r.out ? strstr(r.out, "all recordings") : NULL;
    double com_mm[3] = {NAN, NAN, NAN};
    ENSURE(all && sscanf(all + strlen("all recordings"), "%lf %lf %lf", &com_mm[0], &com_mm[1],
                         &com_mm[2]) == 3);
    const double world_mm[3] = {2, -1, 4};
    ensure_vec(com_mm, world_mm, 3, 0.006); /* printed to 0.01 mm */
    /* one toss a half or a fold: too few flights for an estimate, said so */
    ENSURE(line_has(r.out, "even recordings", "no estimate"));
    ENSURE(line_has(r.out, "fold 2's training (seed 1)", "no estimate"));
    cli_result_free(&r);
    r = cli_exec(program, scratch, "%s --data", world);
    ENSURE(r.exit_status == 2 && r.err && strstr(r.err, "usage"));
    cli_result_free(&r);
    r = cli_exec(program, scratch, "%s --data %s --folds 1", world, dir);
    ENSURE(r.exit_status == 2);
    cli_result_free(&r);
    r = cli_exec(program, scratch, "%s --data %s/missing.csv", world, dir);
    ENSURE(r.exit_status == 1 && r.err && strstr(r.err, "missing.csv"));
    cli_result_free(&r);
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: test_com_offset WORLDS_DIR SCRATCH_DIR PROGRAM|-\n");
        return 2;
    }
    worlds_dir = argv[1];
    scratch = argv[2];
    program = argv[3];
    RUN(test_a_frame_of_known_offset);
    RUN(test_turned_axes);
    RUN(test_the_two_directions_invert_each_other);
    RUN(test_identity_and_unusable_samples_pass_unchanged);
    RUN(test_quaternions_of_rotation_matrices);
    RUN(test_flights_give_their_centre_of_mass_back);
    RUN(test_flights_that_cannot_tell_are_refused);
    RUN(test_the_fitted_start_falls_with_the_centre_of_mass);
    RUN(test_a_simulated_toss_replays_with_its_centre_of_mass);
    RUN(test_the_program);
    return ipx_test_exit();
}
