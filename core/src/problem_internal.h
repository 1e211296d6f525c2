/// Inside the core: the dense product of a W given densely (problem.c).
#ifndef IMPAX_PROBLEM_INTERNAL_H
#define IMPAX_PROBLEM_INTERNAL_H

/// y = W x over n rows (W n x n, column-major), column by column, skipping zero x_j.
void ipx_apply_dense(int n, const double *W, const double *x, double *y);

#endif
