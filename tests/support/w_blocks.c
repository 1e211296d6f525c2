/* W as blocks from a dense W (see w_blocks.h). */
#include "w_blocks.h"

#include <stdlib.h>
#include <string.h>

static int block_nonzero(const double *W, size_t n, int i, int j)
{
    for (int c = 0; c < 3; c++)
        for (int r = 0; r < 3; r++)
            if (W[3 * (size_t)i + (size_t)r + n * (3 * (size_t)j + (size_t)c)] != 0.0) return 1;
    return 0;
}

int ipx_test_blocks_of(const ipx_problem *p, ipx_test_blocks *b)
{
    const int k = p->k;
    const size_t n = 3 * (size_t)k;
    memset(b, 0, sizeof *b);
    int nnz = 0;
    for (int j = 0; j < k; j++)
        for (int i = 0; i < k; i++) nnz += i == j || block_nonzero(p->W, n, i, j);
    b->start = malloc(((size_t)k + 1) * sizeof(int));
    b->row = malloc((size_t)nnz * sizeof(int));
    b->blk = malloc(9 * (size_t)nnz * sizeof(double));
    if (!b->start || !b->row || !b->blk) {
        ipx_test_blocks_free(b);
        return -1;
    }
    nnz = 0;
    for (int j = 0; j < k; j++) {
        b->start[j] = nnz;
        for (int i = 0; i < k; i++) {
            if (i != j && !block_nonzero(p->W, n, i, j)) continue;
            for (int c = 0; c < 3; c++)
                for (int r = 0; r < 3; r++)
                    b->blk[9 * (size_t)nnz + (size_t)(r + 3 * c)] =
                        p->W[3 * (size_t)i + (size_t)r + n * (3 * (size_t)j + (size_t)c)];
            b->row[nnz++] = i;
        }
    }
    b->start[k] = nnz;
    b->Ws = (ipx_wsparse){nnz, b->start, b->row, b->blk};
    b->problem = (ipx_problem){
        .k = k, .v = p->v, .contact = p->contact, .flags = IPX_PROBLEM_W_ASSEMBLED, .Ws = &b->Ws};
    return 0;
}

void ipx_test_blocks_free(ipx_test_blocks *b)
{
    free(b->start);
    free(b->row);
    free(b->blk);
    memset(b, 0, sizeof *b);
}

void ipx_test_w_from_upper_blocks(int k, int blocks, const int *row, const int *col,
                                  const double *blk, double *W)
{
    const int n = 3 * k;
    memset(W, 0, sizeof(double) * (size_t)n * (size_t)n);
    for (int b = 0; b < blocks; b++)
        for (int r = 0; r < 3; r++)
            for (int c = 0; c < 3; c++) {
                const double x = blk[9 * b + r + 3 * c];
                W[(3 * row[b] + r) + (size_t)n * (size_t)(3 * col[b] + c)] = x;
                W[(3 * col[b] + c) + (size_t)n * (size_t)(3 * row[b] + r)] = x;
            }
}

ipx_problem ipx_test_island_problem(const ipx_test_island *is, double *W, ipx_contact *contact)
{
    ipx_test_w_from_upper_blocks(is->k, is->blocks, is->row, is->col, is->blk, W);
    for (int i = 0; i < is->k; i++) contact[i] = (ipx_contact){.mu = is->mu[i], .e = is->e};
    return (ipx_problem){.k = is->k,
                         .W = W,
                         .v = is->v,
                         .contact = contact,
                         .flags = IPX_PROBLEM_W_ASSEMBLED,
                         .v_tol = *is->v_tol};
}
