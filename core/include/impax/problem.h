/// impax core: reading a problem's W whichever way it is given (dense or as blocks, types.h).
#ifndef IMPAX_PROBLEM_H
#define IMPAX_PROBLEM_H

#include "impax/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Index of block (i, j) of Ws (contact i's rows, contact j's columns), or -1 if it is not
/// stored: a binary search of column j's ascending rows.
int ipx_wsparse_find(const ipx_wsparse *Ws, int i, int j);

/// W_rr (1/kg), row r of 3k. O(1) dense, O(log blocks of the column) as blocks.
double ipx_problem_W_diag(const ipx_problem *p, int r);

/// y = W x (3k each; x in N*s, y in m/s). O(k^2) dense, O(blocks) as blocks.
void ipx_problem_apply_W(const ipx_problem *p, const double *x, double *y);

/// Writes p's W densely into W (3k x 3k, column-major, 1/kg): a copy, or the blocks with zeros
/// between them.
void ipx_problem_dense_W(const ipx_problem *p, double *W);

#ifdef __cplusplus
}
#endif
#endif
