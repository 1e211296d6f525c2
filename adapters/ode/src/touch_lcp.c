/* Solving the move back to first touch (touch_lcp.h): the dense Lemke for small islands, the
   iterative solver on W_nn's non-zero rows for large ones and where the other fails; and the
   iterative solver's set-up that it shares with the position recovery's projection. */
#include <math.h>

#include "impax/lcp.h"
#include "impax/lcp_psd.h"
#include "touch_lcp.h"

/* W_nn by rows, its non-zeros only: a contact couples to the contacts of its two bodies (the
   crash demo's wall: 740 contacts, at most 44 a row). */
typedef struct sparse_rows {
    int n;
    const int *start, *col; /* row i: entries start[i] .. start[i + 1] - 1 */
    const double *val;
} sparse_rows;

static void apply_rows(void *user, const double *x, double *y)
{
    const sparse_rows *m = user;
    for (int i = 0; i < m->n; i++) {
        double sum = 0.0;
        for (int e = m->start[i]; e < m->start[i + 1]; e++) sum += m->val[e] * x[m->col[e]];
        y[i] = sum;
    }
}

double ipx_ode_projection_tol(int k, const double *q, double *diag, double tol, double accuracy)
{
    double largest = 0.0; /* m */
    for (int i = 0; i < k; i++) {
        largest = fmax(largest, -q[i]);
        if (diag[i] > 0.0) continue;
        if (q[i] < 0.0) return 0.0;
        diag[i] = 1.0;
    }
    return largest > 0.0 ? fmax(tol, accuracy / largest) : tol;
}

size_t ipx_ode_touch_nonzero(int k, const double *M)
{
    size_t nnz = 0;
    for (size_t e = 0; e < (size_t)k * (size_t)k; e++) nnz += M[e] != 0.0;
    return nnz;
}

/* The iterative move's accuracy (lcp_psd.h tol): every contact within TOUCH_TOL of the largest
   target of where it is owed, or TOUCH_ACCURACY m if that is more. A contact left short starts
   its spring that much deeper (compliant.c), so the shortfall stores no energy: the bodies stay
   at most a ten-thousandth of the step's deepest find below first touch. Tighter costs much: on
   the crash demo's wall (740 contacts on 120 boxes, W_nn singular, the corners of each face
   consistent) 1e-6 took more than 7 500 iterations, 1e-4 150 to 1 000. */
#define TOUCH_TOL 1e-4
#define TOUCH_ACCURACY 1e-9

/* The dense Lemke (shifted where round-off defeats it). 1 if it answered. */
static int solve_dense(touch_lcp *t)
{
    double shift; /* W_nn's, where needed: new contacts left w_i >= -shift lambda_i deep */
    return ipx_lemke_psd(t->k, t->M, t->q, t->lambda, t->w, t->work, t->ilcp, &shift) == IPX_OK;
}

/* ipx_lcp_psd on M's non-zeros by rows, Jacobi-scaled, to TOUCH_TOL (ipx_ode_projection_tol).
   1 if it answered. */
static int solve_iterative(touch_lcp *t)
{
    const int k = t->k;
    for (int i = 0; i < k; i++) t->diag[i] = t->M[i + (size_t)k * i];
    const double tol = ipx_ode_projection_tol(k, t->q, t->diag, TOUCH_TOL, TOUCH_ACCURACY);
    if (!(tol > 0.0)) return 0;
    int e = 0;
    for (int i = 0; i < k; i++) {
        t->start[i] = e;
        for (int j = 0; j < k; j++)
            if (t->M[i + (size_t)k * j] != 0.0) {
                t->col[e] = j;
                t->val[e++] = t->M[i + (size_t)k * j];
            }
    }
    t->start[k] = e;
    sparse_rows rows = {k, t->start, t->col, t->val};
    const ipx_lcp_operator op = {k, apply_rows, &rows, t->diag, 0.0};
    ipx_lcp_psd_options opt = ipx_lcp_psd_default_options();
    opt.tol = tol;
    return ipx_lcp_psd(&op, t->q, t->lambda, t->w, &opt, t->work, NULL) == IPX_OK;
}

int ipx_ode_touch_solve(touch_lcp *t, int dense_first)
{
    return dense_first ? solve_dense(t) || solve_iterative(t)
                       : solve_iterative(t) || solve_dense(t);
}
