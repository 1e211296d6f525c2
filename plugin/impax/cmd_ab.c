#define _GNU_SOURCE /* getopt_long */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ab_report.h"
#include "cli.h"
#include "impax/registry.h"
#include "plot.h"

static const char help[] =
    "usage: impax ab WORLD [--models ode,plus,...] [--duration T] [--plot FILE.png] [--out FILE.csv]\n"
    "\n"
    "Runs the same world under each model, one after the other from the same initial state,\n"
    "and prints one table: per model the bodies' velocities right after the step of the first\n"
    "impact (the first step in which a contact approaches faster than the impact threshold, the\n"
    "same test for every model), the kinetic energy then, the final state, impact events,\n"
    "fallbacks and wall time.\n"
    "\n"
    "  --models LIST  comma-separated: ode (ODE's own contact handling) and impax models\n"
    "                 (default: ode and every impax model)\n"
    "  --duration T   simulated seconds (default: the world's <impax:duration>, else 2)\n"
    "  --plot FILE    PNG: energy and the height of the world's plot body against time, one\n"
    "                 line per model (default: WORLDNAME_ab.png)\n"
    "  --out FILE     the table as CSV, one row per model\n"
    "\n"
    "Exit status: 0 ok, 1 world errors or a failed simulation, 2 bad usage or configuration.\n";

enum { MAX_MODELS = 16 };

static void default_models(char *buf, size_t size)
{
    size_t used = (size_t)snprintf(buf, size, "ode");
    for (int i = 0; i < ipx_model_count() && used < size; i++)
        used += (size_t)snprintf(buf + used, size - used, ",%s", ipx_model_at(i)->name);
}

static int write_plot(const char *path, const ipx_scene *scene, int n, const cli_run *runs,
                      const cli_series *series)
{
    cli_line energy[MAX_MODELS], height[MAX_MODELS];
    for (int m = 0; m < n; m++) {
        energy[m] = (cli_line){runs[m].model_used, series[m].n, series[m].t_s, series[m].energy_j};
        height[m] = (cli_line){runs[m].model_used, series[m].n, series[m].t_s, series[m].height_m};
    }
    char height_title[160];
    snprintf(height_title, sizeof height_title, "height of %s",
             ipx_scene_plot_body(scene) ? ipx_scene_plot_body(scene) : "(no body)");
    cli_panel panels[2] = {{"total energy (kinetic + gravitational)", "t (s)", "E (J)", n, energy},
                           {height_title, "t (s)", "height (m)", n, height}};
    char msg[256];
    int n_panels = ipx_scene_plot_body(scene) ? 2 : 1;
    if (cli_plot_panels(path, n_panels, panels, msg, sizeof msg) != 0) {
        fprintf(stderr, "impax ab: %s\n", msg);
        return -1;
    }
    printf("plot: %s\n", path);
    return 0;
}

int cli_cmd_ab(int argc, char **argv)
{
    static const struct option options[] = {
        {"models", required_argument, NULL, 'm'}, {"duration", required_argument, NULL, 'd'},
        {"plot", required_argument, NULL, 'P'},   {"out", required_argument, NULL, 'o'},
        {"help", no_argument, NULL, 'h'},         {NULL, 0, NULL, 0}};
    char model_list[512];
    default_models(model_list, sizeof model_list);
    const char *plot_path = NULL, *out_path = NULL;
    double duration = 0;
    int c;
    while ((c = getopt_long(argc, argv, "m:d:P:o:h", options, NULL)) != -1) {
        switch (c) {
        case 'm': snprintf(model_list, sizeof model_list, "%s", optarg); break;
        case 'd':
            if (cli_parse_seconds(optarg, "--duration", &duration) != 0) return CLI_USAGE;
            break;
        case 'P': plot_path = optarg; break;
        case 'o': out_path = optarg; break;
        case 'h': fputs(help, stdout); return CLI_OK;
        default: return cli_usage_error("ab", "unknown option");
        }
    }
    if (optind != argc - 1) return cli_usage_error("ab", "give exactly one world file");
    const char *names[MAX_MODELS];
    int n = 0;
    if (cli_parse_models("ab", "--models", model_list, names, &n, MAX_MODELS) != 0) return CLI_USAGE;
    const char *path = argv[optind];
    ipx_scene *scene = cli_load_scene(path);
    if (!scene) return CLI_FAILED;

    cli_run runs[MAX_MODELS];
    cli_series series[MAX_MODELS];
    memset(runs, 0, sizeof runs);
    memset(series, 0, sizeof series);
    int rc = CLI_OK;
    for (int m = 0; m < n && rc == CLI_OK; m++) {
        runs[m].model = names[m];
        runs[m].duration_s = duration > 0 ? duration : ipx_scene_duration(scene);
        runs[m].series = &series[m];
        rc = cli_run_scene(scene, &runs[m]);
        if (rc != CLI_OK) fprintf(stderr, "impax ab: model %s: %s\n", names[m], runs[m].error);
    }
    if (rc == CLI_OK) {
        ab_print_table(stdout, path, scene, n, runs);
        if (out_path && ab_write_csv(out_path, n, runs) != 0) rc = CLI_FAILED;
        char default_plot[300];
        snprintf(default_plot, sizeof default_plot, "%s_ab.png", ipx_scene_name(scene));
        if (write_plot(plot_path ? plot_path : default_plot, scene, n, runs, series) != 0) rc = CLI_FAILED;
    }
    for (int m = 0; m < n; m++) {
        cli_run_free(&runs[m]);
        cli_series_free(&series[m]);
    }
    ipx_scene_free(scene);
    return rc;
}
