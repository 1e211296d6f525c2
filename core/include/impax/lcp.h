/// impax core: linear complementarity problems.
///
/// Finds z with  w = M z + q,  z >= 0,  w >= 0,  z^T w = 0  by Lemke's complementary pivoting
/// with the covering vector d = (1, ..., 1) and the lexicographic minimum-ratio rule, which
/// cannot cycle on degenerate problems (Cottle, Pang, Stone 1992, section 4.4). Dense tableau,
/// O(n^2) per pivot, no allocation: the caller passes the work arrays.
///
/// Floating point: ratios that tie in exact arithmetic (redundant contacts make many) are
/// compared with a tolerance, z0 leaves whenever it is among the near-ties (that basis is a
/// solution), and the final complementary basis is re-solved from the original data
/// (M_ZZ z_Z = -q_Z, LAPACK dgelsy) so the answer does not carry the pivots' round-off.
#ifndef IMPAX_LCP_H
#define IMPAX_LCP_H

#include <stddef.h>
#include "impax/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Doubles and ints of work space ipx_lemke needs for an n x n problem.
size_t ipx_lemke_work_doubles(int n);
size_t ipx_lemke_work_ints(int n);

/// Default pivot limit for an n x n problem.
int ipx_lemke_default_max_pivots(int n);

/// Solves LCP(M, q). M is n x n column-major (M[i + n*j]); q, z, w have n entries.
/// Returns IPX_OK with z, w set; IPX_ERR_LCP_RAY when Lemke ends on a secondary ray (for a
/// copositive-plus M this proves the LCP infeasible); IPX_ERR_LCP_PIVOTS when max_pivots is
/// reached; IPX_ERR_INPUT for n < 1 or non-finite data. On failure z and w are zeroed.
/// pivots_out (may be NULL) receives the number of pivots made.
ipx_status ipx_lemke(int n, const double *M, const double *q, double *z, double *w,
                     int max_pivots, double *dwork, int *iwork, int *pivots_out);

#ifdef __cplusplus
}
#endif
#endif
