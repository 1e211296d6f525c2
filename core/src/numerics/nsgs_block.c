/* The iterative solver's exact blocks (nsgs.h, "Exact blocks"): the contacts still violating
   their conditions and their neighbours, solved together by the dense Lemke with every other
   contact's impulse held, as one step of block Gauss-Seidel. */
#include <string.h>

#include "impax/lcp.h"
#include "anitescu_potra.h"
#include "nsgs_block.h"
#include "workspace_internal.h"

static int block_most(int k, int nd)
{
    const int most = IPX_NSGS_BLOCK_UNKNOWNS / (nd + 2);
    return k < most ? k : most;
}

size_t ipx_nsgs_block_bytes(int k, int nd)
{
    const int most = block_most(k, nd);
    const size_t b = (size_t)most, r = 3 * b, n = b * (size_t)(nd + 2);
    return ipx_ws_ints_bytes(b) + ipx_ws_ints_bytes((size_t)k) + ipx_ws_doubles_bytes((size_t)k) +
           ipx_ws_doubles_bytes(r * r) + 2 * ipx_ws_doubles_bytes(r) +
           ipx_ws_bytes_bytes(b * sizeof(ipx_contact)) + ipx_ws_ints_bytes(b) +
           ipx_ws_doubles_bytes(b) + ipx_ws_doubles_bytes(n * n) + 3 * ipx_ws_doubles_bytes(n) +
           ipx_ws_doubles_bytes(ipx_lemke_work_doubles((int)n)) +
           ipx_ws_ints_bytes(ipx_lemke_work_ints((int)n));
}

ipx_status ipx_nsgs_block_init(ipx_nsgs_block *b, int k, int nd, ipx_workspace *ws)
{
    b->most = block_most(k, nd);
    const size_t m = (size_t)b->most, r = 3 * m, n = m * (size_t)(nd + 2);
    b->member = ipx_ws_ints(ws, m);
    b->pos = ipx_ws_ints(ws, (size_t)k);
    b->viol = ipx_ws_doubles(ws, (size_t)k);
    b->W = ipx_ws_doubles(ws, r * r);
    b->v = ipx_ws_doubles(ws, r);
    b->pi = ipx_ws_doubles(ws, r);
    b->contact = ipx_ws_bytes(ws, m * sizeof(ipx_contact));
    b->fric = ipx_ws_ints(ws, m);
    b->scale = ipx_ws_doubles(ws, m);
    b->M = ipx_ws_doubles(ws, n * n);
    b->q = ipx_ws_doubles(ws, n);
    b->z = ipx_ws_doubles(ws, n);
    b->w = ipx_ws_doubles(ws, n);
    b->dwork = ipx_ws_doubles(ws, ipx_lemke_work_doubles((int)n));
    b->iwork = ipx_ws_ints(ws, ipx_lemke_work_ints((int)n));
    if (!b->member || !b->pos || !b->viol || !b->W || !b->v || !b->pi || !b->contact || !b->fric ||
        !b->scale || !b->M || !b->q || !b->z || !b->w || !b->dwork || !b->iwork)
        return IPX_ERR_WORKSPACE;
    return IPX_OK;
}

/* The block's seeds: the contacts violating beyond threshold, the worst ones where they are
   more than the block holds (each later one replaces the least of those kept). Returns their
   count. */
static int seeds(ipx_nsgs_block *b, int k, double threshold)
{
    int count = 0;
    for (int i = 0; i < k; i++) {
        if (!(b->viol[i] > threshold)) continue;
        if (count < b->most) {
            b->member[count++] = i;
            continue;
        }
        int least = 0;
        for (int j = 1; j < count; j++)
            if (b->viol[b->member[j]] < b->viol[b->member[least]]) least = j;
        if (b->viol[i] > b->viol[b->member[least]]) b->member[least] = i;
    }
    return count;
}

/* The seeds' neighbours through W (contacts that share a body with a member), breadth first,
   until the block is full. Returns the block's size; pos[] set for its members. */
static int grow(const ipx_wblocks *W, ipx_nsgs_block *b, int count)
{
    for (int m = 0; m < count; m++) b->pos[b->member[m]] = m;
    for (int m = 0; m < count && count < b->most; m++) {
        const int j = b->member[m];
        for (int e = W->start[j]; e < W->start[j + 1] && count < b->most; e++) {
            const int r = W->row[e];
            if (b->pos[r] >= 0) continue;
            b->pos[r] = count;
            b->member[count++] = r;
        }
    }
    return count;
}

/* The block's own problem: its dense W, and the velocities its contacts have without the
   block's impulses (every other contact's held). */
static void block_problem(ipx_nsgs_block *b, const ipx_wblocks *W, const ipx_problem *p,
                          const double *pi, const double *vp, int size)
{
    const size_t r = 3 * (size_t)size;
    memset(b->W, 0, sizeof(double) * r * r);
    for (int m = 0; m < size; m++) {
        const int i = b->member[m];
        b->contact[m] = p->contact[i];
        for (int t = 0; t < 3; t++) b->v[3 * m + t] = vp[3 * i + t];
    }
    for (int m = 0; m < size; m++) {
        const int j = b->member[m];
        const double *pj = pi + 3 * j;
        for (int e = W->start[j]; e < W->start[j + 1]; e++) {
            const int mr = b->pos[W->row[e]];
            if (mr < 0) continue;
            const double *blk = W->blk + 9 * (size_t)e; /* W(3 row + a, 3 j + c) = blk[a + 3c] */
            for (int a = 0; a < 3; a++) {
                double own = 0.0;
                for (int c = 0; c < 3; c++) {
                    b->W[(3 * (size_t)mr + a) + r * (3 * (size_t)m + c)] = blk[a + 3 * c];
                    own += blk[a + 3 * c] * pj[c];
                }
                b->v[3 * mr + a] -= own;
            }
        }
    }
}

int ipx_nsgs_block_solve(ipx_nsgs_block *b, const ipx_wblocks *W, const ipx_problem *p, int nd,
                         const double *qn_shift, double threshold, double *pi, double *vp,
                         long *pivots)
{
    for (int i = 0; i < p->k; i++) b->pos[i] = -1; /* here, not at every solver's set-up */
    const int size = grow(W, b, seeds(b, p->k, threshold));
    if (size == 0) return 0;
    block_problem(b, W, p, pi, vp, size);
    const ipx_problem sub = {.k = size, .W = b->W, .v = b->v, .contact = b->contact};
    ipx_ap_layout L;
    ipx_ap_layout_init(&L, &sub, nd, b->fric, b->scale);
    const int n = L.size;
    ipx_ap_fill(&L, &sub, sub.v, b->M, n, 0, b->q);
    for (int m = 0; qn_shift && m < size; m++)
        b->q[m] += ipx_ap_row_scale(&L, m) * qn_shift[b->member[m]]; /* anitescu_potra.h */
    int made = 0;
    const ipx_status st = ipx_lemke(n, b->M, b->q, b->z, b->w, ipx_lemke_default_max_pivots(n),
                                    b->dwork, b->iwork, &made);
    *pivots += made;
    if (st != IPX_OK) return 0;
    ipx_ap_impulse(&L, b->z, b->pi);
    for (int m = 0; m < size; m++) {
        const int i = b->member[m];
        double delta[3];
        for (int t = 0; t < 3; t++) delta[t] = b->pi[3 * m + t] - pi[3 * i + t];
        for (int t = 0; t < 3; t++) pi[3 * i + t] = b->pi[3 * m + t];
        ipx_wblocks_column_axpy(W, i, delta, vp);
    }
    return 1;
}
