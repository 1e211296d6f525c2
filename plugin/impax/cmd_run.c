#define _GNU_SOURCE /* getopt_long */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "runner.h"

static const char help[] =
    "usage: impax run WORLD [--model M] [--params P] [--duration T] [--out FILE.csv]\n"
    "\n"
    "Simulates WORLD with one impact model and prints a summary: impact events, fallbacks to\n"
    "ODE's own solver, energy at the start and the end and the change made by the impacts,\n"
    "the deepest penetration, wall time.\n"
    "\n"
    "  --model M      ode (ODE's own contact handling) or an impax model; default: the\n"
    "                 world's <impax:impact><impax:model>, else plus\n"
    "  --params P     model parameters key=value,... on top of the model's defaults\n"
    "                 (default: the world's <impax:params> when the model is the world's)\n"
    "  --duration T   simulated seconds (default: the world's <impax:duration>, else 2)\n"
    "  --out FILE     CSV, one row per step: t_s, per body position (m), orientation\n"
    "                 quaternion (w x y z), linear (m/s) and angular (rad/s) velocity, energy_J\n"
    "\n"
    "Exit status: 0 ok, 1 world errors or a failed simulation, 2 bad usage or configuration.\n";

static void print_summary(const char *path, const cli_run *r)
{
    printf("world %s, model %s, %.3f s simulated in %ld steps\n", path, r->model_used, r->t_end_s,
           r->steps);
    printf("  impact events     %ld (%ld contacts), fallbacks to ODE %ld%s%s\n", r->stats.impact_events,
           r->stats.impact_contacts, r->stats.fallbacks, r->stats.fallbacks ? ": last: " : "",
           r->stats.fallbacks ? r->stats.last_message : "");
    if (r->first_impact_step >= 0) printf("  first impact      t = %.6f s\n", r->first_impact_t_s);
    else printf("  first impact      none\n");
    printf("  energy            %.9g J at the start, %.9g J at the end (%+.3g J)\n", r->energy_start_j,
           r->energy_end_j, r->energy_end_j - r->energy_start_j);
    printf("  impacts changed   %+.9g J of kinetic energy\n", r->impact_energy_change_j);
    printf("  deepest contact   %.3g m\n", r->max_penetration_m);
    printf("  wall time         %.3f s (%.3f s in impax)\n", r->wall_s, r->stats.seconds);
}

int cli_cmd_run(int argc, char **argv)
{
    static const struct option options[] = {
        {"model", required_argument, NULL, 'm'},    {"params", required_argument, NULL, 'p'},
        {"duration", required_argument, NULL, 'd'}, {"out", required_argument, NULL, 'o'},
        {"help", no_argument, NULL, 'h'},           {NULL, 0, NULL, 0}};
    cli_run run;
    memset(&run, 0, sizeof run);
    const char *out_path = NULL;
    double duration = 0;
    int c;
    while ((c = getopt_long(argc, argv, "m:p:d:o:h", options, NULL)) != -1) {
        switch (c) {
        case 'm': run.model = optarg; break;
        case 'p': run.params = optarg; break;
        case 'd':
            if (cli_parse_seconds(optarg, "--duration", &duration) != 0) return CLI_USAGE;
            break;
        case 'o': out_path = optarg; break;
        case 'h': fputs(help, stdout); return CLI_OK;
        default: return cli_usage_error("run", "unknown option");
        }
    }
    if (optind != argc - 1) return cli_usage_error("run", "give exactly one world file");
    const char *path = argv[optind];
    ipx_scene *scene = cli_load_scene(path);
    if (!scene) return CLI_FAILED;
    run.duration_s = duration > 0 ? duration : ipx_scene_duration(scene);
    if (out_path && !(run.csv = fopen(out_path, "w"))) {
        fprintf(stderr, "impax run: cannot write '%s'\n", out_path);
        ipx_scene_free(scene);
        return CLI_FAILED;
    }
    int rc = cli_run_scene(scene, &run);
    if (run.csv && fclose(run.csv) != 0 && rc == 0) {
        fprintf(stderr, "impax run: error writing '%s'\n", out_path);
        rc = CLI_FAILED;
    }
    if (rc == CLI_USAGE) {
        fprintf(stderr, "impax run: %s\n", run.error);
    } else {
        print_summary(path, &run);
        if (run.error[0]) fprintf(stderr, "impax run: simulation stopped: %s\n", run.error);
    }
    cli_run_free(&run);
    ipx_scene_free(scene);
    return rc;
}
