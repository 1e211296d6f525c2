/// Axis ranges for every plot: the data's range with a margin, and a usable span when the data
/// has none. PLplot loops forever on a span of a few ulps (values equal but for round-off, e.g.
/// a Routh outcome set that is one point) and refuses an empty one.
#ifndef IMPAX_CLI_AXIS_H
#define IMPAX_CLI_AXIS_H

/// Spans below this fraction of the values' magnitude are treated as no span at all.
#define CLI_AXIS_MIN_RELATIVE_SPAN 1e-9

/// The axis [*axis_lo, *axis_hi] for finite data in [lo, hi] (lo <= hi): 5 % of the span added
/// on each side; a degenerate span (zero, or below CLI_AXIS_MIN_RELATIVE_SPAN of the largest
/// magnitude) is centred on the data, 5 % of its magnitude wide each side; values below 1e-200
/// in magnitude are zero: [-1, 1].
void cli_axis_range(double lo, double hi, double *axis_lo, double *axis_hi);

#endif
