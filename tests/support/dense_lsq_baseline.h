/* core/src/numerics/dense_lsq.c compiled once more, for x86-64's baseline alone (no processor
   clones) and under names of its own, so that a test or bench can set it beside the library's
   build, which the loader picked for this processor: test_dense_lsq_clones, bench_lsq_clones.
   Each function is its lsq_cod.h / plus.h namesake without the "baseline_" prefix. */
#ifndef IMPAX_DENSE_LSQ_BASELINE_H
#define IMPAX_DENSE_LSQ_BASELINE_H

#include "impax/types.h"
#include "numerics/lsq_cod.h"

void baseline_lsq_cod_factor(lsq_cod *f, double rcond, double abs_tol, double *b, double *scratch);
void baseline_lsq_cod_apply_qt(const lsq_cod *f, double *b);
void baseline_lsq_cod_solve(const lsq_cod *f, const double *c, double *x, double *y);
ipx_status baseline_plus_lsq(int m, int n, double *A, double *b, double rcond, double *work,
                             int *iwork, int *rank_out);

#endif
