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

int ipx_siconos_lexicolemke(int n, const double *M, const double *q, double *z, double *w)
{
    double *Mcopy = malloc(sizeof(double) * (size_t)n * (size_t)n);
    double *qcopy = malloc(sizeof(double) * (size_t)n);
    memcpy(Mcopy, M, sizeof(double) * (size_t)n * (size_t)n); /* Siconos stores column-major too */
    memcpy(qcopy, q, sizeof(double) * (size_t)n);
    LinearComplementarityProblem problem = {n, NM_create_from_data(NM_DENSE, n, n, Mcopy), qcopy};
    SolverOptions *options = solver_options_create(SICONOS_LCP_LEMKE);
    options->iparam[SICONOS_IPARAM_MAX_ITER] = 100 * n + 1000;
    int info = 0;
    memset(z, 0, sizeof(double) * (size_t)n);
    memset(w, 0, sizeof(double) * (size_t)n);
    lcp_lexicolemke(&problem, z, w, &info, options);
    solver_options_delete(options);
    NM_free_not_dense(problem.M); /* our copy of M is freed below */
    free(Mcopy);
    free(qcopy);
    return info;
}

int ipx_siconos_newton_fb(int n, const double *M, const double *q, int max_iter, double tol, double *z, double *w,
                          int *iters)
{
    double *Mcopy = malloc(sizeof(double) * (size_t)n * (size_t)n);
    double *qcopy = malloc(sizeof(double) * (size_t)n);
    if (!Mcopy || !qcopy) {
        free(Mcopy), free(qcopy);
        return -1;
    }
    memcpy(Mcopy, M, sizeof(double) * (size_t)n * (size_t)n);
    memcpy(qcopy, q, sizeof(double) * (size_t)n);
    LinearComplementarityProblem problem = {n, NM_create_from_data(NM_DENSE, n, n, Mcopy), qcopy};
    SolverOptions *options = solver_options_create(SICONOS_LCP_NEWTON_FB_FBLSA);
    options->iparam[SICONOS_IPARAM_MAX_ITER] = max_iter;
    options->dparam[SICONOS_DPARAM_TOL] = tol;
    memset(z, 0, sizeof(double) * (size_t)n);
    memset(w, 0, sizeof(double) * (size_t)n);
    int info = 0;
    lcp_newton_FB(&problem, z, w, &info, options);
    *iters = options->iparam[SICONOS_IPARAM_ITER_DONE];
    solver_options_delete(options);
    NM_free_not_dense(problem.M);
    free(Mcopy), free(qcopy);
    return info;
}

struct ipx_siconos_sbm {
    LinearComplementarityProblem problem;
    SparseBlockStructuredMatrix *sbm;
    double *q;
};

/* Entry (r, c) of the reordered M. */
static double reordered(int n, const double *M, const int *order, int r, int c)
{
    return order ? M[order[r] + (size_t)n * (size_t)order[c]] : M[r + (size_t)n * (size_t)c];
}

/* 1 if block (bi, bj) of the reordered M has a non-zero entry. */
static int block_nonzero(int n, const double *M, const int *order, const int *start, int bi, int bj)
{
    for (int c = start[bj]; c < start[bj + 1]; c++)
        for (int r = start[bi]; r < start[bi + 1]; r++)
            if (reordered(n, M, order, r, c) != 0.0) return 1;
    return 0;
}

ipx_siconos_sbm *ipx_siconos_sbm_create(int n, const double *M, const double *q, const int *order, int nblocks,
                                        const int *start)
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
    B->blocknumber0 = B->blocknumber1 = (unsigned)nblocks;
    B->blocksize0 = malloc(sizeof(unsigned) * (size_t)nblocks);
    B->blocksize1 = malloc(sizeof(unsigned) * (size_t)nblocks);
    B->index1_data = malloc(sizeof(size_t) * (size_t)(nblocks + 1));
    size_t cap = 8 * (size_t)nblocks, nnz = 0;
    B->index2_data = malloc(sizeof(size_t) * cap);
    B->block = malloc(sizeof(double *) * cap);
    if (!s->q || !B->blocksize0 || !B->blocksize1 || !B->index1_data || !B->index2_data || !B->block) {
        ipx_siconos_sbm_free(s);
        return NULL;
    }
    for (int r = 0; r < n; r++) s->q[r] = q[order ? order[r] : r];
    for (int b = 0; b < nblocks; b++) B->blocksize0[b] = B->blocksize1[b] = (unsigned)start[b + 1]; /* cumulated */
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
                for (int r = 0; r < rows; r++) blk[r + rows * c] = reordered(n, M, order, start[bi] + r, start[bj] + c);
        }
    }
    B->index1_data[nblocks] = nnz;
    B->filled1 = (size_t)nblocks + 1;
    B->filled2 = nnz;
    s->problem.size = n;
    s->problem.q = s->q;
    s->problem.M = NM_create_from_data(NM_SPARSE_BLOCK, n, n, B);
    if (!s->problem.M) {
        ipx_siconos_sbm_free(s);
        return NULL;
    }
    return s;
}

int ipx_siconos_sbm_blocks(const ipx_siconos_sbm *s) { return (int)s->sbm->nbblocks; }

int ipx_siconos_nsgs(ipx_siconos_sbm *s, int max_sweeps, double tol, double *z, double *w, int *sweeps)
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
    int info = 1;
    *sweeps = 0;
    while (info != 0 && *sweeps < max_sweeps) {
        lcp_nsgs_SBM(&s->problem, z, w, &info, options);
        ++*sweeps;
    }
    fflush(stderr);
    if (saved >= 0) dup2(saved, STDERR_FILENO), close(saved);
    if (null >= 0) close(null);
    solver_options_delete(options);
    return info;
}

void ipx_siconos_sbm_apply(const ipx_siconos_sbm *s, const double *x, double *y)
{
    const unsigned n = (unsigned)s->problem.size;
    SBM_gemv(n, n, 1.0, s->sbm, x, 0.0, y);
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
        free(B->block), free(B->blocksize0), free(B->blocksize1), free(B->index1_data), free(B->index2_data);
        free(B->diagonal_blocks);
        free(B);
    }
    free(s->q);
    free(s);
}
