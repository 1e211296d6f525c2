/* `impax sweep --plot` without a one-key grid: the outcome scatter; and the series' labels that
   both plots give their legends. Private to sweep_plot.c. */
#ifndef IMPAX_CLI_SWEEP_SCATTER_H
#define IMPAX_CLI_SWEEP_SCATTER_H

#include <stddef.h>

#include "sweep_spec.h"

/// Series s (world s / n_models, model s % n_models)'s legend entry.
void sweep_series_label(const sweep_spec *spec, int series, char *label, size_t size);

/// Every job's point: column 0 of v (jobs x n_cols, named x_name) across, column 1 (y_name) up,
/// or x_name up against the seed when y_name is NULL; one colour per series. 0, or -1 with a
/// message.
int sweep_scatter(const sweep_spec *spec, int n_cols, const char *x_name, const char *y_name,
                  const double *v, const char *png, char *message, size_t message_size);

#endif
