/* Small dense minimum-2-norm least squares by complete orthogonal factorisation, the
   algorithm of LAPACK's dgelsy without its call overhead (PLUS solves many systems of 3 to a
   few hundred unknowns; bench_plus compares the two, test_plus_lsq checks they agree):
     1. Householder QR with column pivoting: A P = Q [R11 R12; 0 R22], rank r = number of
        |R_jj| > rcond |R_11| (dgelsy estimates the condition of R11 incrementally instead);
        the column norms are downdated as in LAPACK's dlaqp2 (recomputed where cancellation
        has eaten half the digits), not recomputed at every step;
     2. if r < n, the trapezoid to triangular form by reflectors from the right, in place
        (LAPACK's dtzrzf): [R11 R12] = [T 0] Z;
     3. x = P Z^T [T^-1 (Q^T b)_1..r; 0], the minimum-norm least-squares solution.
   The pieces are kept in an lsq_cod (lsq_cod.h) so that min_norm.c can reuse a factorisation
   between calls. From LSQ_COD_BLOCKED_MIN columns step 1 is LAPACK's dgeqp3 (the same
   algorithm, blocked: it factors past the rank, which is then read off R's diagonal by the
   same rule).
   The loops are compiled twice, for x86-64's baseline (SSE2) and for AVX2, and the loader
   picks the one the processor runs (target_clones). AVX2 without FMA makes the same
   operations in the same order, ipx_dot's four partial sums one register of four lanes, so
   both give the same bits (test_dense_lsq_clones); the AVX2 one takes a fifth less time at 48
   unknowns and 0.70-0.73 of it at 96-127 (bench_lsq_clones). */
#include <float.h>
#include <lapacke.h>
#include <math.h>
#include <string.h>

#include "impax/plus.h"
#include "lsq_cod.h"
#include "mathutil.h"
#include "vector_clones.h"

/* The loops below are inlined into each clone, compiled there for its processor. */
#ifdef __GNUC__
#define KERNEL static inline __attribute__((always_inline))
#else
#define KERNEL static inline
#endif

size_t ipx_plus_lsq_work_doubles(int m, int n)
{
    (void)m;
    return 3 * (size_t)n + LSQ_COD_SCRATCH(n); /* tau, tau2, y, scratch */
}

/* perm doubles as dgeqp3's pivot array */
_Static_assert(sizeof(lapack_int) == sizeof(int), "lapack_int must be an int (LP64 LAPACK)");

/* Householder reflector (LAPACK dlarfg): H = I - tau v v^T, v = (1, x/(alpha - beta)), maps
   (alpha, x) to (beta, 0). x has len entries with stride 1. Returns tau; *alpha becomes beta. */
KERNEL double reflector(double *alpha, double *x, int len)
{
    double xx = ipx_norm2(x, len); /* PLUS's sizes are far from overflow: no scaled norm */
    if (xx == 0.0) return 0.0;
    double beta = -copysign(sqrt(*alpha * *alpha + xx), *alpha);
    double tau = (beta - *alpha) / beta, scale = 1.0 / (*alpha - beta);
    for (int i = 0; i < len; i++) x[i] *= scale;
    *alpha = beta;
    return tau;
}

/* y <- H y for the reflector v stored from the diagonal down (len entries; v[0] is the
   implicit 1 and is not read). */
KERNEL void reflect(const double *v, double tau, double *y, int len)
{
    if (tau == 0.0) return;
    const double d = tau * (y[0] + ipx_dot(v + 1, y + 1, len - 1));
    y[0] -= d;
    for (int i = 1; i < len; i++) y[i] -= d * v[i];
}

KERNEL void swap_columns(double *A, int m, int a, int b)
{
    double *x = A + (size_t)m * (size_t)a, *y = A + (size_t)m * (size_t)b;
    for (int i = 0; i < m; i++) {
        double t = x[i];
        x[i] = y[i];
        y[i] = t;
    }
}

/* Step 1 on f->A, Q^T applied to b on the way (if b); returns the rank: the pivots before the
   first whose column norm is not above rcond |R_11| and abs_tol. vn1, vn2: n each. */
KERNEL int pivoted_qr(lsq_cod *f, const int m, const int n, double rcond, double abs_tol, double *b,
                      double *vn1, double *vn2)
{
    const int kmax = m < n ? m : n;
    const double tol3z = sqrt(DBL_EPSILON);
    double *A = f->A;
    int finite = 1;
    for (int j = 0; j < n; j++) {
        f->perm[j] = j;
        vn1[j] = vn2[j] = sqrt(ipx_norm2(A + (size_t)m * j, m));
        finite &= isfinite(vn1[j]) != 0;
    }
    f->r11 = finite ? 0.0 : NAN; /* a NaN or an infinity: no factor (rank 0, r11 NaN) */
    f->next = 0.0;
    if (!finite) return 0;
    for (int k = 0; k < kmax; k++) {
        int best = k;
        for (int j = k + 1; j < n; j++)
            if (vn1[j] > vn1[best]) best = j;
        if (best != k) {
            swap_columns(A, m, k, best);
            int t = f->perm[k];
            f->perm[k] = f->perm[best];
            f->perm[best] = t;
            vn1[best] = vn1[k];
            vn2[best] = vn2[k];
        }
        /* the reflector of column k, its norm (exact, for the rank test) computed once */
        double *akk = A + k + (size_t)m * k;
        const double alpha = *akk, xx = ipx_norm2(akk + 1, m - k - 1);
        const double norm = sqrt(alpha * alpha + xx);
        if (k == 0) f->r11 = norm;
        if (!(norm > rcond * f->r11) || !(norm > abs_tol)) {
            f->next = norm;
            return k;
        }
        double tau = 0.0;
        if (xx != 0.0) {
            const double beta = -copysign(norm, alpha), scale = 1.0 / (alpha - beta);
            tau = (beta - alpha) / beta;
            for (int i = 1; i < m - k; i++) akk[i] *= scale;
            *akk = beta;
        }
        f->tau[k] = tau;
        for (int j = k + 1; j < n; j++) {
            double *aj = A + k + (size_t)m * j;
            reflect(akk, tau, aj, m - k);
            if (m - k <= 8) { /* short: recomputing is as cheap as downdating */
                vn1[j] = sqrt(ipx_norm2(aj + 1, m - k - 1));
                continue;
            }
            if (vn1[j] == 0.0) continue;
            double t = fabs(aj[0]) / vn1[j];
            t = (1.0 + t) * (1.0 - t);
            if (t < 0.0) t = 0.0;
            double ratio = vn1[j] / vn2[j];
            if (t * ratio * ratio <= tol3z) {
                vn1[j] = vn2[j] = sqrt(ipx_norm2(aj + 1, m - k - 1));
            } else {
                vn1[j] *= sqrt(t);
            }
        }
        if (b) reflect(akk, tau, b + k, m - k);
    }
    return kmax;
}

/* Step 2 in place (LAPACK's dlatrz): [R11 R12] = [T 0] Z, Z = Z_0 Z_1 ... Z_(r-1), Z_i =
   I - tau2_i u_i u_i^T with u_i = e_i + (0, v_i) and v_i (n - r entries) stored in row i of
   R12; T overwrites R11. Z_i, made from row i (last row first), touches column i and the
   columns of R12 of the rows above. v, w: scratch of n - r and r doubles. */
KERNEL void trapezoid_rz(lsq_cod *f, double *v, double *w)
{
    const int m = f->m, n = f->n, r = f->r, l = n - r;
    double *A = f->A;
    for (int i = r - 1; i >= 0; i--) {
        for (int k = 0; k < l; k++) v[k] = A[i + (size_t)m * (size_t)(r + k)];
        double *aii = A + i + (size_t)m * i;
        const double tau = f->tau2[i] = reflector(aii, v, l);
        for (int k = 0; k < l; k++) A[i + (size_t)m * (size_t)(r + k)] = v[k];
        if (tau == 0.0 || i == 0) continue;
        /* rows 0..i-1: w = A(:, i) + A(:, R12) v, then A(:, i) -= tau w, A(:, R12) -= tau w v^T */
        double *ai = A + (size_t)m * i;
        for (int j = 0; j < i; j++) w[j] = ai[j];
        for (int k = 0; k < l; k++) {
            const double *ak = A + (size_t)m * (size_t)(r + k), vk = v[k];
            for (int j = 0; j < i; j++) w[j] += ak[j] * vk;
        }
        for (int j = 0; j < i; j++) ai[j] -= tau * w[j];
        for (int k = 0; k < l; k++) {
            double *ak = A + (size_t)m * (size_t)(r + k);
            const double tv = tau * v[k];
            for (int j = 0; j < i; j++) ak[j] -= tv * w[j];
        }
    }
}

/* Step 1 by LAPACK's dgeqp3 (large systems), the rank by pivoted_qr's rule on R's diagonal
   (non-increasing: each pivot is the largest remaining column), Q^T applied to b afterwards
   (its first rank reflectors, as pivoted_qr does). work: LSQ_COD_SCRATCH(n) doubles, dgeqp3's
   optimal 2 n + (n + 1) LSQ_COD_NB. */
static int pivoted_qr_blocked(lsq_cod *f, double rcond, double abs_tol, double *b, double *work)
{
    const int m = f->m, n = f->n, kmax = m < n ? m : n;
    double *A = f->A;
    f->r11 = NAN; /* a NaN or an infinity, or LAPACK failing: no factor (rank 0, r11 NaN) */
    f->next = 0.0;
    for (int j = 0; j < n; j++) {
        if (!isfinite(ipx_norm2(A + (size_t)m * j, m))) return 0;
        f->perm[j] = 0; /* dgeqp3: every column free */
    }
    const lapack_int lwork = (lapack_int)LSQ_COD_SCRATCH(n);
    if (LAPACKE_dgeqp3_work(LAPACK_COL_MAJOR, m, n, A, m, f->perm, f->tau, work, lwork) != 0)
        return 0;
    for (int j = 0; j < n; j++) f->perm[j]--; /* 1-based */
    f->r11 = fabs(A[0]);
    int r = 0;
    for (; r < kmax; r++) {
        const double d = fabs(A[r + (size_t)m * r]);
        if (!(d > rcond * f->r11) || !(d > abs_tol)) {
            f->next = d;
            break;
        }
    }
    if (b)
        for (int k = 0; k < r; k++) reflect(A + k + (size_t)m * k, f->tau[k], b + k, m - k);
    return r;
}

VECTOR_CLONES
void lsq_cod_factor(lsq_cod *f, double rcond, double abs_tol, double *b, double *scratch)
{
    /* 3 x 3 (one contact) with the sizes known: the compiler unrolls the short loops */
    if (f->m == 3 && f->n == 3) f->r = pivoted_qr(f, 3, 3, rcond, abs_tol, b, scratch, scratch + 3);
    else if (f->n >= LSQ_COD_BLOCKED_MIN) f->r = pivoted_qr_blocked(f, rcond, abs_tol, b, scratch);
    else f->r = pivoted_qr(f, f->m, f->n, rcond, abs_tol, b, scratch, scratch + f->n);
    if (f->r < f->n && isfinite(f->r11)) trapezoid_rz(f, scratch, scratch + (f->n - f->r));
}

VECTOR_CLONES
void lsq_cod_apply_qt(const lsq_cod *f, double *b)
{
    for (int k = 0; k < f->r; k++) reflect(f->A + k + (size_t)f->m * k, f->tau[k], b + k, f->m - k);
}

/* y (n entries) <- Z^T y = Z_(r-1) ... Z_0 y. */
KERNEL void apply_zt(const lsq_cod *f, double *y)
{
    const int m = f->m, r = f->r, l = f->n - r;
    for (int i = 0; i < r; i++) {
        const double tau = f->tau2[i];
        if (tau == 0.0) continue;
        double d = y[i];
        for (int k = 0; k < l; k++) d += f->A[i + (size_t)m * (size_t)(r + k)] * y[r + k];
        d *= tau;
        y[i] -= d;
        for (int k = 0; k < l; k++) y[r + k] -= d * f->A[i + (size_t)m * (size_t)(r + k)];
    }
}

void lsq_cod_null(const lsq_cod *f, int i, double *x, double *y)
{
    const int n = f->n;
    for (int j = 0; j < n; j++) y[j] = j == f->r + i ? 1.0 : 0.0;
    apply_zt(f, y);
    for (int j = 0; j < n; j++) x[f->perm[j]] = y[j];
}

KERNEL void solve_sizes(const lsq_cod *f, const int m, const int n, const int r, const double *c,
                        double *x, double *y)
{
    for (int i = 0; i < r; i++) y[i] = c[i];
    for (int j = r - 1; j >= 0; j--) { /* R11 y = c (r = n), T z = c (r < n), by columns */
        const double *Rj = f->A + (size_t)m * j;
        y[j] /= Rj[j];
        for (int i = 0; i < j; i++) y[i] -= Rj[i] * y[j];
    }
    if (r < n) { /* y = Z^T [z; 0] */
        for (int i = r; i < n; i++) y[i] = 0.0;
        apply_zt(f, y);
    }
    for (int j = 0; j < n; j++) x[f->perm[j]] = y[j];
}

VECTOR_CLONES
void lsq_cod_solve(const lsq_cod *f, const double *c, double *x, double *y)
{
    /* 3 x 3 of full rank (one contact) with the sizes known, as in lsq_cod_factor */
    if (f->m == 3 && f->n == 3 && f->r == 3) solve_sizes(f, 3, 3, 3, c, x, y);
    else solve_sizes(f, f->m, f->n, f->r, c, x, y);
}

/* lsq_cod_min_norm's body, inline in ipx_plus_lsq: PLUS's single contact makes a 3 x 3 solve
   per pass, where a call more showed. */
static inline ipx_status cod_min_norm(int m, int n, double *A, double *b, double rcond,
                                      double *work, int *iwork, lsq_cod *f)
{
    if (m < 1 || n < 1) return IPX_ERR_INPUT;
    *f = (lsq_cod){.m = m, .n = n, .A = A, .tau = work, .tau2 = work + n, .perm = iwork};
    double *scratch = f->tau2 + n, *y = scratch + LSQ_COD_SCRATCH(n);
    lsq_cod_factor(f, rcond, 0.0, b, scratch);
    if (!isfinite(f->r11)) return IPX_ERR_NUMERIC;
    lsq_cod_solve(f, b, b, y);
    for (int j = 0; j < n; j++)
        if (!isfinite(b[j])) return IPX_ERR_NUMERIC;
    return IPX_OK;
}

ipx_status lsq_cod_min_norm(int m, int n, double *A, double *b, double rcond, double *work,
                            int *iwork, lsq_cod *f)
{
    return cod_min_norm(m, n, A, b, rcond, work, iwork, f);
}

double lsq_cod_cond(const lsq_cod *f)
{
    return f->r > 0 ? f->r11 / fabs(f->A[(f->r - 1) + (size_t)f->m * (f->r - 1)]) : 1.0;
}

ipx_status ipx_plus_lsq(int m, int n, double *A, double *b, double rcond, double *work, int *iwork,
                        int *rank_out)
{
    lsq_cod f = {.r = 0};
    ipx_status st = cod_min_norm(m, n, A, b, rcond, work, iwork, &f);
    if (rank_out) *rank_out = f.r;
    return st;
}
