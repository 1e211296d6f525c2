/* com_offset: where a tossed box's centre of mass sits in the frame its recordings track,
   measured from the recordings' free flights alone (tests/support/com_offset.h;
   docs/validation.md "The cube's centre of mass").
     build/bench/com_offset WORLD --data PATH [--folds K --seed S]
   WORLD gives the recorded body's box and the plane (its replay body, as `impax replay --phases`
   takes them) and the centre of mass it has (<inertial><pose>); PATH is a recording or a
   directory of them. Prints the estimate from every recording, from each half (even and odd
   recordings in name order), and with --folds from the recordings each of `impax fit`'s folds
   trains on (the same K and seed deal the same folds). Exit 0, 1 (a file or the world failed,
   or the flights leave the estimate undetermined) or 2 (usage). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "com_offset.h"
#include "fit_folds.h"
#include "phase_errors.h"
#include "replay.h"
#include "toss_gen.h"

static int usage(const char *why)
{
    fprintf(stderr, "com_offset: %s\nusage: com_offset WORLD --data PATH [--folds K --seed S]\n",
            why);
    return 2;
}

/* One line: the estimate from recs[which[0..n)], or why there is none. 0, or -1. */
static int report(const char *label, const cli_recording *recs, const int *which, int n,
                  const cli_phase_box *box)
{
    const com_limits limits = com_default_limits();
    com_estimate e;
    if (com_measure(recs, which, n, box, &limits, &e) != 0) {
        printf("%-28s no estimate: the flights leave it undetermined\n", label);
        return -1;
    }
    printf("%-28s %8.2f %8.2f %8.2f   %7.4f   %4d %5d   %.4f\n", label, 1e3 * e.com_m[0],
           1e3 * e.com_m[1], 1e3 * e.com_m[2], e.g_mps2, e.recordings, e.samples, 1e3 * e.rms_m);
    return 0;
}

/* Parses "--folds K --seed S" from argv[4..argc); 0, or -1. */
static int parse_folds(int argc, char **argv, int *folds, unsigned long *seed)
{
    for (int i = 4; i < argc; i += 2) {
        char *end;
        const long v = i + 1 < argc ? strtol(argv[i + 1], &end, 10) : -1;
        if (i + 1 >= argc || *end != '\0' || v < 0) return -1;
        if (strcmp(argv[i], "--folds") == 0 && v >= 2 && v <= 20) *folds = (int)v;
        else if (strcmp(argv[i], "--seed") == 0) *seed = (unsigned long)v;
        else return -1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    int folds = 0;
    unsigned long seed = 1;
    if (argc < 4 || strcmp(argv[2], "--data") != 0 || parse_folds(argc, argv, &folds, &seed) != 0)
        return usage("WORLD --data PATH [--folds K (2 to 20) --seed S] is needed");
    ipx_scene *scene = toss_scene_load(argv[1]);
    if (!scene) return 1;
    char message[512];
    cli_phase_box box;
    cli_recording *recs = NULL;
    int n = 0, rc = 0;
    if (cli_phase_box_of_scene(scene, &box, message, sizeof message) != 0 ||
        cli_recordings_load(argv[3], &recs, &n, message, sizeof message) != 0) {
        fprintf(stderr, "com_offset: %s\n", message);
        ipx_scene_free(scene);
        return 1;
    }
    const cli_body_frame world = cli_replay_frame(scene);
    printf("the world's centre of mass (mm): %.2f %.2f %.2f\n", 1e3 * world.com_m[0],
           1e3 * world.com_m[1], 1e3 * world.com_m[2]);
    printf("%-28s %8s %8s %8s   %7s   %4s %5s   %s\n", "measured from", "x (mm)", "y (mm)",
           "z (mm)", "g", "recs", "samps", "rms (mm)");
    int *which = malloc(sizeof *which * (size_t)(n > 0 ? n : 1));
    int *fold_of = malloc(sizeof *fold_of * (size_t)(n > 0 ? n : 1));
    int *test = malloc(sizeof *test * (size_t)(n > 0 ? n : 1));
    if (!which || !fold_of || !test) {
        fprintf(stderr, "com_offset: out of memory\n");
        rc = 1;
    }
    if (rc == 0 && report("all recordings", recs, NULL, n, &box) != 0) rc = 1;
    for (int half = 0; half < 2 && rc == 0; half++) {
        int m = 0;
        for (int i = half; i < n; i += 2) which[m++] = i;
        report(half ? "odd recordings" : "even recordings", recs, which, m, &box);
    }
    if (rc == 0 && folds > 0) cli_fit_folds(n, folds, seed, fold_of);
    for (int f = 0; rc == 0 && f < folds; f++) {
        int m = 0, n_test = 0;
        cli_fit_fold_split(fold_of, n, f, which, &m, test, &n_test);
        char label[64];
        snprintf(label, sizeof label, "fold %d's training (seed %lu)", f + 1, seed);
        report(label, recs, which, m, &box);
    }
    free(which);
    free(fold_of);
    free(test);
    cli_recordings_free(recs, n);
    ipx_scene_free(scene);
    return rc;
}
