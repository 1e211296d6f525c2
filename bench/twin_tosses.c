/* twin_tosses: the twins of recorded trajectories, to measure what a replay's start alone costs
   (docs/validation.md "The start's share of the error").
     build/bench/twin_tosses WORLD --data PATH --model NAME [--params K=V,...] --out DIR
                             [--first recorded|fitted] [--start fit[:N]]
   For each recording in PATH (a CSV file or a directory of them) it writes DIR/<its name>: the
   world's replay body simulated under NAME with the parameters, from the recording's fitted start
   (plugin/replay/recording_start.h; fit:N takes at most N samples, default 20) and sampled at
   the recording's times. Its first row is the recording's first sample as recorded (the default)
   or the fitted start (--first fitted). `impax replay WORLD --data DIR --model NAME:...` then
   replays each twin from that row under the same model: the twin is the model's own motion, so
   its whole error comes from the first row, which is zero with --first fitted and the recorded
   start's noise with --first recorded. Exit 0, 1 (a recording or simulation failed) or 2 (usage). */
#include <stdio.h>
#include <string.h>

#include "recording_start.h"
#include "replay.h"
#include "toss_gen.h"

static int usage(const char *why)
{
    fprintf(stderr,
            "twin_tosses: %s\nusage: twin_tosses WORLD --data PATH --model NAME [--params "
            "K=V,...] --out DIR [--first recorded|fitted] [--start fit[:N]]\n",
            why);
    return 2;
}

int main(int argc, char **argv)
{
    const char *world = argc > 1 ? argv[1] : NULL, *data = NULL, *model = NULL, *params = "",
               *out = NULL;
    int first_recorded = 1, window = CLI_START_DEFAULT_SAMPLES;
    if (!world || world[0] == '-') return usage("the first argument is the world file");
    for (int i = 2; i < argc; i += 2) {
        const char *key = argv[i], *value = i + 1 < argc ? argv[i + 1] : NULL;
        if (!value) return usage("an option without its value");
        if (!strcmp(key, "--data")) data = value;
        else if (!strcmp(key, "--model")) model = value;
        else if (!strcmp(key, "--params")) params = value;
        else if (!strcmp(key, "--out")) out = value;
        else if (!strcmp(key, "--first") &&
                 (!strcmp(value, "recorded") || !strcmp(value, "fitted")))
            first_recorded = !strcmp(value, "recorded");
        else if (!strcmp(key, "--start") && cli_start_parse(value, &window) == 0 && window > 0)
            continue;
        else return usage("an unknown option or value (--start takes fit or fit:N)");
    }
    if (!data || !model || !out) return usage("--data, --model and --out are needed");

    ipx_scene *scene = toss_scene_load(world);
    if (!scene) return 1;
    cli_recording *recs = NULL;
    int n = 0, rc = 0;
    char message[512];
    if (cli_recordings_load(data, &recs, &n, message, sizeof message) != 0) {
        fprintf(stderr, "twin_tosses: %s\n", message);
        rc = 1;
    }
    cli_replay_fit_starts(scene, recs, n, window, message, sizeof message);
    if (rc == 0) fprintf(stderr, "twin_tosses: %s\n", message);
    for (int i = 0; i < n && rc == 0; i++) {
        const char *name = strrchr(recs[i].path, '/');
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", out, name ? name + 1 : recs[i].path);
        rc = toss_twin_write(scene, model, params, &recs[i], first_recorded, path) ? 1 : 0;
    }
    cli_recordings_free(recs, n);
    ipx_scene_free(scene);
    return rc;
}
