/* PLUS's minimum-norm solves (min_norm.h). Small systems go straight to ipx_plus_lsq. Larger
   ones go through a cache (ipx_min_norm_cache) in its work array: the last matrix and right-hand side, their
   solution, and possibly a complete orthogonal factorisation (lsq_cod.h) of that matrix
   without a few of its columns S (a "base" factor).

   The impending-slip direction search (plus_search.c) solves B x = w for one contact's slip
   angle after another: B differs from the previous matrix in one column only (the contact's
   normal column, in its two friction rows), w is the same; with several impending contacts it
   sweeps over them, so the changing column moves among a few. With a base factor of
   A = B without the columns S (p of them), the minimum-norm least-squares solution of
   [A G] (G = B's columns S, moved last) follows from A's factor in O(m^2 p), exactly:
     x0 = A^+ w, H = A^+ G; G2, w2 = the parts of G, w outside range(A);
     the least-squares solutions are eta (G's unknowns) minimising |G2 eta - w2|, that is
     eta = G2^+ w2 + N t (N: orthonormal null space of G2), with A's unknowns x0 - H eta plus
     anything in null(A); the smallest of them has null(A) part 0 and t minimising
     |x0 - H eta|^2 + |eta|^2:  (I + K^T K) t = K^T (x0 - H G2^+ w2), K = H N;
     x = (x0 - H eta, with eta at the columns S).
   G2's rank is decided by the rule of the factorisation itself (column norms above rcond
   max(|R_11|, |G_j|)). For one column this is eta = g2.w2 / |g2|^2 if g2 != 0, else
   eta = h.x0 / (1 + |h|^2). Consistent or not, of full rank or not, it is the minimum-norm
   least-squares solution the dense path computes (test_min_norm_cache compares them). Leaving
   columns out can make A much worse conditioned than B: where the rounding error this gives
   could be well above the dense path's own (error_limit), the answer is refined, or that one
   system is solved densely instead.

   A left-out column that changes only in the same one or two rows (the impending contact's
   friction rows, which hold mu cos(phi) and mu sin(phi)) is split at its first change into its
   fixed part and those rows' unit vectors, each through A's factor; every later change of it
   gets Q^T g and A^+ g as their combination in O(m) (split_column, combine_split).

   The same system again returns the stored solution. Everything else is a dense solve
   (ipx_plus_lsq, bitwise what it gives without the cache), after which the matrix is kept (not
   its factor: PLUS's other solves change the matrix or its size, reusing a factor for a new
   right-hand side alone never paid). Which system the work array holds is known from the
   cache's typed fields alone (m, rcond: the key), emptied when its owner begins it
   (ipx_min_norm_begin, at each impact), then an exact comparison of the matrix: the work
   array's bytes are never read before this cache wrote them, so nothing an earlier impact
   left there can reach an answer. */
#include <float.h>
#include <math.h>
#include <string.h>

#include "impax/linalg.h"
#include "impax/plus.h"
#include "lsq_cod.h"
#include "mathutil.h"
#include "min_norm.h"

#define MAX_SET IPX_MIN_NORM_MAX_SET
#define SPLIT_ROWS IPX_MIN_NORM_SPLIT_ROWS
#define NOT_SPLIT (-1)   /* sr of a left-out column not split yet, or a split's unused row */
#define NEVER_SPLIT (-2) /* sr of one that changed outside its rows: not split again */

int ipx_min_norm_set_limit(int n)
{
    const int lim = n / 4;
    return lim < 8 ? 8 : lim > MAX_SET ? MAX_SET : lim;
}

enum { KIND_NONE = 0, KIND_MATRIX = 1, KIND_BASE = 2 }; /* matrix alone, or with a base factor */
/* g_ok of a left-out column: Q^T g and A^+ g to compute, up to date, or to combine from its
   split (split_column) */
enum { G_STALE = 0, G_OK = 1, G_COMBINE = 2 };

/* The work array for m unknowns, carved in this order. */
typedef struct cache {
    ipx_min_norm_cache *h; /* which system it holds, and how */
    double *M, *w;         /* m*m, m: the last matrix and right-hand side */
    double *x;             /* m: their solution */
    double *F;             /* m*m: the factored matrix (m x m, or m x (m - p) for a base) */
    double *tau, *tau2;
    int *perm;           /* m ints in m doubles */
    double *x0, *wq;     /* base: A^+ w and Q^T w */
    double *GQ, *H;      /* base: m x MAX_SET each, Q^T g and A^+ g of the left-out columns */
    double *split;       /* base: m x (2 + 2 SPLIT_ROWS) per left-out column, see split_column */
    double *y, *scratch; /* m, LSQ_COD_SCRATCH(m) */
    double *small;       /* the p-column problem: see solve_base */
    double *fallback;    /* work of ipx_plus_lsq */
} cache;

#define SPLIT_DOUBLES (2 + 2 * SPLIT_ROWS)
#define SMALL_DOUBLES(m) ((size_t)(m) * (2 * MAX_SET + 2) + 9 * MAX_SET + 3 * MAX_SET * MAX_SET)

static size_t cache_doubles(int m)
{
    const size_t mm = (size_t)m;
    return 2 * mm * mm + 8 * mm + LSQ_COD_SCRATCH(m) + 2 * MAX_SET * mm +
           SPLIT_DOUBLES * MAX_SET * mm + SMALL_DOUBLES(m) + ipx_plus_lsq_work_doubles(m, m);
}

size_t ipx_min_norm_work_doubles(int n)
{
    const size_t small = ipx_plus_lsq_work_doubles(n, n), cached = cache_doubles(n);
    return small > cached ? small : cached;
}

static cache carve(ipx_min_norm_cache *h, int m)
{
    const size_t mm = (size_t)m;
    cache c;
    c.h = h;
    c.M = h->work;
    c.w = c.M + mm * mm;
    c.x = c.w + mm;
    c.F = c.x + mm;
    c.tau = c.F + mm * mm;
    c.tau2 = c.tau + mm;
    c.perm = (int *)(c.tau2 + mm);
    c.x0 = c.tau2 + 2 * mm;
    c.wq = c.x0 + mm;
    c.GQ = c.wq + mm;
    c.H = c.GQ + MAX_SET * mm;
    c.split = c.H + MAX_SET * mm;
    c.y = c.split + SPLIT_DOUBLES * MAX_SET * mm;
    c.scratch = c.y + mm;
    c.small = c.scratch + LSQ_COD_SCRATCH(m);
    c.fallback = c.small + SMALL_DOUBLES(m);
    return c;
}

static lsq_cod cod_of(const cache *c, int m, int n)
{
    return (lsq_cod){.m = m,
                     .n = n,
                     .r = c->h->rank,
                     .A = c->F,
                     .tau = c->tau,
                     .tau2 = c->tau2,
                     .perm = c->perm,
                     .r11 = c->h->r11,
                     .next = c->h->next};
}

static void copy(double *to, const double *from, size_t n)
{
    if (to != from) memcpy(to, from, sizeof(double) * n);
}

/* 1 if column j of A (m x m) differs from the cached matrix's. */
static int column_changed(const cache *c, int m, const double *A, int j)
{
    return memcmp(A + (size_t)m * j, c->M + (size_t)m * j, sizeof(double) * (size_t)m) != 0;
}

/* Columns of A (m x m) that differ from the cached matrix, ascending, into cols; returns how
   many, counting no further than MAX_SET + 1. Only the columns known[0..nknown) are compared
   if known is not NULL (the caller vouches for the others). */
static int changed_columns(const cache *c, int m, const double *A, const int *known, int nknown,
                           int *cols)
{
    int count = 0;
    if (!known) {
        for (int j = 0; j < m && count <= MAX_SET; j++)
            if (column_changed(c, m, A, j)) cols[count++] = j;
        return count;
    }
    for (int i = 0; i < nknown && count <= MAX_SET; i++) { /* ascending, by insertion */
        const int j = known[i];
        if (!column_changed(c, m, A, j)) continue;
        int a = count++;
        for (; a > 0 && cols[a - 1] > j; a--) cols[a] = cols[a - 1];
        cols[a] = j;
    }
    return count;
}

/* 1 if column j is in the base's set (its slot in *slot). */
static int in_set(const cache *c, int j, int *slot)
{
    for (int i = 0; i < c->h->ns; i++)
        if (c->h->s[i] == j) {
            *slot = i;
            return 1;
        }
    return 0;
}

/* Base factor: the cached matrix (c->M) without the columns set[0..p) (ascending). */
static void factor_base(cache *c, int m, const int *set, int p, double rcond)
{
    const size_t mm = (size_t)m;
    for (int j = 0, o = 0, s = 0; j < m; j++) {
        if (s < p && set[s] == j) {
            s++;
            continue;
        }
        copy(c->F + mm * (size_t)o++, c->M + mm * (size_t)j, mm);
    }
    lsq_cod f = cod_of(c, m, m - p);
    lsq_cod_factor(&f, rcond, 0.0, NULL, c->scratch);
    c->h->kind = KIND_BASE;
    c->h->rank = f.r;
    c->h->r11 = f.r11;
    c->h->next = f.next;
    c->h->ns = p;
    for (int i = 0; i < p; i++) {
        c->h->s[i] = set[i], c->h->g_ok[i] = G_STALE;
        for (int t = 0; t < SPLIT_ROWS; t++) c->h->sr[SPLIT_ROWS * i + t] = NOT_SPLIT;
    }
    c->h->w_ok = 0;
}

/* wq = Q^T w and x0 = A^+ w for the base factor. */
static void base_rhs(cache *c, int m, const double *w, double *wq, double *x0)
{
    lsq_cod f = cod_of(c, m, m - c->h->ns);
    copy(wq, w, (size_t)m);
    lsq_cod_apply_qt(&f, wq);
    lsq_cod_solve(&f, wq, x0, c->y);
}

/* A left-out column that changes again and again in the same few rows (the friction rows of an
   impending contact, which hold mu cos(phi) and mu sin(phi) of its slip angle) is kept split:
   g = g_f + sum_t g[row_t] e_(row_t), g_f the column with those rows zeroed. Q^T and A^+ are
   linear, so Q^T g and A^+ g follow from Q^T g_f, A^+ g_f and each row's Q^T e, A^+ e in O(m)
   (combine_split) where each cost O(m^2) from g (a Householder pass and a triangular solve):
   the search's probes and Newton on the angles change only such columns. The split of slot i,
   m doubles each: Q^T g_f, A^+ g_f, then per row Q^T e and A^+ e. */
static double *split_part(const cache *c, int m, int i, int part)
{
    return c->split + (size_t)m * (size_t)(SPLIT_DOUBLES * i + part);
}

/* The rows (ascending, at most SPLIT_ROWS) in which column j of A differs from the cached
   matrix's into rows; returns their count, SPLIT_ROWS + 1 if more. */
static int differing_rows(const cache *c, int m, const double *A, int j, int *rows)
{
    const double *a = A + (size_t)m * j, *b = c->M + (size_t)m * j;
    int n = 0;
    for (int r = 0; r < m; r++) {
        if (a[r] == b[r]) continue;
        if (n == SPLIT_ROWS) return SPLIT_ROWS + 1;
        rows[n++] = r;
    }
    return n;
}

/* Splits slot i's column over the rows rows[0..n): each row's unit vector through the base
   factor, and the fixed part, which is the old column's Q^T g and A^+ g (up to date: G_OK)
   less its entries in those rows (old[0..n)) times the unit vectors'. */
static void split_column(cache *c, int m, int i, const int *rows, const double *old, int n)
{
    const size_t mm = (size_t)m;
    lsq_cod f = cod_of(c, m, m - c->h->ns);
    double *fq = split_part(c, m, i, 0), *fh = split_part(c, m, i, 1);
    copy(fq, c->GQ + mm * (size_t)i, mm);
    copy(fh, c->H + mm * (size_t)i, mm);
    for (int t = 0; t < SPLIT_ROWS; t++) {
        c->h->sr[SPLIT_ROWS * i + t] = t < n ? rows[t] : NOT_SPLIT;
        if (t >= n) continue;
        double *eq = split_part(c, m, i, 2 + 2 * t), *eh = split_part(c, m, i, 3 + 2 * t);
        for (size_t r = 0; r < mm; r++) eq[r] = 0.0;
        eq[rows[t]] = 1.0;
        lsq_cod_apply_qt(&f, eq);
        lsq_cod_solve(&f, eq, eh, c->y);
        for (size_t r = 0; r < mm; r++) fq[r] -= old[t] * eq[r];
        for (size_t r = 0; r < mm; r++) fh[r] -= old[t] * eh[r];
    }
}

/* 1 if rows[0..n) are among slot i's split rows. */
static int within_split(const cache *c, int i, const int *rows, int n)
{
    for (int a = 0; a < n; a++) {
        int found = 0;
        for (int t = 0; t < SPLIT_ROWS; t++) found |= c->h->sr[SPLIT_ROWS * i + t] == rows[a];
        if (!found) return 0;
    }
    return c->h->sr[SPLIT_ROWS * i] >= 0;
}

/* Q^T g and A^+ g of slot i from its split and the column's current entries in its rows. */
static void combine_split(cache *c, int m, int i)
{
    const size_t mm = (size_t)m;
    const double *g = c->M + mm * (size_t)c->h->s[i];
    double *gq = c->GQ + mm * (size_t)i, *gh = c->H + mm * (size_t)i;
    copy(gq, split_part(c, m, i, 0), mm);
    copy(gh, split_part(c, m, i, 1), mm);
    for (int t = 0; t < SPLIT_ROWS; t++) {
        const int row = c->h->sr[SPLIT_ROWS * i + t];
        if (row < 0) continue;
        const double a = g[row], *eq = split_part(c, m, i, 2 + 2 * t);
        const double *eh = split_part(c, m, i, 3 + 2 * t);
        for (size_t r = 0; r < mm; r++) gq[r] += a * eq[r];
        for (size_t r = 0; r < mm; r++) gh[r] += a * eh[r];
    }
}

/* Takes the new column of left-out slot i from src into the cached matrix, with what that
   makes of its Q^T g and A^+ g: a combination of its split if it changed only in the split's
   rows; its first change, in at most SPLIT_ROWS rows, splits it; a change elsewhere of a split
   column sends it back to full passes for the rest of this base. */
static void change_left_out(cache *c, int m, const double *src, int i)
{
    const size_t mm = (size_t)m, j = (size_t)c->h->s[i];
    int rows[SPLIT_ROWS + 1];
    double old[SPLIT_ROWS];
    const int nr = differing_rows(c, m, src, (int)j, rows);
    int split = nr <= SPLIT_ROWS && within_split(c, i, rows, nr);
    for (int t = 0; t < nr && t < SPLIT_ROWS; t++) old[t] = c->M[rows[t] + mm * j];
    copy(c->M + mm * j, src + mm * j, mm);
    int *state = c->h->sr + SPLIT_ROWS * i;
    if (!split && nr <= SPLIT_ROWS && state[0] == NOT_SPLIT && c->h->g_ok[i] == G_OK) {
        split_column(c, m, i, rows, old, nr); /* the first change: split it */
        c->h->splits += 1;
        split = 1;
    } else if (!split && state[0] != NOT_SPLIT) {
        for (int t = 0; t < SPLIT_ROWS; t++) state[t] = NEVER_SPLIT;
    }
    c->h->g_ok[i] = split ? G_COMBINE : G_STALE;
}

/* solve_base's arrays for the left-out columns' problem (tail rows, p = ns columns), carved
   from c->small; after a solve, Nt (p x q), the factored S (q x q) and K (n x q) hold the
   null space it found among those columns (project_out_null). */
typedef struct small_parts {
    double *G2, *w2, *eta, *tau, *tau2, *sy, *sscr, *Nt, *S, *t, *d;
    double *K; /* n x (p - rho): carved last, it needs n * MAX_SET */
} small_parts;

static small_parts carve_small(const cache *c, int m, int tail)
{
    const int p = c->h->ns;
    small_parts sp;
    sp.G2 = c->small;
    sp.w2 = sp.G2 + (size_t)tail * p;
    sp.eta = sp.w2 + (tail > p ? tail : p);
    sp.tau = sp.eta + MAX_SET;
    sp.tau2 = sp.tau + MAX_SET;
    sp.sy = sp.tau2 + MAX_SET;
    sp.sscr = sp.sy + MAX_SET;
    sp.Nt = sp.sscr + 2 * MAX_SET;
    sp.S = sp.Nt + MAX_SET * MAX_SET;
    sp.t = sp.S + MAX_SET * MAX_SET;
    sp.d = sp.t + MAX_SET;
    sp.K = sp.d + (m - p);
    return sp;
}

/* What solve_base found besides the answer: what separation needs of G2's factor, which
   lives only during the solve. */
typedef struct base_out {
    int rank, q;   /* the system's rank; the null space's dimension among the left-out columns */
    double cut;    /* rcond |B|_col: the cut that B's own factor makes (its longest column) */
    double g_kept; /* G2's smallest kept pivot (+inf if none) */
    double g_next; /* G2's largest pivot left out (0 if none) */
} base_out;

/* How far a factor's pivots lie from cut: the smaller of the ratio of its smallest kept pivot
   (kept, divided by kept_scale) to the cut and of the cut to its largest left out (next). */
static double gap(double kept, double next, double cut, double kept_scale)
{
    const double s = kept / (cut * kept_scale);
    return next > 0.0 ? fmin(s, cut / next) : s;
}

/* How far the base's factors (A's, G2's) lie from the cut that the whole system's own factor
   makes, after solve_base gave *o. The kept pivots count as bounds on B's singular values:
   with y = x_A + H eta, |B x|^2 = |A y|^2 + |G2 eta|^2 and |x|^2 <= 2 |y|^2 + (1 + 2 |H|^2)
   |eta|^2, so A's count divided by sqrt(2) and G2's by sqrt(1 + 2 |H|_F^2). Where A^+ g is
   long, B's singular value along a left-out column is far below its part outside range(A) (a
   feedback island: G2's pivots 5e3 times the cut, B's 0.4 times, and B's factor had one rank
   less). */
static double separation(const cache *c, int m, const base_out *o)
{
    if (!(o->cut > 0.0)) return 0.0;
    const int p = c->h->ns, n = m - p;
    const lsq_cod f = cod_of(c, m, n);
    double h2 = 0.0; /* |H|_F^2 */
    for (int i = 0; i < p; i++) h2 += ipx_norm2(c->H + (size_t)m * (size_t)i, n);
    const double a_kept = f.r > 0 ? f.r11 / lsq_cod_cond(&f) : INFINITY;
    return fmin(gap(a_kept, f.next, o->cut, sqrt(2.0)),
                gap(o->g_kept, o->g_next, o->cut, sqrt(1.0 + 2.0 * h2)));
}

/* The solution x of the cached matrix for the right-hand side w given by wq = Q^T w and
   x0 = A^+ w (base_rhs), and what it found in *out. Returns a bound on x's rounding error
   relative to its largest entry. */
static double solve_base(cache *c, int m, double rcond, const double *wq, const double *x0,
                         double *x, base_out *out)
{
    const int n = m - c->h->ns, p = c->h->ns;
    const size_t mm = (size_t)m;
    lsq_cod f = cod_of(c, m, n);
    const int r = f.r, tail = m - r;
    double scale = f.r11;
    for (int i = 0; i < p; i++) {
        const double *g = c->M + mm * (size_t)c->h->s[i];
        if (c->h->g_ok[i] == G_STALE) {
            double *gq = c->GQ + mm * (size_t)i;
            copy(gq, g, mm);
            lsq_cod_apply_qt(&f, gq);
            lsq_cod_solve(&f, gq, c->H + mm * (size_t)i, c->y);
        } else if (c->h->g_ok[i] == G_COMBINE) {
            combine_split(c, m, i);
        }
        c->h->g_ok[i] = G_OK;
        scale = fmax(scale, sqrt(ipx_norm2(g, m)));
    }
    /* G2 eta = w2 in least squares, through its own factor (rank rho) */
    const small_parts sp = carve_small(c, m, tail);
    double *G2 = sp.G2, *w2 = sp.w2, *eta = sp.eta, *tau = sp.tau, *tau2 = sp.tau2, *sy = sp.sy;
    double *sscr = sp.sscr, *Nt = sp.Nt, *S = sp.S, *t = sp.t, *d = sp.d, *K = sp.K;
    int sperm[MAX_SET];
    for (int i = 0; i < p; i++)
        copy(G2 + (size_t)tail * i, c->GQ + mm * (size_t)i + r, (size_t)tail);
    copy(w2, wq + r, (size_t)tail);
    lsq_cod g = {.m = tail, .n = p, .A = G2, .tau = tau, .tau2 = tau2, .perm = sperm};
    int rho = 0;
    if (tail > 0) {
        lsq_cod_factor(&g, rcond, rcond * scale, w2, sscr);
        rho = g.r;
        lsq_cod_solve(&g, w2, eta, sy); /* G2^+ w2 */
    } else {
        for (int i = 0; i < p; i++) eta[i] = 0.0;
        g.r = 0;
        for (int i = 0; i < p; i++) sperm[i] = i;
    }
    const int q = p - rho;
    out->q = q;
    out->cut = rcond * scale;
    out->g_kept = tail > 0 && rho > 0 ? g.r11 / lsq_cod_cond(&g) : INFINITY;
    out->g_next = tail > 0 ? g.next : 0.0;
    if (q > 0) { /* eta += N t, (I + K^T K) t = K^T d, K = H N, d = x0 - H eta */
        for (int l = 0; l < q; l++) {
            if (tail > 0) lsq_cod_null(&g, l, Nt + (size_t)p * l, sy);
            else
                for (int i = 0; i < p; i++) Nt[i + (size_t)p * l] = i == l ? 1.0 : 0.0;
        }
        for (int j = 0; j < n; j++) {
            double s = x0[j];
            for (int i = 0; i < p; i++) s -= c->H[j + mm * (size_t)i] * eta[i];
            d[j] = s;
        }
        for (int l = 0; l < q; l++)
            for (int j = 0; j < n; j++) {
                double s = 0.0;
                for (int i = 0; i < p; i++) s += c->H[j + mm * (size_t)i] * Nt[i + (size_t)p * l];
                K[j + (size_t)n * l] = s;
            }
        for (int a = 0; a < q; a++) {
            t[a] = ipx_dot(K + (size_t)n * a, d, n);
            for (int b = 0; b <= a; b++)
                S[a + q * b] = S[b + q * a] =
                    ipx_dot(K + (size_t)n * a, K + (size_t)n * b, n) + (a == b);
        }
        /* S = K^T K + I has every eigenvalue >= 1: it factors whenever K is finite, and a
           non-finite K leaves a NaN answer for the caller's checks to refuse */
        if (ipx_cholesky_factor(q, S) == IPX_OK) ipx_cholesky_solve(q, S, 1, t);
        else
            for (int l = 0; l < q; l++) t[l] = NAN;
        for (int i = 0; i < p; i++)
            for (int l = 0; l < q; l++) eta[i] += Nt[i + (size_t)p * l] * t[l];
    }
    out->rank = r + rho;
    double big = 0.0, size = 0.0;
    for (int j = 0, o = 0, s = 0; j < m; j++) {
        if (s < p && c->h->s[s] == j) {
            x[j] = eta[s++];
            size = ipx_max(size, fabs(x[j]));
            continue;
        }
        double v = x0[o];
        big = ipx_max(big, fabs(v));
        for (int i = 0; i < p; i++) {
            const double hv = c->H[o + mm * (size_t)i] * eta[i];
            big = ipx_max(big, fabs(hv));
            v -= hv;
        }
        x[j] = v;
        size = ipx_max(size, fabs(v));
        o++;
    }
    /* rounding error bound of x relative to its size: A's condition (as its pivots show) times
       the cancellation in x0 - H eta */
    return DBL_EPSILON * lsq_cod_cond(&f) * (size > 0.0 ? fmax(big / size, 1.0) : 1.0);
}

/* 1 if the columns cols[0..n) (n > 0) are among those that changed at the last dense
   solve(s). */
static int subset_of_pending(const cache *c, const int *cols, int n)
{
    int found = n > 0;
    for (int i = 0; i < n && found; i++) {
        found = 0;
        for (int l = 0; l < c->h->pn; l++) found |= c->h->p[l] == cols[i];
    }
    return found;
}

/* x (the held system's m unknowns) less its part along the null space that the last
   solve_base found among the left-out columns, which no residual shows: the q directions
   Y_l = (-H N_l at A's unknowns, N_l at the columns S), orthogonal to the minimum-norm answer,
   with Y^T Y = I + K^T K, solve_base's S. x -= Y (Y^T Y)^-1 Y^T x; returns the largest change. */
static double project_out_null(cache *c, int m, int q, double *x)
{
    const int p = c->h->ns, n = m - p;
    const small_parts sp = carve_small(c, m, m - c->h->rank);
    double *xa = sp.d, *u = sp.t, change = 0.0; /* x at A's unknowns; Y^T x, then the step */
    for (int j = 0, o = 0, s = 0; j < m; j++) {
        if (s < p && c->h->s[s] == j) s++;
        else xa[o++] = x[j];
    }
    for (int l = 0; l < q; l++) {
        double y = -ipx_dot(sp.K + (size_t)n * l, xa, n);
        for (int i = 0; i < p; i++) y += sp.Nt[i + (size_t)p * l] * x[c->h->s[i]];
        u[l] = y;
    }
    ipx_cholesky_solve(q, sp.S, 1, u);
    for (int j = 0, o = 0, s = 0; j < m; j++) {
        double dx = 0.0;
        if (s < p && c->h->s[s] == j) {
            for (int l = 0; l < q; l++) dx -= sp.Nt[s + (size_t)p * l] * u[l];
            s++;
        } else {
            for (int l = 0; l < q; l++) dx += sp.K[o + (size_t)n * l] * u[l];
            o++;
        }
        x[j] += dx;
        change = fmax(change, fabs(dx));
    }
    return change;
}

/* The base's rounding bound (solve_base) is A's condition times the cancellation in
   x0 - H eta, a worst case. On the systems of a jointed bridge (ODE's feedback demo under PLUS:
   condition 1e4 to 1e5, x0 and H eta 1e3 times the answer) it was 1e-10 to 1e-8 where the
   answer's error in B's row space was 1e-14 to 1e-11, and each such solve went to an O(m^3)
   dense factorisation. There the answer is refined instead: one step x += B^+ (w - B x)
   through the same factor, then x's part along B's null space, which no residual shows,
   removed (project_out_null: up to 1.5e-7 of the answer there, min_norm_refine_data.h). The
   corrections measure the first answer's error, and the refined one is off by about the
   step's own bound times them. It is tried only where the base's factors lie REFINE_MARGIN
   times away from the cut that B's own factor makes (separation), so that both
   see the same rank and their answers differ by rounding alone (a base that keeps what B's
   factor cuts: test_worse_base_goes_dense; a pivot of G2 just above the cut:
   test_ill_conditioned_stacks). The margin allows for the pivots being estimates of the
   singular values; measured on 300 feedback islands and 25 of the crash demo's (32 743 and
   651 refined solves), the rank was the dense path's in every one and the answers agreed to
   2.7e-9 and 4.2e-7, within that path's own rounding bound (DBL_EPSILON times a condition of
   up to 1 / (REFINE_MARGIN rcond)). */
#define REFINE_MARGIN 30.0     /* the separation from B's cut, at least */
#define REFINE_MAX_CHANGE 1e-6 /* relative: a first answer off by more goes to the dense path */

/* One step of refinement of the base's answer x to the held system (c->M, c->w), its scratch
   in c->fallback (free until a dense solve); *out set. Returns the refined x's rounding bound
   relative to its size (the step's bound times the corrections), or +inf if the corrections
   were above REFINE_MAX_CHANGE. */
static double refine(cache *c, int m, double rcond, double *x, base_out *out)
{
    const size_t mm = (size_t)m;
    double *r = c->fallback, *rq = r + mm, *r0 = rq + mm, *dx = r0 + mm;
    copy(r, c->w, mm);
    for (size_t j = 0; j < mm; j++)
        for (size_t i = 0; i < mm; i++) r[i] -= c->M[i + mm * j] * x[j];
    base_rhs(c, m, r, rq, r0);
    const double bound = solve_base(c, m, rcond, rq, r0, dx, out);
    double size = 0.0, change = 0.0;
    for (size_t j = 0; j < mm; j++) {
        x[j] += dx[j];
        change = fmax(change, fabs(dx[j]));
        size = fmax(size, fabs(x[j]));
    }
    if (out->q > 0) change += project_out_null(c, m, out->q, x);
    const double rel = size > 0.0 ? change / size : change;
    return rel <= REFINE_MAX_CHANGE ? bound * rel : INFINITY;
}

/* A base factor costs a dense solve: it is made only when the same few columns have changed
   at BUILD_AFTER dense solves in a row and change again. Made at once it did not pay where a
   sequence of solves changes a few columns only once or twice (the sliding contacts' columns
   from one interval to the next, random piles at k = 16: 1.4 uses per factor); the direction
   search changes the same column a dozen times and more. */
#ifndef BUILD_AFTER
#define BUILD_AFTER 2
#endif

static int repeated(const cache *c, const int *cols, int n)
{
    return subset_of_pending(c, cols, n) && c->h->pcount >= BUILD_AFTER;
}

/* Above error_limit (a rounding error bound relative to the solution's size) the base factor
   is too poorly conditioned for the matrix at hand: that answer is refined where that can show
   it within the limit (refine), else the system is solved by the dense path (bitwise a fresh
   solve); the base factor is kept for the next. The limit is ERROR_LIMIT, or
   COND_SLACK times the dense path's own bound where that is larger: DBL_EPSILON times the
   condition of the factor of the matrix the base came from. A base is no better conditioned
   than its matrix (A's columns are B's), so the limit catches what B's factor did not see:
   the cancellation in x0 - H eta, and a near-dependency that B's factor cut off at rcond but
   A's keeps (B = [u, u + d v, v] with a long v: rank m - 1 for B's factor, A = [u, u + d v]
   of condition ~1/d; test_min_norm_cache). A limit of 1e-11 alone sent the systems of boxes
   in a bin, whose condition is 1e5-1e11 with every column in place, to the dense path at
   3 675 of 6 011 base solves of one impact (k = 70; the bound was within a factor 3 of the
   dense factor's own in all of them): 61 % of its time. */
#define ERROR_LIMIT 1e-11
#define COND_SLACK 10.0

static double error_limit(const cache *c)
{
    return fmax(ERROR_LIMIT, COND_SLACK * DBL_EPSILON * c->h->cond);
}

/* The dense solve of A x = b (ipx_plus_lsq), its factor's condition kept in the header. */
static ipx_status solve_dense(cache *c, int m, double *A, double *b, double rcond, int *iwork,
                              int *rank)
{
    lsq_cod f = {.r = 0};
    ipx_status st = lsq_cod_min_norm(m, m, A, b, rcond, c->fallback, iwork, &f);
    *rank = f.r;
    c->h->cond = st == IPX_OK ? lsq_cod_cond(&f) : 1.0;
    return st;
}

/* 1 if column j is among the n ascending columns of list. */
static int listed(const int *list, int n, int j)
{
    for (int i = 0; i < n && (int)list[i] <= j; i++)
        if ((int)list[i] == j) return 1;
    return 0;
}

/* The union of the changed columns (ascending), the expected ones and, if with_base, the
   current base's left-out ones into set (ascending); returns its size, MAX_SET + 1 if larger. */
static int grown_set(const cache *c, const int *cols, int changed, int with_base, int *set)
{
    const int ns = with_base && c->h->kind == KIND_BASE ? c->h->ns : 0;
    const int ne = c->h->en, m = c->h->m, lim = ipx_min_norm_set_limit(m);
    int p = 0;
    for (int j = 0, a = 0; j < m; j++) {
        const int now = a < changed && cols[a] == j;
        a += now;
        if (!now && !listed(c->h->s, ns, j) && !listed(c->h->e, ne, j)) continue;
        if (p == lim) return MAX_SET + 1;
        set[p++] = j;
    }
    return p;
}

/* A dense solve of A reads it from src and factors it in A (the same array, or the caller's
   scratch where src must stay). */
static double *dense_copy(double *A, const double *src, size_t mm)
{
    copy(A, src, mm * mm);
    return A;
}

/* ipx_min_norm_solve, with again = 1 ipx_min_norm_solve_again, with known columns
   ipx_min_norm_solve_columns: src the system's matrix, A where a dense solve may factor it
   (A == src but for the last); known: see changed_columns. */
static ipx_status solve(int n, const double *src, double *A, double *b, double rcond,
                        ipx_min_norm_cache *h, int *iwork, int *rank_out, int again,
                        const int *known, int nknown)
{
    if (n < IPX_MIN_NORM_CACHE_MIN) {
        h->m = 0; /* its work goes to ipx_plus_lsq */
        return ipx_plus_lsq(n, n, dense_copy(A, src, (size_t)n), b, rcond, h->work, iwork,
                            rank_out);
    }
    const int m = n;
    const size_t mm = (size_t)m;
    cache c = carve(h, m);
    int cols[MAX_SET + 1], rank, same_w = 0;
    const int hit =
        c.h->m == m && c.h->rcond == rcond && (c.h->kind == KIND_MATRIX || c.h->kind == KIND_BASE);
    if (!hit) known = NULL; /* nothing to vouch for */
    int changed = hit ? changed_columns(&c, m, src, known, nknown, cols) : MAX_SET + 1;
    if (changed > ipx_min_norm_set_limit(m))
        changed = MAX_SET + 1;                              /* more than a base leaves out */
    for (int i = 0; i < changed && changed <= MAX_SET; i++) /* the rest were finite before */
        for (int r = 0; r < m; r++)
            if (!isfinite(src[r + mm * (size_t)cols[i]])) changed = MAX_SET + 1; /* dense: fails */
    if (hit) same_w = memcmp(b, c.w, sizeof(double) * mm) == 0;
    if (!hit || changed > MAX_SET) c.h->en = 0; /* another system: nothing expected of it */
    if (!hit) c.h->builds = c.h->splits = 0;
    c.h->m = m;
    c.h->rcond = rcond;
    if (changed == 0 && same_w && c.h->x_ok) { /* the same system again */
        copy(b, c.x, mm);
        rank = c.h->x_rank;
        c.h->path = IPX_MIN_NORM_SAME;
    } else if (changed <= MAX_SET &&
               (c.h->kind == KIND_BASE || repeated(&c, cols, changed) || (again && changed > 0))) {
        /* a few columns changed (or only w, with a base factor): the base factor without them */
        int covered = c.h->kind == KIND_BASE, slot[MAX_SET];
        for (int i = 0; i < changed && covered; i++) covered = in_set(&c, cols[i], &slot[i]);
        for (int i = 0; i < changed; i++) {
            if (covered) change_left_out(&c, m, src, slot[i]);
            else copy(c.M + mm * (size_t)cols[i], src + mm * (size_t)cols[i], mm);
        }
        if (!covered) { /* grow the set by these columns and the expected ones, or start it
                           from them */
            int set[MAX_SET], p = grown_set(&c, cols, changed, 1, set);
            if (p > MAX_SET) p = grown_set(&c, cols, changed, 0, set);
            if (p > MAX_SET) p = changed, memcpy(set, cols, sizeof(int) * (size_t)changed);
            factor_base(&c, m, set, p, rcond);
            c.h->builds += 1;
        }
        if (!same_w) {
            copy(c.w, b, mm);
            c.h->w_ok = 0;
        }
        if (!c.h->w_ok) base_rhs(&c, m, c.w, c.wq, c.x0);
        c.h->w_ok = 1;
        base_out out;
        const double limit = error_limit(&c);
        double bound = solve_base(&c, m, rcond, c.wq, c.x0, c.x, &out);
        if (bound > limit && separation(&c, m, &out) >= REFINE_MARGIN)
            bound = refine(&c, m, rcond, c.x, &out);
        rank = out.rank;
        if (bound <= limit) {
            copy(b, c.x, mm);
            c.h->path = IPX_MIN_NORM_BASE;
        } else { /* a dense solve for this one, the base factor kept for the next */
            solve_dense(&c, m, dense_copy(A, src, mm), b, rcond, iwork, &rank);
            c.h->path = IPX_MIN_NORM_DENSE;
        }
    } else { /* a dense solve; the matrix is kept for the next call */
        if (changed <= MAX_SET && changed > 0 && subset_of_pending(&c, cols, changed)) {
            c.h->pcount += 1;
        } else {
            c.h->pn = changed <= MAX_SET ? changed : 0;
            c.h->pcount = 1;
            for (int i = 0; i < changed && changed <= MAX_SET; i++) c.h->p[i] = cols[i];
        }
        copy(c.M, src, mm * mm);
        copy(c.w, b, mm);
        c.h->kind = KIND_MATRIX;
        c.h->path = IPX_MIN_NORM_DENSE;
        if (solve_dense(&c, m, dense_copy(A, src, mm), b, rcond, iwork, &rank) != IPX_OK) {
            c.h->m = 0;
            return IPX_ERR_NUMERIC;
        }
    }
    copy(c.x, b, mm);
    c.h->x_ok = 1;
    c.h->x_rank = rank;
    if (rank_out) *rank_out = rank;
    for (int j = 0; j < m; j++)
        if (!isfinite(b[j])) {
            c.h->m = 0; /* never reuse what gave a non-finite answer */
            return IPX_ERR_NUMERIC;
        }
    return IPX_OK;
}

void ipx_min_norm_begin(ipx_min_norm_cache *c, double *work)
{
    memset(c, 0, sizeof *c);
    c->work = work;
}

ipx_status ipx_min_norm_solve(int n, double *A, double *b, double rcond, ipx_min_norm_cache *c,
                              int *iwork, int *rank_out)
{
    return solve(n, A, A, b, rcond, c, iwork, rank_out, 0, NULL, 0);
}

ipx_status ipx_min_norm_solve_again(int n, double *A, double *b, double rcond,
                                    ipx_min_norm_cache *c, int *iwork, int *rank_out)
{
    return solve(n, A, A, b, rcond, c, iwork, rank_out, 1, NULL, 0);
}

ipx_status ipx_min_norm_solve_columns(int n, const double *A, double *scratch, double *b,
                                      double rcond, ipx_min_norm_cache *c, int *iwork,
                                      int *rank_out, const int *cols, int ncols)
{
    return solve(n, A, scratch, b, rcond, c, iwork, rank_out, 1, cols, ncols);
}

/* 1 if c holds a system of n unknowns. */
static int holds(int n, const ipx_min_norm_cache *c)
{
    return n >= IPX_MIN_NORM_CACHE_MIN && c->m == n;
}

void ipx_min_norm_expect(int n, ipx_min_norm_cache *c, const int *cols, int ncols)
{
    if (!holds(n, c)) return;
    const int ne = ncols <= ipx_min_norm_set_limit(n) ? ncols : 0;
    for (int i = 0; i < ne; i++) { /* ascending, by insertion */
        int j = i;
        for (; j > 0 && c->e[j - 1] > cols[i]; j--) c->e[j] = c->e[j - 1];
        c->e[j] = cols[i];
    }
    c->en = ne;
}

long ipx_min_norm_base_builds(int n, const ipx_min_norm_cache *c)
{
    return holds(n, c) ? c->builds : 0;
}

long ipx_min_norm_splits(int n, const ipx_min_norm_cache *c) { return holds(n, c) ? c->splits : 0; }

int ipx_min_norm_path(int n, const ipx_min_norm_cache *c)
{
    return holds(n, c) ? c->path : IPX_MIN_NORM_DENSE;
}
