/* W as its non-zero 3 x 3 blocks (wblocks.h). */
#include "impax/problem.h"
#include "mathutil.h"
#include "wblocks.h"
#include "workspace_internal.h"

size_t ipx_wblocks_bytes(int k, int in_place)
{
    const size_t kk = (size_t)k;
    if (in_place) return ipx_ws_ints_bytes(kk); /* blocks_in_place: the diagonal's index */
    return ipx_ws_ints_bytes(kk + 1) + ipx_ws_ints_bytes(kk * kk) + ipx_ws_ints_bytes(kk) +
           ipx_ws_doubles_bytes(9 * kk * kk);
}

/* The blocks of a problem given as blocks, in place: only the diagonal's index is found. */
static ipx_status blocks_in_place(ipx_wblocks *B, const ipx_wsparse *Ws, ipx_workspace *ws)
{
    B->nnz = Ws->nnz;
    B->start = Ws->start;
    B->row = Ws->row;
    B->blk = Ws->blk;
    B->diag = ipx_ws_ints(ws, (size_t)B->k);
    if (!B->diag) return IPX_ERR_WORKSPACE;
    for (int i = 0; i < B->k; i++) B->diag[i] = ipx_wsparse_find(Ws, i, i);
    return IPX_OK;
}

ipx_status ipx_wblocks_build(ipx_wblocks *B, const ipx_problem *p, ipx_workspace *ws)
{
    const int k = p->k;
    B->k = k;
    if (!p->W) return blocks_in_place(B, p->Ws, ws);
    const size_t n = (size_t)IPX_ROWS_PER_CONTACT * (size_t)k, kk = (size_t)k;
    int *start = ipx_ws_ints(ws, kk + 1), *row = ipx_ws_ints(ws, kk * kk);
    double *blk = ipx_ws_doubles(ws, 9 * kk * kk);
    B->diag = ipx_ws_ints(ws, kk);
    if (!start || !row || !B->diag || !blk) return IPX_ERR_WORKSPACE;
    int nnz = 0;
    for (int i = 0; i < k; i++) {
        start[i] = nnz;
        const double *c0 = p->W + n * (size_t)(3 * i), *c1 = c0 + n, *c2 = c1 + n;
        for (int j = 0; j < k; j++) {
            const size_t r = (size_t)(3 * j);
            if (j != i && !ipx_w_block_nonzero(p->W, n, j, i)) continue;
            double *b = blk + 9 * (size_t)nnz;
            for (int a = 0; a < 3; a++) {
                b[a] = c0[r + (size_t)a];
                b[3 + a] = c1[r + (size_t)a];
                b[6 + a] = c2[r + (size_t)a];
            }
            if (j == i) B->diag[i] = nnz;
            row[nnz++] = j;
        }
    }
    start[k] = nnz;
    B->nnz = nnz;
    B->start = start;
    B->row = row;
    B->blk = blk;
    return IPX_OK;
}

void ipx_wblocks_apply(const ipx_wblocks *B, const double *x0, const double *x, double *y)
{
    const int n = IPX_ROWS_PER_CONTACT * B->k;
    for (int i = 0; i < n; i++) y[i] = x0 ? x0[i] : 0.0;
    for (int i = 0; i < B->k; i++) {
        const double *xi = x + 3 * i;
        if (xi[0] != 0.0 || xi[1] != 0.0 || xi[2] != 0.0) ipx_wblocks_column_axpy(B, i, xi, y);
    }
}
