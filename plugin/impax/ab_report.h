/// What `impax ab` prints: the side-by-side table (quantities down, models across, in blocks that
/// fit 100 columns; the velocity rows that differ between the models) with its notes, and its CSV.
#ifndef IMPAX_CLI_AB_REPORT_H
#define IMPAX_CLI_AB_REPORT_H

#include <stdio.h>

#include "runner.h"

/// Lines of the table and its notes are at most this wide.
enum { AB_TABLE_WIDTH = 100 };

/// labels[m]: how the table heads model m's column (the --models entry as given). all_rows: every
/// velocity row of every body, else those that differ between the models (ab_rows.h).
void ab_print_table(FILE *out, const char *path, const ipx_scene *scene, int n,
                    const char *const *labels, const cli_run *runs, int all_rows);
/// One row per model: model (its label), first_impact_t_s, compared_t_s (when the velocities and
/// ke_after_first_J are taken: runner.h), ke_after_first_J, impact_events,
/// collisions, fallbacks, energy_start_J, energy_end_J, ke_end_J, final_height_m,
/// max_penetration_m, wall_s, then per body BODY.vx_m_s ... BODY.wz_rad_s after the first
/// impact (empty if there was none).
int ab_write_csv(const char *path, int n, const char *const *labels, const cli_run *runs);

#endif
