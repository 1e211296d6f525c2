/// Shared by the benchmark programs: a monotonic clock and the median of repeated samples.
#ifndef IMPAX_TEST_TIMING_H
#define IMPAX_TEST_TIMING_H

/// Microseconds on the monotonic clock.
double ipx_now_us(void);

/// Median of n samples (sorts them in place).
double ipx_median(double *samples, int n);

#endif
