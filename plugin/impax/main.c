/// impax: run SDF worlds with physically faithful impacts, compare models, sample outcome sets.
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "impax/ode.h"
#include "impax/registry.h"

static void print_help(FILE *out)
{
    char models[256];
    ipx_model_names(models, sizeof models);
    fprintf(out,
            "usage: impax COMMAND [options]\n"
            "\n"
            "  run   WORLD [--model M] [--params P] [--duration T] [--out FILE.csv]\n"
            "        simulate a world with one impact model; CSV of the states and a summary\n"
            "  ab    WORLD [--models ode,plus,...] [--duration T] [--plot FILE.png] [--out FILE.csv]\n"
            "        the same world under several models side by side: a table and plots\n"
            "  set   WORLD [--samples N] [--seed S] [--out FILE.csv] [--plot FILE.png]\n"
            "        the Routh set of possible outcomes of the world's first impact\n"
            "  fit   WORLD --data DIR --model M --fit mu,e,... [--folds K] [--out FILE]\n"
            "        identify contact parameters from recorded trajectories (cross-validated)\n"
            "  sweep SPEC [--jobs N] [--out FILE.jsonl] [--plot FILE.png]\n"
            "        a batch of runs (worlds x models x parameter grid x seeds) on all cores or\n"
            "        under mpirun: one JSON row per run, resumable\n"
            "  check WORLD...\n"
            "        load world files and report every problem as FILE:LINE: message\n"
            "  replay WORLD --data DIR|FILE... [--model M,...] [--params P] [--out FILE.csv]\n"
            "         [--plot FILE.png] [--show NAME] [--quiet]\n"
            "        replay recorded trajectories in a world: position and orientation errors\n"
            "\n"
            "models: ode (ODE's own contact handling, untouched), %s\n"
            "--verbose with any command prints ODE's own messages as they come; without it they\n"
            "are counted and listed once, per kind, at the end.\n"
            "`impax COMMAND --help` describes each command. Exit status: 0 success, 1 a world\n"
            "file has errors or a simulation failed, 2 bad usage or configuration.\n",
            models);
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
    static const struct {
        const char *name;
        int (*fn)(int, char **);
    } commands[] = {{"run", cli_cmd_run}, {"ab", cli_cmd_ab}, {"set", cli_cmd_set}, {"check", cli_cmd_check},
                  {"replay", cli_cmd_replay}, {"fit", cli_cmd_fit}, {"sweep", cli_cmd_sweep}};
    /* --verbose anywhere: ODE's own messages as they come; otherwise one summary at the end */
    int verbose = 0, kept = 1;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--verbose") == 0) verbose = 1;
        else argv[kept++] = argv[i];
    }
    argc = kept;
    ipx_ode_capture_messages(verbose);
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(cmd, commands[i].name) == 0) {
            const int rc = commands[i].fn(argc - 1, argv + 1);
            ipx_ode_report_messages(stderr, "impax: ");
            return rc;
        }
    fprintf(stderr, "impax: unknown command '%s' (accepted: run, ab, set, check, replay, fit, sweep)\n", cmd);
    return CLI_USAGE;
}
