/* Lemke on an Anitescu-Potra LCP with the diagonal of G shifted (anitescu_potra.h,
   ipx_ap_lemke_shifted). Contacts whose normal rows coincide make G singular: two contacts of
   one body on a line along their common normal have the same normal row of the Jacobian, and
   a pile has more contact rows than its bodies have freedoms (islands of ODE's feedback demo:
   52 to 187 of G's 72 to 265 eigenvalues below 1e-10). Lemke pivots on an entry that is genuine
   for the data but of round-off size (5.9e-10 on a bridge of that demo under dWorldStep, two
   contacts 0.1 m apart along their normal), the basis inverse grows rows of norm 6e7, then
   6e11, and the path ends on a false secondary ray, on a tableau rebuilt from the data too.

   On G + eps I every basis keeps eigenvalues of at least eps in that block, so the basis
   inverse stays below about 1 / eps (relative to max G_ii) and the round-off of the basic
   solution below about n DBL_EPSILON / eps, while the shift itself moves the answer by eps z.
   The caller chooses eps: aplcp climbs from sqrt(DBL_EPSILON), where the two errors balance
   (docs/models/aplcp.md, "Shifted Lemke"). */
#include "anitescu_potra.h"
#include "impax/lcp.h"
#include "mathutil.h"

size_t ipx_ap_lemke_work_doubles(int n)
{
    return n < 1 ? 0 : ipx_lemke_work_doubles(n) + (size_t)n;
}

/* The velocity row r_i of each shifted unknown i (0 <= i < k + nd kf): its contact's. */
static double row_scale(const ipx_ap_layout *L, int i)
{
    return ipx_ap_row_scale(L, i < L->k ? i : L->fric[(i - L->k) / L->nd]);
}

ipx_status ipx_ap_lemke_shifted(const ipx_ap_layout *L, double *M, const double *q, double eps_rel,
                                double *z, double *w, int max_pivots, double *dwork, int *iwork,
                                int *pivots, double *v_err)
{
    const int n = L->size, g = L->k + L->nd * L->kf; /* g: the lambda_n and lambda_D rows */
    double *diag = dwork + ipx_lemke_work_doubles(n), dmax = 0.0;
    for (int i = 0; i < g; i++) {
        diag[i] = M[(size_t)i * (size_t)(n + 1)];
        dmax = ipx_max(dmax, diag[i]);
    }
    const double eps = eps_rel * dmax;
    for (int i = 0; i < g; i++) M[(size_t)i * (size_t)(n + 1)] += eps;
    ipx_status st = ipx_lemke(n, M, q, z, w, max_pivots, dwork, iwork, pivots);
    for (int i = 0; i < g; i++) M[(size_t)i * (size_t)(n + 1)] = diag[i];
    *v_err = 0.0;
    if (st != IPX_OK) return st;
    for (int i = 0; i < g; i++) {
        w[i] -= eps * z[i]; /* M z + q of the unshifted M */
        *v_err = ipx_max(*v_err, eps * z[i] / row_scale(L, i));
    }
    return IPX_OK;
}
