/// impax core: small dense linear algebra through LAPACKE (column-major throughout).
#ifndef IMPAX_LINALG_H
#define IMPAX_LINALG_H

#include <stddef.h>
#include "impax/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Work doubles ipx_lsq_min_norm needs for an m x n system.
size_t ipx_lsq_work_doubles(int m, int n);

/// Minimum-2-norm least-squares solution of A x = b by complete orthogonal factorisation
/// (LAPACK dgelsy). A is m x n column-major and is overwritten. b has max(m, n) entries: the
/// first m are the right-hand side on entry, the first n are x on return. rcond: singular values
/// below rcond * largest count as zero. rank_out (may be NULL) receives the effective rank.
/// work: ipx_lsq_work_doubles(m, n) doubles; iwork: n ints.
ipx_status ipx_lsq_min_norm(int m, int n, double *A, double *b, double rcond, double *work,
                            int *iwork, int *rank_out);

/// Cholesky factorisation A = L L^T of an SPD n x n matrix (lower triangle used, overwritten).
ipx_status ipx_cholesky_factor(int n, double *A);

/// Solves A X = B with the factor from ipx_cholesky_factor; B is n x nrhs, overwritten by X.
ipx_status ipx_cholesky_solve(int n, const double *L, int nrhs, double *B);

/// The first two parts of ipx_check_symmetric_psd, O(n^2): symmetric, no negative diagonal.
ipx_status ipx_check_symmetric(int n, const double *A, double tol, char *message,
                               size_t message_size);

/// Checks that the n x n matrix A is symmetric and positive semi-definite within a relative
/// tolerance tol (of the largest diagonal entry), by pivoted Cholesky (LAPACK dpstrf) and a
/// bound on what is left after the numerical rank. work: n*n + 2*n doubles, iwork: n ints.
/// Returns IPX_OK, or IPX_ERR_INPUT with a message naming the entry or the size of the
/// negative curvature found.
ipx_status ipx_check_symmetric_psd(int n, const double *A, double tol, double *work, int *iwork,
                                   char *message, size_t message_size);

#ifdef __cplusplus
}
#endif
#endif
