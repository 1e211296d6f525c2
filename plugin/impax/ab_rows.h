/// The velocity rows of `impax ab`'s table: only what differs between the models. A row (one
/// velocity component of one body) is shown when its printed values are not the same for every
/// model; a body is shown when one of its rows is, those that differ most first, and the rest are
/// counted, so the table stays short on a world of many bodies (docs/command.md, impax ab).
#ifndef IMPAX_CLI_AB_ROWS_H
#define IMPAX_CLI_AB_ROWS_H

#include "runner.h"
#include "text_table.h"

/// Bodies shown at most (unless every row is asked for): the ones whose values differ most.
enum { AB_MAX_BODIES = 8 };

/// Models (columns) the table holds at most, and the characters of one printed cell.
enum { AB_MAX_COLS = 64, AB_CELL = 40 };

/// What the rows left out.
typedef struct ab_rows_left {
    int rows;         /* rows of the bodies shown that read the same for every model */
    int equal_bodies; /* bodies whose every row reads the same for every model */
    int more_bodies;  /* bodies that differ, past the AB_MAX_BODIES shown */
} ab_rows_left;

/// Adds to t the velocity rows after the first impact (runner.h, first_velocity) of n runs, as
/// "%.3f" (a '*' after the values of a model whose first impact fell back to ODE): per body its
/// rows whose values differ between the models, the bodies in order of their largest difference
/// (in m/s or rad/s), at most AB_MAX_BODIES of them, then a line that counts the rest. With
/// all_rows every row of every body, in the world's order. Never a body's name without rows
/// under it. n <= AB_MAX_COLS. Returns what was left out.
ab_rows_left ab_velocity_rows(cli_table *t, int n, const cli_run *runs, int all_rows);

#endif
