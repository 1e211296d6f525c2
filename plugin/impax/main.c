/// impax: run SDF worlds with physically faithful impacts, compare models, sample outcome sets.
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "impax/ode.h"
#include "impax/registry.h"
#include "progress.h"

#ifndef IMPAX_VERSION
#error "IMPAX_VERSION (the CMake project's version) must be defined"
#endif

static void print_help(FILE *out)
{
    char models[256];
    ipx_model_names(models, sizeof models);
    fprintf(
        out,
        "usage: impax COMMAND [options]     impax --version\n"
        "\n"
        "  run   WORLD [--model M] [--params P] [--duration T] [--out FILE.csv] [--trace FILE]\n"
        "        [--html FILE.html]\n"
        "        simulate a world with one impact model; CSV of the states, trace of the impacts\n"
        "  ab    WORLD [--models M[:KEY=VALUE...],...] [--duration T] [--out FILE.csv]\n"
        "        [--plot FILE.png [--plot-body B] [--plot-quantity Q]] [--html FILE.html]\n"
        "        the same world under several models or settings side by side: a table, a plot\n"
        "  set   WORLD [--samples N] [--seed S] [--params P] [--out FILE.csv] [--plot FILE.png]\n"
        "        the Routh set of possible outcomes of the world's first impact\n"
        "  fit   WORLD --data DIR --model M --fit mu,e,... [--folds K] [--out FILE]\n"
        "        identify contact parameters from recorded trajectories (cross-validated)\n"
        "  sweep SPEC [--jobs N] [--out FILE.jsonl] [--plot FILE.png]\n"
        "        a batch of runs (worlds x models x parameter grid x seeds) on all cores or\n"
        "        under mpirun: one JSON row per run, resumable\n"
        "  check WORLD...\n"
        "        load world files and report every problem as FILE:LINE: message\n"
        "  replay WORLD --data DIR|FILE... [--model M,...] [--params P] [--out FILE.csv]\n"
        "         [--plot FILE.png] [--show NAME] [--html FILE.html] [--quiet]\n"
        "        replay recorded trajectories in a world: position and orientation errors\n"
        "  models [NAME...]\n"
        "        every model: what it is for, its parameters with defaults, ranges and units\n"
        "\n"
        "--html FILE.html (run, ab, replay) writes a page that plays the runs in a browser.\n"
        "models: ode (ODE's own contact handling, untouched), %s\n"
        "With any command: --verbose prints ODE's own messages as they come (without it they are\n"
        "counted and listed once, per kind, at the end); --quiet draws no progress bar and leaves\n"
        "that list out (replay and fit: less output of their own too).\n"
        "`impax COMMAND --help` describes each command, with an example. Messages start with\n"
        "\"impax COMMAND:\". Exit status: 0 success, 1 a world file has errors or a simulation\n"
        "failed, 2 bad usage or configuration (an output file that cannot be written included).\n"
        "\n"
        "The example worlds are installed in %s.\n"
        "example:\n"
        "  impax ab %s/routh_rocking_block.world --html block.html\n",
        models, CLI_WORLDS, CLI_WORLDS);
}

static const struct {
    const char *name;
    int (*fn)(int, char **);
    int owns_quiet; /* has a --quiet of its own: it gets the flag too */
} commands[] = {{"run", cli_cmd_run, 0},       {"ab", cli_cmd_ab, 0},
                {"set", cli_cmd_set, 0},       {"check", cli_cmd_check, 0},
                {"replay", cli_cmd_replay, 1}, {"fit", cli_cmd_fit, 1},
                {"models", cli_cmd_models, 0}, {"sweep", cli_cmd_sweep, 0}};

/* Takes --verbose and --quiet out of argv (keeping --quiet for a command that owns it). */
static int global_options(int argc, char **argv, int owns_quiet, int *verbose, int *quiet)
{
    int kept = 1;
    *verbose = *quiet = 0;
    for (int i = 1; i < argc; i++) {
        const int is_quiet = strcmp(argv[i], "--quiet") == 0;
        if (strcmp(argv[i], "--verbose") == 0) *verbose = 1;
        else if (is_quiet) *quiet = 1;
        if ((strcmp(argv[i], "--verbose") != 0 && !is_quiet) || (is_quiet && owns_quiet))
            argv[kept++] = argv[i];
    }
    return kept;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        print_help(stderr);
        return CLI_USAGE;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
        print_help(stdout);
        return CLI_OK;
    }
    if (strcmp(cmd, "--version") == 0) {
        printf("impax %s\n", IMPAX_VERSION);
        return CLI_OK;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(cmd, commands[i].name) == 0) {
            int verbose, quiet;
            argc = global_options(argc, argv, commands[i].owns_quiet, &verbose, &quiet);
            cli_progress_set_quiet(quiet);
            cli_set_command(cmd);
            ipx_ode_capture_messages(verbose);
            const int rc = commands[i].fn(argc - 1, argv + 1);
            char prefix[32];
            snprintf(prefix, sizeof prefix, "impax %s: ", cmd);
            if (!quiet) ipx_ode_report_messages(stderr, prefix);
            return rc;
        }
    fprintf(stderr,
            "impax: unknown command '%s' (accepted: run, ab, set, check, replay, fit, sweep, "
            "models; --version)\n",
            cmd);
    return CLI_USAGE;
}
