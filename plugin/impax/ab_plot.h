/// `impax ab`'s plot: what distinguishes the models. By default, of all the world's bodies the
/// AB_PLOT_DEFAULT_BODIES whose curves differ most between the models (the most different
/// first), one panel each of its velocity along the world's main motion (the axis along which
/// the bodies' velocities change most), one line per model in its colour (model_colours.h); a
/// model's line that lies on another's is marked and named so in the legend (plot.h).
/// --plot-body and --plot-quantity choose.
#ifndef IMPAX_CLI_AB_PLOT_H
#define IMPAX_CLI_AB_PLOT_H

#include <stddef.h>

#include "series.h"

enum { AB_PLOT_DEFAULT_BODIES = 6, AB_PLOT_MAX_PANELS = 12 };

/// What can be plotted: position and velocity components (world frame), speed, height (along
/// -g) of each chosen body, or the world's total energy (one panel).
typedef enum ab_quantity {
    AB_X,
    AB_Y,
    AB_Z,
    AB_VX,
    AB_VY,
    AB_VZ,
    AB_SPEED,
    AB_HEIGHT,
    AB_ENERGY,
    AB_N_QUANTITIES
} ab_quantity;

typedef struct ab_plot {
    int quantity;        /* an ab_quantity, or -1: the velocity along the main motion */
    int explicit_bodies; /* 1: --plot-body chose them (all are drawn) */
    int n_bodies;        /* candidates, indices into the simulation's bodies */
    int body[256];
    char group[128]; /* what the default candidates are ("the world's 5 bodies") */
} ab_plot;

/// Reads --plot-body (NULL: the default) and --plot-quantity (NULL: the default) against the
/// bodies of the world (names, in simulation order). A
/// --plot-body item is a body's full name ("model::link"), its link name, or a model name (all
/// its bodies). 0, or -1 with a message naming the bad item and the accepted ones.
int ab_plot_prepare(ab_plot *p, const char *bodies, const char *quantity, int n_names,
                    const char *const *names, char *message, size_t message_size);

/// Writes the PNG: n_models series (one per model, labelled), names as in ab_plot_prepare.
/// Prints "plot: PATH (...)". 0, or -1 with a message.
int ab_plot_write(const ab_plot *p, const char *path, int n_models, const char *const *labels,
                  const cli_series *series, const char *const *names, char *message,
                  size_t message_size);

#endif
