/// Inside the core: W (the contact-space inverse mass, 3k x 3k) as its non-zero 3 x 3 blocks, the
/// form the iterative LCP solver (nsgs.h) and its exact blocks (nsgs_block.h) read.
#ifndef IMPAX_WBLOCKS_H
#define IMPAX_WBLOCKS_H

#include <stddef.h>

#include "impax/types.h"
#include "impax/workspace.h"

/// W as the 3x3 blocks that are not all zero (the contact pairs that share a body), compressed
/// by block column: block b of column i is W(3 row[b] + r, 3 i + c) = blk[9 b + r + 3 c]. The
/// blocks of a problem that gives W as blocks (ipx_wsparse, the same form) are used in place.
typedef struct ipx_wblocks {
    int k;
    int nnz;           /* blocks stored */
    const int *start;  /* k + 1: blocks of column i are start[i] .. start[i + 1] - 1 */
    const int *row;    /* nnz: block row (contact) of each block, ascending */
    int *diag;         /* k: index of the diagonal block of column i */
    const double *blk; /* 9 nnz */
} ipx_wblocks;

/// Bytes ipx_wblocks_build takes for k contacts: with in_place (a problem that gives W as
/// blocks) only the diagonal's index, O(k); otherwise a block copy of a dense W in the worst
/// case (every block non-zero), O(k^2).
size_t ipx_wblocks_bytes(int k, int in_place);

/// p's blocks into B: those of a problem given as blocks in place (O(blocks)), or a copy of the
/// non-zero blocks of a dense W (O(9 k^2) reads, one pass, column by column). Returns
/// IPX_ERR_WORKSPACE if ws is short.
ipx_status ipx_wblocks_build(ipx_wblocks *B, const ipx_problem *p, ipx_workspace *ws);

/// y_j += W_ji x for every block of column i (x: 3, contact i's impulse; y: 3k).
static inline void ipx_wblocks_column_axpy(const ipx_wblocks *B, int i, const double x[3],
                                           double *y)
{
    for (int b = B->start[i]; b < B->start[i + 1]; b++) {
        const double *w = B->blk + 9 * (size_t)b;
        double *yj = y + 3 * B->row[b];
        yj[0] += w[0] * x[0] + w[3] * x[1] + w[6] * x[2];
        yj[1] += w[1] * x[0] + w[4] * x[1] + w[7] * x[2];
        yj[2] += w[2] * x[0] + w[5] * x[1] + w[8] * x[2];
    }
}

/// y = x0 + W x (3k each; x0 may be NULL for 0). O(blocks).
void ipx_wblocks_apply(const ipx_wblocks *B, const double *x0, const double *x, double *y);

#endif
