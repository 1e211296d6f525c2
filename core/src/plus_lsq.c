/* Small dense minimum-2-norm least squares by complete orthogonal factorisation, the
   algorithm of LAPACK's dgelsy without its call overhead (PLUS solves many systems of 3 to a
   few dozen unknowns; bench_plus compares the two, test_plus_lsq checks they agree):
     1. Householder QR with column pivoting: A P = Q [R11 R12; 0 R22], rank r = number of
        |R_jj| > rcond |R_11| (dgelsy estimates the condition of R11 incrementally instead);
     2. if r < n, Householder QR of the trapezoid's transpose: [R11 R12]^T = Z [T; 0];
     3. x = P Z [T^-T (Q^T b)_1..r; 0], the minimum-norm least-squares solution. */
#include <math.h>
#include <string.h>

#include "impax/plus.h"

size_t ipx_plus_lsq_work_doubles(int m, int n)
{
    return (size_t)n * (size_t)n + 3 * (size_t)n + (size_t)m;
}

/* Householder reflector (LAPACK dlarfg): H = I - tau v v^T, v = (1, x/(alpha - beta)), maps
   (alpha, x) to (beta, 0). x has len entries with stride 1. Returns tau; *alpha becomes beta. */
static double reflector(double *alpha, double *x, int len)
{
    double xx = 0.0; /* the sizes PLUS meets are far from overflow: no scaled norm */
    for (int i = 0; i < len; i++) xx += x[i] * x[i];
    if (xx == 0.0) return 0.0;
    double xnorm = sqrt(xx);
    double beta = -copysign(hypot(*alpha, xnorm), *alpha);
    double tau = (beta - *alpha) / beta, scale = 1.0 / (*alpha - beta);
    for (int i = 0; i < len; i++) x[i] *= scale;
    *alpha = beta;
    return tau;
}

/* y <- H y for the reflector stored below the diagonal of column v (len rows from the
   diagonal, the implicit 1 first). */
static void reflect(const double *v, double tau, double *y, int len)
{
    if (tau == 0.0) return;
    double dot = y[0];
    for (int i = 1; i < len; i++) dot += v[i] * y[i];
    dot *= tau;
    y[0] -= dot;
    for (int i = 1; i < len; i++) y[i] -= dot * v[i];
}

static double column_norm(const double *col, int len)
{
    double s = 0.0;
    for (int i = 0; i < len; i++) s += col[i] * col[i];
    return sqrt(s);
}

static void swap_columns(double *A, int lda, int m, int a, int b)
{
    if (a == b) return;
    for (int i = 0; i < m; i++) {
        double t = A[i + (size_t)lda * a];
        A[i + (size_t)lda * a] = A[i + (size_t)lda * b];
        A[i + (size_t)lda * b] = t;
    }
}

/* Step 1 on A (m x n) and b (m): returns the rank; perm[j] = original column of column j. */
static int pivoted_qr(int m, int n, double *A, double *b, double rcond, int *perm)
{
    const int kmax = m < n ? m : n;
    double r11 = 0.0;
    for (int j = 0; j < n; j++) perm[j] = j;
    for (int k = 0; k < kmax; k++) {
        int best = k;
        double best_norm = -1.0;
        for (int j = k; j < n; j++) {
            double nrm = column_norm(A + k + (size_t)m * j, m - k);
            if (nrm > best_norm) best_norm = nrm, best = j;
        }
        if (k == 0) r11 = best_norm;
        if (!(best_norm > rcond * r11) || best_norm == 0.0) return k;
        swap_columns(A, m, m, k, best);
        int t = perm[k];
        perm[k] = perm[best];
        perm[best] = t;
        double *akk = A + k + (size_t)m * k;
        double tau = reflector(akk, akk + 1, m - k - 1);
        double diag = *akk;
        *akk = 1.0;
        for (int j = k + 1; j < n; j++) reflect(akk, tau, A + k + (size_t)m * j, m - k);
        reflect(akk, tau, b + k, m - k);
        *akk = diag;
    }
    return kmax;
}

/* Full column rank: R11 y = c by back substitution. */
static void solve_full_rank(int m, int n, const double *A, const double *c, double *y)
{
    for (int i = n - 1; i >= 0; i--) {
        double s = c[i];
        for (int j = i + 1; j < n; j++) s -= A[i + (size_t)m * j] * y[j];
        y[i] = s / A[i + (size_t)m * i];
    }
}

/* Rank r < n: steps 2-3 for y = Z [T^-T c; 0]. U (n x r) holds [R11 R12]^T, then Z and T. */
static void solve_deficient(int m, int n, int r, const double *A, const double *c, double *U,
                            double *tau, double *y)
{
    for (int i = 0; i < r; i++)
        for (int j = 0; j < n; j++) U[j + (size_t)n * i] = j >= i ? A[i + (size_t)m * j] : 0.0;
    for (int i = 0; i < r; i++) {
        double *uii = U + i + (size_t)n * i;
        tau[i] = reflector(uii, uii + 1, n - i - 1);
        double diag = *uii;
        *uii = 1.0;
        for (int j = i + 1; j < r; j++) reflect(uii, tau[i], U + i + (size_t)n * j, n - i);
        *uii = diag;
    }
    for (int i = 0; i < r; i++) { /* T^T z = c: forward substitution */
        double s = c[i];
        for (int j = 0; j < i; j++) s -= U[j + (size_t)n * i] * y[j];
        y[i] = s / U[i + (size_t)n * i];
    }
    for (int i = r; i < n; i++) y[i] = 0.0;
    for (int i = r - 1; i >= 0; i--) { /* y <- Z y, Z = H_0 ... H_(r-1) */
        double *uii = U + i + (size_t)n * i, diag = *uii;
        *uii = 1.0;
        reflect(uii, tau[i], y + i, n - i);
        *uii = diag;
    }
}

ipx_status ipx_plus_lsq(int m, int n, double *A, double *b, double rcond, double *work,
                        int *iwork, int *rank_out)
{
    if (m < 1 || n < 1) return IPX_ERR_INPUT;
    int r = pivoted_qr(m, n, A, b, rcond, iwork);
    if (rank_out) *rank_out = r;
    double *U = work, *tau = work + (size_t)n * (size_t)n, *y = tau + n;
    if (r == n) solve_full_rank(m, n, A, b, y);
    else solve_deficient(m, n, r, A, b, U, tau, y);
    for (int j = 0; j < n; j++) b[iwork[j]] = y[j];
    for (int j = 0; j < n; j++)
        if (!isfinite(b[j])) return IPX_ERR_NUMERIC;
    return IPX_OK;
}
