/// What `impax replay` reports: per (model, trajectory) errors, the summary per model, the CSV
/// and the plot.
#ifndef IMPAX_CLI_REPLAY_REPORT_H
#define IMPAX_CLI_REPLAY_REPORT_H

#include <stdio.h>

#include "model_entry.h"
#include "replay.h"

typedef struct replay_row { /* one trajectory under one model */
    cli_replay_error err;
    double wall_s;
    int failed; /* the simulation stopped: not in the means */
} replay_row;

typedef struct replay_set {
    const char *world;
    const char *body; /* the replayed "model::link" */
    int n_models, n_recs;
    const char *const *models;      /* the --model entries as given (labels) */
    const cli_model_entry *entries; /* their models and settings */
    const cli_recording *recs;
    replay_row *rows;             /* n_models x n_recs, model by model */
    int show;                     /* the trajectory plotted */
    cli_sample **shown;           /* per model: the simulated states at recs[show]'s sample times */
    struct replay_phases *phases; /* --phases or --time-plot: the per-phase sums, else NULL */
} replay_set;

/// The file name of path (what lines and the CSV call a trajectory).
const char *replay_name(const char *path);
/// Lines of what replay prints are at most this wide (a model's label or a trajectory's name
/// longer than fits widens its own table only).
enum { REPLAY_WIDTH = 80 };

/// One line of trajectory r under model m: trajectory, samples, errors (m and % of the length),
/// events, fallbacks, wall time; before a model's first, the model's label and the columns' heads,
/// and before the very first, the units.
void replay_print_row(FILE *f, const replay_set *set, int m, int r);
/// Per model: the means over its trajectories, total events, fallbacks and wall time.
void replay_print_summary(FILE *f, const replay_set *set);
/// One row per (model, trajectory). 0, or -1 after printing why.
int replay_write_csv(const char *path, const replay_set *set);
/// The shown trajectory's height and orientation error against time, and the distribution of
/// the per-trajectory mean position errors, one line per model. 0, or -1 after printing why.
int replay_write_plot(const char *path, const replay_set *set);

#endif
