/// PNG plots through PLplot (Debian libplplot-dev, cairo driver): line charts with one line per
/// series, and point clouds. A line's colour is its model's (model_colours.h); lines that lie on
/// an earlier line of their panel get markers and a legend entry saying so.
#ifndef IMPAX_CLI_PLOT_H
#define IMPAX_CLI_PLOT_H

#include <stddef.h>

typedef struct cli_line {
    const char *name; /* legend entry */
    int n;
    const double *x, *y;
    const char *model; /* the label whose model colour the line takes; NULL: its name */
} cli_line;

typedef struct cli_panel {
    const char *title, *x_label, *y_label;
    int n_lines;
    const cli_line *lines;
} cli_panel;

/// Lines closer than this fraction of their panel's y span everywhere lie on each other at the
/// plots' size (a few tenths of a pixel in a 300-pixel-high panel).
#define CLI_PLOT_COINCIDE 1e-3

/// The index of the first of the panel's lines before line l that line l lies on (the same
/// samples' x, y within CLI_PLOT_COINCIDE of the panel's y span), or -1.
int cli_plot_coincides(const cli_panel *p, int l);

/// Writes n_panels panels into one PNG at path, stacked vertically (in two columns from four
/// panels on). 0, or -1 with a message (the file cannot be written, or there is nothing finite
/// to plot). Every axis comes from cli_axis_range (axis.h).
int cli_plot_panels(const char *path, int n_panels, const cli_panel *panels, char *message,
                    size_t message_size);

/// A point cloud (one panel, points not joined).
int cli_plot_points(const char *path, const char *title, const char *x_label, const char *y_label,
                    int n, const double *x, const double *y, char *message, size_t message_size);

#endif
