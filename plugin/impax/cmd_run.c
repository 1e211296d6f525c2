#define _GNU_SOURCE /* getopt_long */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "html_view.h"
#include "numfmt.h"
#include "outputs.h"
#include "runner.h"
#include "text_table.h"

static const char help[] =
    "usage: impax run WORLD [--model M] [--params P] [--duration T] [--out FILE.csv] [--trace "
    "FILE]\n"
    "                 [--html FILE.html [--html-fps N]]\n"
    "\n"
    "Simulates WORLD with one impact model and prints a summary: collisions, impact events\n"
    "(and those with limits_hit set: a limit or a fallback inside the model), fallbacks to\n"
    "ODE's own solver, energy at the start and the end and the change made by the impacts, the\n"
    "deepest penetration, wall time.\n"
    "\n"
    "  --model M      ode (ODE's own contact handling) or an impax model (impax models lists\n"
    "                 them); default: the world's <impax:impact><impax:model>, else plus\n"
    "  --params P     model parameters key=value,... on top of the model's defaults\n"
    "                 (default: the world's <impax:params> when the model is the world's)\n"
    "  --duration T   simulated seconds (default: the world's <impax:duration>, else 2)\n"
    "  --out FILE     CSV, one row per step: t_s, per body position (m), orientation\n"
    "                 quaternion (w x y z), linear (m/s) and angular (rad/s) velocity, energy_J\n"
    "  --trace FILE   JSON Lines, one object per impact event: step, time (s, the start of the\n"
    "                 event's step), world (0), model, contacts, status, ke_before, ke_after,\n"
    "                 delta_stored, work_other (J), energy_frame, vn_before, vn_after (m/s),\n"
    "                 impulse\n"
    "                 ([t1, t2, n] per contact, N s) and the model's counters (the shim's\n"
    "                 IMPAX_TRACE format)\n"
    "  --html FILE    a page that plays the run in a browser (offline, one file): the bodies,\n"
    "                 joints, the impacts' contact points and impulses, the energy against time\n"
    "                 (see impax ab --help); also of a run that failed, up to the failure\n"
    "  --html-fps N   frames a second the page stores (default 60)\n"
    "\n"
    "Collisions: steps in which a contact starts approaching faster than the impact threshold\n"
    "(the same test for every model, ode included). Impact events: the impacts impax solved\n"
    "(none under ode; under gonthier, whose contacts are forces, the steps with contact forces).\n"
    "\n"
    "Exit status: 0 ok, 1 world errors or a failed simulation, 2 bad usage or configuration\n"
    "(an output that cannot be written included: every one is checked before the run).\n"
    "\n"
    "example:\n"
    "  impax run " CLI_WORLDS "/plus_ex3_newtons_cradle.world --model plus --out cradle.csv\n";

/* Lines of the summary are at most this wide; longer ones (a fallback's message, a note) wrap. */
enum { RUN_WIDTH = 100 };

static void print_events(const cli_run *r)
{
    if (strcmp(r->model_used, "ode") == 0) {
        printf("  impact events     none: ODE's own contact handling\n");
        return;
    }
    char text[1024];
    const int col = printf("  %-17s ", r->compliant ? "contact-force steps" : "impact events");
    snprintf(text, sizeof text,
             "%ld (%ld contacts), limits_hit set on %ld, fallbacks to ODE %ld%s%s",
             r->stats.impact_events, r->stats.impact_contacts, r->stats.limits_hit_events,
             r->stats.fallbacks, r->stats.fallbacks ? ": last: " : "",
             r->stats.fallbacks ? r->stats.last_message : "");
    cli_print_wrapped(stdout, col, text, "      ", RUN_WIDTH);
}

/* One precision per quantity: times in s to 4 decimals (the ab table's), energies in J to 4. */
static void print_summary(const char *path, const cli_run *r)
{
    char text[1024];
    snprintf(text, sizeof text, "world %s, model %s, %.4f s simulated in %ld steps", path,
             r->model_used, r->t_end_s, r->steps);
    cli_print_wrapped(stdout, 0, text, "  ", RUN_WIDTH);
    printf("  collisions        %ld\n", r->collisions);
    print_events(r);
    if (r->first_impact_step >= 0) printf("  first impact      t = %.4f s\n", r->first_impact_t_s);
    else printf("  first impact      none\n");
    char change[32], impacts[32];
    printf("  energy            %.4f J at the start, %.4f J at the end (%s J)\n", r->energy_start_j,
           r->energy_end_j,
           cli_num(change, sizeof change, "%+.4f", r->energy_end_j - r->energy_start_j));
    printf("  impacts changed   %s J of kinetic energy\n",
           cli_num(impacts, sizeof impacts, "%+.4f", r->impact_energy_change_j));
    printf("  deepest contact   %.3g m\n", r->max_penetration_m);
    printf("  wall time         %.3f s (%.3f s in impax)\n", r->wall_s, r->stats.seconds);
    if (r->stats.ignored_restitution > 0) {
        char note[256];
        cli_inelastic_note(note, sizeof note, r->model_used, r);
        snprintf(text, sizeof text, "note: %s", note);
        cli_print_wrapped(stdout, 0, text, "  ", RUN_WIDTH);
    }
}

/* Opens path for writing into *f (NULL path: nothing to open). 0, or -1 after saying why. */
static int open_output(const char *option, const char *path, FILE **f)
{
    *f = NULL;
    if (!path) return 0;
    if (!(*f = fopen(path, "w"))) {
        fprintf(stderr, "impax run: cannot write %s '%s'\n", option, path);
        return -1;
    }
    return 0;
}

/* Closes f; -1 after saying so if its last writes failed. */
static int close_output(const char *path, FILE *f)
{
    if (!f || fclose(f) == 0) return 0;
    fprintf(stderr, "impax run: error writing '%s'\n", path);
    return -1;
}

int cli_cmd_run(int argc, char **argv)
{
    static const struct option options[] = {{"model", required_argument, NULL, 'm'},
                                            {"params", required_argument, NULL, 'p'},
                                            {"duration", required_argument, NULL, 'd'},
                                            {"out", required_argument, NULL, 'o'},
                                            {"trace", required_argument, NULL, 't'},
                                            {"help", no_argument, NULL, 'h'},
                                            {"html", required_argument, NULL, 'H'},
                                            {"html-fps", required_argument, NULL, 'F'},
                                            {NULL, 0, NULL, 0}};
    cli_run run;
    memset(&run, 0, sizeof run);
    const char *out_path = NULL, *trace_path = NULL, *html_path = NULL;
    double duration = 0;
    cli_frames frames = {.fps = HTML_VIEW_FPS};
    int c;
    while ((c = getopt_long(argc, argv, "m:p:d:o:t:h", options, NULL)) != -1) {
        switch (c) {
        case 'm': run.model = optarg; break;
        case 'p': run.params = optarg; break;
        case 'd':
            if (cli_parse_seconds(optarg, "--duration", &duration) != 0) return CLI_USAGE;
            break;
        case 'o': out_path = optarg; break;
        case 't': trace_path = optarg; break;
        case 'H': html_path = optarg; break;
        case 'F':
            if (html_view_parse_fps(optarg, &frames.fps) != 0) return CLI_USAGE;
            break;
        case 'h': fputs(help, stdout); return CLI_OK;
        default: return cli_usage_error("run", "unknown option");
        }
    }
    if (optind != argc - 1) return cli_usage_error("run", "give exactly one world file");
    if ((out_path && cli_check_output("run", "--out", out_path) != 0) ||
        (trace_path && cli_check_output("run", "--trace", trace_path) != 0) ||
        (html_path && html_view_check("run", html_path) != 0))
        return CLI_USAGE;
    const char *path = argv[optind];
    ipx_scene *scene = cli_load_scene(path);
    if (!scene) return CLI_FAILED;
    run.duration_s = duration > 0 ? duration : ipx_scene_duration(scene);
    run.frames = html_path ? &frames : NULL;
    int rc = CLI_FAILED;
    if (open_output("--out", out_path, &run.csv) == 0 &&
        open_output("--trace", trace_path, &run.trace) == 0)
        rc = cli_run_scene(scene, &run);
    if ((close_output(out_path, run.csv) | close_output(trace_path, run.trace)) != 0 &&
        rc == CLI_OK)
        rc = CLI_FAILED;
    if (rc == CLI_USAGE) {
        fprintf(stderr, "impax run: %s\n", run.error);
    } else if (run.model_used[0]) {
        print_summary(path, &run);
        if (run.error[0]) fprintf(stderr, "impax run: simulation stopped: %s\n", run.error);
    }
    const html_model view = {run.model_used, &frames};
    /* a run that failed mid-way is worth watching up to the failure */
    if (rc != CLI_USAGE && html_path && frames.n > 0 &&
        html_view_write("run", html_path, scene, 1, &view) != 0)
        rc = CLI_FAILED;
    cli_run_free(&run);
    cli_frames_free(&frames);
    ipx_scene_free(scene);
    return rc;
}
