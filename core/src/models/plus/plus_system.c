/* PLUS Table 1 for one active-set candidate (docs/models/plus.md §5.3): unknowns, rows B pi = w and
   the minimum-2-norm solution. Rows are ordered like the unknowns, so row pos[i] belongs to
   global row i. */
#include <stdio.h>
#include <string.h>

#include "numerics/lsq_cod.h"
#include "numerics/min_norm.h"
#include "plus_system.h"
#include "numerics/sparse_lsq.h"

/* Unknowns: the three components of every contact in C_act or E (only the normal one if
   mu = 0) of the group being solved; observing and dropped contacts are fixed at 0 and have
   no columns. */
void plus_columns(plus_ctx *c)
{
    c->cache_has_b = 0;
    int m = 0;
    for (int i = 0; i < c->n; i++) c->pos[i] = -1;
    for (int i = 0; i < c->members; i++) {
        const int k = c->member[i];
        if (!plus_solving(c, k)) continue;
        int base = IPX_ROWS_PER_CONTACT * k;
        if (c->slip[k] != IPX_PLUS_NO_FRICTION)
            for (int t = IPX_T1; t <= IPX_T2; t++) {
                c->pos[base + t] = m;
                c->col[m++] = base + t;
            }
        c->pos[base + IPX_N] = m;
        c->col[m++] = base + IPX_N;
    }
    c->m = m;
}

/* Row r: row i of A over the unknown columns, right-hand side -v_i: drive v_i to 0 ((2.3) for a
   compressing normal, (2.7) for a rolling tangent). W is symmetric: its row i is column i.
   The row is multiplied by the problem's mass unit (units.h): it then has the impulse rows'
   unit (N*s), so the rank decisions of the min-norm solve and the solution of a rank-deficient
   system do not depend on the unit of mass. */
static void velocity_row(plus_ctx *c, int i, int r)
{
    const double *Wi = c->p->W + (size_t)c->n * (size_t)i;
    const double unit = c->mass_unit;
    for (int j = 0; j < c->m; j++) c->B[r + (size_t)c->m * j] = unit * Wi[c->col[j]];
    c->rhs[r] = -unit * c->v[i];
}

static void zero_row(plus_ctx *c, int r)
{
    for (int j = 0; j < c->m; j++) c->B[r + (size_t)c->m * j] = 0.0;
}

/* A prescribed normal impulse: pi_n = value. Expanding (2.4): what is left of pi_exp in this
   round; Painleve sliding (deviation 7): p_slide. */
static void prescribed_row(plus_ctx *c, int k, double value)
{
    int r = c->pos[IPX_ROWS_PER_CONTACT * k + IPX_N];
    zero_row(c, r);
    c->B[r + (size_t)c->m * r] = 1.0;
    c->rhs[r] = value;
}

/* The entries mu s of contact k's friction rows, in its normal column: all that its direction
   changes of those rows. */
static void direction_entries(plus_ctx *c, int k)
{
    const int base = IPX_ROWS_PER_CONTACT * k, rz = c->pos[base + IPX_N];
    for (int t = IPX_T1; t <= IPX_T2; t++)
        c->B[c->pos[base + t] + (size_t)c->m * rz] = plus_mu(c, k) * c->s[2 * k + t];
}

/* Sliding (2.8), (2.11): pi_t + mu s_hat pi_n = 0. Impending contacts take this form with
   their current direction guess. */
static void friction_rows(plus_ctx *c, int k)
{
    const int base = IPX_ROWS_PER_CONTACT * k;
    for (int t = IPX_T1; t <= IPX_T2; t++) {
        const int r = c->pos[base + t];
        zero_row(c, r);
        c->B[r + (size_t)c->m * r] = 1.0;
        c->rhs[r] = 0.0;
    }
    direction_entries(c, k);
}

void plus_assemble(plus_ctx *c)
{
    c->cache_has_b = 0;
    for (int i = 0; i < c->members; i++) {
        const int k = c->member[i];
        if (!plus_solving(c, k)) continue;
        int base = IPX_ROWS_PER_CONTACT * k;
        if (c->cls[k] == IPX_PLUS_EXPANDING) prescribed_row(c, k, c->pi_exp[k]);
        else if (c->normal_on[k] == PLUS_NORMAL_SLIDE) prescribed_row(c, k, c->p_slide[k]);
        else velocity_row(c, base + IPX_N, c->pos[base + IPX_N]);
        if (c->slip[k] == IPX_PLUS_ROLLING) {
            velocity_row(c, base + IPX_T1, c->pos[base + IPX_T1]);
            velocity_row(c, base + IPX_T2, c->pos[base + IPX_T2]);
        } else if (c->slip[k] != IPX_PLUS_NO_FRICTION) {
            friction_rows(c, k);
        }
    }
}

/* Only the direction entries of the impending contacts' friction rows: plus_assemble wrote the
   rest of those rows (friction_rows), and the directions are all that changed since. */
void plus_assemble_directions(plus_ctx *c)
{
    for (int i = 0; i < c->members; i++)
        if (plus_solving_impending(c, c->member[i])) direction_entries(c, c->member[i]);
}

/* 1 if a system of m unknowns is large enough to be offered to the sparse path (sparse_min). */
static int sparse_sized(const plus_ctx *c, int m)
{
    return c->cfg.sparse_min > 0 && m >= c->cfg.sparse_min;
}

/* The sparse path for a large sparse system (sparse_lsq.h); 1 if it answered (b = x). */
static int sparse_solve(plus_ctx *c, int m, const double *A, double *b)
{
    if (c->probing || !sparse_sized(c, m)) return 0;
    /* IPX_PLUS_SPARSE_GIVE_UP: a declined system costs a factorisation more. Stacks of boxes have
       the path answer most of their large systems; a bin's are near rank-deficient and it
       declined 15 393 of 15 863 (bench_replay on a 200-box bin's capture: 50-53 s of solves,
       43 s with this rule) */
    if (c->sparse_declined >= c->sparse_answered + IPX_PLUS_SPARSE_GIVE_UP) return 0;
    if (!c->sparse_on) ipx_sparse_begin(c->sparse);
    c->sparse_on = 1;
    if (ipx_sparse_min_norm(c->sparse, m, A, b, c->cfg.rcond, PLUS_SPARSE_DENSITY, c->sparse_x,
                            NULL) != IPX_OK) {
        c->sparse_declined++;
        return 0;
    }
    c->sparse_answered++;
    memcpy(b, c->sparse_x, sizeof(double) * (size_t)m);
    return 1;
}

int plus_sparse_paying(const plus_ctx *c, int m)
{
    return sparse_sized(c, m) && c->sparse_answered > c->sparse_declined;
}

void plus_sparse_end(plus_ctx *c)
{
    if (c->sparse_on) ipx_sparse_end(c->sparse);
    c->sparse_on = 0;
}

/* Deviation 12's accounting: 1 solve against the cost bound, refused once either the solves
   or the work units are spent. */
static ipx_status spend(plus_ctx *c)
{
    if (c->solves >= c->max_solves || c->work >= c->max_work) { /* deviation 12 */
        c->out_of_budget = 1;
        if (c->solves >= c->max_solves)
            snprintf(c->r->message, sizeof c->r->message,
                     "plus: cost bound of %ld solves reached in round %d", c->max_solves, c->round);
        else
            snprintf(c->r->message, sizeof c->r->message,
                     "plus: cost bound of %.3g work units reached in round %d", c->max_work,
                     c->round);
        return IPX_ERR_NOT_CONVERGED;
    }
    c->solves++;
    c->r->counts.lsq_solves++;
    return IPX_OK;
}

/* Deviation 12's work units of the solve of m unknowns just made: m^3 for a factorisation
   (a dense solve, a new base factor of the cache), m^2 per column that may have changed
   (ncols, the impending contacts' normal columns) plus one for the right-hand side where the
   cache's base factor answered, m^2 for the same system again. builds: the cache's base
   factors before the solve. Each is an upper bound of the multiply-adds up to a constant
   factor: QR with column pivoting of m columns makes about 4/3 m^3 of them, a solve from a
   base factor O(m) per column left out and O(m^2) per changed one
   (core/src/numerics/min_norm.h). */
static void charge_cached(plus_ctx *c, int m, long builds, int ncols)
{
    const double mm = (double)m * (double)m;
    const int path = ipx_min_norm_path(m, &c->lsq);
    double units = path == IPX_MIN_NORM_DENSE  ? mm * m
                   : path == IPX_MIN_NORM_BASE ? mm * (ncols + 1)
                                               : mm;
    units += mm * m * (double)(ipx_min_norm_base_builds(m, &c->lsq) - builds);
    c->work += units;
}

/* st of a solve of m unknowns, its failure named in the message. */
static ipx_status solve_status(plus_ctx *c, int m, ipx_status st)
{
    if (st != IPX_OK)
        snprintf(c->r->message, sizeof c->r->message,
                 "plus: min-norm solve of %d unknowns failed in round %d", m, c->round);
    return st;
}

/* The counted min-norm solve: the sparse path where it answers; otherwise through the factor
   cache lsq (own = 0; probes build its base factor at once), or in Newton's own arrays
   (own = 1: its systems, of another size, would displace the cache the candidate's system and
   the probes reuse). *cached (if not NULL) = 1 where the cache solved it. */
static ipx_status counted_solve(plus_ctx *c, int m, double *A, double *b, int own, int *cached)
{
    ipx_status st = spend(c);
    if (cached) *cached = 0;
    if (st != IPX_OK) return st;
    const int tried = c->sparse_answered + c->sparse_declined;
    const int sparse = sparse_solve(c, m, A, b);
    if (c->sparse_answered + c->sparse_declined > tried) /* SPQR's bound, in multiply-adds */
        c->work += (double)m * (double)m + 0.5 * ipx_sparse_flops_bound(c->sparse);
    if (sparse) return IPX_OK;
    const double rcond = c->cfg.rcond;
    const long builds = ipx_min_norm_base_builds(m, &c->lsq);
    if (own) {
        lsq_cod f;
        st = lsq_cod_min_norm(m, m, A, b, rcond, c->newton_work, c->newton_iwork, &f);
        c->work += (double)m * (double)m * (double)m;
    } else {
        if (c->probing) st = ipx_min_norm_solve_again(m, A, b, rcond, &c->lsq, c->lsq_iwork, NULL);
        else st = ipx_min_norm_solve(m, A, b, rcond, &c->lsq, c->lsq_iwork, NULL);
        int cols[IPX_MIN_NORM_MAX_SET];
        charge_cached(c, m, builds, plus_impending_columns(c, cols));
    }
    if (cached) *cached = !own;
    return solve_status(c, m, st);
}

ipx_status plus_lsq_newton(plus_ctx *c, int m, double *A, double *b)
{
    const int own = !sparse_sized(c, m); /* large: through the cache, as the candidate */
    if (!own) c->cache_has_b = 0;        /* which then holds another system */
    return counted_solve(c, m, A, b, own, NULL);
}

ipx_status plus_solve_linear(plus_ctx *c)
{
    const int m = c->m;
    if (m == 0) return IPX_OK;
    memcpy(c->fac, c->B, sizeof(double) * (size_t)m * (size_t)m);
    memcpy(c->x, c->rhs, sizeof(double) * (size_t)m);
    int cached;
    const ipx_status st = counted_solve(c, m, c->fac, c->x, 0, &cached);
    c->cache_has_b = cached;
    return st;
}

int plus_impending_columns(const plus_ctx *c, int *cols)
{
    int n = 0;
    for (int k = 0; k < c->k; k++) {
        if (!plus_solving_impending(c, k)) continue;
        if (n < IPX_MIN_NORM_MAX_SET) cols[n] = c->pos[IPX_ROWS_PER_CONTACT * k + IPX_N];
        n++;
    }
    return n;
}

/* A probe where the cache holds B (cache_has_b): B differs from it only in the impending
   contacts' normal columns cols[0..n), which are all the cache compares; B is not copied. */
static ipx_status probe_columns(plus_ctx *c, const int *cols, int n)
{
    ipx_status st = spend(c);
    if (st != IPX_OK) return st;
    const long builds = ipx_min_norm_base_builds(c->m, &c->lsq);
    memcpy(c->x, c->rhs, sizeof(double) * (size_t)c->m);
    st = ipx_min_norm_solve_columns(c->m, c->B, c->fac, c->x, c->cfg.rcond, &c->lsq, c->lsq_iwork,
                                    NULL, cols, n);
    charge_cached(c, c->m, builds, n);
    return solve_status(c, c->m, st);
}

ipx_status plus_solve_probe(plus_ctx *c)
{
    int cols[IPX_MIN_NORM_MAX_SET];
    plus_assemble_directions(c);
    const int n = plus_impending_columns(c, cols);
    if (c->m > 0 && c->cache_has_b && n <= IPX_MIN_NORM_MAX_SET) return probe_columns(c, cols, n);
    c->probing = 1;
    const ipx_status st = plus_solve_linear(c);
    c->probing = 0;
    return st;
}

void plus_scatter(plus_ctx *c)
{
    for (int i = 0; i < c->members; i++)
        for (int t = 0; t < IPX_ROWS_PER_CONTACT; t++)
            c->pi[IPX_ROWS_PER_CONTACT * c->member[i] + t] = 0.0;
    for (int j = 0; j < c->m; j++) c->pi[c->col[j]] = c->x[j];
}

void plus_velocity_change(plus_ctx *c)
{
    const int n = c->n;
    int started = 0; /* the first non-zero impulse's column is assigned, the rest added */
    for (int j = 0; j < n; j++) {
        const double pj = c->pi[j], *Wj = c->p->W + (size_t)n * (size_t)j;
        if (pj == 0.0) continue;
        if (started)
            for (int i = 0; i < n; i++) c->wpi[i] += Wj[i] * pj;
        else
            for (int i = 0; i < n; i++) c->wpi[i] = Wj[i] * pj;
        started = 1;
    }
    if (!started) memset(c->wpi, 0, sizeof(double) * (size_t)n);
}

double plus_tangent_velocity(const plus_ctx *c, int k, const double *x, int t)
{
    int i = IPX_ROWS_PER_CONTACT * k + t;
    const double *Wi = c->p->W + (size_t)c->n * (size_t)i;
    double w = c->v[i];
    for (int j = 0; j < c->m; j++) w += Wi[c->col[j]] * x[j];
    return w;
}
