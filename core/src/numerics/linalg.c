#include <float.h>
#include <lapacke.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "impax/linalg.h"
#include "mathutil.h"

size_t ipx_lsq_work_doubles(int m, int n)
{
    /* dgelsy's optimal work for small systems is bounded by max(mn + 3n + 1, 2mn + nrhs) plus a
       block-size term; 64 * (m + n) covers LAPACK's blocked QR for the sizes impax uses. */
    size_t mn = (size_t)(m < n ? m : n);
    size_t a = mn + 3 * (size_t)n + 1, b = 2 * mn + 1;
    return (a > b ? a : b) + 64 * ((size_t)m + (size_t)n);
}

ipx_status ipx_lsq_min_norm(int m, int n, double *A, double *b, double rcond, double *work,
                            int *iwork, int *rank_out)
{
    if (m < 1 || n < 1) return IPX_ERR_INPUT;
    int ld_b = m > n ? m : n, rank = 0;
    for (int j = 0; j < n; j++) iwork[j] = 0; /* all columns free to pivot */
    lapack_int info = LAPACKE_dgelsy_work(LAPACK_COL_MAJOR, m, n, 1, A, m, b, ld_b, iwork, rcond,
                                          &rank, work, (lapack_int)ipx_lsq_work_doubles(m, n));
    if (rank_out) *rank_out = rank;
    if (info != 0) return IPX_ERR_NUMERIC;
    for (int j = 0; j < n; j++)
        if (!isfinite(b[j])) return IPX_ERR_NUMERIC;
    return IPX_OK;
}

/* Below this order the factor and solve run as plain loops: LAPACK's per-call overhead (argument
   checks, OpenBLAS's locked buffer allocation) costs several times the arithmetic of a 4 x 4
   factor, which the compliant model solves thousands of times a host step. */
enum { SMALL_ORDER = 16 };

/* Unblocked lower Cholesky (column by column, as LAPACK's dpotf2). */
static ipx_status cholesky_factor_small(int n, double *A)
{
    for (int j = 0; j < n; j++) {
        double d = A[j + n * j];
        for (int c = 0; c < j; c++) d -= A[j + n * c] * A[j + n * c];
        if (!(d > 0.0)) return IPX_ERR_NUMERIC;
        const double l = sqrt(d);
        A[j + n * j] = l;
        for (int i = j + 1; i < n; i++) {
            double s = A[i + n * j];
            for (int c = 0; c < j; c++) s -= A[i + n * c] * A[j + n * c];
            A[i + n * j] = s / l;
        }
    }
    return IPX_OK;
}

/* L L^T X = B by forward then backward substitution, one column of B at a time. */
static void cholesky_solve_small(int n, const double *L, int nrhs, double *B)
{
    for (int r = 0; r < nrhs; r++) {
        double *b = B + (size_t)n * r;
        for (int i = 0; i < n; i++) {
            for (int c = 0; c < i; c++) b[i] -= L[i + n * c] * b[c];
            b[i] /= L[i + n * i];
        }
        for (int i = n - 1; i >= 0; i--) {
            for (int c = i + 1; c < n; c++) b[i] -= L[c + n * i] * b[c];
            b[i] /= L[i + n * i];
        }
    }
}

ipx_status ipx_cholesky_factor(int n, double *A)
{
    if (n <= SMALL_ORDER) return cholesky_factor_small(n, A);
    return LAPACKE_dpotrf_work(LAPACK_COL_MAJOR, 'L', n, A, n) == 0 ? IPX_OK : IPX_ERR_NUMERIC;
}

ipx_status ipx_cholesky_solve(int n, const double *L, int nrhs, double *B)
{
    if (n <= SMALL_ORDER) {
        cholesky_solve_small(n, L, nrhs, B);
        return IPX_OK;
    }
    return LAPACKE_dpotrs_work(LAPACK_COL_MAJOR, 'L', n, nrhs, L, n, B, n) == 0 ? IPX_OK
                                                                                : IPX_ERR_NUMERIC;
}

/* Largest |entry|: for a PSD matrix this is the largest diagonal entry, and unlike the diagonal
   it is not fooled by [[0, 1], [1, 0]]. */
static double max_abs_entry(int n, const double *A)
{
    return ipx_max_abs(A, (size_t)n * (size_t)n);
}

/* 1 if |A_ij - A_ji| <= bound for every pair, read in square tiles so that the transposed
   reads stay in cache (a W of 700 contacts is 40 MB); 0 at the first pair that is not (or is
   NaN), whose verdict the column-order scan below then gives, with its message. */
static int symmetric_in_tiles(int n, const double *A, double bound)
{
    enum { TILE = 32 };
    for (int jb = 0; jb < n; jb += TILE)
        for (int ib = jb; ib < n; ib += TILE) {
            const int je = jb + TILE < n ? jb + TILE : n, ie = ib + TILE < n ? ib + TILE : n;
            for (int j = jb; j < je; j++)
                for (int i = ib == jb ? j + 1 : ib; i < ie; i++)
                    if (!(fabs(A[i + (size_t)n * j] - A[j + (size_t)n * i]) <= bound)) return 0;
        }
    return 1;
}

/* ipx_check_symmetric with scale = max_abs_entry(n, A) given (ipx_check_symmetric_psd needs it
   too: taken once). */
static ipx_status check_symmetric_scaled(int n, const double *A, double tol, double scale,
                                         char *message, size_t message_size)
{
    if (!symmetric_in_tiles(n, A, tol * scale)) /* the first pair in column order, named */
        for (int j = 0; j < n; j++)
            for (int i = j + 1; i < n; i++) {
                double a = A[i + (size_t)n * j], b = A[j + (size_t)n * i];
                if (fabs(a - b) > tol * scale) {
                    snprintf(message, message_size,
                             "W is not symmetric: W[%d][%d] = %.17g but W[%d][%d] = %.17g", i, j, a,
                             j, i, b);
                    return IPX_ERR_INPUT;
                }
            }
    for (int i = 0; i < n; i++)
        if (A[i + (size_t)n * i] < -tol * scale) {
            snprintf(message, message_size,
                     "W is indefinite: diagonal W[%d][%d] = %.17g is negative", i, i,
                     A[i + (size_t)n * i]);
            return IPX_ERR_INPUT;
        }
    return IPX_OK;
}

ipx_status ipx_check_symmetric(int n, const double *A, double tol, char *message,
                               size_t message_size)
{
    return check_symmetric_scaled(n, A, tol, max_abs_entry(n, A), message, message_size);
}

/* Up to this size (one contact) a plain Cholesky is tried before dpstrf: LAPACK's call
   overhead (ilaenv, dgemv, dscal) dominates so small a factorisation. */
#define PSD_DIRECT_MAX 3

/* 1 if the Cholesky factorisation of A - shift I (into L, n x n) succeeds: every eigenvalue of
   A is then above shift less the factorisation's rounding (below 2 n^2 eps max|A_ij|). */
static int definite_above(int n, const double *A, double shift, double *L)
{
    for (int j = 0; j < n; j++)
        for (int i = j; i < n; i++) {
            double s = A[i + (size_t)n * j] - (i == j ? shift : 0.0);
            for (int k = 0; k < j; k++) s -= L[i + (size_t)n * k] * L[j + (size_t)n * k];
            if (i == j && !(s > 0.0)) return 0;
            L[i + (size_t)n * j] = i == j ? sqrt(s) : s / L[j + (size_t)n * j];
        }
    return 1;
}

ipx_status ipx_check_symmetric_psd(int n, const double *A, double tol, double *work, int *iwork,
                                   char *message, size_t message_size)
{
    const double scale = max_abs_entry(n, A);
    ipx_status st = check_symmetric_scaled(n, A, tol, scale, message, message_size);
    if (st != IPX_OK) return st;
    if (scale == 0.0) return IPX_OK; /* the zero matrix is PSD */
    /* Every pivot of a Cholesky factorisation, pivoted or not, is a diagonal entry of a Schur
       complement, never below A's smallest eigenvalue. If A - shift I factors, that eigenvalue
       is above 2 tol scale + 6 n^2 eps scale, so every pivot of dpstrf's, its own rounding
       included, is above tol scale: it would find full rank and accept A, as here. */
    const double shift = (2.0 * tol + 8.0 * n * n * DBL_EPSILON) * scale;
    if (n <= PSD_DIRECT_MAX && definite_above(n, A, shift, work)) return IPX_OK;

    /* Pivoted Cholesky (dpstrf) stops at the numerical rank r, when the largest remaining diagonal
       of the Schur complement S = A22 - L21 L21^T falls below the tolerance. For a PSD matrix
       |S_ij| <= sqrt(S_ii S_jj), so all of S is that small; a larger entry of S is negative
       curvature. dpstrf is left-looking and does not form S, so form it here. */
    double *F = work, *dwork = work + (size_t)n * n;
    memcpy(F, A, sizeof(double) * (size_t)n * n);
    int rank = 0;
    lapack_int info =
        LAPACKE_dpstrf_work(LAPACK_COL_MAJOR, 'L', n, F, n, iwork, &rank, tol * scale, dwork);
    if (info < 0) {
        snprintf(message, message_size, "W: pivoted Cholesky failed (info %d)", (int)info);
        return IPX_ERR_NUMERIC;
    }
    if (info == 0) return IPX_OK; /* full rank: positive definite */
    /* S one column at a time into dpstrf's work (free again), the factor's columns streamed
       (column-major: the inner loop runs down a column; entry by entry it crossed the columns,
       13 s at n = 3 072 in bench_lcp_scale). iwork holds 1-based pivots: row i of the factor is
       row iwork[i]-1 of A. */
    double worst = 0.0, *S = dwork;
    for (int j = rank; j < n; j++) {
        const double *Aj = A + (size_t)n * (size_t)(iwork[j] - 1);
        for (int i = j; i < n; i++) S[i] = Aj[iwork[i] - 1];
        for (int c = 0; c < rank; c++) {
            const double *Fc = F + (size_t)n * c, fjc = Fc[j];
            if (fjc == 0.0) continue;
            for (int i = j; i < n; i++) S[i] -= Fc[i] * fjc;
        }
        for (int i = j; i < n; i++) worst = fmax(worst, fabs(S[i]));
    }
    double bound = 10.0 * tol * scale;
    if (worst > bound) {
        snprintf(message, message_size,
                 "W is indefinite: after rank %d of %d a Schur-complement entry of %.3g remains "
                 "(tolerance %.3g)",
                 rank, n, worst, bound);
        return IPX_ERR_INPUT;
    }
    return IPX_OK;
}
