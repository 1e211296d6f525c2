/* impax core: Lemke's complementary pivoting method with the lexicographic minimum-ratio rule.

   Reference: R. W. Cottle, J.-S. Pang, R. E. Stone, "The Linear Complementarity Problem",
   Academic Press 1992 (CPS below). Section 4.4 is Lemke's method (covering vector d,
   artificial variable z0), its lexicographic anti-cycling rule and its termination theory: on a
   copositive-plus M, a secondary ray proves LCP(q, M) infeasible; on a P-matrix the method
   always ends with the unique solution.

   The augmented system is    w - M z - d z0 = q,   w, z, z0 >= 0,   w_i z_i = 0,   d = (1..1).

   Numerics, in short (each is explained where it is done):
   - the data are scaled by sigma = max|M_ij| so that every column of the initial tableau
     ([I | -M | -d]) has entries of magnitude <= 1; the fixed tolerances below are then relative
     to the data, and a common scale factor of M and q changes neither the pivots nor z;
   - a pivot entry must exceed PIVOT_TOL times the 1-norm of its row of the basis inverse B^-1
     (the largest the entry could be), and COL_TOL times that times the 1-norm of the entering
     column (the round-off of B^-1 a), so round-off "positives" are never pivoted on;
   - ratios within a relative tolerance (plus the row's rhs round-off) are ties and are broken
     lexicographically with the rows of B^-1, which the tableau carries in its w columns
     (CPS 4.4), except that z0 leaves whenever it is among the ties;
   - a ratio test whose minimum is contested (another ratio is close to it, but not a tie, or
     tied with it but not equal) is redone after the two columns it compares are re-solved from
     the original data by iterative refinement, with ties judged by the error the refinement
     measured, and a secondary ray is confirmed on a tableau rebuilt from the data
     (Gauss-Jordan with partial pivoting on the basis columns of [I | -M/sigma | -d]);
   - the final complementary basis is re-solved from the original data by iterative refinement
     with the basis inverse the tableau already holds, then w = M z + q is recomputed from M and
     q, and only round-off-sized negative entries are clamped to 0;
   - a path whose final basis fails that check, or that ends on a ray, is walked again with the
     tableau rebuilt from the data every n / 2 pivots (path()).
   The pivots, where most of a solve's time goes, are compiled for AVX2 too (vector_clones.h;
   the same bits, test_lemke_clones); with the ratio test computing each ratio once, that takes
   a fifth to a quarter off the impact LCPs of bench_lcp from 4 to 128 unknowns. */
#include <float.h>
#include <math.h>
#include <string.h>

#include "impax/lcp.h"
#include "mathutil.h"
#include "vector_clones.h"

/* Pivot entries at or below this times the 1-norm of their row of B^-1 (see pivot()) are
   treated as zero: they are round-off of an exact zero far more often than a true pivot. */
#define PIVOT_TOL 1e-11
/* ... and at or below this times that 1-norm times the 1-norm of the entering column. An entry
   of B^-1 a computed from the data has an error of about eps sum_k |B^-1_ik| (|B| |x|)_k, and
   (|B| |x|)_k <= sum_j |x_j| since every entry of B is at most 1: a column with large entries
   (an ill-conditioned basis) makes large round-off in all its rows. On the wall-box LCP a
   2e-11 in a row of norm 2 next to entries of 1e6 was pivoted on (PIVOT_TOL alone admits it),
   and the step, a division by round-off, made basic variables of -0.066: a false ray. */
#define COL_TOL 1e-14
/* Ratios (and lexicographic entries) within this relative distance of the minimum are ties.
   After a few dozen pivots tableau entries carry relative errors far above machine epsilon, so
   ratios that are equal in exact arithmetic (redundant contacts make many) differ in the last
   digits; comparing them exactly would let round-off, not the rule, choose the leaving row. */
#define TIE_REL 1e-9
/* Round-off expected in the entries of row i of the tableau, relative to the largest value they
   can have: sum_k |B^-1_ik| times the scale of what they are computed from. For the rhs that is
   max|q| / sigma plus max|b| (the backward error of B b = q / sigma is eps |B| |b|, see
   COL_TOL); for the basis inverse (lexicographic tie-break) the identity.
   RHS_NOISE is some 450 eps, not more: a tolerance that counts as ties ratios which truly differ
   lets the lexicographic rule pick a row whose ratio is not the smallest, and the rows with the
   smallest ratio go negative. With 1e-12 (and no max|b|) the mirror-image contacts of a
   two-wheeler's LCP had ratios 1.0095708e-6 and 1.0095713e-6 (a real difference, 1.1e-10 in
   b_i against a tolerance of 3e-10) counted as ties; the rows left at -1.1e-10 were pivoted
   on with an entry of 8e-8 two steps later, which made a basic variable of -1.3e-3 (the
   tableau, whose b_i was taken as 0, did not see it), and Lemke ended on a false ray. */
#define RHS_NOISE 1e-13
#define LEX_NOISE 1e-12
/* A z_i or w_i of the final answer that is negative by less than this, relative to the
   magnitude of the terms it is computed from (see finish()), is round-off and is set to 0;
   anything larger is a numerical failure. */
#define CLAMP_REL 1e-9
/* ... plus this times the largest such magnitude over all entries (see finish()). */
#define NORM_REL 1e-12
/* Refinement steps on the final basis (each O(n^2)); one nearly always suffices. */
#define REFINE_STEPS 3
/* The tolerances above take the round-off of a row to be what a fresh factorisation of the
   basis gives. The updated tableau is less accurate than that: it keeps the round-off of every
   basis it passed through, and a pivot on a small entry (the ratio test may demand one) makes
   rows of norm 1e5 whose round-off stays when later pivots cancel them back to norm 10. Two
   decisions of the ratio test can then come out wrong, and either one sends the path astray:
   - two ratios more than the tie tolerance but less than CONTEST times it apart may be an
     exact tie, or in the wrong order. Four coplanar corners of a box landing on a face (AP LCP
     of 24 unknowns): after a pivot on 5.5e-6 the artificial variable and an impulse were to
     reach 0 at the same step (an exact tie, so z0 must leave: the next basis is a solution);
     in the updated tableau their ratios were 3.7e-8 apart (2.4e-8 and 1.3e-8 off the exact
     one, on either side), in a rebuilt one 4e-14. The impulse left, z0 stayed basic at 0, and
     the path went on to a secondary ray;
   - a pivot entry less than CONTEST times the pivot tolerance may be round-off. A Routh step
     LCP of another face landing pivoted on 2.3e-10 whose exact value is -6.8e-16: basic
     variables of -0.19, a false ray.
   Such a decision is made again after the two columns it compares, the rhs and the entering
   column, are re-solved from the data by CONTEST_STEPS steps of iterative refinement with the
   tableau's B^-1 (refine_column(): their round-off is then that of one solve with B, as the
   tolerances assume; on the box above both ratios came out equal to the exact one to the last
   digit). CONTEST = 1e4 puts the ratio band at about 1e-5 relative; in the impact LCPs of cube
   tosses in ODE 0.4 % of the ratio tests fall in a band (random impact LCPs of lcp_gen: none),
   each costing about two pivots. (Rebuilding the whole tableau instead, as for a ray, costs as
   many pivots as the basis has z columns: on the LCPs of 50 to 650 unknowns of a 200-box pile,
   11 times the refinement's time, for the same answers.) */
#define CONTEST 1e4
#define CONTEST_STEPS 2
/* Ties are contested too. On an ill-conditioned basis the normwise tolerance above (RHS_NOISE
   times the row's B^-1 norm, plus TIE_REL) is far looser than the actual error of the basic
   solution: in the dense LCPs of a 200-box bin, ratios that truly differ by 2e-12 to 4e-7 fell
   within it, the lexicographic rule (which holds only for exact ties) let the larger one leave,
   and the row with the smaller ratio ended negative (w_i = -1e-11 to -4e-3 in the final
   basis: 17 of 19 captured LCPs failed). So a tie among ratios that are not all equal is
   decided again after refinement, with the error the refinement measured instead of the
   normwise bound: the residual r of a refined column (data - B x, from the data) bounds the
   error of its row i by |B^-1_i| |r| (the 1-norm of the row times max|r|), and two ratios are
   a tie if they differ by less than MEASURED_SAFETY times what those errors can do to them.
   Exact ties (the four corners of a face reaching 0 together) stay ties: their refined ratios
   agree to that error. Degenerate ties (all b_i = 0, the common case) are equal as computed and
   cost nothing. */
#define MEASURED_SAFETY 10.0
/* Ratios closer than this (relative) are left to the normwise rule: a row left negative by so
   little is round-off to the final check (CLAMP_REL), and contesting them doubled the time of
   the random LCPs of 8 unknowns for no change of pivots. */
#define UNEQUAL (16.0 * DBL_EPSILON)

/* The work space: a row-major n x (2n + 2) tableau
       [ B^-1 | B^-1 (-M / sigma) | B^-1 (-d) | B^-1 q / sigma ]
   where B is the current basis (columns of [I, -M/sigma, -d]). Its first n columns start as the
   identity and are the w columns, so they always hold B^-1, which the lexicographic rule needs
   and the final refinement reuses. Variables are numbered w_i = i, z_i = n + i, z0 = 2n.
   After the tableau: three n-vectors, the 1-norms of the rows of B^-1, and the residual and
   correction of the refinement. Ints: the basis (the variable basic in each row) and the
   candidate rows of the ratio test. */
typedef struct tableau {
    int n, cols; /* cols = 2n + 2; the rhs is column cols - 1 */
    double *t;
    double *rownorm;  /* n: sum_k |B^-1_ik|, the largest any entry of row i can be */
    double *res, *dx; /* n each: refinement residual and correction */
    int *basis;
    int *cand;
} tableau;

#define T(tab, i, j) ((tab)->t[(size_t)(i) * (size_t)(tab)->cols + (size_t)(j)])

size_t ipx_lemke_work_doubles(int n)
{
    if (n < 1) return 0;
    return (size_t)n * (size_t)(2 * n + 2) + 3 * (size_t)n;
}

size_t ipx_lemke_work_ints(int n) { return n < 1 ? 0 : 2 * (size_t)n; }

/* Lemke needs about n to 2n pivots on the problems impax builds; degenerate ones under the
   lexicographic rule need more but stay linear in n in practice. This is a generous cap that
   still stops a (numerically) cycling run in O(n^3) time. */
int ipx_lemke_default_max_pivots(int n) { return n < 1 ? 1000 : 50 * n + 1000; }

/* Gauss-Jordan pivot on entry (r, c): row r is divided by the pivot, the other rows lose their
   multiple of it. O(n * cols) = O(n^2). The pivot column is set to the exact unit vector.
   Alongside, the 1-norm of each row of B^-1 is updated (it costs one fabs per entry of the
   rows that change). Every column of the initial tableau has entries of magnitude <= 1, so no
   entry of row i can exceed that norm in exact arithmetic, and its round-off is a small
   multiple of it: the tolerances of the ratio test are relative to it. They must be per row
   because the rows' values live on very different scales (in an impact LCP, impulses of
   1e-5 N s next to velocities of 1 m/s): one absolute tolerance for "this entry is zero" would
   be too loose for the small rows or too tight for the large ones. */
VECTOR_CLONES static void pivot(tableau *tab, int r, int c)
{
    const int n = tab->n, cols = tab->cols;
    double *row = &T(tab, r, 0);
    const double inv = 1.0 / row[c];
    for (int j = 0; j < cols; j++) row[j] *= inv;
    row[c] = 1.0;
    tab->rownorm[r] *= fabs(inv);
    for (int i = 0; i < n; i++) {
        if (i == r) continue;
        double *other = &T(tab, i, 0);
        const double f = other[c];
        if (f == 0.0) continue;
        for (int j = 0; j < cols; j++) other[j] -= f * row[j];
        other[c] = 0.0;
        tab->rownorm[i] = ipx_sum_abs(other, n); /* partial sums: mathutil.h */
    }
}

/* Keeps, among the `count` candidate rows, those whose entry in column `col` divided by their
   entry in the entering column is smallest, up to TIE_REL and the round-off of the entry,
   noise * (1-norm of the row of B^-1). Returns the new count. */
static int keep_smallest(tableau *tab, int count, int col, int enter, double noise)
{
    int *cand = tab->cand;
    double best = INFINITY;
    for (int k = 0; k < count; k++) {
        const double v = T(tab, cand[k], col) / T(tab, cand[k], enter);
        if (v < best) best = v;
    }
    int kept = 0;
    for (int k = 0; k < count; k++) {
        const int i = cand[k];
        const double a = T(tab, i, enter);
        if (T(tab, i, col) / a <= best + TIE_REL * fabs(best) + noise * tab->rownorm[i] / a)
            cand[kept++] = i;
    }
    return kept;
}

/* Among the `kept` tied candidate rows, the one whose row of B^-1 divided by its entry in the
   entering column is lexicographically smallest, column by column of B^-1. */
static int tie_break(tableau *tab, int kept, int enter)
{
    const int *cand = tab->cand;
    for (int col = 0; col < tab->n && kept > 1; col++)
        kept = keep_smallest(tab, kept, col, enter, LEX_NOISE);
    if (kept > 1) { /* numerically indistinguishable rows: take the most stable pivot */
        int best = cand[0];
        for (int k = 1; k < kept; k++)
            if (T(tab, cand[k], enter) > T(tab, best, enter)) best = cand[k];
        return best;
    }
    return cand[0];
}

/* The lexicographic minimum-ratio test (CPS 4.4) on the entering column `enter`.
   Candidates are the rows with a positive entry a_i. Among those with the smallest ratio
   b_i / a_i, the leaving row is the one whose row of B^-1, divided by a_i, is lexicographically
   smallest: this is the ratio test of the perturbed problem q + (eps, eps^2, ...), which is
   nondegenerate, so no basis can repeat and the method cannot cycle. In exact arithmetic two
   rows of B^-1 are never proportional, so the rule always picks exactly one row.
   Exception: if z0's row is among the ties it leaves, since the next basis is then a solution
   (the usual practical rule; it only shortens the path and cannot make it cycle).
   Returns the row; RAY if no entry is positive: a secondary ray (which run() confirms on a
   tableau rebuilt from the data before it believes it); CONTESTED if may_contest and some ratio
   is near the minimum but not tied with it, or tied with it but not equal, or the chosen pivot
   entry is near the pivot tolerance (see CONTEST, MEASURED_SAFETY): run() re-solves the
   columns from the data and asks again with the errors it measured (err).
   Ratios use max(b_i, 0). A near-tie broken by round-off (mirror-image contacts give many)
   leaves the rows that did not leave at a round-off-sized negative b_i where the exact value is
   0; such a row is degenerate, its ratio 0. Taken as it is, b_i / a_i < 0 with a small a_i beats
   every true ratio, and the step, negative, moves every other basic variable the wrong way:
   feasibility is lost (on the two-wheeler's polygonal LCPs, a -5e-16 over a 1.6e-10 pivot made
   basic variables of -2.8e-6 and -3.2e-2), and Lemke ends on a false secondary ray or with an
   inaccurate basis (IPX_ERR_NUMERIC). */
enum { RAY = -1, CONTESTED = -2 };

/* Errors of the two columns a ratio test compares, measured by refinement (max|data - B x| of
   the rhs and of the entering column, see MEASURED_SAFETY); rhs < 0: not measured, the normwise
   tolerances apply. */
typedef struct measured {
    double rhs, col;
} measured;

static const measured NOT_MEASURED = {-1.0, 0.0};

static int ratio_test(tableau *tab, int enter, double qscale, int may_contest, measured err)
{
    const int n = tab->n, rhs = tab->cols - 1;
    int *cand = tab->cand, count = 0;
    double *ratio = tab->dx; /* each candidate's ratio (dx is free outside refine_column) */
    double theta = INFINITY;
    double colnorm = 0.0, bmax = 0.0;
    for (int i = 0; i < n; i++) {
        colnorm += fabs(T(tab, i, enter));
        bmax = ipx_max(fabs(T(tab, i, rhs)), bmax);
    }
    const double rhs_noise = RHS_NOISE * (qscale + bmax);
    const double ptol = fmax(PIVOT_TOL, COL_TOL * colnorm);
    for (int i = 0; i < n; i++) {
        const double a = T(tab, i, enter);
        if (a > ptol * tab->rownorm[i]) {
            const double v = ipx_max(T(tab, i, rhs), 0.0) / a;
            ratio[count] = v;
            cand[count++] = i;
            if (v < theta) theta = v;
        }
    }
    if (count == 0) return RAY;
    /* the ties: ratios within the relative tolerance, plus what the round-off of the row's rhs
       can do to its ratio (this decides degenerate ties, where the exact rhs is 0).
       Too loose a tolerance would let a row with a truly larger ratio leave, which makes the
       row with the smallest ratio negative: feasibility is lost. Too tight only lets round-off
       break an exact tie, which keeps feasibility. So the tolerance errs on the tight side, and
       what the round-off of an updated tableau can do beyond it is settled by CONTEST. */
    int kept = 0, z0_row = -1;
    double widest = theta; /* the largest ratio among the ties; theta is the smallest */
    for (int k = 0; k < count; k++) {
        const int i = cand[k];
        const double a = T(tab, i, enter);
        const double gap = ratio[k] - theta;
        const double tie = err.rhs >= 0.0
                               ? MEASURED_SAFETY * tab->rownorm[i] * (err.rhs + theta * err.col) / a
                               : TIE_REL * fabs(theta) + rhs_noise * tab->rownorm[i] / a;
        if (gap <= tie) {
            cand[kept++] = i;
            widest = ipx_max(ratio[k], widest);
            if (tab->basis[i] == 2 * n) z0_row = i;
        } else if (may_contest && gap <= CONTEST * tie) {
            return CONTESTED;
        }
    }
    /* a tie of unequal ratios (see MEASURED_SAFETY) */
    if (may_contest && widest - theta > UNEQUAL * widest) return CONTESTED;
    const int r = z0_row >= 0 ? z0_row : tie_break(tab, kept, enter);
    /* an entry this close to the pivot tolerance may be round-off of the updated tableau */
    if (may_contest && T(tab, r, enter) <= CONTEST * ptol * tab->rownorm[r]) return CONTESTED;
    return r;
}

/* Fills the tableau with the initial one of the scaled problem (M / sigma, q / sigma):
   [I | -M/sigma | -d | q/sigma], the 1-norms of the rows of B^-1 = I. */
static void setup_tableau(tableau *tab, const double *M, const double *q, double inv_sigma)
{
    const int n = tab->n;
    memset(tab->t, 0, sizeof(double) * (size_t)n * (size_t)tab->cols);
    for (int i = 0; i < n; i++) {
        double *row = &T(tab, i, 0);
        row[i] = 1.0;
        for (int j = 0; j < n; j++) row[n + j] = -M[i + (size_t)n * j] * inv_sigma;
        row[2 * n] = -1.0;
        row[2 * n + 1] = q[i] * inv_sigma;
        tab->rownorm[i] = 1.0;
    }
}

/* Lays the tableau out in the work space and fills the initial one (basis: the slacks w). */
static void setup(tableau *tab, int n, const double *M, const double *q, double inv_sigma,
                  double *dwork, int *iwork)
{
    tab->n = n;
    tab->cols = 2 * n + 2;
    tab->t = dwork;
    tab->rownorm = dwork + (size_t)n * (size_t)tab->cols;
    tab->res = tab->rownorm + n;
    tab->dx = tab->res + n;
    tab->basis = iwork;
    tab->cand = iwork + n;
    setup_tableau(tab, M, q, inv_sigma);
    for (int i = 0; i < n; i++) tab->basis[i] = i;
}

/* Rebuilds the tableau of the current basis from the original data: the initial tableau
   [I | -M/sigma | -d | q/sigma] is set up again and the basic columns are pivoted in by
   Gauss-Jordan elimination with partial pivoting (each in the unassigned row where its entry is
   largest). The slack columns need no elimination: w_v keeps row v, where its column is the unit
   vector e_v throughout. Returns 0 if the basis is numerically singular (the tableau is then
   unusable). O(m n^2) for m non-slack basic variables, as many as m Lemke pivots. */
static int refactor(tableau *tab, const double *M, const double *q, double inv_sigma)
{
    const int n = tab->n;
    int *vars = tab->cand; /* the basic variables (cand is free outside ratio_test) */
    memcpy(vars, tab->basis, sizeof(int) * (size_t)n);
    int *basis = tab->basis;
    setup_tableau(tab, M, q, inv_sigma);
    for (int i = 0; i < n; i++) basis[i] = -1;
    for (int k = 0; k < n; k++)
        if (vars[k] < n) basis[vars[k]] = vars[k];
    for (int k = 0; k < n; k++) {
        const int c = vars[k];
        if (c < n) continue;
        int r = -1;
        double best = 0.0;
        for (int i = 0; i < n; i++)
            if (basis[i] < 0 && fabs(T(tab, i, c)) > best) {
                best = fabs(T(tab, i, c));
                r = i;
            }
        if (r < 0) return 0;
        pivot(tab, r, c);
        basis[r] = c;
    }
    return 1;
}

/* res = (the data's column c) - B (tableau column c) for the current basis B, from the original
   data (not the tableau): c is a variable's column of [I | -M/sigma | -d] or the rhs (q/sigma).
   Returns max|res|. O(n m) for m basic z's. */
static double column_residual(tableau *tab, int c, const double *M, const double *q,
                              double inv_sigma)
{
    const int n = tab->n;
    double *res = tab->res;
    for (int k = 0; k < n; k++) {
        if (c < n) res[k] = k == c ? 1.0 : 0.0;
        else if (c < 2 * n) res[k] = -M[k + (size_t)n * (size_t)(c - n)] * inv_sigma;
        else if (c == 2 * n) res[k] = -1.0;
        else res[k] = q[k] * inv_sigma;
    }
    for (int i = 0; i < n; i++) {
        const int v = tab->basis[i];
        const double x = T(tab, i, c);
        if (v < n) {
            res[v] -= x; /* column e_v of w_v */
        } else if (v < 2 * n) {
            const double *col = M + (size_t)n * (size_t)(v - n); /* column -M_j / sigma of z_j */
            const double s = x * inv_sigma;
            for (int k = 0; k < n; k++) res[k] += col[k] * s;
        } else {
            for (int k = 0; k < n; k++) res[k] += x; /* column -d of z0 */
        }
    }
    return ipx_max_abs(res, n);
}

/* Up to `steps` steps of iterative refinement of tableau column c, x += B^-1 (data - B x), with
   the residual from the original data and the B^-1 the tableau holds: they bring x back to the
   accuracy of one solve with B, whatever round-off the updates left in it (as long as the
   drifted B^-1 still contracts the error, which a step that does not reduce the residual shows:
   it is undone and ends the refinement). O(n^2) per step. Returns max|data - B x| of the column
   as left. */
static double refine_column(tableau *tab, int c, const double *M, const double *q, double inv_sigma,
                            int steps)
{
    const int n = tab->n;
    double before = column_residual(tab, c, M, q, inv_sigma);
    /* (no early exit on a small max|res|: rows of small scale in a badly scaled problem still
       gain from the step, and finish() judges each row on its own scale) */
    for (int step = 0; step < steps && before > 0.0; step++) {
        for (int i = 0; i < n; i++)
            tab->dx[i] = ipx_dot(&T(tab, i, 0), tab->res, n); /* row i of B^-1 */
        for (int i = 0; i < n; i++) T(tab, i, c) += tab->dx[i];
        const double after = column_residual(tab, c, M, q, inv_sigma);
        if (!(after < before)) {
            for (int i = 0; i < n; i++) T(tab, i, c) -= tab->dx[i];
            break;
        }
        before = after;
    }
    return before;
}

/* Lemke's path (CPS 4.4): z0 enters, then each leaving variable's complement enters,
   until z0 leaves (a solution) or no row bounds the entering variable (a secondary ray).
   refresh > 0: the tableau is rebuilt from the data after every `refresh` pivots (see
   ipx_lemke). */
static ipx_status run(tableau *tab, const double *M, const double *q, double inv_sigma,
                      double qscale, int max_pivots, int refresh, int *pivots)
{
    const int n = tab->n, rhs = tab->cols - 1;
    /* z0 enters at the most negative q_i, which makes every rhs non-negative. Among equal q_i the
       last row is taken: the rows (b_i, B^-1_i) after the pivot are then lexicographically
       positive (for i < r the row is (0, e_i - e_r), whose first non-zero is +1), which is what
       the lexicographic rule needs to start from (CPS 4.4). */
    int r = 0;
    for (int i = 1; i < n; i++)
        if (T(tab, i, rhs) <= T(tab, r, rhs)) r = i;
    int leaving = tab->basis[r];
    pivot(tab, r, 2 * n);
    tab->basis[r] = 2 * n;
    *pivots = 1;
    while (leaving != 2 * n) {
        if (*pivots >= max_pivots) return IPX_ERR_LCP_PIVOTS;
        /* complementary pivot rule: the complement of the variable that just left enters */
        const int enter = leaving < n ? leaving + n : leaving - n;
        r = ratio_test(tab, enter, qscale, 1, NOT_MEASURED);
        if (r == CONTESTED) {
            /* the rhs and the entering column, the numbers the test compares, re-solved from
               the data (see CONTEST); the residuals left are floored at the round-off of
               computing them (entries of the scaled data are at most 1) */
            measured err = {refine_column(tab, rhs, M, q, inv_sigma, CONTEST_STEPS),
                            refine_column(tab, enter, M, q, inv_sigma, CONTEST_STEPS)};
            err.rhs = fmax(err.rhs, DBL_EPSILON * qscale);
            err.col = fmax(err.col, DBL_EPSILON);
            r = ratio_test(tab, enter, qscale, 0, err);
        }
        if (r == RAY) {
            /* A ray is believed only on a tableau rebuilt from the data: the updated one carries
               the round-off of every pivot, and a column of round-off-sized entries cannot tell
               a true ray from a drifted one. The path goes on from the fresh tableau. */
            if (!refactor(tab, M, q, inv_sigma)) return IPX_ERR_LCP_RAY;
            r = ratio_test(tab, enter, qscale, 0, NOT_MEASURED);
            if (r < 0) return IPX_ERR_LCP_RAY;
        }
        leaving = tab->basis[r];
        if (T(tab, r, rhs) < 0.0) T(tab, r, rhs) = 0.0; /* round-off below 0: a step of 0 */
        pivot(tab, r, enter);
        tab->basis[r] = enter;
        ++*pivots;
        if (refresh > 0 && *pivots % refresh == 0 && !refactor(tab, M, q, inv_sigma))
            return IPX_ERR_NUMERIC;
    }
    return IPX_OK;
}

/* max|x_i| into *m; 0 if some entry is not finite. One pass for both checks of M. */
static int finite_max_abs(const double *x, size_t count, double *m)
{
    int ok = 1;
    double v = 0.0;
    for (size_t i = 0; i < count; i++) {
        ok &= isfinite(x[i]) != 0;
        if (fabs(x[i]) > v) v = fabs(x[i]);
    }
    *m = v;
    return ok;
}

/* Reads z off the final tableau, sets w = M z + q from the data, clamps round-off-sized
   negatives to 0 and checks the result; IPX_ERR_NUMERIC if a violation larger than round-off
   is left (the pivots lost too much accuracy to trust the basis).
   Round-off is judged per entry, against the magnitude of what the entry is computed from:
   z_i = (B^-1 q / sigma)_r in its row r, so |z_i| <= rownorm_r max|q| / sigma bounds its terms;
   w_i = q_i + sum_j M_ij z_j, so |q_i| + sum_j |M_ij| |z_j| bounds its terms. One global scale
   would not do: the entries of an impact LCP differ by orders of magnitude (see pivot()).
   A floor of NORM_REL times the largest such magnitude covers rows whose own data are
   negligible (an M row of round-off-sized entries): elimination is backward stable in norm,
   not entry by entry. */
static ipx_status finish(tableau *tab, const double *M, const double *q, double inv_sigma,
                         double *z, double *w)
{
    const int n = tab->n, rhs = tab->cols - 1;
    const double qs = ipx_max_abs(q, n) * inv_sigma;
    double *zscale = tab->dx, *wscale = tab->res; /* free after refine_column() */
    for (int k = 0; k < n; k++) z[k] = zscale[k] = 0.0;
    for (int i = 0; i < n; i++) {
        const int v = tab->basis[i] - n;
        if (v < 0 || v >= n) continue;
        z[v] = T(tab, i, rhs);
        zscale[v] = tab->rownorm[i] * qs + fabs(z[v]);
    }
    const double zfloor = NORM_REL * ipx_max_abs(zscale, n);
    for (int k = 0; k < n; k++) zscale[k] = CLAMP_REL * zscale[k] + zfloor; /* now a tolerance */
    for (int k = 0; k < n; k++)
        if (z[k] < 0.0 && z[k] >= -zscale[k]) z[k] = 0.0;
    for (int i = 0; i < n; i++) {
        w[i] = q[i];
        wscale[i] = fabs(q[i]);
    }
    for (int j = 0; j < n; j++) {
        if (z[j] == 0.0) continue;
        const double *col = M + (size_t)n * (size_t)j;
        for (int i = 0; i < n; i++) {
            w[i] += col[i] * z[j];
            wscale[i] += fabs(col[i] * z[j]);
        }
    }
    const double wfloor = NORM_REL * ipx_max_abs(wscale, n);
    for (int i = 0; i < n; i++) wscale[i] = CLAMP_REL * wscale[i] + wfloor;
    for (int i = 0; i < n; i++)
        if (w[i] < 0.0 && w[i] >= -wscale[i]) w[i] = 0.0;
    for (int i = 0; i < n; i++) {
        if (!(z[i] >= 0.0 && w[i] >= 0.0)) return IPX_ERR_NUMERIC;
        if (z[i] > zscale[i] && w[i] > wscale[i]) return IPX_ERR_NUMERIC; /* complementarity */
    }
    return IPX_OK;
}

/* Lemke's path from the initial tableau and, where it ends on a complementary basis, that
   basis's solution into z, w (run(), finish()). A path that ends on a basis failing the
   accuracy check (IPX_ERR_NUMERIC) or on a ray, even one the rebuilt tableau confirms, may have
   been sent there by a ratio test the updates' round-off decided wrongly long before, which
   neither the contest rule nor a rebuild at the end undoes; it is walked again with the tableau
   rebuilt from the data every n / 2 pivots. AP LCPs at mu 1000 (test_lcp_degenerate.c): of 311
   unknowns, infeasible bases after 470 and 1 071 pivots, solved after 473 and 1 079 with the
   rebuilds (every 50 to n pivots: the same); of 258 to 359 unknowns, false rays after 699 to
   1 167 pivots, solved after 1 399 to 4 059 in all. Only a failed path pays for the second one,
   and a true ray (an infeasible LCP) is reported after it; each rebuild costs as many pivots as
   the basis has z columns. */
static ipx_status path(tableau *tab, int n, const double *M, const double *q, double inv_sigma,
                       double qscale, int max_pivots, int refresh, double *dwork, int *iwork,
                       double *z, double *w, int *pivots)
{
    setup(tab, n, M, q, inv_sigma, dwork, iwork);
    ipx_status st = run(tab, M, q, inv_sigma, qscale, max_pivots, refresh, pivots);
    if (st != IPX_OK) return st;
    /* The final basis is complementary: its basic solution (z_Z, w_W) solves M_ZZ z_Z = -q_Z,
       re-solved from the data to the accuracy of one solve with B. */
    refine_column(tab, tab->cols - 1, M, q, inv_sigma, REFINE_STEPS);
    return finish(tab, M, q, inv_sigma, z, w);
}

ipx_status ipx_lemke(int n, const double *M, const double *q, double *z, double *w, int max_pivots,
                     double *dwork, int *iwork, int *pivots_out)
{
    int pivots = 0;
    if (pivots_out) *pivots_out = 0;
    if (n < 1) return IPX_ERR_INPUT;
    if (!M || !q || !z || !w || !dwork || !iwork) {
        if (z) memset(z, 0, sizeof(double) * (size_t)n);
        if (w) memset(w, 0, sizeof(double) * (size_t)n);
        return IPX_ERR_INPUT;
    }
    const size_t nn = (size_t)n * (size_t)n;
    ipx_status st = IPX_OK;
    double sigma = 0.0, qmax = 0.0;
    if (max_pivots < 1 || !finite_max_abs(M, nn, &sigma) || !finite_max_abs(q, (size_t)n, &qmax)) {
        st = IPX_ERR_INPUT;
    } else {
        int trivial = 1;
        for (int i = 0; i < n; i++) trivial &= q[i] >= 0.0;
        if (trivial) { /* z = 0, w = q solves it; Lemke would make no pivot either */
            memset(z, 0, sizeof(double) * (size_t)n);
            memcpy(w, q, sizeof(double) * (size_t)n);
            return IPX_OK;
        }
        /* scale by the largest |M_ij| (1 for M = 0): z is unchanged, w and q scale together */
        if (!(sigma > 0.0) || !isfinite(1.0 / sigma)) sigma = 1.0;
        const double inv_sigma = 1.0 / sigma;
        tableau tab;
        st = path(&tab, n, M, q, inv_sigma, qmax * inv_sigma, max_pivots, 0, dwork, iwork, z, w,
                  &pivots);
        if ((st == IPX_ERR_NUMERIC || st == IPX_ERR_LCP_RAY) && pivots < max_pivots) {
            int again = 0;
            st = path(&tab, n, M, q, inv_sigma, qmax * inv_sigma, max_pivots - pivots,
                      n / 2 > 1 ? n / 2 : 1, dwork, iwork, z, w, &again);
            pivots += again;
        }
    }
    if (pivots_out) *pivots_out = pivots;
    if (st != IPX_OK) {
        memset(z, 0, sizeof(double) * (size_t)n);
        memset(w, 0, sizeof(double) * (size_t)n);
    }
    return st;
}
