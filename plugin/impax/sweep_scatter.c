/* The outcome scatter of a sweep (PLplot, cairo PNG): each model in its colour (model_colours.h),
   each world in a glyph of its own; and the series' legend labels, which sweep_plot.c's lines use
   too. */
#include "sweep_scatter.h"

#include <math.h>
#include <plplot.h>
#include <stdio.h>
#include <stdlib.h>

#include "model_colours.h"
#include "sweep_jobs.h"

enum { MAX_SERIES = 16 };

/* Series s takes cmap0 entry FIRST_COLOUR + s, set to its model's colour. */
enum { FIRST_COLOUR = 16 };
/* A glyph per world: filled circle, square, triangle, diamond. */
static const char *const glyph[] = {"#(728)", "#(725)", "#(726)", "#(727)"};

/* [lo, hi] of the finite values, widened by 5 %; a zero-width range becomes one of width
   2 |v| (or 2 if v = 0), so PLplot never gets an empty axis. 0 if nothing is finite. */
static int axis_range(const double *v, int n, double *lo, double *hi)
{
    int any = 0;
    for (int i = 0; i < n; i++)
        if (isfinite(v[i])) {
            *lo = any ? fmin(*lo, v[i]) : v[i];
            *hi = any ? fmax(*hi, v[i]) : v[i];
            any = 1;
        }
    if (!any) return 0;
    const double width = *hi > *lo ? *hi - *lo : (*lo != 0 ? 20 * fabs(*lo) : 20);
    *lo -= 0.05 * width;
    *hi += 0.05 * width;
    return 1;
}

void sweep_series_label(const sweep_spec *spec, int series, char *label, size_t size)
{
    const sweep_model *m = &spec->model[series % spec->n_models];
    const char *world = spec->world[series / spec->n_models].name;
    snprintf(label, size, "%s%s%s%s%s", spec->n_worlds > 1 ? world : "",
             spec->n_worlds > 1 ? ": " : "", m->name, m->params[0] ? " " : "", m->params);
}

static void draw(const sweep_spec *spec, int n_series, const double *x, const double *y,
                 const int *series, int n, const double range[4], const char *x_name,
                 const char *y_label)
{
    plsdev("pngcairo");
    plsetopt("geometry", "1000x700");
    plscolbg(255, 255, 255);
    plscol0(15, 0, 0, 0);
    plscmap0n(FIRST_COLOUR + MAX_SERIES);
    plinit();
    for (int s = 0; s < n_series; s++) {
        unsigned char c[3];
        model_colour(spec->model[s % spec->n_models].name, c);
        plscol0(FIRST_COLOUR + s, c[0], c[1], c[2]);
    }
    plcol0(15);
    plenv(range[0], range[1], range[2], range[3], 0, 2);
    pllab(x_name, y_label, "Outcomes of the sweep's jobs");
    PLINT opt[MAX_SERIES], colours[MAX_SERIES], numbers[MAX_SERIES];
    PLFLT scales[MAX_SERIES];
    const char *symbols[MAX_SERIES], *texts[MAX_SERIES];
    char labels[MAX_SERIES][160];
    for (int s = 0; s < n_series; s++) {
        const char *mark = glyph[(s / spec->n_models) % 4];
        plcol0(FIRST_COLOUR + s);
        for (int i = 0; i < n; i++)
            if (series[i] == s && isfinite(x[i]) && isfinite(y[i])) plstring(1, &x[i], &y[i], mark);
        sweep_series_label(spec, s, labels[s], sizeof labels[s]);
        opt[s] = PL_LEGEND_SYMBOL;
        colours[s] = FIRST_COLOUR + s;
        numbers[s] = 1;
        scales[s] = 1.0;
        symbols[s] = mark;
        texts[s] = labels[s];
    }
    PLFLT width, height;
    pllegend(&width, &height, PL_LEGEND_BACKGROUND | PL_LEGEND_BOUNDING_BOX,
             PL_POSITION_RIGHT | PL_POSITION_TOP, 0.02, 0.02, 0.1, 0, 15, 1, 0, 0, n_series, opt,
             1.0, 1.0, 2.0, 1.0, colours, (const char *const *)texts, NULL, NULL, NULL, NULL, NULL,
             NULL, NULL, colours, scales, numbers, (const char *const *)symbols);
    plend();
}

int sweep_scatter(const sweep_spec *spec, int n_cols, const char *x_name, const char *y_name,
                  const double *v, const char *png, char *message, size_t message_size)
{
    const int n = (int)sweep_job_count(spec), n_series = spec->n_worlds * spec->n_models;
    double *x = malloc(((size_t)n + 1) * sizeof *x), *y = malloc(((size_t)n + 1) * sizeof *y);
    int *series = malloc(((size_t)n + 1) * sizeof *series), rc = -1;
    double range[4];
    if (!x || !y || !series) snprintf(message, message_size, "out of memory for the plot");
    for (int j = 0; x && y && series && j < n; j++) {
        sweep_job job;
        sweep_job_decode(spec, j, &job);
        series[j] = job.world * spec->n_models + job.model;
        x[j] = y_name ? v[(size_t)j * n_cols] : (double)spec->seed[job.seed];
        y[j] = v[(size_t)j * n_cols + (y_name ? 1 : 0)];
    }
    FILE *f = NULL;
    if (!x || !y || !series) {
    } else if (n_series > MAX_SERIES) {
        snprintf(message, message_size, "the scatter shows at most %d world x model series, not %d",
                 MAX_SERIES, n_series);
    } else if (!axis_range(x, n, &range[0], &range[1]) || !axis_range(y, n, &range[2], &range[3])) {
        snprintf(message, message_size, "no job has numbers to plot for %s%s%s", x_name,
                 y_name ? " and " : "", y_name ? y_name : "");
    } else if (!(f = fopen(png,
                           "wb"))) { /* PLplot exits the process when it cannot open its output */
        snprintf(message, message_size, "cannot write the plot '%s'", png);
    } else {
        fclose(f);
        plsfnam(png);
        draw(spec, n_series, x, y, series, n, range, y_name ? x_name : "seed",
             y_name ? y_name : x_name);
        rc = 0;
    }
    free(x);
    free(y);
    free(series);
    return rc;
}
