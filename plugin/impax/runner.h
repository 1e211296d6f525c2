/// Runs one simulation of a scene under one model for a duration, with a progress bar, and
/// collects what `run` and `ab` report: the state right after the first impact, energies, the
/// deepest penetration, impax's counters, wall time, and (optionally) time series to plot.
#ifndef IMPAX_CLI_RUNNER_H
#define IMPAX_CLI_RUNNER_H

#include <stdio.h>

#include "world.h"

typedef struct cli_series {
    int n, capacity;
    double *t_s;      /* time, s */
    double *energy_j; /* total energy (kinetic + gravitational), J */
    double *height_m; /* height of the plotted body along -g, m */
} cli_series;

typedef struct cli_run {
    /* in */
    const char *model;       /* NULL: the scene's */
    const char *params;      /* NULL: the scene's when the model is the scene's */
    double duration_s;
    FILE *csv;               /* per-step state, or NULL */
    cli_series *series;      /* or NULL */
    /* out */
    char model_used[32];
    int n_bodies;
    char **body_name;        /* n_bodies "model::link" names (malloc'd) */
    int first_impact_step;   /* -1 if no step had an impact */
    double first_impact_t_s;
    double *first_velocity;  /* 6 per body [vx vy vz wx wy wz] after the first impact step (malloc'd) */
    double ke_after_first_j;
    double energy_start_j, energy_end_j, ke_end_j;
    double impact_energy_change_j; /* sum over impax's events of ke_after - ke_before */
    double max_penetration_m;
    double final_height_m;   /* of the plotted body (NaN if none) */
    double t_end_s;          /* simulated time reached, s */
    double wall_s;
    long steps;
    ipx_ode_stats stats;
    char error[512];         /* non-empty if the run stopped early */
} cli_run;

/// Creates a simulation of scene and runs it. 0 on success; 2 for a bad model or parameter
/// (message in run->error, nothing simulated); 1 if the simulation failed mid-run.
int cli_run_scene(const ipx_scene *scene, cli_run *run);
void cli_run_free(cli_run *run);
void cli_series_free(cli_series *s);

/// The scene's plotted body and its height along -g ("up"); -1 if it has none.
int cli_plot_body(const ipx_scene *scene, const ipx_sim *sim);

#endif
