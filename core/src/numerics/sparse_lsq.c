/* Minimum-norm solves through SuiteSparseQR (sparse_lsq.h). */
#include <math.h>
#include <string.h>

#include <SuiteSparseQR_C.h>

#include "sparse_lsq.h"

/* A residual of the rows left out above this, relative to the size of their terms, marks a
   system that is not consistent (or a row SPQR dropped that the dense rule keeps). Consistent
   systems leave rounding error, eps times the condition of the kept rows. */
#define RESIDUAL_LIMIT 1e-9
/* The rows SPQR kept must be well inside the dense rule's rank (rcond = 1e-11 of the largest
   row): the smallest singular value of their R11 above this fraction of A's largest row norm.
   SPQR's rank detection (Heath's method) is not rank-revealing; a row it keeps near that
   threshold may be one the dense rule drops, and then the answers differ in full. */
#define KEPT_SIGMA_MIN 1e-8
/* Inverse iterations for R11's smallest singular value (an overestimate, which the three
   decades between KEPT_SIGMA_MIN and rcond cover). The bound also bounds the answer's rounding
   error, about eps / KEPT_SIGMA_MIN relative (test_sparse_lsq: 1e-9 gave 9.9e-10 from dgelsy on
   J D J^T systems, 1e-8 gives 3.3e-10; PLUS's systems 3.4e-12 with either). */
#define INVERSE_ITERATIONS 8

/* CHOLMOD's common object, and the last symbolic analysis (SPQR's fill-reducing ordering and
   the structure of its fronts), kept for the next system whose non-zeros lie in its pattern:
   the steps of one Newton solve on impulse and angles have one pattern, and before this their
   ordering and analysis were 62 % of SPQR's time on the crash's islands (docs/performance.md). */
typedef struct sparse_state {
    cholmod_common cc;
    cholmod_sparse *kept;              /* A^T of the analysed pattern, the last system's values */
    SuiteSparseQR_C_factorization *qr; /* its analysis and last numeric factorisation */
    int deficient;                     /* 1 if that factorisation was rank-deficient */
    double flops_bound;                /* SPQR's flop bound of the analysis */
    long analyses;                     /* symbolic analyses made since ipx_sparse_begin */
} sparse_state;

size_t ipx_sparse_state_bytes(void) { return sizeof(sparse_state); }

void ipx_sparse_begin(void *state)
{
    sparse_state *s = state;
    *s = (sparse_state){.kept = NULL, .qr = NULL};
    cholmod_l_start(&s->cc);
    s->cc.print = 0; /* no messages on stdout: a failure only sends the solve to the dense path */
}

/* Drops the kept analysis. */
static void forget(sparse_state *s)
{
    SuiteSparseQR_C_free(&s->qr, &s->cc);
    cholmod_l_free_sparse(&s->kept, &s->cc);
    s->deficient = 0;
    s->flops_bound = 0.0;
}

void ipx_sparse_end(void *state)
{
    sparse_state *s = state;
    forget(s);
    cholmod_l_finish(&s->cc);
}

double ipx_sparse_flops_bound(const void *state)
{
    const double f = ((const sparse_state *)state)->flops_bound;
    return f > 0.0 ? f : 0.0;
}

long ipx_sparse_analyses(const void *state) { return ((const sparse_state *)state)->analyses; }

/* A's largest row norm from its rows' sums of squares ss (n), which it clears: ss is CHOLMOD's
   Xwork, which CHOLMOD wants all zero between calls. */
static double largest_row_norm(double *ss, size_t n)
{
    double largest = 0.0;
    for (size_t j = 0; j < n; j++) largest = fmax(largest, sqrt(ss[j])), ss[j] = 0.0;
    return largest;
}

/* A^T in compressed columns (column j = row j of A), built from A's columns (contiguous) in
   two passes; NULL if A has more than max_nz non-zeros. *row_max = A's largest row norm.
   It is allocated to its count of non-zeros, not to max_nz (a quarter of n^2, mostly unused):
   such a block came from the top of the heap and its free gave it back to the system, and
   those trims (page faults, TLB flushes on every core) were 17 % of the replay of the crash's
   dearest islands (docs/performance.md). */
static cholmod_sparse *transpose_of(int n, const double *A, size_t max_nz, cholmod_common *cc,
                                    double *row_max)
{
    const size_t nn = (size_t)n;
    SuiteSparse_long *p = cc->Iwork; /* n longs of CHOLMOD's workspace: row counts */
    size_t nz = 0;
    for (size_t j = 0; j < nn; j++) p[j] = 0;
    for (size_t c = 0; c < nn; c++)
        for (size_t j = 0; j < nn; j++) {
            const int non_zero = A[j + nn * c] != 0.0;
            p[j] += non_zero;
            nz += (size_t)non_zero;
        }
    if (nz > max_nz) return NULL;
    cholmod_sparse *T =
        cholmod_l_allocate_sparse(nn, nn, nz > 0 ? nz : 1, 1, 1, 0, CHOLMOD_REAL, cc);
    if (!T) return NULL;
    SuiteSparse_long *tp = T->p, *i = T->i;
    double *x = T->x, *ss = cc->Xwork; /* n doubles of CHOLMOD's workspace: row sums of squares */
    tp[0] = 0;
    for (size_t j = 0; j < nn; j++) tp[j + 1] = tp[j] + p[j], ss[j] = 0.0;
    for (size_t j = 0; j < nn; j++) p[j] = tp[j]; /* p[j]: next free slot of column j */
    for (size_t c = 0; c < nn; c++)               /* rows c ascending */
        for (size_t j = 0; j < nn; j++) {
            const double a = A[j + nn * c];
            if (a == 0.0) continue;
            i[p[j]] = (SuiteSparse_long)c;
            x[p[j]++] = a;
            ss[j] += a * a;
        }
    *row_max = largest_row_norm(ss, nn);
    return T;
}

/* Refills the kept A^T with A's values if every non-zero of A lies in its pattern (the rest of
   the pattern then holds explicit zeros, which SPQR factorises like any entry); returns 1 if
   it did. *row_max as transpose_of. Rows c ascending meet each column's kept rows in order. */
static int refill(cholmod_sparse *K, int n, const double *A, cholmod_common *cc, double *row_max)
{
    if (K->ncol != (size_t)n) return 0;
    const size_t nn = (size_t)n;
    const SuiteSparse_long *p = K->p, *i = K->i;
    SuiteSparse_long *next = cc->Iwork; /* n longs of CHOLMOD's workspace: column cursors */
    double *x = K->x, *ss = cc->Xwork;  /* row sums of squares, as in transpose_of */
    for (size_t j = 0; j < nn; j++) next[j] = p[j];
    int fits = 1;
    for (size_t c = 0; fits && c < nn; c++)
        for (size_t j = 0; j < nn; j++) {
            const double a = A[j + nn * c];
            if (next[j] < p[j + 1] && i[next[j]] == (SuiteSparse_long)c) {
                x[next[j]++] = a;
                ss[j] += a * a;
            } else if (a != 0.0) {
                fits = 0;
                break;
            }
        }
    *row_max = largest_row_norm(ss, nn);
    return fits;
}

/* A fresh symbolic analysis of A^T's pattern (T, which the state then keeps); 1 if made. */
static int analyse(sparse_state *s, cholmod_sparse *T)
{
    forget(s);
    s->qr = SuiteSparseQR_C_symbolic(SPQR_ORDERING_DEFAULT, 1, T, &s->cc);
    if (!s->qr) {
        cholmod_l_free_sparse(&T, &s->cc);
        return 0;
    }
    s->kept = T;
    s->flops_bound = s->cc.SPQR_flopcount_bound;
    s->analyses++;
    return 1;
}

/* The numeric factorisation of the kept A^T on its analysis, with rank detection at tol;
   returns its rank, -1 on failure. A rank-deficient factorisation leaves a map of R's columns
   that SPQR recomputes only for the next rank-deficient one and reads in every solve, so a
   full-rank factorisation after it is made on a fresh analysis. */
static int factorise(sparse_state *s, double tol)
{
    const int n = (int)s->kept->ncol;
    cholmod_common *cc = &s->cc;
    if (!SuiteSparseQR_C_numeric(tol, s->kept, s->qr, cc)) return -1;
    int rank = (int)cc->SPQR_istat[4];
    if (rank == n && s->deficient) {
        cholmod_sparse *T = s->kept;
        s->kept = NULL; /* analyse keeps it again */
        if (!analyse(s, T) || !SuiteSparseQR_C_numeric(tol, s->kept, s->qr, cc)) return -1;
        rank = (int)cc->SPQR_istat[4];
    }
    s->deficient = rank < n;
    return rank;
}

/* x = Q [R11^-T (E^T b)_1..r; 0] from the factor of A^T. */
static int solve_rows(SuiteSparseQR_C_factorization *QR, int n, const double *b, double *x,
                      cholmod_common *cc)
{
    cholmod_dense *B = cholmod_l_allocate_dense((size_t)n, 1, (size_t)n, CHOLMOD_REAL, cc);
    if (!B) return 0;
    memcpy(B->x, b, sizeof(double) * (size_t)n);
    cholmod_dense *Y = SuiteSparseQR_C_solve(SPQR_RTX_EQUALS_ETB, QR, B, cc);
    cholmod_dense *X = Y ? SuiteSparseQR_C_qmult(SPQR_QX, QR, Y, cc) : NULL;
    const int ok = X != NULL;
    if (ok) memcpy(x, X->x, sizeof(double) * (size_t)n);
    cholmod_l_free_dense(&B, cc);
    cholmod_l_free_dense(&Y, cc);
    cholmod_l_free_dense(&X, cc);
    return ok;
}

/* y <- R11^-1 R11^-T y (n entries, the first `rank` used, the rest 0); returns 0 on failure. */
static int inverse_step(SuiteSparseQR_C_factorization *QR, cholmod_dense *Y, cholmod_common *cc)
{
    cholmod_dense *U = SuiteSparseQR_C_solve(SPQR_RTX_EQUALS_B, QR, Y, cc);
    cholmod_dense *Z = U ? SuiteSparseQR_C_solve(SPQR_RX_EQUALS_B, QR, U, cc) : NULL;
    const int ok = Z != NULL;
    if (ok) memcpy(Y->x, Z->x, sizeof(double) * Y->nrow);
    cholmod_l_free_dense(&U, cc);
    cholmod_l_free_dense(&Z, cc);
    return ok;
}

/* 1 if the smallest singular value of the kept rows' R11 is above KEPT_SIGMA_MIN row_max
   (inverse iteration on R11^T R11). */
static int well_kept(SuiteSparseQR_C_factorization *QR, int n, int rank, double row_max,
                     cholmod_common *cc)
{
    if (rank == 0) return 1;
    cholmod_dense *Y = cholmod_l_allocate_dense((size_t)n, 1, (size_t)n, CHOLMOD_REAL, cc);
    if (!Y) return 0;
    double *y = Y->x, lambda = 0.0;
    for (int i = 0; i < n; i++)
        y[i] = i < rank ? 1.0 + 0.5 * sin(i) : 0.0; /* not orthogonal to much */
    int ok = 1;
    for (int it = 0; ok && it < INVERSE_ITERATIONS; it++) {
        double before = 0.0, after = 0.0;
        for (int i = 0; i < n; i++) before += y[i] * y[i];
        ok = inverse_step(QR, Y, cc);
        for (int i = 0; ok && i < n; i++) after += y[i] * y[i];
        lambda = sqrt(after / before); /* -> 1 / sigma_min^2 */
        const double scale = 1.0 / sqrt(after);
        for (int i = 0; ok && i < n; i++) y[i] *= scale;
        ok = ok && isfinite(lambda) && lambda > 0.0;
    }
    cholmod_l_free_dense(&Y, cc);
    return ok && 1.0 / sqrt(lambda) > KEPT_SIGMA_MIN * row_max;
}

/* 1 if x solves every row of A x = b (A^T in T) to rounding. */
static int vouch(const cholmod_sparse *T, int n, const double *b, const double *x, double row_max)
{
    const SuiteSparse_long *p = T->p, *i = T->i;
    const double *a = T->x;
    double x_max = 0.0;
    for (int j = 0; j < n; j++) {
        if (!isfinite(x[j])) return 0;
        x_max = fmax(x_max, fabs(x[j]));
    }
    for (int j = 0; j < n; j++) {
        double r = -b[j], size = fabs(b[j]);
        for (SuiteSparse_long q = p[j]; q < p[j + 1]; q++) {
            r += a[q] * x[i[q]];
            size += fabs(a[q] * x[i[q]]);
        }
        if (fabs(r) > RESIDUAL_LIMIT * fmax(size, row_max * x_max)) return 0;
    }
    return 1;
}

ipx_status ipx_sparse_min_norm(void *state, int n, const double *A, const double *b, double rcond,
                               double max_density, double *x, int *rank_out)
{
    sparse_state *s = state;
    cholmod_common *cc = &s->cc;
    double row_max = 0.0;
    const double max_nz = max_density * (double)n * (double)n;
    if (!cholmod_l_allocate_work(0, (size_t)n, (size_t)n, cc)) return IPX_ERR_NUMERIC;
    if (!s->kept || !refill(s->kept, n, A, cc, &row_max)) {
        cholmod_sparse *T = transpose_of(n, A, max_nz < 1.0 ? 1 : (size_t)max_nz, cc, &row_max);
        if (!T || !analyse(s, T)) return IPX_ERR_NUMERIC;
    }
    if (!isfinite(row_max)) return IPX_ERR_NUMERIC;
    const int rank = factorise(s, rcond * row_max);
    SuiteSparseQR_C_factorization *QR = s->qr;
    const int ok = rank >= 0 && well_kept(QR, n, rank, row_max, cc) &&
                   solve_rows(QR, n, b, x, cc) && vouch(s->kept, n, b, x, row_max);
    if (ok && rank_out) *rank_out = rank;
    return ok ? IPX_OK : IPX_ERR_NUMERIC;
}
