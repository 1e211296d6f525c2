#define _GNU_SOURCE /* getopt_long */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ab_plot.h"
#include "ab_report.h"
#include "cli.h"
#include "html_view.h"
#include "impax/ode.h"
#include "impax/registry.h"
#include "model_entry.h"
#include "outputs.h"

static const char help[] =
    "usage: impax ab WORLD [--models LIST] [--duration T] [--out FILE.csv]\n"
    "                [--plot FILE.png [--plot-body B,...] [--plot-quantity Q]]\n"
    "                [--html FILE.html [--html-fps N]]\n"
    "\n"
    "Runs the same world under each model, one after the other from the same initial state,\n"
    "and prints one table (models across, in blocks that fit 100 columns): the bodies'\n"
    "velocities right after the step of the first impact (the first step in which a contact\n"
    "approaches faster than the impact threshold, the same test for every model), the kinetic\n"
    "energy then, collisions, impax's impact events, fallbacks, the final state and wall time.\n"
    "\n"
    "  --models LIST  comma-separated entries NAME[:KEY=VALUE[:KEY=VALUE...]]: ode (ODE's own\n"
    "                 contact handling) or an impax model (`impax models` lists them), each\n"
    "                 with settings of its own, e.g. "
    "plus,plus:v_plastic=0.3,aplcp:newton_restitution=1\n"
    "                 (default: ode and every impax model). An entry's settings go on top of\n"
    "                 the world's <impax:params> when its model is the world's. The same entry\n"
    "                 twice (same model, same settings) is an error.\n"
    "  --duration T   simulated seconds (default: the world's <impax:duration>, else 2)\n"
    "  --out FILE     the table as CSV, one row per model\n"
    "  --all-rows     every velocity row of every body (default: those that differ)\n"
    "  --plot FILE    PNG of what distinguishes the models, one line per model (none without it)\n"
    "  --plot-body B  the bodies plotted, one panel each: a body (model::link), a link or a model\n"
    "                 name, comma-separated (default: the bodies of the world's plot body's\n"
    "                 model, at most 6: those whose curves differ most between the models)\n"
    "  --plot-quantity Q  x, y, z (m), vx, vy, vz (m/s, world frame), speed, height (along -g),\n"
    "                 or energy (the world's total, one panel) (default: the velocity component\n"
    "                 along the world's main motion: the axis its bodies' velocities change most)\n"
    "  --html FILE    a page that plays every model's run in a browser (offline, one file):\n"
    "                 the bodies in a colour per model (checkboxes), joints, the impacts' contact\n"
    "                 points and impulses, the energy against time; play, pause, speed, a time\n"
    "                 slider, frame steps, the camera orbits with the mouse (three.js, from\n"
    "                 Debian's libjs-three, inlined)\n"
    "  --html-fps N   frames a second the page stores (default 60)\n"
    "\n"
    "Every entry, and the plot's choices, are checked, and the output files too, before anything\n"
    "is simulated.\n"
    "\n"
    "Exit status: 0 ok, 1 world errors or a failed simulation, 2 bad usage or configuration\n"
    "(an output that cannot be written included). ODE's own messages are counted per entry and\n"
    "listed once at the end, each with the entry whose run printed it.\n"
    "\n"
    "example:\n"
    "  impax ab " CLI_WORLDS "/plus_ex3_newtons_cradle.world --models ode,plus,aplcp \\\n"
    "           --plot cradle.png --html cradle.html\n";

enum { MAX_MODELS = 16 };

typedef struct ab_options {
    char models[1024];
    const char *plot, *plot_body, *plot_quantity, *out, *html;
    double duration, html_fps;
    int all_rows;
} ab_options;

enum { OPT_PLOT_BODY = 256, OPT_PLOT_QUANTITY, OPT_HTML, OPT_HTML_FPS, OPT_ALL_ROWS };

static void default_models(char *buf, size_t size)
{
    size_t used = (size_t)snprintf(buf, size, "ode");
    for (int i = 0; i < ipx_model_count() && used < size; i++)
        used += (size_t)snprintf(buf + used, size - used, ",%s", ipx_model_at(i)->name);
}

/* 0, CLI_OK after --help (*done set), or CLI_USAGE. */
static int parse_options(int argc, char **argv, ab_options *o, int *done)
{
    static const struct option options[] = {
        {"models", required_argument, NULL, 'm'},
        {"duration", required_argument, NULL, 'd'},
        {"plot", required_argument, NULL, 'P'},
        {"out", required_argument, NULL, 'o'},
        {"plot-body", required_argument, NULL, OPT_PLOT_BODY},
        {"plot-quantity", required_argument, NULL, OPT_PLOT_QUANTITY},
        {"html", required_argument, NULL, OPT_HTML},
        {"html-fps", required_argument, NULL, OPT_HTML_FPS},
        {"all-rows", no_argument, NULL, OPT_ALL_ROWS},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}};
    memset(o, 0, sizeof *o);
    default_models(o->models, sizeof o->models);
    o->html_fps = HTML_VIEW_FPS;
    *done = 0;
    int c;
    while ((c = getopt_long(argc, argv, "m:d:P:o:h", options, NULL)) != -1) {
        switch (c) {
        case 'm': snprintf(o->models, sizeof o->models, "%s", optarg); break;
        case 'd':
            if (cli_parse_seconds(optarg, "--duration", &o->duration) != 0) return CLI_USAGE;
            break;
        case 'P': o->plot = optarg; break;
        case 'o': o->out = optarg; break;
        case OPT_PLOT_BODY: o->plot_body = optarg; break;
        case OPT_PLOT_QUANTITY: o->plot_quantity = optarg; break;
        case OPT_HTML: o->html = optarg; break;
        case OPT_ALL_ROWS: o->all_rows = 1; break;
        case OPT_HTML_FPS:
            if (html_view_parse_fps(optarg, &o->html_fps) != 0) return CLI_USAGE;
            break;
        case 'h':
            fputs(help, stdout);
            *done = 1;
            return CLI_OK;
        default: return cli_usage_error("ab", "unknown option");
        }
    }
    if (optind != argc - 1) return cli_usage_error("ab", "give exactly one world file");
    if (!o->html && o->html_fps != HTML_VIEW_FPS)
        return cli_usage_error("ab", "--html-fps sets the frames of --html FILE.html: give --html");
    if (!o->plot && (o->plot_body || o->plot_quantity))
        return cli_usage_error(
            "ab", "--plot-body and --plot-quantity choose what --plot FILE.png draws: give --plot");
    return CLI_OK;
}

/* Before anything runs: every entry configures a simulation, and the plot's choices name what
   the world has. 0, or CLI_USAGE after saying which entry or choice is wrong. */
static int preflight(const ipx_scene *scene, const ab_options *o, const cli_model_entry *e, int n,
                     ab_plot *plot)
{
    for (int m = 0; m < n; m++) {
        char params[1024], msg[512];
        const char *entry = cli_model_entry_params(scene, NULL, &e[m], params, sizeof params);
        ipx_sim *sim = ipx_sim_create(scene, e[m].model, entry, msg, sizeof msg);
        if (!sim) {
            fprintf(stderr, "impax ab: --models entry '%s': %s\n", e[m].label, msg);
            return CLI_USAGE;
        }
        int rc = 0;
        if (m == 0 && o->plot) {
            const int n_bodies = ipx_sim_body_count(sim);
            const char **names = calloc((size_t)(n_bodies > 0 ? n_bodies : 1), sizeof *names);
            for (int b = 0; names && b < n_bodies; b++) names[b] = ipx_sim_body_name(sim, b);
            rc = names ? ab_plot_prepare(plot, o->plot_body, o->plot_quantity, n_bodies, names, msg,
                                         sizeof msg)
                       : (snprintf(msg, sizeof msg, "out of memory"), -1);
            free(names);
        }
        ipx_sim_destroy(sim);
        if (rc != 0) {
            fprintf(stderr, "impax ab: %s\n", msg);
            return CLI_USAGE;
        }
    }
    return CLI_OK;
}

static int write_plot(const ab_options *o, const ab_plot *plot, int n, const char *const *labels,
                      const cli_run *runs, const cli_series *series)
{
    char msg[512];
    if (ab_plot_write(plot, o->plot, n, labels, series, (const char *const *)runs[0].body_name, msg,
                      sizeof msg) == 0)
        return 0;
    fprintf(stderr, "impax ab: %s\n", msg);
    return -1;
}

/* Runs every entry; the table, CSV and plot. */
static int run_all(const char *path, const ipx_scene *scene, const ab_options *o,
                   const cli_model_entry *e, int n, const ab_plot *plot)
{
    cli_run runs[MAX_MODELS];
    cli_series series[MAX_MODELS];
    cli_frames frames[MAX_MODELS];
    html_model views[MAX_MODELS];
    char params[MAX_MODELS][1024];
    const char *labels[MAX_MODELS];
    char progress[MAX_MODELS][128];
    memset(runs, 0, sizeof runs);
    memset(series, 0, sizeof series);
    memset(frames, 0, sizeof frames);
    int rc = CLI_OK;
    for (int m = 0; m < n && rc == CLI_OK; m++) {
        labels[m] = e[m].label;
        runs[m].model = e[m].model;
        runs[m].params = cli_model_entry_params(scene, NULL, &e[m], params[m], sizeof params[m]);
        runs[m].duration_s = o->duration > 0 ? o->duration : ipx_scene_duration(scene);
        runs[m].series = o->plot ? &series[m] : NULL;
        runs[m].frames = o->html ? &frames[m] : NULL;
        snprintf(progress[m], sizeof progress[m], "model %d of %d: %.64s", m + 1, n, e[m].label);
        runs[m].progress_label = progress[m];
        frames[m].fps = o->html_fps;
        views[m] = (html_model){e[m].label, &frames[m]};
        ipx_ode_label_messages(e[m].label); /* ODE's messages are reported per run */
        rc = cli_run_scene(scene, &runs[m]);
        if (rc != CLI_OK) fprintf(stderr, "impax ab: %s: %s\n", e[m].label, runs[m].error);
    }
    ipx_ode_label_messages(NULL);
    if (rc == CLI_OK) {
        ab_print_table(stdout, path, scene, n, labels, runs, o->all_rows);
        if (o->out && ab_write_csv(o->out, n, labels, runs) != 0) rc = CLI_FAILED;
        if (o->plot && write_plot(o, plot, n, labels, runs, series) != 0) rc = CLI_FAILED;
        if (o->html && html_view_write("ab", o->html, scene, n, views) != 0) rc = CLI_FAILED;
    }
    for (int m = 0; m < n; m++) {
        cli_run_free(&runs[m]);
        cli_series_free(&series[m]);
        cli_frames_free(&frames[m]);
    }
    return rc;
}

int cli_cmd_ab(int argc, char **argv)
{
    ab_options o;
    int done;
    int rc = parse_options(argc, argv, &o, &done);
    if (rc != CLI_OK || done) return rc;
    cli_model_entry entries[MAX_MODELS];
    int n = 0;
    if (cli_parse_model_entries("ab", "--models", o.models, entries, &n, MAX_MODELS) != 0)
        return CLI_USAGE;
    if ((o.plot && cli_check_output("ab", "--plot", o.plot) != 0) ||
        (o.out && cli_check_output("ab", "--out", o.out) != 0) ||
        (o.html && html_view_check("ab", o.html) != 0))
        return CLI_USAGE;
    const char *path = argv[optind];
    ipx_scene *scene = cli_load_scene(path);
    if (!scene) return CLI_FAILED;
    ab_plot plot;
    rc = preflight(scene, &o, entries, n, &plot);
    if (rc == CLI_OK) rc = run_all(path, scene, &o, entries, n, &plot);
    ipx_scene_free(scene);
    return rc;
}
