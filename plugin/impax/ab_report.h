/// What `impax ab` prints: the side-by-side table (quantities down, models across) and its CSV.
#ifndef IMPAX_CLI_AB_REPORT_H
#define IMPAX_CLI_AB_REPORT_H

#include <stdio.h>

#include "runner.h"

void ab_print_table(FILE *out, const char *path, const ipx_scene *scene, int n, const cli_run *runs);
/// One row per model: model, first_impact_t_s, ke_after_first_J, impact_events, fallbacks,
/// energy_start_J, energy_end_J, ke_end_J, final_height_m, max_penetration_m, wall_s, then per
/// body BODY.vx_m_s ... BODY.wz_rad_s after the first impact (empty if there was none).
int ab_write_csv(const char *path, int n, const cli_run *runs);

#endif
