/* Lemke's complementary pivoting method with the lexicographic ratio test
   (Cottle, Pang, Stone, "The Linear Complementarity Problem", 1992, sections 4.4 and 4.9). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "impax/lcp.h"
#include "impax/linalg.h"

/* Tableau layout, row-major with n rows and COLS = 2n + 2 columns:
   [ B^-1 (the w columns) | B^-1 (-M) (the z columns) | B^-1 (-d) (z0) | B^-1 q ].
   The w columns start as the identity, so they always hold the current basis inverse, which is
   what the lexicographic rule compares. Variables: 0..n-1 = w, n..2n-1 = z, 2n = z0. */

/* The tableau, then the polish: a copy of M_ZZ, a right-hand side and dgelsy's work. */
size_t ipx_lemke_work_doubles(int n)
{
    return (size_t)n * (size_t)(2 * n + 2) + (size_t)n * (size_t)n + (size_t)n +
           ipx_lsq_work_doubles(n, n);
}
size_t ipx_lemke_work_ints(int n) { return 3 * (size_t)n; }
int ipx_lemke_default_max_pivots(int n) { return 50 * n + 1000; }

#define Z0_TIE 1e-7 /* relative tolerance for letting z0 leave on a near-tie */

typedef struct tableau {
    int n, cols;
    double *t;      /* n x cols */
    int *basis;     /* variable basic in each row */
    int *ties;      /* candidate rows of the ratio test */
    double pivot_tol;
    double rhs_noise;   /* absolute round-off expected in the rhs column: 1e-11 max|q| */
} tableau;

#define T(tab, i, j) ((tab)->t[(size_t)(i) * (size_t)(tab)->cols + (size_t)(j)])

static void pivot(tableau *tab, int r, int c)
{
    const int cols = tab->cols;
    double *row = &T(tab, r, 0);
    const double inv = 1.0 / row[c];
    for (int j = 0; j < cols; j++) row[j] *= inv;
    row[c] = 1.0;
    for (int i = 0; i < tab->n; i++) {
        if (i == r) continue;
        double *other = &T(tab, i, 0);
        const double f = other[c];
        if (f == 0.0) continue;
        for (int j = 0; j < cols; j++) other[j] -= f * row[j];
        other[c] = 0.0;
    }
}

/* How far above the best ratio a row's ratio may be and still tie: a relative part, and the rhs
   round-off seen through this row's pivot entry (a tiny rhs is mostly round-off). */
static double tie_tolerance(const tableau *tab, int row, int enter, double best, double rel)
{
    return rel * fabs(best) + tab->rhs_noise / T(tab, row, enter);
}

/* Keeps, among the candidate rows, those whose column `col` divided by the pivot-column entry
   is smallest (within a relative tolerance). Returns the new number of candidates. */
static int keep_smallest(tableau *tab, int count, int col, int enter)
{
    double best = INFINITY;
    for (int k = 0; k < count; k++) {
        int i = tab->ties[k];
        best = fmin(best, T(tab, i, col) / T(tab, i, enter));
    }
    /* after many pivots tableau entries carry relative errors far above machine epsilon, so
       ratios equal in exact arithmetic differ in the last digits: treat them as ties */
    int kept = 0;
    for (int k = 0; k < count; k++) {
        int i = tab->ties[k];
        double tol = col == tab->cols - 1 ? tie_tolerance(tab, i, enter, best, 1e-9) : 1e-9 * fabs(best) + 1e-15;
        if (T(tab, i, col) / T(tab, i, enter) <= best + tol) tab->ties[kept++] = i;
    }
    return kept;
}

/* Lexicographic minimum-ratio test on the entering column: the rhs first, then the columns of
   the basis inverse in turn, until one row is left. -1 if no entry is positive (a ray). */
static int ratio_test(tableau *tab, int enter)
{
    const int n = tab->n;
    int count = 0;
    for (int i = 0; i < n; i++)
        if (T(tab, i, enter) > tab->pivot_tol) tab->ties[count++] = i;
    if (count == 0) return -1;
    /* if z0 can leave, let it: the next basis is a solution. Its ratio is compared with a looser
       tolerance (Z0_TIE) because redundant contacts make exact ties that round-off splits; the
       final re-solve (polish) removes the small infeasibility this may leave. */
    double best = INFINITY;
    for (int k = 0; k < count; k++) {
        int i = tab->ties[k];
        best = fmin(best, T(tab, i, tab->cols - 1) / T(tab, i, enter));
    }
    for (int k = 0; k < count; k++) {
        int i = tab->ties[k];
        if (tab->basis[i] == 2 * n &&
            T(tab, i, tab->cols - 1) / T(tab, i, enter) <= best + tie_tolerance(tab, i, enter, best, Z0_TIE))
            return i;
    }
    count = keep_smallest(tab, count, tab->cols - 1, enter);
    for (int col = 0; col < n && count > 1; col++) count = keep_smallest(tab, count, col, enter);
    return tab->ties[0];
}

static double max_abs(const double *x, size_t count)
{
    double m = 0.0;
    for (size_t i = 0; i < count; i++) m = fmax(m, fabs(x[i]));
    return m;
}

static int all_finite(const double *x, size_t count)
{
    for (size_t i = 0; i < count; i++)
        if (!isfinite(x[i])) return 0;
    return 1;
}

static void setup(tableau *tab, int n, const double *M, const double *q, double *dwork, int *iwork)
{
    tab->n = n;
    tab->cols = 2 * n + 2;
    tab->t = dwork;
    tab->basis = iwork;
    tab->ties = iwork + n;
    memset(tab->t, 0, sizeof(double) * (size_t)n * (size_t)tab->cols);
    for (int i = 0; i < n; i++) {
        T(tab, i, i) = 1.0;
        for (int j = 0; j < n; j++) T(tab, i, n + j) = -M[i + (size_t)n * j];
        T(tab, i, 2 * n) = -1.0;
        T(tab, i, 2 * n + 1) = q[i];
        tab->basis[i] = i;
    }
    tab->pivot_tol = 1e-11 * fmax(1.0, max_abs(M, (size_t)n * n));
    tab->rhs_noise = 1e-11 * max_abs(q, (size_t)n);
}

/* The complementary pivoting loop from the first pivot on z0. */
static ipx_status run(tableau *tab, int max_pivots, int *pivots)
{
    const int n = tab->n;
    /* z0 enters at the most negative q; among equal ones the last row keeps the basis
       lexicographically positive (CPS 4.4.5) */
    int r = 0;
    for (int i = 1; i < n; i++)
        if (T(tab, i, 2 * n + 1) <= T(tab, r, 2 * n + 1)) r = i;
    int leaving = tab->basis[r];
    pivot(tab, r, 2 * n);
    tab->basis[r] = 2 * n;
    *pivots = 1;
    while (leaving != 2 * n) {
        if (*pivots >= max_pivots) return IPX_ERR_LCP_PIVOTS;
        int enter = leaving < n ? leaving + n : leaving - n; /* the complement */
        r = ratio_test(tab, enter);
        if (r < 0) return IPX_ERR_LCP_RAY;

        leaving = tab->basis[r];
        pivot(tab, r, enter);
        tab->basis[r] = enter;
        ++*pivots;
    }
    return IPX_OK;
}

/* Largest violation of z >= 0, w = Mz + q >= 0 and z.w = 0 (w recomputed from the data). */
static double infeasibility(int n, const double *M, const double *q, const double *z, double *w)
{
    double worst = 0.0;
    for (int i = 0; i < n; i++) w[i] = q[i];
    for (int j = 0; j < n; j++) {
        if (z[j] == 0.0) continue;
        for (int i = 0; i < n; i++) w[i] += M[i + (size_t)n * j] * z[j];
    }
    for (int i = 0; i < n; i++) worst = fmax(worst, fmax(fmax(-z[i], -w[i]), fabs(z[i] * w[i])));
    return worst;
}

/* Re-solves the final complementary basis from the original data: M_ZZ z_Z = -q_Z over the
   indices Z whose z is basic. The tableau's z carries the round-off of every pivot; this does
   not. Kept only if it is at least as feasible. */
static void polish(int n, const double *M, const double *q, const int *basis, double *z, double *w,
                   double *work, int *iwork)
{
    double before = infeasibility(n, M, q, z, w);
    if (before <= 1e-14 * max_abs(q, (size_t)n)) return; /* already clean: skip the solve */
    int *Z = iwork + 2 * n, m = 0;
    for (int i = 0; i < n; i++)
        if (basis[i] >= n && basis[i] < 2 * n) Z[m++] = basis[i] - n;
    if (m == 0) return;
    double *A = work, *b = A + (size_t)m * m, *lsq = b + n;
    for (int c = 0; c < m; c++)
        for (int r = 0; r < m; r++) A[r + (size_t)m * c] = M[Z[r] + (size_t)n * Z[c]];
    for (int r = 0; r < m; r++) b[r] = -q[Z[r]];
    if (ipx_lsq_min_norm(m, m, A, b, 1e-13, lsq, iwork, NULL) != IPX_OK) return;
    double *trial = lsq; /* dgelsy's work is free again: reuse it for the candidate */
    for (int i = 0; i < n; i++) trial[i] = 0.0;
    for (int r = 0; r < m; r++) trial[Z[r]] = fmax(0.0, b[r]);
    if (infeasibility(n, M, q, trial, w) <= before)
        for (int i = 0; i < n; i++) z[i] = trial[i];
}

ipx_status ipx_lemke(int n, const double *M, const double *q, double *z, double *w,
                     int max_pivots, double *dwork, int *iwork, int *pivots_out)
{
    int pivots = 0;
    if (pivots_out) *pivots_out = 0;
    if (n < 1 || !M || !q || !z || !w || !dwork || !iwork) return IPX_ERR_INPUT;
    memset(z, 0, sizeof(double) * (size_t)n);
    if (!all_finite(M, (size_t)n * n) || !all_finite(q, (size_t)n)) {
        memset(w, 0, sizeof(double) * (size_t)n);
        return IPX_ERR_INPUT;
    }
    int trivial = 1;
    for (int i = 0; i < n; i++) trivial &= q[i] >= 0.0;
    ipx_status st = IPX_OK;
    if (!trivial) {
        tableau tab;
        setup(&tab, n, M, q, dwork, iwork);
        st = run(&tab, max_pivots, &pivots);
        if (st == IPX_OK) {
            for (int i = 0; i < n; i++)
                if (tab.basis[i] >= n && tab.basis[i] < 2 * n)
                    z[tab.basis[i] - n] = fmax(0.0, T(&tab, i, 2 * n + 1));
            polish(n, M, q, tab.basis, z, w, dwork + (size_t)n * (size_t)tab.cols, iwork);
        }
    }
    if (pivots_out) *pivots_out = pivots;
    if (st != IPX_OK) {
        memset(z, 0, sizeof(double) * (size_t)n);
        memset(w, 0, sizeof(double) * (size_t)n);
        return st;
    }
    /* w from the original data, not the tableau: round-off in the pivots does not reach it */
    for (int i = 0; i < n; i++) w[i] = q[i];
    for (int j = 0; j < n; j++) {
        if (z[j] == 0.0) continue;
        const double *col = M + (size_t)n * j;
        for (int i = 0; i < n; i++) w[i] += col[i] * z[j];
    }
    return IPX_OK;
}
