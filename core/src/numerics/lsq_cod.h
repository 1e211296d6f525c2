/// Inside the core: the complete orthogonal factorisation (COD) behind PLUS's minimum-norm
/// solves, in pieces that can be kept and reused (dense_lsq.c; min_norm.c keeps one between
/// calls). For an m x n matrix A of numerical rank r:
///   A P = Q [R11 R12; 0 R22]   Householder QR with column pivoting, R22 treated as zero
///                              (r = number of pivots with |R_jj| > rcond |R_11|);
///   [R11 R12] = [T 0] Z        if r < n, reflectors from the right (LAPACK's dtzrzf), in
///                              place: T over R11, Z's vectors in R12's rows;
///   A^+ b = P Z^T [T^-1 (Q^T b)_1..r; 0]   (T = R11 and Z = I when r = n).
#ifndef IMPAX_LSQ_COD_H
#define IMPAX_LSQ_COD_H

#include <stddef.h>

#include "impax/types.h"

typedef struct lsq_cod {
    int m, n, r;  ///< rows, columns, numerical rank
    double r11;   ///< |R_11|, the largest column norm of A (0 for a zero matrix)
    double next;  ///< the largest pivot the rank rule left out (0 if none): how far below
                  ///< the cut the numerical null space lies
    double *A;    ///< m x n, lda m: T and R12's rows (Z's vectors) on and above the
                  ///< diagonal, Q's reflectors below
    double *tau;  ///< r: Q's reflector coefficients
    double *tau2; ///< r: Z's reflector coefficients
    int *perm;    ///< n: column j of A P is column perm[j] of A
} lsq_cod;

/// From this many columns the pivoted QR is LAPACK's blocked dgeqp3 (half its update in
/// matrix-matrix products); below it the unblocked loop of dense_lsq.c, which LAPACK's call
/// overhead cannot beat on small systems. Chosen by `bench_plus lsq` (docs/performance.md "Dense least squares").
#define LSQ_COD_BLOCKED_MIN 128
/// Block size dgeqp3 is given work for (its optimal for the reference and OpenBLAS LAPACK).
#define LSQ_COD_NB 32

/// Doubles lsq_cod_factor needs besides the factor's own arrays: 2 n (column norms), and
/// dgeqp3's work from LSQ_COD_BLOCKED_MIN columns on.
#define LSQ_COD_SCRATCH(n)                                                                 \
    ((size_t)(n) >= LSQ_COD_BLOCKED_MIN ? 2 * (size_t)(n) + ((size_t)(n) + 1) * LSQ_COD_NB \
                                        : 2 * (size_t)(n))

/// Factors f->A (m x n, overwritten) into f's arrays (tau: n, tau2: n, perm: n, all set by
/// the caller); b (m entries, may be NULL) receives Q^T b on the way. The rank is the
/// number of pivots whose column norm exceeds both rcond |R_11| and abs_tol (0: the relative rule
/// alone). scratch: LSQ_COD_SCRATCH(n) doubles. Sets f->r, f->next and f->r11 (NaN, rank 0, if A holds a NaN or an
/// infinity). Never allocates.
void lsq_cod_factor(lsq_cod *f, double rcond, double abs_tol, double *b, double *scratch);

/// b (m entries) <- Q^T b.
void lsq_cod_apply_qt(const lsq_cod *f, double *b);

/// x (n entries, A's column order) = P Z^T [T^-1 c; 0] for c = the first r entries of Q^T b:
/// the minimum-norm least-squares solution. y: n doubles of scratch.
void lsq_cod_solve(const lsq_cod *f, const double *c, double *x, double *y);

/// x (n entries, A's column order) = P Z^T e_(r+i): the i-th of the n - r orthonormal vectors
/// that span A's numerical null space (0 <= i < n - r). y: n doubles of scratch.
void lsq_cod_null(const lsq_cod *f, int i, double *x, double *y);

/// ipx_plus_lsq (plus.h) with its factor left in f: A overwritten by it, b (max(m, n) entries)
/// becomes x. work: ipx_plus_lsq_work_doubles(m, n); iwork: n ints.
ipx_status lsq_cod_min_norm(int m, int n, double *A, double *b, double rcond, double *work,
                            int *iwork, lsq_cod *f);

/// |R_11| / |T_rr|: the factor's estimate of A's condition within its numerical rank (1 for
/// rank 0). The rounding error of A^+ b relative to its size is about DBL_EPSILON times it.
double lsq_cod_cond(const lsq_cod *f);

#endif
