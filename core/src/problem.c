/* Reading a problem's W whichever way it is given (see impax/problem.h), and the product y = W x
   of a dense W (problem_internal.h), which a result's v_post takes too. */
#include <string.h>

#include "impax/problem.h"
#include "problem_internal.h"

void ipx_apply_dense(int n, const double *W, const double *x, double *y)
{
    for (int i = 0; i < n; i++) y[i] = 0.0;
    for (int j = 0; j < n; j++) {
        if (x[j] == 0.0) continue;
        const double *col = W + (size_t)n * j;
        for (int i = 0; i < n; i++) y[i] += col[i] * x[j];
    }
}

int ipx_wsparse_find(const ipx_wsparse *Ws, int i, int j)
{
    int lo = Ws->start[j], hi = Ws->start[j + 1] - 1;
    while (lo <= hi) {
        const int mid = lo + (hi - lo) / 2;
        if (Ws->row[mid] == i) return mid;
        if (Ws->row[mid] < i) lo = mid + 1;
        else hi = mid - 1;
    }
    return -1;
}

double ipx_problem_W_diag(const ipx_problem *p, int r)
{
    if (p->W) return p->W[r + (size_t)IPX_ROWS_PER_CONTACT * (size_t)p->k * (size_t)r];
    const int i = r / IPX_ROWS_PER_CONTACT, a = r % IPX_ROWS_PER_CONTACT;
    const int b = ipx_wsparse_find(p->Ws, i, i);
    return b < 0 ? 0.0 : p->Ws->blk[9 * (size_t)b + (size_t)(a + 3 * a)];
}

void ipx_problem_apply_W(const ipx_problem *p, const double *x, double *y)
{
    const int n = IPX_ROWS_PER_CONTACT * p->k;
    if (p->W) {
        ipx_apply_dense(n, p->W, x, y);
        return;
    }
    for (int i = 0; i < n; i++) y[i] = 0.0;
    /* column by column, as ipx_apply_dense adds them: the same sums to the bit (the blocks not
       stored add exact zeros there) */
    const ipx_wsparse *Ws = p->Ws;
    for (int j = 0; j < p->k; j++)
        for (int c = 0; c < 3; c++) {
            const double xc = x[3 * j + c];
            if (xc == 0.0) continue;
            for (int b = Ws->start[j]; b < Ws->start[j + 1]; b++) {
                const double *w = Ws->blk + 9 * (size_t)b + 3 * c;
                double *yi = y + 3 * Ws->row[b];
                yi[0] += w[0] * xc;
                yi[1] += w[1] * xc;
                yi[2] += w[2] * xc;
            }
        }
}

void ipx_problem_dense_W(const ipx_problem *p, double *W)
{
    const size_t n = (size_t)IPX_ROWS_PER_CONTACT * (size_t)p->k;
    if (p->W) {
        memcpy(W, p->W, n * n * sizeof *W);
        return;
    }
    memset(W, 0, n * n * sizeof *W);
    const ipx_wsparse *Ws = p->Ws;
    for (int j = 0; j < p->k; j++)
        for (int b = Ws->start[j]; b < Ws->start[j + 1]; b++) {
            const double *w = Ws->blk + 9 * (size_t)b;
            double *col = W + n * (size_t)(3 * j) + 3 * (size_t)Ws->row[b];
            for (int c = 0; c < 3; c++)
                for (int r = 0; r < 3; r++) col[n * (size_t)c + (size_t)r] = w[r + 3 * c];
        }
}
