/// Runs one simulation of a scene under one model for a duration, with a progress bar, and
/// collects what `run` and `ab` report: the state right after the first impact, collisions,
/// energies, the deepest penetration, impax's counters, wall time, and (optionally) the series
/// to plot and the trace of impact events.
#ifndef IMPAX_CLI_RUNNER_H
#define IMPAX_CLI_RUNNER_H

#include <stdio.h>

#include "frames.h"
#include "series.h"
#include "world.h"

typedef struct cli_run {
    /* in */
    const char *model;  /* NULL: the scene's */
    const char *params; /* NULL: the scene's when the model is the scene's */
    double duration_s;
    FILE *csv;          /* per-step state, or NULL */
    FILE *trace;        /* one JSON object per impact event (trace.h), or NULL */
    cli_series *series; /* or NULL */
    cli_frames *frames; /* what an --html page plays, or NULL; frames->fps set by the caller */
    const char *progress_label; /* what the progress bar calls the run; NULL: the model's name */
    /* out */
    char model_used[32];
    int compliant; /* 1: the model acts through contact forces (its events are steps) */
    const char *restitution_flag; /* the flag an inelastic model's restitution waits for (the core's
                                     ipx_model.restitution_flag), NULL if the model applies it */
    int n_bodies;
    char **body_name;      /* n_bodies "model::link" names (malloc'd) */
    int first_impact_step; /* -1 if no step had an impact */
    double first_impact_t_s;
    int first_impact_fell_back; /* 1: ODE's own solver took (part of) the first impact's step */
    /* The state the A/B table compares, at compared_t_s: right after the first impact's step;
       for a compliant model, whose impact is forces over many steps, at the end of that contact
       (the start of the first step after it without contact force), or, if the contacts never
       came apart, at the first impact's step with mid_contact set. */
    double *first_velocity; /* 6 per body [vx vy vz wx wy wz] (malloc'd) */
    double ke_after_first_j;
    double compared_t_s;
    int mid_contact;
    long collisions; /* steps with an impact after a step without: the same test for every model */
    double energy_start_j, energy_end_j, ke_end_j;
    double impact_energy_change_j; /* sum over impax's events of ke_after - ke_before */
    double max_penetration_m;
    double final_height_m; /* of the plotted body (NaN if none) */
    double t_end_s;        /* simulated time reached, s */
    double wall_s;
    long steps;
    ipx_ode_stats stats;
    char error[512]; /* non-empty if the run stopped early */
} cli_run;

/// Creates a simulation of scene and runs it. 0 on success; 2 for a bad model or parameter, or a
/// duration of more steps than a long counts (message in run->error, nothing simulated); 1 if
/// the simulation failed mid-run.
int cli_run_scene(const ipx_scene *scene, cli_run *run);
void cli_run_free(cli_run *run);

/// Writes "LABEL: MODEL is inelastic unless FLAG=1: the surfaces' restitution (e up to E) was
/// ignored", the note a run of an inelastic model on bouncing contacts ends with (no "LABEL: "
/// when label is the model's name), into buf. Only for a run with stats.ignored_restitution > 0,
/// which the adapter counts for an inelastic model alone (restitution_flag set).
void cli_inelastic_note(char *buf, size_t size, const char *label, const cli_run *run);

/// The scene's plotted body; -1 if it has none.
int cli_plot_body(const ipx_scene *scene, const ipx_sim *sim);

#endif
