/* `impax ab`'s velocity rows: which rows and bodies differ between the models, in what order, and
   the count of the rest (ab_rows.h). Rows are compared as printed, so "equal" means equal to the
   table's precision. */
#include "ab_rows.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "numfmt.h"

enum { ROWS = 6 };

static const char *const labels[ROWS] = {"  v_x (m/s)",   "  v_y (m/s)",   "  v_z (m/s)",
                                         "  w_x (rad/s)", "  w_y (rad/s)", "  w_z (rad/s)"};

/* One body's rows: which differ, and by how much at most. */
typedef struct body_rows {
    int body;
    unsigned differ; /* bit q: row q's values are not the same for every model */
    double spread;   /* the largest max - min of a row over the models, m/s or rad/s */
} body_rows;

static int has_value(const cli_run *r, int b)
{
    return r->first_impact_step >= 0 && b < r->n_bodies;
}

/* Row q of body b: the cells as printed (NULL: no value, printed "-"); 1 if they differ. */
static int row_cells(int b, int q, int n, const cli_run *runs, char text[][AB_CELL],
                     const char **cells, double *spread)
{
    int differ = 0;
    double lo = INFINITY, hi = -INFINITY;
    for (int m = 0; m < n; m++) {
        const cli_run *r = &runs[m];
        cells[m] = NULL;
        if (has_value(r, b)) {
            const double v = r->first_velocity[6 * b + q];
            cells[m] = cli_num(text[m], AB_CELL - 1, "%.3f", v);
            lo = fmin(lo, v);
            hi = fmax(hi, v);
        }
        /* a missing value differs from a value; the '*' marker is not part of the value */
        if (m > 0 && (!cells[m] != !cells[0] || (cells[m] && strcmp(cells[m], cells[0]) != 0)))
            differ = 1;
    }
    for (int m = 0; m < n; m++)
        if (cells[m] && runs[m].first_impact_fell_back) strcat(text[m], "*");
    *spread = hi > lo ? hi - lo : 0.0;
    return differ;
}

static body_rows compare_body(int b, int n, const cli_run *runs)
{
    body_rows out = {b, 0u, 0.0};
    char text[AB_MAX_COLS][AB_CELL];
    const char *cells[AB_MAX_COLS];
    for (int q = 0; q < ROWS; q++) {
        double spread;
        if (row_cells(b, q, n, runs, text, cells, &spread)) {
            out.differ |= 1u << q;
            out.spread = fmax(out.spread, spread);
        }
    }
    return out;
}

/* Larger spread first; the world's order among equals (qsort is not stable). */
static int by_spread(const void *a, const void *b)
{
    const body_rows *x = a, *y = b;
    if (x->spread != y->spread) return x->spread < y->spread ? 1 : -1;
    return (x->body > y->body) - (x->body < y->body);
}

static void add_body(cli_table *t, int n, const cli_run *runs, const body_rows *br, unsigned shown)
{
    char text[AB_MAX_COLS][AB_CELL];
    const char *cells[AB_MAX_COLS];
    cli_table_section(t, runs[0].body_name[br->body]);
    for (int q = 0; q < ROWS; q++) {
        double spread;
        row_cells(br->body, q, n, runs, text, cells, &spread);
        if (shown & (1u << q)) cli_table_row(t, labels[q], cells);
    }
}

static void count_line(cli_table *t, int shown, int more, int equal)
{
    char line[160];
    if (more) {
        snprintf(line, sizeof line, "... %d more bod%s that differ less", more,
                 more == 1 ? "y" : "ies");
        cli_table_section(t, line);
    }
    if (!equal) return;
    if (shown || more)
        snprintf(line, sizeof line, "... %d more bod%s equal across models", equal,
                 equal == 1 ? "y" : "ies");
    else
        snprintf(line, sizeof line, "the velocities of all %d bod%s are equal across models", equal,
                 equal == 1 ? "y" : "ies");
    cli_table_section(t, line);
}

ab_rows_left ab_velocity_rows(cli_table *t, int n, const cli_run *runs, int all_rows)
{
    ab_rows_left left = {0, 0, 0};
    const int n_bodies = runs[0].n_bodies;
    int any_impact = 0;
    for (int m = 0; m < n; m++) any_impact |= runs[m].first_impact_step >= 0;
    if (!any_impact) {
        cli_table_section(t, "no model had an impact: no velocities after one to compare");
        return left;
    }
    body_rows *rows = malloc((size_t)(n_bodies > 0 ? n_bodies : 1) * sizeof *rows);
    if (!rows) {
        cli_table_section(t, "(out of memory for the velocity rows)");
        return left;
    }
    int differ = 0;
    for (int b = 0; b < n_bodies; b++) {
        const body_rows br = compare_body(b, n, runs);
        if (all_rows) add_body(t, n, runs, &br, (1u << ROWS) - 1u);
        else if (br.differ) rows[differ++] = br;
        else left.equal_bodies++;
    }
    if (!all_rows) {
        qsort(rows, (size_t)differ, sizeof *rows, by_spread);
        const int shown = differ < AB_MAX_BODIES ? differ : AB_MAX_BODIES;
        for (int i = 0; i < shown; i++) {
            add_body(t, n, runs, &rows[i], rows[i].differ);
            for (int q = 0; q < ROWS; q++) left.rows += !(rows[i].differ & (1u << q));
        }
        left.more_bodies = differ - shown;
        count_line(t, shown, left.more_bodies, left.equal_bodies);
    }
    free(rows);
    return left;
}
