#define _GNU_SOURCE /* getopt_long */
#include <getopt.h>
#include <stdio.h>

#include "cli.h"

static const char help[] =
    "usage: impax check WORLD...\n"
    "\n"
    "Loads each world file as `run` would and reports every problem as FILE:LINE: message\n"
    "(warnings for elements impax ignores, such as light, gui or plugins, do not fail it), then\n"
    "builds its simulation (model, parameters, bodies, joints) as `run` does, without stepping.\n"
    "Prints FILE: ok for a good file. Exit status 0 when every file loads, 1 otherwise.\n"
    "\n"
    "example:\n"
    "  impax check " CLI_WORLDS "/routh_rocking_block.world " CLI_WORLDS "/box_bin.world\n";

/* The simulation `run` would make with the world's own model and params, made and dropped. */
static int builds(const char *path, const ipx_scene *scene)
{
    char message[512];
    ipx_sim *sim = ipx_sim_create(scene, NULL, NULL, message, sizeof message);
    if (!sim) fprintf(stderr, "%s: %s\n", path, message);
    ipx_sim_destroy(sim);
    return sim != NULL;
}

int cli_cmd_check(int argc, char **argv)
{
    static const struct option options[] = {{"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
    int c;
    while ((c = getopt_long(argc, argv, "h", options, NULL)) != -1) {
        if (c == 'h') {
            fputs(help, stdout);
            return CLI_OK;
        }
        return cli_usage_error("check", "unknown option");
    }
    if (optind >= argc) return cli_usage_error("check", "no world file given");
    int bad = 0;
    for (int i = optind; i < argc; i++) {
        ipx_scene *scene = cli_load_scene(argv[i]);
        if (!scene || !builds(argv[i], scene)) {
            bad++;
            ipx_scene_free(scene);
            continue;
        }
        printf("%s: ok (world '%s', step %g s)\n", argv[i], ipx_scene_name(scene),
               ipx_scene_step_size(scene));
        ipx_scene_free(scene);
    }
    if (bad) fprintf(stderr, "impax check: %d of %d file(s) have errors\n", bad, argc - optind);
    return bad ? CLI_FAILED : CLI_OK;
}
