/* `impax sweep --plot`: the rows read back into a table (job x recorded column), then lines
   against the one varying grid key, or the outcome scatter (sweep_scatter.c). */
#include "sweep_plot.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plot.h"
#include "sweep_jobs.h"
#include "sweep_scatter.h"

enum { MAX_PANELS = 16 };

typedef struct table {
    int n_cols;
    char (*name)[SWEEP_NAME + 8];
    double *v; /* jobs x n_cols, NaN where no row or no number */
} table;

/* wall_s: the row's last field, outside "values". */
static double row_wall_s(const char *row, size_t len)
{
    static const char key[] = "\"wall_s\":";
    for (size_t i = len; i-- > 0;)
        if (i + sizeof key - 1 <= len && memcmp(row + i, key, sizeof key - 1) == 0)
            return strtod(row + i + sizeof key - 1, NULL);
    return NAN;
}

static void fill_row(void *ctx, int job, const char *row, size_t len)
{
    table *t = ctx;
    for (int c = 0; c < t->n_cols; c++)
        t->v[(size_t)job * t->n_cols + c] = strcmp(t->name[c], "wall_s") == 0
                                                ? row_wall_s(row, len)
                                                : sweep_row_value(row, len, t->name[c]);
}

static int read_table(const sweep_spec *spec, const sweep_index *index, const char *path, table *t,
                      char *message, size_t message_size)
{
    t->n_cols = 0;
    for (int r = 0; r < spec->n_records; r++)
        t->n_cols +=
            spec->record[r].what == SWEEP_WALL_S ? 1 : sweep_record_columns(&spec->record[r]);
    t->name = calloc((size_t)t->n_cols + 1, sizeof *t->name);
    t->v = malloc(((size_t)index->n * t->n_cols + 1) * sizeof *t->v);
    if (!t->name || !t->v) {
        snprintf(message, message_size, "out of memory for the plot");
        return -1;
    }
    for (size_t i = 0; i < (size_t)index->n * t->n_cols; i++) t->v[i] = NAN;
    int c = 0;
    for (int r = 0; r < spec->n_records; r++) {
        const sweep_record *rec = &spec->record[r];
        if (rec->what == SWEEP_WALL_S) snprintf(t->name[c++], sizeof t->name[0], "wall_s");
        for (int k = 0; k < sweep_record_columns(rec); k++)
            sweep_record_column(rec, k, t->name[c++], sizeof t->name[0]);
    }
    int other;
    long partial_at;
    return sweep_rows_read(path, index, fill_row, t, &other, &partial_at, message, message_size);
}

/* The only grid key with more than one value, or -1. */
static int varying_axis(const sweep_spec *spec)
{
    int found = -1;
    for (int a = 0; a < spec->n_axes; a++)
        if (spec->axis[a].n > 1) {
            if (found >= 0) return -1;
            found = a;
        }
    return found;
}

/* Panels of each column against axis a: per series (world x model) the mean over the jobs at
   each of the axis's values. */
static int plot_lines(const sweep_spec *spec, const table *t, int a, const char *png, char *message,
                      size_t message_size)
{
    const int n_series = spec->n_worlds * spec->n_models, n_x = spec->axis[a].n,
              n_jobs = (int)sweep_job_count(spec);
    double *sum = calloc((size_t)n_series * n_x * t->n_cols + 1, sizeof *sum);
    int *count = calloc((size_t)n_series * n_x * t->n_cols + 1, sizeof *count);
    char(*label)[160] = calloc((size_t)n_series, sizeof *label);
    cli_line *lines = calloc((size_t)n_series * t->n_cols + 1, sizeof *lines);
    cli_panel panels[MAX_PANELS];
    char titles[MAX_PANELS][SWEEP_NAME + 96];
    int n_panels = 0, rc = -1;
    if (sum && count && label && lines) {
        for (int j = 0; j < n_jobs; j++) {
            sweep_job job;
            sweep_job_decode(spec, j, &job);
            const size_t at =
                ((size_t)(job.world * spec->n_models + job.model) * n_x + job.grid[a]) * t->n_cols;
            for (int c = 0; c < t->n_cols; c++) {
                const double v = t->v[(size_t)j * t->n_cols + c];
                if (isfinite(v)) {
                    sum[at + c] += v;
                    count[at + c]++;
                }
            }
        }
        for (int s = 0; s < n_series; s++) sweep_series_label(spec, s, label[s], sizeof label[s]);
        double *mean = malloc((size_t)n_series * n_x * t->n_cols * sizeof *mean);
        for (size_t i = 0; mean && i < (size_t)n_series * n_x * t->n_cols; i++)
            mean[i] = count[i] ? sum[i] / count[i] : NAN;
        /* one panel per column that has a number somewhere; its values strided by n_cols */
        double *y = mean ? malloc((size_t)n_series * n_x * t->n_cols * sizeof *y) : NULL;
        for (int c = 0; y && c < t->n_cols && n_panels < MAX_PANELS; c++) {
            int any = 0;
            for (int s = 0; s < n_series; s++)
                for (int i = 0; i < n_x; i++) {
                    y[((size_t)c * n_series + s) * n_x + i] =
                        mean[((size_t)s * n_x + i) * t->n_cols + c];
                    any |= isfinite(mean[((size_t)s * n_x + i) * t->n_cols + c]);
                }
            if (!any) continue;
            for (int s = 0; s < n_series; s++)
                lines[c * n_series + s] = (cli_line){label[s], n_x, spec->axis[a].value,
                                                     &y[((size_t)c * n_series + s) * n_x],
                                                     spec->model[s % spec->n_models].name};
            snprintf(titles[n_panels], sizeof titles[0], "%s against %s%s", t->name[c],
                     spec->axis[a].key, spec->n_seeds > 1 ? " (mean over the seeds)" : "");
            panels[n_panels] = (cli_panel){titles[n_panels], spec->axis[a].key, t->name[c],
                                           n_series, &lines[c * n_series]};
            n_panels++;
        }
        if (y && n_panels == 0)
            snprintf(message, message_size, "no recorded value has a number to plot");
        else if (y) rc = cli_plot_panels(png, n_panels, panels, message, message_size);
        else snprintf(message, message_size, "out of memory for the plot");
        free(y);
        free(mean);
    } else {
        snprintf(message, message_size, "out of memory for the plot");
    }
    free(sum);
    free(count);
    free(label);
    free(lines);
    return rc;
}

int sweep_plot(const sweep_spec *spec, const sweep_index *index, const char *rows_path,
               const char *png, char *message, size_t message_size)
{
    table t = {0};
    int rc = read_table(spec, index, rows_path, &t, message, message_size);
    if (rc == 0 && t.n_cols == 0) {
        snprintf(message, message_size, "nothing recorded to plot");
        rc = -1;
    }
    const int a = varying_axis(spec);
    if (rc == 0)
        rc = a >= 0 ? plot_lines(spec, &t, a, png, message, message_size)
                    : sweep_scatter(spec, t.n_cols, t.name[0], t.n_cols > 1 ? t.name[1] : NULL, t.v,
                                    png, message, message_size);
    free(t.name);
    free(t.v);
    return rc;
}
