/* Joint elimination for contact-space problems (see impax/constrained.h).

   Everything goes through B = J_b M^-1/2, the joint rows in the kinetic-energy metric, and never
   through A = B B^T: forming A squares B's condition number, so a joint impulse that moves only
   a heavy body (A's eigenvalue 1e-12 of the largest with one 1e12 kg link among 1 kg ones) was
   indistinguishable from a redundant row. B's rank-revealing factorisation keeps it (its pivot
   is 1e-6 of the largest, far above round-off): Householder QR with column pivoting of B^T,
   B^T P = Q R, whose first rank columns of Q span B's row space and the rest, N, its null space
   (the velocities the joints allow, in the metric). N gives W as a Gram matrix and du without
   joint impulses:
     W  = free + (J_c M^-1/2 N)(J_c M^-1/2 N)^T = free + K K^T      (symmetric PSD as computed)
     du = M^-1/2 N K^T pi,   J_b du = B N (K^T pi) = round-off of B's largest singular value.
   Only the movable bodies some joint row touches ("jointed" bodies) enter B; the other bodies'
   part of W and du is the plain J M^-1 J^T ("free"). */
#include <float.h>
#include <lapacke.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "impax/constrained.h"
#include "impax/problem.h"
#include "mathutil.h"

#define ROW_DOUBLES 12  /* M^-1 J^T of one row: two bodies x [linear, angular] */
#define ROOT_DOUBLES 10 /* per body: symmetric square root of inv_inertia (3x3), sqrt(inv_mass) */
#define HEAD_DOUBLES 2  /* jointed dofs nj, rank of B */

/* Views of the caller's work array, in the order ipx_constrained_work_doubles counts them. */
typedef struct layout {
    int nj, rank, nn; /* jointed dofs (6 per jointed body), rank of B, nj - rank (after factor) */
    double *head;     /* nj, rank */
    double *mjc;      /* c x 12: M^-1 J_c^T per contact row */
    double *loc;      /* n_bodies: a body's index among the jointed bodies, -1 for the others */
    double *root;     /* n_bodies x 10: M^-1/2 of the jointed bodies */
    double *Qt;       /* nj x nj: Q^T (rows: Q's columns); rows rank.. are N^T */
    double *K;        /* c x nn, row-contiguous: J_c M^-1/2 N, 0 on the rows the joints hold */
    double *diag;     /* c: W_ii, 0 for a row the joints hold rigid */
    double *xin;      /* c: ipx_constrained_apply's x without the held rows */
    double *tmp;      /* 2 nj_max + m scratch */
    double *R;        /* nj x m: B^T = (J_b M^-1/2)^T, then Q R's factor (R on and above the
                         diagonal, Q's reflectors below) */
    double *lapack;   /* the factorisation's work: tau, then LAPACK's */
    int *piv;         /* m: column j of B^T P is joint row piv[j] */
    int *by_body;     /* n_bodies + 1 starts, then 2c rows: the contact rows of each body */
    int *seen;        /* 3c: marks (the last column whose partners reached a row or contact),
                         then two lists of rows or contacts */
} layout;

/* Doubles that hold n ints (the int views of the work array). */
static size_t ints_in_doubles(size_t n)
{
    return (n * sizeof(int) + sizeof(double) - 1) / sizeof(double);
}

/* 6 x the bodies joint rows can touch: each row names at most two. */
static size_t max_jointed_dofs(int n_bodies, int m)
{
    const size_t n = (size_t)(n_bodies > 0 ? n_bodies : 0), two_m = 2 * (size_t)(m > 0 ? m : 0);
    return 6 * (n < two_m ? n : two_m);
}

/* The factorisation's doubles: tau (min(m, nj)), then work for dgeqp3 on B^T (nj x m; its
   blocked optimum 2 m + (m + 1) NB) and dorgqr of the nj x nj Q (nj NB), NB = 64 covering both. */
static size_t qr_work(size_t m, size_t nj)
{
    const size_t geqp3 = 2 * m + (m + 1) * 64, orgqr = nj * 64;
    return (m < nj ? m : nj) + (geqp3 > orgqr ? geqp3 : orgqr) + 1;
}

size_t ipx_constrained_work_doubles(int n_bodies, int n_joint_rows, int n_contact_rows)
{
    const size_t nb = (size_t)n_bodies, m = (size_t)n_joint_rows, c = (size_t)n_contact_rows;
    const size_t nj = max_jointed_dofs(n_bodies, n_joint_rows);
    return HEAD_DOUBLES + ROW_DOUBLES * c + nb + ROOT_DOUBLES * nb + nj * nj + c * nj + 2 * c +
           2 * nj + m + m * nj + qr_work(m, nj) + ints_in_doubles(m + nb + 1 + 5 * c);
}

/* A non-finite number out of the joint elimination (where: "" or the part of the output). */
static ipx_status non_finite(const ipx_constrained *s, const char *where, char *msg, size_t size)
{
    snprintf(msg, size,
             "joint elimination produced a non-finite number%s (%d bodies, %d joint rows)", where,
             s->n_bodies, s->n_joint_rows);
    return IPX_ERR_NUMERIC;
}

static layout carve(const ipx_constrained *s, double *work)
{
    const size_t nb = (size_t)s->n_bodies, m = (size_t)s->n_joint_rows,
                 c = (size_t)s->n_contact_rows;
    const size_t nj = max_jointed_dofs(s->n_bodies, s->n_joint_rows);
    layout L;
    L.head = work;
    L.mjc = L.head + HEAD_DOUBLES;
    L.loc = L.mjc + ROW_DOUBLES * c;
    L.root = L.loc + nb;
    L.Qt = L.root + ROOT_DOUBLES * nb;
    L.K = L.Qt + nj * nj;
    L.diag = L.K + c * nj;
    L.xin = L.diag + c;
    L.tmp = L.xin + c;
    L.R = L.tmp + 2 * nj + m;
    L.lapack = L.R + m * nj;
    L.piv = (int *)(L.lapack + qr_work(m, nj));
    L.by_body = L.piv + m;
    L.seen = L.by_body + nb + 1 + 2 * c;
    L.nj = L.rank = L.nn = 0;
    return L;
}

/* The views of a work array ipx_constrained_factor has filled. */
static layout factored(const ipx_constrained *s, double *work)
{
    layout L = carve(s, work);
    L.nj = (int)L.head[0];
    L.rank = (int)L.head[1];
    L.nn = L.nj - L.rank;
    return L;
}

/* M^-1 J^T of one row, per body side. */
static void row_mass_times(const ipx_constrained *s, const ipx_row *r, double mj[ROW_DOUBLES])
{
    for (int t = 0; t < 2; t++) {
        double *out = mj + 6 * t;
        if (r->body[t] < 0) {
            memset(out, 0, 6 * sizeof(double));
            continue;
        }
        const ipx_body *b = &s->body[r->body[t]];
        for (int a = 0; a < 3; a++) out[a] = b->inv_mass * r->J[t][a];
        ipx_mat3_vec(b->inv_inertia, &r->J[t][3], out + 3);
    }
}

static int jointed(const layout *L, int body) { return body >= 0 && L->loc[body] >= 0.0; }

/* J_a M^-1 J_b^T over the bodies the two rows share that no joint touches (the free part). */
static double free_coupling(const layout *L, const ipx_row *a, const ipx_row *b, const double *mjb)
{
    double sum = 0.0;
    for (int s = 0; s < 2; s++)
        for (int t = 0; t < 2; t++) {
            if (a->body[s] < 0 || a->body[s] != b->body[t] || jointed(L, a->body[s])) continue;
            for (int i = 0; i < 6; i++) sum += a->J[s][i] * mjb[6 * t + i];
        }
    return sum;
}

static double row_velocity(const ipx_row *r, const double *u)
{
    double sum = 0.0;
    for (int t = 0; t < 2; t++) {
        if (r->body[t] < 0) continue;
        const double *ub = u + 6 * r->body[t];
        for (int i = 0; i < 6; i++) sum += r->J[t][i] * ub[i];
    }
    return sum;
}

static int rows_in_range(const ipx_constrained *s, const ipx_row *rows, int n, const char *kind,
                         char *msg, size_t size)
{
    for (int i = 0; i < n; i++)
        for (int t = 0; t < 2; t++)
            if (rows[i].body[t] < -1 || rows[i].body[t] >= s->n_bodies) {
                snprintf(msg, size, "%s row %d names body %d, outside -1..%d", kind, i,
                         rows[i].body[t], s->n_bodies - 1);
                return 0;
            }
    return 1;
}

static int movable(const ipx_body *b)
{
    if (b->inv_mass != 0.0) return 1;
    for (int i = 0; i < 9; i++)
        if (b->inv_inertia[i] != 0.0) return 1;
    return 0;
}

/* M^-1/2 of one body: the symmetric square root of its inverse inertia and sqrt(inv_mass).
   Returns -1 if LAPACK failed. */
static int body_root(const ipx_body *b, double R[ROOT_DOUBLES])
{
    double E[9], w[3], lw[32];
    memcpy(E, b->inv_inertia, sizeof E);
    if (LAPACKE_dsyev_work(LAPACK_COL_MAJOR, 'V', 'L', 3, E, 3, w, lw, 32) != 0) return -1;
    for (int k = 0; k < 3; k++) w[k] = sqrt(fmax(w[k], 0.0));
    for (int j = 0; j < 3; j++)
        for (int i = 0; i < 3; i++) {
            double sum = 0.0;
            for (int k = 0; k < 3; k++) sum += E[i + 3 * k] * w[k] * E[j + 3 * k];
            R[i + 3 * j] = sum;
        }
    R[9] = sqrt(fmax(b->inv_mass, 0.0));
    return 0;
}

/* The jointed bodies: loc numbers them, root holds their M^-1/2. Returns nj, or -1. */
static int find_jointed_bodies(const ipx_constrained *s, const layout *L)
{
    int n = 0;
    for (int b = 0; b < s->n_bodies; b++) L->loc[b] = -1.0;
    for (int i = 0; i < s->n_joint_rows; i++)
        for (int t = 0; t < 2; t++) {
            const int b = s->joint_row[i].body[t];
            if (b < 0 || L->loc[b] >= 0.0 || !movable(&s->body[b])) continue;
            if (body_root(&s->body[b], L->root + ROOT_DOUBLES * b) != 0) return -1;
            L->loc[b] = n++;
        }
    return 6 * n;
}

/* J M^-1/2 of one row on its jointed sides: up to 12 entries, at dof[] of the jointed dofs.
   Returns the number of entries. */
static int weighted_row(const layout *L, const ipx_row *r, int dof[ROW_DOUBLES],
                        double a[ROW_DOUBLES])
{
    int n = 0;
    for (int t = 0; t < 2; t++) {
        if (!jointed(L, r->body[t])) continue;
        const double *R = L->root + ROOT_DOUBLES * r->body[t];
        const int o = 6 * (int)L->loc[r->body[t]];
        for (int k = 0; k < 3; k++) dof[n + k] = o + k, a[n + k] = R[9] * r->J[t][k];
        ipx_mat3_vec(R, &r->J[t][3], a + n + 3); /* R symmetric: (J R)^T = R J^T */
        for (int k = 3; k < 6; k++) dof[n + k] = o + k;
        n += 6;
    }
    return n;
}

/* u_jointed += M^-1/2 d (d: nj entries in the metric). */
static void add_metric_motion(const ipx_constrained *s, const layout *L, const double *d, double *u)
{
    for (int b = 0; b < s->n_bodies; b++) {
        if (!jointed(L, b)) continue;
        const double *R = L->root + ROOT_DOUBLES * b, *db = d + 6 * (int)L->loc[b];
        double w[3];
        ipx_mat3_vec(R, db + 3, w);
        for (int k = 0; k < 3; k++) u[6 * b + k] += R[9] * db[k], u[6 * b + 3 + k] += w[k];
    }
}

/* |R_jj|, the size of the j-th pivot (non-increasing in j) of the factor R, nj rows a column. */
static double pivot(const double *R, int nj, int j) { return fabs(R[j + (size_t)nj * j]); }

/* B^T = (J_b M^-1/2)^T, its QR factorisation with column pivoting B^T P = Q R, and Q^T into
   Qt; the rank counts pivots above max(m, nj) DBL_EPSILON |R_11|. Returns the rank, or -1 if
   LAPACK failed. */
static int factor_joint_space(const ipx_constrained *s, const layout *L, int nj)
{
    const int m = s->n_joint_rows, mn = m < nj ? m : nj;
    if (nj == 0) return 0;
    memset(L->R, 0, (size_t)m * (size_t)nj * sizeof *L->R);
    for (int i = 0; i < m; i++) {
        int dof[ROW_DOUBLES];
        double a[ROW_DOUBLES];
        const int n = weighted_row(L, &s->joint_row[i], dof, a);
        for (int k = 0; k < n; k++) L->R[dof[k] + (size_t)nj * i] += a[k];
    }
    double *tau = L->lapack, *work = tau + mn;
    const lapack_int lw = (lapack_int)(qr_work((size_t)m, (size_t)nj) - (size_t)mn);
    lapack_int *piv = (lapack_int *)L->piv;
    memset(piv, 0, (size_t)m * sizeof *piv);
    if (LAPACKE_dgeqp3_work(LAPACK_COL_MAJOR, nj, m, L->R, nj, piv, tau, work, lw) != 0) return -1;
    for (int j = 0; j < m; j++) piv[j]--; /* LAPACK numbers from 1 */
    /* Q: the reflectors in an nj x nj array, made explicit, then transposed in place */
    double *Q = L->Qt;
    memset(Q, 0, (size_t)nj * (size_t)nj * sizeof *Q);
    for (int j = 0; j < mn; j++)
        for (int i = j + 1; i < nj; i++) Q[i + (size_t)nj * j] = L->R[i + (size_t)nj * j];
    if (LAPACKE_dorgqr_work(LAPACK_COL_MAJOR, nj, nj, mn, Q, nj, tau, work, lw) != 0) return -1;
    for (int j = 0; j < nj; j++)
        for (int i = j + 1; i < nj; i++) {
            const double t = Q[i + (size_t)nj * j];
            Q[i + (size_t)nj * j] = Q[j + (size_t)nj * i];
            Q[j + (size_t)nj * i] = t;
        }
    const double floor = (m > nj ? m : nj) * DBL_EPSILON * pivot(L->R, nj, 0);
    int rank = 0;
    while (rank < mn && pivot(L->R, nj, rank) > floor) rank++;
    return rank;
}

/* K = J_c M^-1/2 N, one contact row at a time (row-contiguous, nn entries a row). */
static void fill_K(const ipx_constrained *s, const layout *L)
{
    const int nj = L->nj, nn = L->nn;
    for (int i = 0; i < s->n_contact_rows; i++) {
        int dof[ROW_DOUBLES];
        double a[ROW_DOUBLES], *Ki = L->K + (size_t)nn * i;
        const int n = weighted_row(L, &s->contact_row[i], dof, a);
        memset(Ki, 0, (size_t)nn * sizeof *Ki);
        for (int k = 0; k < n; k++) {
            const double *col = L->Qt + L->rank + (size_t)nj * dof[k];
            for (int q = 0; q < nn; q++) Ki[q] += a[k] * col[q];
        }
    }
}

/* R_11's upper triangle (rank x rank, in L->R) solved in place: x <- R11^-1 x (transpose = 0)
   or R11^-T x (transpose = 1). R_11's diagonal is the pivots above the rank's floor: never 0. */
static void solve_r11(const layout *L, int transpose, double *x)
{
    const lapack_int r = L->rank;
    LAPACKE_dtrtrs_work(LAPACK_COL_MAJOR, 'U', transpose ? 'T' : 'N', 'N', r, 1, L->R, L->nj, x,
                        r > 1 ? r : 1);
}

/* How far round-off can leave a row of K from 0 when the joints hold it rigid. A held row
   J M^-1/2 = alpha^T B gives K = alpha^T B N, and the factor's N is exact for B + E with
   |E| ~ eps |R_11|, so K carries |alpha| eps |R_11|, alpha = P [R11^-1 Q_r^T (J M^-1/2)^T; 0]
   (a solution of B^T alpha = (J M^-1/2)^T, at least as long as the least one); plus the
   rounding of the product itself, eps |J M^-1/2|. Relative to the row itself, not to W or
   the lighter bodies: a contact that moves a 1e12 kg link through 1 kg ones has W_ii 1e-12 of
   its free value, its K row 1e-6 of its weighted row, and is a contact. */
static double held_bound(const ipx_constrained *s, const layout *L, const ipx_row *r)
{
    int dof[ROW_DOUBLES];
    double a[ROW_DOUBLES], alpha2 = 0.0, a2 = 0.0, *y = L->tmp;
    const int n = weighted_row(L, r, dof, a);
    for (int k = 0; k < n; k++) a2 += a[k] * a[k];
    for (int q = 0; q < L->rank; q++) {
        y[q] = 0.0;
        for (int k = 0; k < n; k++) y[q] += a[k] * L->Qt[q + (size_t)L->nj * dof[k]];
    }
    solve_r11(L, 0, y);
    for (int q = 0; q < L->rank; q++) alpha2 += y[q] * y[q];
    const int m = s->n_joint_rows, dim = m > L->nj ? m : L->nj;
    return IPX_CONSTRAINED_HOLD * dim * DBL_EPSILON *
           (pivot(L->R, L->nj, 0) * sqrt(alpha2) + sqrt(a2));
}

/* W_ii = free part + |K_i|^2. A contact row the joints hold rigid (no free part, K_i within its
   round-off) gets 0 and a zero row of K: W has an exactly zero row and column there. */
static void fill_diagonal(const ipx_constrained *s, const layout *L)
{
    const int nn = L->nn;
    for (int i = 0; i < s->n_contact_rows; i++) {
        const ipx_row *r = &s->contact_row[i];
        double *Ki = L->K + (size_t)nn * i, k2 = 0.0;
        const double free_diag = free_coupling(L, r, r, L->mjc + ROW_DOUBLES * i);
        for (int q = 0; q < nn; q++) k2 += Ki[q] * Ki[q];
        const int held =
            free_diag == 0.0 && (k2 == 0.0 || (L->rank > 0 && sqrt(k2) <= held_bound(s, L, r)));
        double w = free_diag; /* summed as fill_W sums it: diag is W's diagonal to the bit */
        for (int q = 0; q < nn; q++) w += Ki[q] * Ki[q];
        if (held) memset(Ki, 0, (size_t)nn * sizeof *Ki);
        L->diag[i] = held ? 0.0 : w;
    }
}

/* Body t of row r, or -1 for none and for a second mention of the first body (a row that names
   one body twice is listed under it once). */
static int listed_body(const ipx_row *r, int t)
{
    return t == 1 && r->body[1] == r->body[0] ? -1 : r->body[t];
}

/* The contact rows of each body into L->by_body (counting sort: rows ascending per body). */
static void rows_by_body(const ipx_constrained *s, const layout *L)
{
    const int nb = s->n_bodies, c = s->n_contact_rows;
    int *start = L->by_body, *list = L->by_body + nb + 1;
    memset(start, 0, sizeof(int) * (size_t)(nb + 1));
    for (int i = 0; i < c; i++)
        for (int t = 0; t < 2; t++) {
            const int b = listed_body(&s->contact_row[i], t);
            if (b >= 0) start[b + 1]++;
        }
    for (int b = 0; b < nb; b++) start[b + 1] += start[b];
    for (int i = 0; i < c; i++)
        for (int t = 0; t < 2; t++) {
            const int b = listed_body(&s->contact_row[i], t);
            if (b >= 0) list[start[b]++] = i;
        }
    for (int b = nb; b > 0; b--) start[b] = start[b - 1]; /* back to the starts */
    start[0] = 0;
}

/* W_ij as W's fill sums it: the free part, then K's products, with the pair taken as (larger,
   smaller) so that both triangles get the same bits; 0 in a row or column the joints hold rigid
   (zero diagonal). */
static double W_entry(const ipx_constrained *s, const layout *L, int i, int j)
{
    if (i < j) {
        const int t = i;
        i = j;
        j = t;
    }
    if (L->diag[i] == 0.0 || L->diag[j] == 0.0) return 0.0;
    double w = free_coupling(L, &s->contact_row[i], &s->contact_row[j], L->mjc + ROW_DOUBLES * j);
    const double *Ki = L->K + (size_t)L->nn * i, *Kj = L->K + (size_t)L->nn * j;
    for (int q = 0; q < L->nn; q++) w += Ki[q] * Kj[q];
    return w;
}

/* 1 if a row of group gj (rows g gj .. g gj + g - 1) moves jointed dofs: a non-zero row of K. */
static int group_coupled(const layout *L, int g, int gj)
{
    for (size_t q = (size_t)L->nn * (size_t)(g * gj); q < (size_t)L->nn * (size_t)(g * gj + g); q++)
        if (L->K[q] != 0.0) return 1;
    return 0;
}

/* The groups of g rows (g = 1: rows; g = 3: contacts) whose entries with group gj can be non-zero,
   unordered, into out; their count is returned. They are gj, the groups with a row that shares a
   body with a row of gj (from the bodies' row lists: O(partners), not O(groups) tests) and, if gj
   moves jointed dofs, the n_coupled groups of `coupled` that do too (K K^T couples them).
   mark (one per group) must hold no gj on entry: it is set to gj for each group listed. */
static int group_partners(const ipx_constrained *s, const layout *L, int g, int gj,
                          const int *coupled, int n_coupled, int *mark, int *out)
{
    const int *start = L->by_body, *list = L->by_body + s->n_bodies + 1;
    int n = 0;
    mark[gj] = gj;
    out[n++] = gj;
    for (int j = g * gj; j < g * gj + g; j++)
        for (int t = 0; t < 2; t++) {
            const int b = listed_body(&s->contact_row[j], t);
            if (b < 0) continue;
            for (int q = start[b]; q < start[b + 1]; q++) {
                const int gi = list[q] / g;
                if (mark[gi] != gj) mark[gi] = gj, out[n++] = gi;
            }
        }
    if (n_coupled > 0 && group_coupled(L, g, gj))
        for (int q = 0; q < n_coupled; q++)
            if (mark[coupled[q]] != gj) mark[coupled[q]] = gj, out[n++] = coupled[q];
    return n;
}

/* The scratch of a partner scan over groups of g rows: rows by body, marks cleared, the groups
   that move jointed dofs listed (*n_coupled of them). */
static void start_partners(const ipx_constrained *s, const layout *L, int g, int **mark,
                           int **coupled, int *n_coupled, int **out)
{
    const int c = s->n_contact_rows, groups = c / g;
    rows_by_body(s, L);
    *mark = L->seen;
    *coupled = L->seen + c;
    *out = L->seen + 2 * c;
    *n_coupled = 0;
    for (int gi = 0; gi < groups; gi++) {
        (*mark)[gi] = -1;
        if (L->nn > 0 && group_coupled(L, g, gi)) (*coupled)[(*n_coupled)++] = gi;
    }
}

/* W without joint dofs left free (nn = 0): only rows that share a body couple, so W is zero but
   for those pairs, each found from the bodies' row lists once (O(pairs), not O(c^2) pair tests). */
static void fill_W_sparse(const ipx_constrained *s, const layout *L, double *W)
{
    const int c = s->n_contact_rows;
    int *mark, *coupled, *out, n_coupled;
    start_partners(s, L, 1, &mark, &coupled, &n_coupled, &out);
    memset(W, 0, sizeof(double) * (size_t)c * (size_t)c);
    for (int j = 0; j < c; j++) {
        const int n = group_partners(s, L, 1, j, coupled, n_coupled, mark, out);
        for (int q = 0; q < n; q++) {
            const int i = out[q];
            if (i >= j) W[i + (size_t)c * j] = W[j + (size_t)c * i] = W_entry(s, L, i, j);
        }
    }
}

/* W = free + K K^T, symmetric by construction, with the held rows and columns zero. */
static void fill_W(const ipx_constrained *s, const layout *L, double *W)
{
    const int c = s->n_contact_rows;
    if (L->nn == 0) {
        fill_W_sparse(s, L, W);
        return;
    }
    for (int j = 0; j < c; j++)
        for (int i = j; i < c; i++)
            W[i + (size_t)c * j] = W[j + (size_t)c * i] = W_entry(s, L, i, j);
}

int ipx_constrained_block_count(const ipx_constrained *s, double *work)
{
    if (s->n_contact_rows % IPX_ROWS_PER_CONTACT != 0) return -1;
    layout L = factored(s, work);
    int *mark, *coupled, *out, n_coupled, nnz = 0;
    start_partners(s, &L, IPX_ROWS_PER_CONTACT, &mark, &coupled, &n_coupled, &out);
    for (int gj = 0; gj < s->n_contact_rows / IPX_ROWS_PER_CONTACT; gj++)
        nnz += group_partners(s, &L, IPX_ROWS_PER_CONTACT, gj, coupled, n_coupled, mark, out);
    return nnz;
}

static int int_order(const void *a, const void *b)
{
    const int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

ipx_status ipx_constrained_blocks(const ipx_constrained *s, double *work, int *start, int *row,
                                  double *blk, char *msg, size_t size)
{
    if (s->n_contact_rows % IPX_ROWS_PER_CONTACT != 0) {
        snprintf(msg, size, "W as blocks needs 3 rows per contact (%d contact rows given)",
                 s->n_contact_rows);
        return IPX_ERR_INPUT;
    }
    layout L = factored(s, work);
    const int k = s->n_contact_rows / IPX_ROWS_PER_CONTACT;
    int *mark, *coupled, *out, n_coupled;
    start_partners(s, &L, IPX_ROWS_PER_CONTACT, &mark, &coupled, &n_coupled, &out);
    start[0] = 0;
    for (int gj = 0; gj < k; gj++) {
        const int n = group_partners(s, &L, IPX_ROWS_PER_CONTACT, gj, coupled, n_coupled, mark,
                                     row + start[gj]);
        qsort(row + start[gj], (size_t)n, sizeof *row, int_order); /* jointed columns: up to k */
        start[gj + 1] = start[gj] + n;
    }
    const ipx_wsparse Ws = {start[k], start, row, blk};
    for (int gj = 0; gj < k; gj++)
        for (int b = start[gj]; b < start[gj + 1]; b++) {
            const int gi = row[b];
            if (gi < gj) continue; /* filled from block (gj, gi) */
            double *out_b = blk + 9 * (size_t)b,
                   *mirror = blk + 9 * (size_t)ipx_wsparse_find(&Ws, gj, gi);
            for (int cc = 0; cc < 3; cc++)
                for (int r = 0; r < 3; r++)
                    out_b[r + 3 * cc] = mirror[cc + 3 * r] =
                        W_entry(s, &L, 3 * gi + r, 3 * gj + cc);
        }
    if (!ipx_all_finite(blk, 9 * (size_t)start[k])) return non_finite(s, " in W", msg, size);
    return IPX_OK;
}

/* One least-change step onto J_b u = 0 in the metric: u <- u - M^-1/2 B^+ J_b u, where
   B^+ g = Q_r R11^-T (P^T g)_1..rank (g = J_b u = B M^1/2 u lies in B's range). Returns
   max |J_b u| before. */
static double project_once(const ipx_constrained *s, const layout *L, double *u)
{
    const int m = s->n_joint_rows, nj = L->nj;
    double *g = L->tmp, *y = g + m, *d = y + (m < nj ? m : nj), worst = 0.0;
    for (int i = 0; i < m; i++) {
        g[i] = row_velocity(&s->joint_row[i], u);
        worst = fmax(worst, fabs(g[i]));
    }
    if (worst == 0.0 || L->rank == 0) return worst;
    for (int q = 0; q < L->rank; q++) y[q] = -g[L->piv[q]];
    solve_r11(L, 1, y);
    for (int k = 0; k < nj; k++) {
        double sum = 0.0;
        const double *col = L->Qt + (size_t)nj * k;
        for (int r = 0; r < L->rank; r++) sum += col[r] * y[r];
        d[k] = sum;
    }
    add_metric_motion(s, L, d, u);
    return worst;
}

/* Projects u onto J_b u = 0; a second step removes what the first left of B's condition
   number times round-off. Returns max |J_b u| before. */
static double project_velocities(const ipx_constrained *s, const layout *L, double *u)
{
    const double before = project_once(s, L, u);
    if (before > 0.0) project_once(s, L, u);
    return before;
}

ipx_status ipx_constrained_factor(const ipx_constrained *s, double *work,
                                  ipx_constrained_info *info, char *msg, size_t size)
{
    const int m = s->n_joint_rows, c = s->n_contact_rows;
    if (!rows_in_range(s, s->joint_row, m, "joint", msg, size) ||
        !rows_in_range(s, s->contact_row, c, "contact", msg, size))
        return IPX_ERR_INPUT;
    layout L = carve(s, work);
    for (int j = 0; j < c; j++) row_mass_times(s, &s->contact_row[j], L.mjc + ROW_DOUBLES * j);
    const int nj = find_jointed_bodies(s, &L);
    const int rank = nj < 0 ? -1 : factor_joint_space(s, &L, nj);
    if (rank < 0) {
        snprintf(msg, size,
                 "factorisation of the %d x %d joint rows (kinetic-energy metric) failed", m, nj);
        return IPX_ERR_NUMERIC;
    }
    L.head[0] = nj;
    L.head[1] = rank;
    L = factored(s, work);
    const size_t mn = (size_t)(m < nj ? m : nj);
    for (int j = 0; j < (int)mn; j++)
        if (!isfinite(pivot(L.R, L.nj, j))) return non_finite(s, "", msg, size);
    if (!ipx_all_finite(L.mjc, ROW_DOUBLES * (size_t)c)) return non_finite(s, "", msg, size);
    fill_K(s, &L);
    fill_diagonal(s, &L);
    if (!ipx_all_finite(L.K, (size_t)L.nn * c) || !ipx_all_finite(L.diag, (size_t)c))
        return non_finite(s, "", msg, size);
    if (info) *info = (ipx_constrained_info){rank, 0.0, 0.0};
    return IPX_OK;
}

/* sum |J| |u| over row r's bodies (per body: linear then angular part): the scale of its
   velocity's round-off. */
static double row_speed_scale(const ipx_row *r, const double *u)
{
    double sum = 0.0;
    for (int t = 0; t < 2; t++) {
        if (r->body[t] < 0) continue;
        const double *ub = u + 6 * r->body[t];
        for (int i = 0; i < 6; i++) sum += fabs(r->J[t][i] * ub[i]);
    }
    return sum;
}

/* The contact velocities v = J_c u of the velocities u projected onto the joints (no joints: u
   as given). A row the joints hold rigid (zero diagonal, fill_diagonal) moves only as the joint
   rows let its bodies move; where its velocity after the projection is within the round-off the
   projection leaves of the velocities before it (held_bound's factor of sum |J| |u| before), it
   is 0, as its row of W is: otherwise a locked mechanism's contact keeps an approach of 1e-31
   m/s that no impulse can stop, and an LCP on it has no solution. Returns max |J_b u| before. */
static double project_contact_velocities(const ipx_constrained *s, const layout *L, double *u,
                                         double *v)
{
    const int m = s->n_joint_rows, c = s->n_contact_rows, dim = m > L->nj ? m : L->nj;
    for (int i = 0; m > 0 && i < c; i++) /* the held rows' scales, kept in v meanwhile */
        if (L->diag[i] == 0.0) v[i] = row_speed_scale(&s->contact_row[i], u);
    const double before = m > 0 ? project_velocities(s, L, u) : 0.0;
    for (int i = 0; i < c; i++) {
        const int held = m > 0 && L->diag[i] == 0.0;
        const double bound = held ? IPX_CONSTRAINED_HOLD * dim * DBL_EPSILON * v[i] : 0.0;
        v[i] = row_velocity(&s->contact_row[i], u);
        if (held && fabs(v[i]) <= bound) v[i] = 0.0;
    }
    return before;
}

void ipx_constrained_project(const ipx_constrained *s, double *u, double *v, double *work)
{
    layout L = factored(s, work);
    project_contact_velocities(s, &L, u, v);
}

void ipx_constrained_delassus(const ipx_constrained *s, double *work, double *W)
{
    layout L = factored(s, work);
    fill_W(s, &L, W);
}

ipx_status ipx_constrained_prepare(const ipx_constrained *s, double *u, double *v, double *work,
                                   ipx_constrained_info *info, char *msg, size_t size)
{
    const int c = s->n_contact_rows;
    ipx_constrained_info fi;
    ipx_status st = ipx_constrained_factor(s, work, &fi, msg, size);
    if (st != IPX_OK) return st;
    layout L = factored(s, work);
    const double before = project_contact_velocities(s, &L, u, v);
    if (!ipx_all_finite(v, (size_t)c) || !ipx_all_finite(u, 6 * (size_t)s->n_bodies))
        return non_finite(s, "", msg, size);
    if (info) {
        info->joint_rank = fi.joint_rank;
        info->violation_before = before;
        info->violation_after = ipx_constrained_joint_residual(s, u);
    }
    return IPX_OK;
}

ipx_status ipx_constrained_assemble(const ipx_constrained *s, double *u, double *W, double *v,
                                    double *work, ipx_constrained_info *info, char *msg,
                                    size_t size)
{
    const int c = s->n_contact_rows;
    ipx_status st = ipx_constrained_prepare(s, u, v, work, info, msg, size);
    if (st != IPX_OK) return st;
    layout L = factored(s, work);
    fill_W(s, &L, W);
    if (!ipx_all_finite(W, (size_t)c * c)) return non_finite(s, "", msg, size);
    return IPX_OK;
}

/* du = P J_c^T pi: the free part through M^-1, the jointed part as M^-1/2 N (K^T pi), with no
   joint impulses formed. */
static void delta_u(const ipx_constrained *s, const layout *Lp, const double *pi, double *du)
{
    const int c = s->n_contact_rows;
    const layout L = *Lp;
    memset(du, 0, 6 * (size_t)s->n_bodies * sizeof(double));
    for (int j = 0; j < c; j++) {
        if (pi[j] == 0.0) continue;
        const ipx_row *r = &s->contact_row[j];
        const double *mj = L.mjc + ROW_DOUBLES * j;
        for (int t = 0; t < 2; t++) {
            if (r->body[t] < 0 || jointed(&L, r->body[t])) continue;
            for (int i = 0; i < 6; i++) du[6 * r->body[t] + i] += pi[j] * mj[6 * t + i];
        }
    }
    if (L.nn == 0) return;
    /* du_jointed = M^-1/2 N (K^T pi): no joint impulses are formed */
    double *z = L.tmp, *d = L.tmp + L.nj;
    memset(z, 0, (size_t)L.nn * sizeof *z);
    for (int j = 0; j < c; j++) {
        if (pi[j] == 0.0) continue;
        const double *Kj = L.K + (size_t)L.nn * j;
        for (int q = 0; q < L.nn; q++) z[q] += Kj[q] * pi[j];
    }
    for (int k = 0; k < L.nj; k++) {
        const double *col = L.Qt + L.rank + (size_t)L.nj * k;
        double sum = 0.0;
        for (int q = 0; q < L.nn; q++) sum += col[q] * z[q];
        d[k] = sum;
    }
    add_metric_motion(s, &L, d, du);
}

void ipx_constrained_delta_u(const ipx_constrained *s, const double *pi, double *du, double *work)
{
    layout L = factored(s, work);
    delta_u(s, &L, pi, du);
    /* N z carries eps |z| on every body, and a light link's velocity is the small difference of
       large terms when its impulse (1e12 N s on a 1 kg link carrying a 1e12 kg one) moves the
       heavy link: J_b du of 1e-10 of |du|. One least-change step onto the joints removes it and
       changes du by that round-off. */
    if (s->n_joint_rows > 0) project_once(s, &L, du);
}

void ipx_constrained_apply(const ipx_constrained *s, const double *x, double *y, double *du,
                           double *work)
{
    layout L = factored(s, work);
    const int c = s->n_contact_rows;
    for (int j = 0; j < c; j++) L.xin[j] = L.diag[j] > 0.0 ? x[j] : 0.0;
    delta_u(s, &L, L.xin, du); /* y = J_c du needs no joint refinement: W x to round-off */
    for (int i = 0; i < c; i++) y[i] = L.diag[i] > 0.0 ? row_velocity(&s->contact_row[i], du) : 0.0;
}

void ipx_constrained_diagonal(const ipx_constrained *s, double *work, double *diag)
{
    layout L = factored(s, work);
    memcpy(diag, L.diag, (size_t)s->n_contact_rows * sizeof *diag);
}

double ipx_constrained_joint_residual(const ipx_constrained *s, const double *u)
{
    double worst = 0.0;
    for (int i = 0; i < s->n_joint_rows; i++)
        worst = fmax(worst, fabs(row_velocity(&s->joint_row[i], u)));
    return worst;
}
