/* core/src/numerics/lemke.c compiled once more, for x86-64's baseline alone (no processor
   clones) and under names of its own, so that a test can set it beside the library's build,
   which the loader picked for this processor: test_lemke_clones. Each function is its
   impax/lcp.h namesake without the "baseline_" prefix. */
#ifndef IMPAX_LEMKE_BASELINE_H
#define IMPAX_LEMKE_BASELINE_H

#include <stddef.h>

#include "impax/types.h"

size_t baseline_lemke_work_doubles(int n);
size_t baseline_lemke_work_ints(int n);
int baseline_lemke_default_max_pivots(int n);
ipx_status baseline_lemke(int n, const double *M, const double *q, double *z, double *w,
                          int max_pivots, double *dwork, int *iwork, int *pivots_out);

#endif
