/// `impax replay --phases` and `--time-plot`: every recording's samples classified into the
/// phases of a toss (phases.h), the errors of each model's replays summed per phase and per bin
/// of time since the recording's first touch, the table and the figure.
#ifndef IMPAX_CLI_REPLAY_PHASES_H
#define IMPAX_CLI_REPLAY_PHASES_H

#include <stdio.h>

#include "phase_errors.h"

#include "replay_report.h"

typedef struct replay_phases {
    cli_phase_limits limits;
    cli_phase_box box;
    int n_recs, n_models, touching; /* recordings that touch the plane */
    unsigned char **of_rec;         /* per recording: its samples' phases */
    int *first_touch;               /* per recording: the first sample in contact, -1 if none */
    cli_phase_error *err;           /* n_models x CLI_PHASE_COUNT */
    double bin_s, start_s; /* bin i holds times since the first touch from start_s + i bin_s */
    int n_bins;
    double *bin_pos_m, *bin_ori_deg; /* n_models x n_bins: sums over the bin's samples */
    long *bin_samples, *bin_recs;    /* n_models x n_bins: samples, recordings with one there */
    cli_sample *scratch;             /* one replay's simulated states (the longest recording's n) */
} replay_phases;

/// Classifies recs with scene's box and plane. 0, or -1 after printing why.
int replay_phases_start(replay_phases *p, const ipx_scene *scene, const cli_recording *recs,
                        int n_recs, int n_models);
void replay_phases_free(replay_phases *p);
/// Adds the replay of recording r (rec) under model m to the sums: sim holds its simulated
/// states, compared of them after the first (cli_replay_error.samples).
void replay_phases_add(replay_phases *p, const cli_recording *rec, int m, int r,
                       const cli_sample *sim, int compared);
/// Per model: per phase the samples, mean position error (m, % of the length), mean orientation
/// error and the phase's share of the mean final error.
void replay_phases_print(FILE *f, const replay_set *set, const replay_phases *p);
/// PNG: per model, the mean position and orientation errors against time since the first touch.
/// 0, or -1 after printing why.
int replay_write_time_plot(const char *path, const replay_set *set, const replay_phases *p);

#endif
