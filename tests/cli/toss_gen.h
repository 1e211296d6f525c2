/// Synthetic recordings for the fit tests: a world's replay body simulated by impax itself from
/// a given state, written at a given sample rate in the recording CSV format that `impax replay`
/// and `impax fit` read (docs/command.md "Recorded trajectories"), every number with 17 significant digits. The body starts from
/// the first row's numbers through cli_body_set_state, as a replay does, so a replay under the
/// same model and parameters reproduces the file to rounding.
#ifndef IMPAX_TEST_TOSS_GEN_H
#define IMPAX_TEST_TOSS_GEN_H

#include "replay.h"

/// Simulates world under model/params from start (its t_s is ignored: times start at 0; its
/// quaternion is normalised) for duration_s and writes samples every 1/rate_hz s to csv_path. 0, or -1 (printed why).
int toss_write(const char *world, const char *model, const char *params, const cli_sample *start,
               double duration_s, double rate_hz, const char *csv_path);

#endif
