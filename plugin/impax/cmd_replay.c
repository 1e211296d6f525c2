#define _GNU_SOURCE /* getopt_long */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "html_view.h"
#include "model_entry.h"
#include "outputs.h"
#include "progress.h"
#include "recording_start.h"
#include "replay_html.h"
#include "replay_phases.h"
#include "replay_report.h"

static const char help[] =
    "usage: impax replay WORLD --data DIR|FILE... [--model M[,M...]] [--params P] [--out "
    "FILE.csv]\n"
    "                    [--plot FILE.png] [--show NAME] [--html FILE.html [--html-fps N]] "
    "[--quiet]\n"
    "                    [--phases] [--time-plot FILE.png] [--start recorded|fit[:N]]\n"
    "\n"
    "Replays recorded trajectories in WORLD: for each recording a fresh simulation starts the\n"
    "world's replay body (<impax:replay><impax:body>, else its first moving link) at the first\n"
    "sample's state (or a fit of it: --start) and is compared with the recording at every later\n"
    "sample time. Prints per trajectory and per model the mean and final position error (m and\n"
    "% of the world's <impax:replay><impax:length>), the mean orientation error (deg), impact\n"
    "events, fallbacks to ODE's own solver and wall time.\n"
    "\n"
    "  --data PATH    a recording (CSV: t,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz in SI units,\n"
    "                 angular velocity in the body frame; docs/command.md) or a directory of\n"
    "                 them (every *.csv, by name); repeat it, or list more paths after WORLD\n"
    "  --model LIST   comma-separated: ode (ODE's own contact handling) and impax models, each\n"
    "                 replaying every trajectory (default: the world's <impax:model>, else plus);\n"
    "                 an entry NAME:KEY=VALUE[:KEY=VALUE...] has settings of its own on top of\n"
    "                 --params, e.g. ode:mu=0.17:e=0.33,plus:mu=0.18:e=0.38 (impax fit's output)\n"
    "  --params P     key=value,... for every listed model; mu, e, bounce_vel, rolling and\n"
    "                 spinning set every contact surface, inertia_scale scales the replay\n"
    "                 body's inertia\n"
    "                 (default: the world's <impax:params> for its own model)\n"
    "  --out FILE     CSV, one row per (model, trajectory)\n"
    "  --plot FILE    PNG: the shown trajectory's recorded and simulated height and orientation\n"
    "                 error against time, and the distribution of the trajectories' mean\n"
    "                 position errors, one line per model\n"
    "  --show NAME    the trajectory to plot (file name, with or without .csv; default: the "
    "first)\n"
    "  --html FILE    a page that plays the shown trajectory in a browser (offline, one file):\n"
    "                 the recording (\"recorded\") and each model's simulation of it, one colour\n"
    "                 each, with the energy against time (see impax ab --help)\n"
    "  --html-fps N   frames a second the page stores (default 60)\n"
    "  --quiet        no line per trajectory, only the summary\n"
    "  --phases       per model and phase of a toss (flight, first impact, later impacts,\n"
    "                 airborne, sliding/rolling, rest; classified from the recordings alone, with\n"
    "                 the replay body's box and the world's plane: docs/command.md) the samples,\n"
    "                 the mean position and orientation errors and the phase's part of the\n"
    "                 final error\n"
    "  --time-plot FILE  PNG: per model, the mean position and orientation errors against time\n"
    "                 since each recording's first touch\n"
    "  --start S      the state a replay starts from: recorded (default: the first sample as\n"
    "                 recorded) or fit[:N] (a fit of free flight, constant gravity and angular\n"
    "                 velocity, to the first N samples, default 20, or as many of them as lie\n"
    "                 within 1 mm and 0.5 deg of it: smooths capture noise and a velocity\n"
    "                 recorded as a backward difference; docs/command.md)\n"
    "\n"
    "Bad data (a missing column, a non-finite number, a quaternion that is not unit, fewer than\n"
    "two samples, time not increasing) is reported as FILE:LINE: message before anything runs.\n"
    "Exit status: 0 ok, 1 bad world or data, or a failed simulation, 2 bad usage or\n"
    "configuration (an output that cannot be written included).\n"
    "\n"
    "example, with recordings of a tossed cube in the directory tosses:\n"
    "  impax replay " CLI_WORLDS
    "/cube_toss.world --data tosses --model ode,plus --plot tosses.png\n";

enum { MAX_MODELS = 16 };

typedef struct options {
    const char *world, *params, *out, *plot, *show, *html, *time_plot;
    double html_fps;
    char models[512];
    int quiet, phases;
    int start_samples; /* --start: 0 recorded, else fit to at most this many samples */
    const char **data; /* paths */
    int n_data;
} options;

static int parse_options(int argc, char **argv, options *o)
{
    static const struct option longs[] = {
        {"data", required_argument, NULL, 'D'},   {"model", required_argument, NULL, 'm'},
        {"params", required_argument, NULL, 'p'}, {"out", required_argument, NULL, 'o'},
        {"plot", required_argument, NULL, 'P'},   {"show", required_argument, NULL, 's'},
        {"quiet", no_argument, NULL, 'q'},        {"help", no_argument, NULL, 'h'},
        {"html", required_argument, NULL, 'H'},   {"html-fps", required_argument, NULL, 'F'},
        {"phases", no_argument, NULL, 'A'},       {"time-plot", required_argument, NULL, 'T'},
        {"start", required_argument, NULL, 'S'},  {NULL, 0, NULL, 0}};
    int c;
    while ((c = getopt_long(argc, argv, "D:m:p:o:P:s:qh", longs, NULL)) != -1) {
        switch (c) {
        case 'D': o->data[o->n_data++] = optarg; break;
        case 'm': snprintf(o->models, sizeof o->models, "%s", optarg); break;
        case 'p': o->params = optarg; break;
        case 'o': o->out = optarg; break;
        case 'P': o->plot = optarg; break;
        case 's': o->show = optarg; break;
        case 'q': o->quiet = 1; break;
        case 'A': o->phases = 1; break;
        case 'T': o->time_plot = optarg; break;
        case 'S':
            if (cli_start_parse(optarg, &o->start_samples) != 0)
                return cli_usage_error("replay", "--start takes " CLI_START_VALUES);
            break;
        case 'H': o->html = optarg; break;
        case 'F':
            if (html_view_parse_fps(optarg, &o->html_fps) != 0) return CLI_USAGE;
            break;
        case 'h': fputs(help, stdout); return -1; /* done */
        default: return cli_usage_error("replay", "unknown option");
        }
    }
    if (optind >= argc) return cli_usage_error("replay", "give a world file");
    o->world = argv[optind];
    for (int i = optind + 1; i < argc; i++) o->data[o->n_data++] = argv[i];
    if (o->n_data == 0) return cli_usage_error("replay", "give recordings with --data");
    /* every output is checked before anything runs, as ab and run do */
    if ((o->out && cli_check_output("replay", "--out", o->out) != 0) ||
        (o->plot && cli_check_output("replay", "--plot", o->plot) != 0) ||
        (o->time_plot && cli_check_output("replay", "--time-plot", o->time_plot) != 0) ||
        (o->html && html_view_check("replay", o->html) != 0))
        return CLI_USAGE;
    return 0;
}

/* The recording NAME names: its path, its file name, or that without ".csv"; -1 if none. */
static int find_shown(const cli_recording *recs, int n, const char *name)
{
    if (!name) return 0;
    for (int r = 0; r < n; r++) {
        const char *file = replay_name(recs[r].path);
        const size_t len = strlen(name);
        if (strcmp(recs[r].path, name) == 0 || strcmp(file, name) == 0 ||
            (strncmp(file, name, len) == 0 && strcmp(file + len, ".csv") == 0))
            return r;
    }
    return -1;
}

/* Every recording under model m: CLI_OK, CLI_FAILED if a simulation failed, CLI_USAGE for a bad
   model or parameter (the first replay says so, before anything is simulated). */
static int replay_model(const ipx_scene *scene, const options *o, replay_set *set, int m)
{
    int rc = CLI_OK;
    char merged[1024];
    const char *params =
        cli_model_entry_params(scene, o->params, &set->entries[m], merged, sizeof merged);
    cli_progress bar;
    cli_progress_start(&bar, set->models[m], set->n_recs);
    bar.unit = "trajectories";
    for (int r = 0; r < set->n_recs; r++) {
        replay_row *row = &set->rows[m * set->n_recs + r];
        char msg[512];
        const double start = cli_wall_seconds();
        cli_sample *states = r == set->show ? set->shown[m]
                             : set->phases  ? set->phases->scratch
                                            : NULL;
        const int st = cli_replay(scene, set->entries[m].model, params, &set->recs[r], &row->err,
                                  states, msg, sizeof msg);
        row->wall_s = cli_wall_seconds() - start;
        if (st == 2) {
            cli_progress_finish(&bar);
            fprintf(stderr, "impax replay: model %s: %s\n", set->models[m], msg);
            return CLI_USAGE;
        }
        if (st != 0) {
            row->failed = 1;
            rc = CLI_FAILED;
            fprintf(stderr, "impax replay: model %s: %s\n", set->models[m], msg);
        } else if (set->phases)
            replay_phases_add(set->phases, &set->recs[r], m, r, states, row->err.samples);
        if (!o->quiet) replay_print_row(stdout, set, m, r);
        cli_progress_update(&bar, r + 1);
    }
    cli_progress_finish(&bar);
    return rc;
}

static int replay_all(const ipx_scene *scene, const options *o, replay_set *set)
{
    int rc = CLI_OK;
    for (int m = 0; m < set->n_models && rc != CLI_USAGE; m++) {
        const int st = replay_model(scene, o, set, m);
        if (st != CLI_OK) rc = st;
    }
    if (rc == CLI_USAGE) return rc;
    replay_print_summary(stdout, set);
    if (o->phases) replay_phases_print(stdout, set, set->phases);
    if (o->out && replay_write_csv(o->out, set) != 0) rc = CLI_FAILED;
    if (o->plot && replay_write_plot(o->plot, set) != 0) rc = CLI_FAILED;
    if (o->time_plot && replay_write_time_plot(o->time_plot, set, set->phases) != 0)
        rc = CLI_FAILED;
    if (o->html && replay_write_html(o->html, scene, set, o->html_fps) != 0) rc = CLI_FAILED;
    return rc;
}

/* Loads the recordings and runs them under every model. */
static int run(const ipx_scene *scene, const options *o, const cli_model_entry *entries,
               const char **models, int n_models)
{
    cli_recording *recs = NULL;
    int n_recs = 0, rc = CLI_OK;
    char msg[1024];
    for (int i = 0; i < o->n_data && rc == CLI_OK; i++)
        if (cli_recordings_load(o->data[i], &recs, &n_recs, msg, sizeof msg) != 0) {
            fprintf(stderr, "%s\n", msg);
            rc = CLI_FAILED;
        }
    if (rc == CLI_OK && o->start_samples > 0) {
        cli_replay_fit_starts(scene, recs, n_recs, o->start_samples, msg, sizeof msg);
        if (!o->quiet) fprintf(stderr, "impax replay: %s\n", msg);
    }
    const int show = rc == CLI_OK ? find_shown(recs, n_recs, o->show) : 0;
    if (rc == CLI_OK && show < 0) {
        fprintf(stderr, "impax replay: --show '%s' names none of the recordings\n", o->show);
        rc = CLI_USAGE;
    }
    replay_set set = {o->world, ipx_scene_replay_body(scene),
                      n_models, n_recs,
                      models,   entries,
                      recs,     calloc((size_t)n_recs * (size_t)n_models, sizeof(replay_row)),
                      show,     calloc((size_t)n_models, sizeof(cli_sample *)),
                      NULL};
    int ok = set.rows && set.shown;
    for (int m = 0; ok && rc == CLI_OK && m < n_models; m++)
        ok = (set.shown[m] = calloc((size_t)recs[show].n, sizeof(cli_sample))) != NULL;
    if (rc == CLI_OK && !ok) {
        fprintf(stderr, "impax replay: out of memory\n");
        rc = CLI_FAILED;
    }
    replay_phases phases = {0};
    if (rc == CLI_OK && (o->phases || o->time_plot)) {
        if (replay_phases_start(&phases, scene, recs, n_recs, n_models) != 0) rc = CLI_FAILED;
        set.phases = &phases;
    }
    if (rc == CLI_OK) rc = replay_all(scene, o, &set);
    replay_phases_free(&phases);
    for (int m = 0; set.shown && m < n_models; m++) free(set.shown[m]);
    free(set.shown);
    free(set.rows);
    cli_recordings_free(recs, n_recs);
    return rc;
}

int cli_cmd_replay(int argc, char **argv)
{
    options o = {0};
    o.html_fps = HTML_VIEW_FPS;
    o.data = calloc((size_t)argc + 1, sizeof *o.data);
    if (!o.data) return CLI_FAILED;
    int rc = parse_options(argc, argv, &o);
    if (rc != 0) {
        free(o.data);
        return rc < 0 ? CLI_OK : rc;
    }
    ipx_scene *scene = cli_load_scene(o.world);
    if (!scene) {
        free(o.data);
        return CLI_FAILED;
    }
    if (!o.models[0])
        snprintf(o.models, sizeof o.models, "%s",
                 ipx_scene_model(scene) ? ipx_scene_model(scene) : "plus");
    cli_model_entry entries[MAX_MODELS];
    const char *labels[MAX_MODELS];
    int n_models = 0;
    rc = cli_parse_model_entries("replay", "--model", o.models, entries, &n_models, MAX_MODELS) != 0
             ? CLI_USAGE
             : 0;
    for (int m = 0; rc == 0 && m < n_models; m++) labels[m] = entries[m].label;
    if (rc == 0) rc = run(scene, &o, entries, labels, n_models);
    ipx_scene_free(scene);
    free(o.data);
    return rc;
}
