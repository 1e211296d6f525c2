/// Twins of recordings (tests/support/toss_gen.h, bench/twin_tosses.c): the model's own motion
/// from a recording's fitted start, at the recording's times. A twin whose first row is the
/// fitted start replays to zero error; one whose first row is the recording's first sample
/// differs from it in that row alone, and its replay is the recording's own replay, bit for bit:
/// so a twin's error is exactly what the recorded start costs. The program writes the same
/// files and rejects bad usage with exit 2.
/// argv[1]: the worlds directory; argv[2]: a scratch directory; argv[3]: twin_tosses, or "-".
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli_run.h"
#include "ensure.h"
#include "recording_start.h"
#include "replay.h"
#include "toss_gen.h"

static const char *model = "plus", *params = "mu=0.18,e=0.3";
static const double GRAVITY[3] = {0.0, 0.0, -9.81};
static char world[1024], scratch[1024], toss_path[1100];
static const char *program;

/* A toss made by the model itself: 0.3 m up, spinning, about 25 samples of flight, then landing
   and sliding; 0.5 s at the data set's 148 Hz. */
static void make_toss(void)
{
    const cli_sample start = {
        0, {0.0, 0.0, 0.3}, {0.9, 0.1, 0.3, 0.2}, {0.8, -0.3, -0.5}, {3, -2, 4}};
    snprintf(toss_path, sizeof toss_path, "%s/toss.csv", scratch);
    ENSURE(toss_write(world, model, params, &start, 0.5, 148, toss_path) == 0);
}

/* rec's start fitted as `--start fit` fits it in the world (whose cube's centre of mass, not
   its tracked centre, falls freely). */
static int fit_start(cli_recording *rec)
{
    ipx_scene *scene = ipx_scene_load(world, NULL, NULL);
    ENSURE(scene != NULL);
    const cli_body_frame frame = scene ? cli_replay_frame(scene) : cli_body_frame_identity();
    if (scene) ipx_scene_free(scene);
    return cli_recording_fit_start(rec, CLI_START_DEFAULT_SAMPLES, GRAVITY, &frame);
}

/* The toss with a noisy first sample, its start fitted. */
static cli_recording noisy_toss(void)
{
    cli_recording rec;
    char message[512];
    ENSURE(cli_recording_load(toss_path, &rec, message, sizeof message) == 0);
    rec.samples[0].x_m[0] += 3e-4;    /* inside the fit's 1 mm */
    rec.samples[0].v_mps[2] -= 0.033; /* the data set's g dt / 2 */
    rec.samples[0].w_body_radps[1] += 0.1;
    ENSURE(fit_start(&rec) >= 10);
    return rec;
}

static int same_sample(const cli_sample *a, const cli_sample *b)
{
    return memcmp(a, b, sizeof *a) == 0;
}

static cli_recording load(const char *name)
{
    char path[1200], message[512];
    cli_recording rec;
    snprintf(path, sizeof path, "%s/%s", scratch, name);
    ENSURE(cli_recording_load(path, &rec, message, sizeof message) == 0);
    return rec;
}

static void test_twins(void)
{
    ipx_scene *scene = ipx_scene_load(world, NULL, NULL);
    ENSURE(scene != NULL);
    if (!scene) return;
    cli_recording rec = noisy_toss();
    char path[1200];
    snprintf(path, sizeof path, "%s/twin_recorded.csv", scratch);
    ENSURE(toss_twin_write(scene, model, params, &rec, 1, path) == 0);
    snprintf(path, sizeof path, "%s/twin_fitted.csv", scratch);
    ENSURE(toss_twin_write(scene, model, params, &rec, 0, path) == 0);
    cli_recording twin_rec = load("twin_recorded.csv"), twin_fit = load("twin_fitted.csv");

    /* the recording's times; the rows after the first the same in both twins */
    const int same_n = twin_rec.n == rec.n && twin_fit.n == rec.n;
    ENSURE(same_n);
    for (int k = 0; same_n && k < rec.n; k++) {
        ENSURE_NEAR(twin_rec.samples[k].t_s, rec.samples[k].t_s - rec.samples[0].t_s, 1e-15);
        if (k > 0) ENSURE(same_sample(&twin_rec.samples[k], &twin_fit.samples[k]));
    }
    /* the first rows: the recorded sample, and the fitted start */
    ENSURE(same_sample(&twin_rec.samples[0], &rec.samples[0]));
    const cli_sample *start = cli_recording_start(&rec);
    for (int i = 0; i < 3; i++) {
        ENSURE(twin_fit.samples[0].x_m[i] == start->x_m[i]);
        ENSURE(twin_fit.samples[0].v_mps[i] == start->v_mps[i]);
    }

    cli_replay_error e_fit, e_rec, e_orig;
    cli_sample *s_rec = calloc(rec.n, sizeof *s_rec), *s_orig = calloc(rec.n, sizeof *s_orig);
    char message[512];
    ENSURE(cli_replay(scene, model, params, &twin_fit, &e_fit, NULL, message, sizeof message) == 0);
    ENSURE(cli_replay(scene, model, params, &twin_rec, &e_rec, s_rec, message, sizeof message) ==
           0);
    cli_recording as_recorded = rec; /* the replay of the recording from its first sample */
    as_recorded.start_window = 0;
    ENSURE(cli_replay(scene, model, params, &as_recorded, &e_orig, s_orig, message,
                      sizeof message) == 0);
    /* the fitted twin is the model replaying itself */
    ENSURE(e_fit.mean_pos_m <= 1e-12 && e_fit.mean_ori_deg <= 1e-9);
    /* the recorded twin's replay is the recording's replay, and what it misses is the start's */
    for (int k = 1; k < rec.n; k++)
        ENSURE(memcmp(s_rec[k].x_m, s_orig[k].x_m, sizeof s_rec[k].x_m) == 0);
    ENSURE(e_rec.mean_pos_m > 1e-4);
    printf("twin from the noisy start: mean error %.3g m, the fitted twin %.3g m\n",
           e_rec.mean_pos_m, e_fit.mean_pos_m);
    free(s_rec);
    free(s_orig);
    ipx_scene_free(scene);
    cli_recording_free(&rec);
    cli_recording_free(&twin_rec);
    cli_recording_free(&twin_fit);
}

static int run(const char *args)
{
    cli_result r = cli_exec(program, scratch, "%s", args);
    cli_result_free(&r);
    return r.exit_status;
}

/* The program writes what toss_twin_write writes, under the recording's own name. */
static void test_program(void)
{
    char dir[1200], args[4096];
    snprintf(dir, sizeof dir, "%s/twins", scratch);
    mkdir(dir, 0777);
    snprintf(args, sizeof args, "%s --data %s --model %s --params %s --out %s --first fitted",
             world, toss_path, model, params, dir);
    ENSURE(run(args) == 0);
    cli_recording from_program = load("twins/toss.csv");
    cli_recording rec;
    char message[512], path[1200];
    ENSURE(cli_recording_load(toss_path, &rec, message, sizeof message) == 0);
    ENSURE(fit_start(&rec) >= 10);
    snprintf(path, sizeof path, "%s/twin_direct.csv", scratch);
    ipx_scene *scene = ipx_scene_load(world, NULL, NULL);
    ENSURE(scene != NULL && toss_twin_write(scene, model, params, &rec, 0, path) == 0);
    if (scene) ipx_scene_free(scene);
    cli_recording direct = load("twin_direct.csv");
    ENSURE(from_program.n == direct.n);
    for (int k = 0; k < direct.n && from_program.n == direct.n; k++)
        ENSURE(same_sample(&from_program.samples[k], &direct.samples[k]));
    cli_recording_free(&from_program);
    cli_recording_free(&direct);
    cli_recording_free(&rec);

    ENSURE(run("") == 2);
    snprintf(args, sizeof args, "%s --data %s --model %s --out %s --first noisy", world, toss_path,
             model, dir);
    ENSURE(run(args) == 2);
    snprintf(args, sizeof args, "%s --data %s --model %s --out %s --start recorded", world,
             toss_path, model, dir);
    ENSURE(run(args) == 2);
    snprintf(args, sizeof args, "%s --model %s --out %s", world, model, dir);
    ENSURE(run(args) == 2);
    snprintf(args, sizeof args, "%s --data %s/missing.csv --model %s --out %s", world, scratch,
             model, dir);
    ENSURE(run(args) == 1);
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: test_twin_tosses WORLDS_DIR SCRATCH_DIR TWIN_TOSSES|-\n");
        return 2;
    }
    snprintf(world, sizeof world, "%s/cube_toss.world", argv[1]);
    snprintf(scratch, sizeof scratch, "%s", argv[2]);
    program = strcmp(argv[3], "-") ? argv[3] : NULL;
    make_toss();
    RUN(test_twins);
    if (program) RUN(test_program);
    return ipx_test_exit();
}
