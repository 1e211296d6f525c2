#include <siconos/numerics/LCP_Solvers.h>
#include <siconos/numerics/LinearComplementarityProblem.h>
#include <siconos/numerics/NumericsMatrix.h>
#include <siconos/numerics/SolverOptions.h>
#include <siconos/numerics/SparseBlockMatrix.h>
#include <siconos/numerics/lcp_cst.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "siconos_lcp.h"

/* One of Siconos' dense LCP solvers (lcp_lexicolemke or lcp_newton_FB) on a copy of M and q, from
   z = 0; tol < 0 keeps the solver's default. *iters (NULL: not wanted) gets the steps made. */
static int dense_solve(int solver_id, int n, const double *M, const double *q, int max_iter,
                       double tol, double *z, double *w, int *iters)
{
    double *Mcopy = malloc(sizeof(double) * (size_t)n * (size_t)n);
    double *qcopy = malloc(sizeof(double) * (size_t)n);
    if (!Mcopy || !qcopy) {
        free(Mcopy), free(qcopy);
        return -1;
    }
    memcpy(Mcopy, M, sizeof(double) * (size_t)n * (size_t)n); /* Siconos stores column-major too */
    memcpy(qcopy, q, sizeof(double) * (size_t)n);
    LinearComplementarityProblem problem = {n, NM_create_from_data(NM_DENSE, n, n, Mcopy), qcopy};
    SolverOptions *options = solver_options_create(solver_id);
    options->iparam[SICONOS_IPARAM_MAX_ITER] = max_iter;
    if (tol >= 0.0) options->dparam[SICONOS_DPARAM_TOL] = tol;
    memset(z, 0, sizeof(double) * (size_t)n);
    memset(w, 0, sizeof(double) * (size_t)n);
    int info = 0;
    if (solver_id == SICONOS_LCP_LEMKE) lcp_lexicolemke(&problem, z, w, &info, options);
    else lcp_newton_FB(&problem, z, w, &info, options);
    if (iters) *iters = options->iparam[SICONOS_IPARAM_ITER_DONE];
    solver_options_delete(options);
    NM_free_not_dense(problem.M); /* our copy of M is freed here */
    free(Mcopy), free(qcopy);
    return info;
}

int ipx_siconos_lexicolemke(int n, const double *M, const double *q, double *z, double *w)
{
    return dense_solve(SICONOS_LCP_LEMKE, n, M, q, 100 * n + 1000, -1.0, z, w, NULL);
}

int ipx_siconos_newton_fb(int n, const double *M, const double *q, int max_iter, double tol,
                          double *z, double *w, int *iters)
{
    return dense_solve(SICONOS_LCP_NEWTON_FB_FBLSA, n, M, q, max_iter, tol, z, w, iters);
}

struct ipx_siconos_sbm {
    LinearComplementarityProblem problem;
    SparseBlockStructuredMatrix *sbm;
    double *q;
    int *order;      /* n: Siconos' unknown r is the caller's order[r] */
    double *zs, *ws; /* n each: z and w in Siconos' order */
};

/* The caller's vector x in Siconos' order, and back. */
static void to_siconos(const ipx_siconos_sbm *s, const double *x, double *siconos)
{
    for (int r = 0; r < s->problem.size; r++) siconos[r] = x[s->order[r]];
}

static void from_siconos(const ipx_siconos_sbm *s, const double *siconos, double *x)
{
    for (int r = 0; r < s->problem.size; r++) x[s->order[r]] = siconos[r];
}

/* Entry (r, c) of the reordered M. */
static double reordered(int n, const double *M, const int *order, int r, int c)
{
    return M[order[r] + (size_t)n * (size_t)order[c]];
}

/* 1 if block (bi, bj) of the reordered M has a non-zero entry. */
static int block_nonzero(int n, const double *M, const int *order, const int *start, int bi, int bj)
{
    for (int c = start[bj]; c < start[bj + 1]; c++)
        for (int r = start[bi]; r < start[bi + 1]; r++)
            if (reordered(n, M, order, r, c) != 0.0) return 1;
    return 0;
}

/* M (column-major n x n) and q with their unknowns reordered by order (Siconos' unknown r is
   M's order[r]) and taken in nblocks blocks, block b being Siconos' unknowns start[b] ..
   start[b + 1] - 1; only the blocks with a non-zero entry and the diagonal ones stored. */
static ipx_siconos_sbm *sbm_create(int n, const double *M, const double *q, const int *order,
                                   int nblocks, const int *start)
{
    ipx_siconos_sbm *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    SparseBlockStructuredMatrix *B = SBM_new();
    s->sbm = B;
    if (!B) {
        free(s);
        return NULL;
    }
    s->q = malloc(sizeof(double) * (size_t)n);
    s->zs = malloc(sizeof(double) * (size_t)n);
    s->ws = malloc(sizeof(double) * (size_t)n);
    s->order = malloc(sizeof(int) * (size_t)n);
    B->blocknumber0 = B->blocknumber1 = (unsigned)nblocks;
    B->blocksize0 = malloc(sizeof(unsigned) * (size_t)nblocks);
    B->blocksize1 = malloc(sizeof(unsigned) * (size_t)nblocks);
    B->index1_data = malloc(sizeof(size_t) * (size_t)(nblocks + 1));
    size_t cap = 8 * (size_t)nblocks, nnz = 0;
    B->index2_data = malloc(sizeof(size_t) * cap);
    B->block = malloc(sizeof(double *) * cap);
    if (!s->q || !s->zs || !s->ws || !s->order || !B->blocksize0 || !B->blocksize1 ||
        !B->index1_data || !B->index2_data || !B->block) {
        ipx_siconos_sbm_free(s);
        return NULL;
    }
    memcpy(s->order, order, sizeof(int) * (size_t)n);
    s->problem.size = n;
    to_siconos(s, q, s->q);
    for (int b = 0; b < nblocks; b++)
        B->blocksize0[b] = B->blocksize1[b] = (unsigned)start[b + 1]; /* cumulated */
    /* row by row of blocks, columns ascending: Siconos' compressed sparse row of blocks */
    for (int bi = 0; bi < nblocks; bi++) {
        B->index1_data[bi] = nnz;
        for (int bj = 0; bj < nblocks; bj++) {
            if (bi != bj && !block_nonzero(n, M, order, start, bi, bj)) continue;
            if (nnz == cap) {
                cap *= 2;
                size_t *idx = realloc(B->index2_data, sizeof(size_t) * cap);
                if (idx) B->index2_data = idx;
                double **blk = realloc(B->block, sizeof(double *) * cap);
                if (blk) B->block = blk;
                if (!idx || !blk) {
                    B->nbblocks = (unsigned)nnz;
                    ipx_siconos_sbm_free(s);
                    return NULL;
                }
            }
            const int rows = start[bi + 1] - start[bi], cols = start[bj + 1] - start[bj];
            double *blk = malloc(sizeof(double) * (size_t)(rows * cols));
            B->index2_data[nnz] = (size_t)bj;
            B->block[nnz++] = blk;
            B->nbblocks = (unsigned)nnz;
            if (!blk) {
                ipx_siconos_sbm_free(s);
                return NULL;
            }
            for (int c = 0; c < cols; c++) /* each block column-major, as Siconos stores them */
                for (int r = 0; r < rows; r++)
                    blk[r + rows * c] = reordered(n, M, order, start[bi] + r, start[bj] + c);
        }
    }
    B->index1_data[nblocks] = nnz;
    B->filled1 = (size_t)nblocks + 1;
    B->filled2 = nnz;
    s->problem.q = s->q;
    s->problem.M = NM_create_from_data(NM_SPARSE_BLOCK, n, n, B);
    if (!s->problem.M) {
        ipx_siconos_sbm_free(s);
        return NULL;
    }
    return s;
}

int ipx_siconos_sbm_blocks(const ipx_siconos_sbm *s) { return (int)s->sbm->nbblocks; }

int ipx_siconos_nsgs(ipx_siconos_sbm *s, int max_sweeps, double tol, double *z, double *w,
                     int *sweeps)
{
    SolverOptions *options = solver_options_create(SICONOS_LCP_NSGS_SBM);
    solver_options_update_internal(options, 0, SICONOS_LCP_LEMKE);
    options->internalSolvers[0]->iparam[SICONOS_IPARAM_MAX_ITER] = 1000;
    /* one sweep a call, continuing from z: the Debian build does not report the sweeps it made */
    options->iparam[SICONOS_IPARAM_MAX_ITER] = 1;
    options->dparam[SICONOS_DPARAM_TOL] = tol;
    /* Siconos writes two lines to stderr for every failed local solve (thousands a solve on
       frictional piles): silenced for the call */
    fflush(stderr);
    const int saved = dup(STDERR_FILENO), null = open("/dev/null", O_WRONLY);
    if (null >= 0) dup2(null, STDERR_FILENO);
    to_siconos(s, z, s->zs);
    int info = 1;
    *sweeps = 0;
    while (info != 0 && *sweeps < max_sweeps) {
        lcp_nsgs_SBM(&s->problem, s->zs, s->ws, &info, options);
        ++*sweeps;
    }
    from_siconos(s, s->zs, z);
    from_siconos(s, s->ws, w);
    fflush(stderr);
    if (saved >= 0) dup2(saved, STDERR_FILENO), close(saved);
    if (null >= 0) close(null);
    solver_options_delete(options);
    return info;
}

ipx_siconos_sbm *ipx_siconos_ap(const ipx_test_ap *a)
{
    int *order = malloc(sizeof(int) * (size_t)a->n),
        *start = malloc(sizeof(int) * ((size_t)a->k + 1));
    ipx_siconos_sbm *s = NULL;
    if (order && start) {
        ipx_test_ap_contact_order(a, order, start);
        s = sbm_create(a->n, a->M, a->q, order, a->k, start);
    }
    free(order), free(start);
    return s;
}

void ipx_siconos_sbm_apply(const ipx_siconos_sbm *s, const double *x, double *y)
{
    const unsigned n = (unsigned)s->problem.size;
    to_siconos(s, x, s->zs);
    SBM_gemv(n, n, 1.0, s->sbm, s->zs, 0.0, s->ws);
    from_siconos(s, s->ws, y);
}

void ipx_siconos_sbm_free(ipx_siconos_sbm *s)
{
    if (!s) return;
    if (s->problem.M) {
        s->problem.M->matrix1 = NULL; /* the blocks are freed below */
        NM_free(s->problem.M);
    }
    SparseBlockStructuredMatrix *B = s->sbm;
    if (B) {
        for (unsigned b = 0; b < B->nbblocks; b++) free(B->block[b]);
        free(B->block), free(B->blocksize0), free(B->blocksize1), free(B->index1_data),
            free(B->index2_data);
        free(B->diagonal_blocks);
        free(B);
    }
    free(s->q), free(s->order), free(s->zs), free(s->ws);
    free(s);
}
