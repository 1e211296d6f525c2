/// `impax replay` end to end: a recording impax made itself (the cube-toss world under a model,
/// its states written at 148 Hz with %.17g) replays under the same model to rounding (through
/// several impacts), and not under another model; the CSV and plot; bad data files named with
/// their line, exit 1, nothing simulated; usage and contact-key errors exit 2 naming the item;
/// the lines fit 80 columns.
/// argv: impax binary, worlds directory, scratch directory.
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli_run.h"
#include "ensure.h"
#include "replay.h"
#include "toss_gen.h"

static const char *impax, *worlds_dir, *scratch;
static char cube[1024];

#define EXEC(...) cli_exec(impax, scratch, __VA_ARGS__)

static const double SAMPLE_S = 1.0 / 148.0;

/* body's state at t as a recording's sample of the tracked frame (the cube's centre, 5.3 mm
   from its centre of mass: frame): position, quaternion, velocity, and the angular velocity in
   the body frame, R^T w. */
static cli_sample state_of(double t, dBodyID body, const cli_body_frame *frame)
{
    const dReal *x = dBodyGetPosition(body), *q = dBodyGetQuaternion(body),
                *v = dBodyGetLinearVel(body), *w = dBodyGetAngularVel(body),
                *R = dBodyGetRotation(body);
    cli_sample s = {.t_s = t};
    for (int i = 0; i < 3; i++) {
        s.x_m[i] = x[i];
        s.v_mps[i] = v[i];
        s.w_body_radps[i] = R[i] * w[0] + R[4 + i] * w[1] + R[8 + i] * w[2];
    }
    for (int i = 0; i < 4; i++) s.q[i] = q[i];
    cli_sample tracked;
    cli_body_frame_to_tracked(frame, &s, &tracked);
    return tracked;
}

typedef struct made {
    long events;
    double z_first, z_min;
} made;

/* The cube world from its own initial state (toss 000's first sample) under model for n samples,
   written as a recording at scratch/name whose times start at t0. The body starts from the
   first row's numbers through cli_body_frame_to_body and cli_body_set_state, as a replay does: the world's own start
   differs from them by rounding (R^T w back to R w_body, the quaternion normalised again), and
   the cube's corner impacts grow 1e-16 into 1e-5 m within 0.8 s (measured: 8e-6 m under plus,
   2e-5 m under ode), which would hide what this test checks. The conversions themselves are
   test_replay_closed_forms's. */
static made make_recording(const char *name, const char *model, double t0, int n)
{
    made out = {0, NAN, INFINITY};
    char path[1100], msg[256];
    snprintf(path, sizeof path, "%s/%s", scratch, name);
    ipx_scene *scene = ipx_scene_load(cube, NULL, NULL);
    ipx_sim *sim = scene ? ipx_sim_create(scene, model, NULL, msg, sizeof msg) : NULL;
    FILE *f = fopen(path, "w");
    ENSURE(sim != NULL && f != NULL);
    if (sim && f) {
        const double h = ipx_scene_step_size(scene);
        dBodyID body = ipx_sim_body(sim, ipx_sim_body_index(sim, "cube::link"));
        fprintf(f, "t,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz\n");
        const cli_body_frame frame = cli_replay_frame(scene);
        const cli_sample first = state_of(t0, body, &frame);
        cli_sample start;
        cli_body_frame_to_body(&frame, &first, &start);
        ENSURE(cli_body_set_state(body, &start) == 0);
        for (int k = 0; k < n; k++) {
            while (ipx_sim_time(sim) < k * SAMPLE_S - h / 2)
                ENSURE(ipx_sim_step(sim, msg, sizeof msg) == 0);
            const cli_sample s = k ? state_of(t0 + k * SAMPLE_S, body, &frame) : first;
            toss_write_row(f, &s);
            const double z = dBodyGetPosition(body)[2];
            if (k == 0) out.z_first = z;
            out.z_min = fmin(out.z_min, z);
        }
        out.events = ipx_ode_get_stats(ipx_sim_impax(sim)).impact_events;
    }
    if (f) fclose(f);
    ipx_sim_destroy(sim);
    ipx_scene_free(scene);
    return out;
}

static int row_of(const csv_table *t, const char *model)
{
    for (int i = 0; i < t->n_rows; i++)
        if (strcmp(t->first[i], model) == 0) return i;
    return -1;
}

/* 0.8 s: the cube lands on an edge and corners (several impact events under plus) and slides to
   rest. Replayed under the model that made it, every sample agrees to rounding. */
static void test_a_recording_replays_under_its_own_model(void)
{
    const int n = 119;
    const made plus = make_recording("made_plus.csv", "plus", 0.0, n);
    const made ode = make_recording("made_ode.csv", "ode", 2.5, n); /* times need not start at 0 */
    printf("  made: plus %ld impact events, z %.4f -> min %.4f m; ode z min %.4f m\n", plus.events,
           plus.z_first, plus.z_min, ode.z_min);
    ENSURE(plus.events >= 3 && plus.z_first - plus.z_min > 0.05 && ode.z_first - ode.z_min > 0.05);
    cli_result r =
        EXEC("replay '%s' --data made_plus.csv --model plus,ode --out own_plus.csv --plot own.png",
             cube);
    printf("%s", r.out);
    ENSURE(r.exit_status == 0 && strstr(r.out, "made_plus.csv") &&
           strstr(r.out, "mean position error"));
    cli_result_free(&r);
    /* from a fit of the free flight the first samples record: said on stderr */
    r = EXEC("replay '%s' --data made_plus.csv --model plus --start fit:10", cube);
    ENSURE(r.exit_status == 0 && strstr(r.out, "made_plus.csv") &&
           strstr(r.err, "1 of 1 recordings start from a fit of their free flight (10 to 10"));
    cli_result_free(&r);
    r = EXEC("replay '%s' --data made_ode.csv --model ode --out own_ode.csv --quiet", cube);
    ENSURE(r.exit_status == 0 && !strstr(r.out, "made_ode.csv ")); /* --quiet: the summary only */
    cli_result_free(&r);
    char path[1100];
    csv_table t, u;
    snprintf(path, sizeof path, "%s/own_plus.csv", scratch);
    ENSURE(csv_read(path, &t) == 0 && t.n_rows == 2);
    snprintf(path, sizeof path, "%s/own_ode.csv", scratch);
    ENSURE(csv_read(path, &u) == 0 && u.n_rows == 1);
    const int p = row_of(&t, "plus"), o = row_of(&t, "ode"), pos = csv_col(&t, "mean_pos_m");
    const int fin = csv_col(&t, "final_pos_m"), ori = csv_col(&t, "mean_ori_deg"),
              ev = csv_col(&t, "impact_events");
    const int samples = csv_col(&t, "samples"), frac = csv_col(&t, "mean_pos_frac");
    printf("  own model: plus %.3g m, %.3g deg; ode %.3g m, %.3g deg; the other model (ode on "
           "plus's): %.3g m\n",
           csv_at(&t, p, pos), csv_at(&t, p, ori), csv_at(&u, 0, pos), csv_at(&u, 0, ori),
           csv_at(&t, o, pos));
    ENSURE(csv_at(&t, p, pos) < 1e-9 && csv_at(&t, p, fin) < 1e-9 && csv_at(&t, p, ori) < 1e-9);
    ENSURE(csv_at(&u, 0, pos) < 1e-9 && csv_at(&u, 0, fin) < 1e-9 && csv_at(&u, 0, ori) < 1e-9);
    ENSURE(csv_at(&t, p, ev) == plus.events && csv_at(&t, p, samples) == n);
    ENSURE(csv_at(&t, o, pos) > 1e-3); /* ODE's own contact handling is another trajectory */
    ENSURE_NEAR(csv_at(&t, o, frac), csv_at(&t, o, pos) / 0.1048, 1e-12);
    csv_free(&t);
    csv_free(&u);
    size_t size = 0;
    snprintf(path, sizeof path, "%s/own.png", scratch);
    char *png = read_file(path, &size);
    ENSURE(png && size > 1000 && memcmp(png, "\x89PNG", 4) == 0);
    free(png);
}

/* The params' contact keys reach the replay: e = 0.9 makes plus's recording another trajectory,
   through --params and through an entry's own settings, which go on top of --params (so
   plus:e=0.125 under --params e=0.9 is the recording's model again). */
static void test_contact_keys_change_the_replay(void)
{
    cli_result r =
        EXEC("replay '%s' --data made_plus.csv --model plus --params e=0.9 --out bouncy.csv", cube);
    ENSURE(r.exit_status == 0);
    cli_result_free(&r);
    r = EXEC("replay '%s' --data made_plus.csv --model plus:e=0.9,plus:e=0.125 --params e=0.9 "
             "--out entries.csv",
             cube);
    ENSURE(r.exit_status == 0);
    cli_result_free(&r);
    char path[1100];
    csv_table t, u;
    snprintf(path, sizeof path, "%s/bouncy.csv", scratch);
    ENSURE(csv_read(path, &t) == 0 && t.n_rows == 1);
    printf("  plus with e=0.9 on plus's e=0.125 recording: %.3g m\n",
           csv_at(&t, 0, csv_col(&t, "mean_pos_m")));
    ENSURE(csv_at(&t, 0, csv_col(&t, "mean_pos_m")) > 1e-3);
    snprintf(path, sizeof path, "%s/entries.csv", scratch);
    ENSURE(csv_read(path, &u) == 0 && u.n_rows == 2);
    const int bouncy = row_of(&u, "plus:e=0.9"), own = row_of(&u, "plus:e=0.125"),
              pos = csv_col(&u, "mean_pos_m");
    ENSURE(bouncy >= 0 && own >= 0);
    if (bouncy >= 0 && own >= 0) {
        ENSURE_NEAR(csv_at(&u, bouncy, pos), csv_at(&t, 0, pos), 1e-15);
        ENSURE(csv_at(&u, own, pos) < 1e-9);
    }
    csv_free(&t);
    csv_free(&u);
}

typedef struct bad_case {
    const char *file, *text;
    int line;          /* expected in "FILE:LINE:" */
    const char *words; /* expected in the message */
} bad_case;

static const char header[] = "t,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz\n";
#define ROW0 "0,0,0,1,1,0,0,0,0,0,0,0,0,0\n"
#define ROW1 "0.01,0,0,1,1,0,0,0,0,0,0,0,0,0\n"

static void write_text(const char *name, const char *text)
{
    char path[1100];
    snprintf(path, sizeof path, "%s/%s", scratch, name);
    FILE *f = fopen(path, "w");
    ENSURE(f != NULL);
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

static void test_bad_data_is_named_with_its_line(void)
{
    static const bad_case cases[] = {
        {"missing_column.csv", "t,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy\n" ROW0 ROW1, 1,
         "missing column 'wz'"},
        {"unknown_column.csv", "t,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz,spin\n" ROW0 ROW1, 1,
         "unknown column 'spin'"},
        {"nan.csv",
         "t,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz\n" ROW0 "0.01,0,0,nan,1,0,0,0,0,0,0,0,0,0\n", 3,
         "'z'"},
        {"word.csv",
         "t,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz\n" ROW0 ROW1 "0.02,0,0,1,1,0,0,0,fast,0,0,0,0,0\n",
         4, "'vx': 'fast' is not a number"},
        {"short_row.csv",
         "t,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz\n" ROW0 "0.01,0,0,1,1,0,0,0,0,0,0\n", 3,
         "fewer values"},
        {"quaternion.csv",
         "t,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz\n" ROW0 "0.01,0,0,1,1,0.1,0,0,0,0,0,0,0,0\n", 3,
         "norm 1.00499"},
        {"one_sample.csv", "t,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz\n" ROW0, 2, "at least two"},
        {"unsorted.csv",
         "t,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz\n" ROW0 "0.02,0,0,1,1,0,0,0,0,0,0,0,0,0\n" ROW1, 4,
         "not after the previous"},
        {"repeated_time.csv", "t,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz\n" ROW0 ROW0, 3,
         "increase strictly"},
        {"empty.csv", "", 0, "no header"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const bad_case *c = &cases[i];
        write_text(c->file, c->text);
        cli_result r = EXEC("replay '%s' --data %s --model ode", cube, c->file);
        char prefix[256];
        snprintf(prefix, sizeof prefix, "%s:%d: ", c->file, c->line);
        const int ok = r.exit_status == 1 && strstr(r.err, prefix) && strstr(r.err, c->words) &&
                       r.out[0] == '\0';
        printf("  %-20s exit %d: %s", c->file, r.exit_status, r.err);
        if (!ok)
            printf("    expected exit 1, '%s' and '%s' on stderr, nothing on stdout; stdout:\n%s",
                   prefix, c->words, r.out);
        ENSURE(ok);
        cli_result_free(&r);
    }
    ENSURE(strlen(header) > 0);
    /* a directory holding a good and a bad file: the bad one named, nothing simulated */
    char dir[1100];
    snprintf(dir, sizeof dir, "%s/mixed", scratch);
    mkdir(dir, 0755);
    write_text("mixed/a_good.csv", "t,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz\n" ROW0 ROW1);
    write_text("mixed/b_bad.csv", "t,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz\n" ROW0 ROW0);
    cli_result r = EXEC("replay '%s' --data mixed", cube);
    ENSURE(r.exit_status == 1 && strstr(r.err, "mixed/b_bad.csv:3: ") && r.out[0] == '\0');
    cli_result_free(&r);
    r = EXEC("replay '%s' --data no-such-dir", cube);
    ENSURE(r.exit_status == 1 && strstr(r.err, "cannot open no-such-dir: ") &&
           !strstr(r.err, ":0:"));
    cli_result_free(&r);
    /* the good file alone replays; order and spacing of the columns are free, CRLF too */
    write_text("mixed/c_columns.csv",
               " wz , wy,wx,vz,vy,vx,qz,qy,qx,qw,z,y,x,t\r\n0,0,0,0,0,0,0,0,0,1,1,0,0,0\r\n"
               "0,0,0,0,0,0,0,0,0,1,1,0,0,0.01\r\n");
    r = EXEC("replay '%s' --data mixed/a_good.csv --data mixed/c_columns.csv --model ode", cube);
    ENSURE(r.exit_status == 0 && strstr(r.out, "a_good.csv") && strstr(r.out, "c_columns.csv"));
    cli_result_free(&r);
}

static void test_usage_errors_exit_2_naming_the_item(void)
{
    cli_result r = EXEC("replay --help");
    ENSURE(r.exit_status == 0 && strstr(r.out, "usage: impax replay") && strstr(r.out, "--data"));
    cli_result_free(&r);
    r = EXEC("--help");
    ENSURE(r.exit_status == 0 && strstr(r.out, "replay WORLD"));
    cli_result_free(&r);
    r = EXEC("replay '%s'", cube);
    ENSURE(r.exit_status == 2 && strstr(r.err, "--data"));
    cli_result_free(&r);
    r = EXEC("replay '%s' --data made_plus.csv --model ode,nosuch", cube);
    ENSURE(r.exit_status == 2 && strstr(r.err, "nosuch") && strstr(r.err, "plus"));
    cli_result_free(&r);
    r = EXEC("replay '%s' --data made_plus.csv --show nosuch", cube);
    ENSURE(r.exit_status == 2 && strstr(r.err, "nosuch"));
    cli_result_free(&r);
    static const char *const bad_params[][2] = {{"mu=nan", "mu"},
                                                {"e=1.5", "e = 1.5"},
                                                {"bounce_vel=-2", "bounce_vel"},
                                                {"bogus=1", "bogus"}};
    for (int i = 0; i < 4; i++) {
        r = EXEC("replay '%s' --data made_plus.csv --model plus --params %s", cube,
                 bad_params[i][0]);
        printf("  --params %-14s exit %d: %s", bad_params[i][0], r.exit_status, r.err);
        ENSURE(r.exit_status == 2 && strstr(r.err, bad_params[i][1]) && !strstr(r.out, "samples"));
        cli_result_free(&r);
    }
    for (int i = 0; i < 3; i++) { /* --start: recorded, fit or fit:N with N in 3..1000 */
        static const char *const cmd[] = {"replay", "replay", "fit --fit mu"};
        static const char *const bad[] = {"fit:2", "bogus", "fit:x"};
        r = EXEC("%s '%s' --data made_plus.csv --model plus --start %s", cmd[i], cube, bad[i]);
        ENSURE(r.exit_status == 2 &&
               strstr(r.err, "--start takes recorded, fit or fit:N (N 3 to 1000)") &&
               !strstr(r.out, "samples"));
        cli_result_free(&r);
    }
    r = EXEC("run '%s' --model ode --params e=2", cube);
    ENSURE(r.exit_status == 2 && strstr(r.err, "contact parameter e = 2"));
    cli_result_free(&r);
    r = EXEC("check '%s'", cube);
    ENSURE(r.exit_status == 0 && strstr(r.out, ": ok"));
    cli_result_free(&r);
}

/* What replay prints fits 80 columns, a model's entry with settings included: per model a
   heading and one line per trajectory under column heads, then the summary and the --phases
   table (the recordings of the test above). */
static void test_the_lines_fit_80_columns(void)
{
    cli_result r = EXEC("replay '%s' --data made_plus.csv --data made_ode.csv --model "
                        "ode,plus,plus:v_plastic=0.3 --phases",
                        cube);
    printf("%s", r.out);
    ENSURE(r.exit_status == 0);
    int lines = 0, widest = 0;
    for (const char *p = r.out; *p; lines++) {
        const int len = (int)strcspn(p, "\n");
        if (len > widest) widest = len;
        p += len + (p[len] == '\n');
    }
    printf("  %d lines, the widest %d columns\n", lines, widest);
    ENSURE(lines > 10 && widest <= 80);
    ENSURE(strstr(r.out, "\nplus:v_plastic=0.3\n  trajectory ") != NULL);
    ENSURE(strstr(r.out, "\n  made_ode.csv ") != NULL);
    cli_result_free(&r);
}

/* --phases: the table per model (plus on its own recording: zero in every phase and overall;
   the phases' samples add up to the samples compared), --time-plot's PNG; a world whose replay
   body is not a box is refused before anything runs, naming what is missing. */
static void test_phases_table_and_time_plot(void)
{
    cli_result r = EXEC("replay '%s' --data made_plus.csv --model plus,ode --quiet --phases "
                        "--time-plot phases.png",
                        cube);
    printf("%s", r.out);
    ENSURE(r.exit_status == 0 && strstr(r.out, "first impact") && strstr(r.out, "sliding/rolling"));
    const char *plus = strstr(r.out, "\nplus\n  phase"),
               *all = plus ? strstr(plus, "\n  all ") : NULL;
    long samples = 0;
    double pos = -1, pct = -1, ori = -1;
    ENSURE(all && sscanf(all, " all %ld 100%% %lf %lf%% %lf", &samples, &pos, &pct, &ori) == 4);
    ENSURE(samples == 118 && pos == 0.0 && ori == 0.0);
    cli_result_free(&r);
    char path[1100];
    size_t size = 0;
    snprintf(path, sizeof path, "%s/phases.png", scratch);
    char *png = read_file(path, &size);
    ENSURE(png && size > 1000 && memcmp(png, "\x89PNG", 4) == 0);
    free(png);
    char sphere[1100];
    snprintf(sphere, sizeof sphere, "%s/gonthier_bouncing_sphere.world", worlds_dir);
    r = EXEC("replay '%s' --data made_plus.csv --phases", sphere);
    printf("  sphere world: exit %d: %s", r.exit_status, r.err);
    ENSURE(r.exit_status == 1 && strstr(r.err, "a box") && !strstr(r.out, "samples"));
    cli_result_free(&r);
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: test_replay_cli IMPAX WORLDS_DIR SCRATCH\n");
        return 2;
    }
    impax = argv[1];
    worlds_dir = argv[2];
    scratch = argv[3];
    snprintf(cube, sizeof cube, "%s/cube_toss.world", worlds_dir);
    RUN(test_a_recording_replays_under_its_own_model);
    RUN(test_the_lines_fit_80_columns);
    RUN(test_contact_keys_change_the_replay);
    RUN(test_phases_table_and_time_plot);
    RUN(test_bad_data_is_named_with_its_line);
    RUN(test_usage_errors_exit_2_naming_the_item);
    return ipx_test_exit();
}
