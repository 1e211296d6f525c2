/// `impax sweep --plot`: the sweep's rows as a PNG (PLplot). With one grid key of several values,
/// one panel per recorded value against that key, one line per model (and world), the mean over
/// the seeds; otherwise the outcome scatter: the first recorded value against the second (or
/// against the seed when only one is recorded), one colour per model (and world).
#ifndef IMPAX_CLI_SWEEP_PLOT_H
#define IMPAX_CLI_SWEEP_PLOT_H

#include <stddef.h>

#include "sweep_out.h"

/// Reads the rows of this spec's jobs from rows_path and draws them into png. 0, or -1 with a
/// message.
int sweep_plot(const sweep_spec *spec, const sweep_index *index, const char *rows_path,
               const char *png, char *message, size_t message_size);

#endif
