/* Lemke on a singular symmetric positive semidefinite LCP, shifted when round-off defeats it
   (impax/lcp.h, ipx_lemke_psd). The shift bounds the condition of the basis matrices Lemke
   passes through (their eigenvalues are at least eps): on the crash demo's wall (743 contacts
   on 75 boxes, W of rank 401) Lemke on W ended on a false ray or an inaccurate basis, and on
   W + 1e-8 max W_ii I still on an inaccurate one; 1e-6 solved every step
   (docs/models/gonthier.md §5). */
#include <math.h>

#include "impax/lcp.h"

size_t ipx_lemke_psd_work_doubles(int n)
{
    return n < 1 ? 0 : (size_t)n * (size_t)n + ipx_lemke_work_doubles(n);
}

ipx_status ipx_lemke_psd(int n, const double *M, const double *q, double *z, double *w,
                         double *dwork, int *iwork, double *shift)
{
    *shift = 0.0;
    ipx_status st = ipx_lemke(n, M, q, z, w, ipx_lemke_default_max_pivots(n), dwork, iwork, NULL);
    if (st == IPX_OK || st == IPX_ERR_INPUT) return st;
    const size_t nn = (size_t)n * (size_t)n;
    double *S = dwork, dmax = 0.0; /* the shifted copy; Lemke's work follows it */
    for (size_t a = 0; a < nn; a++) S[a] = M[a];
    for (int i = 0; i < n; i++) dmax = fmax(dmax, M[i + (size_t)n * i]);
    const double eps = IPX_LEMKE_PSD_SHIFT * dmax;
    if (!(eps > 0.0)) return st; /* M = 0: nothing to shift */
    for (int i = 0; i < n; i++) S[i + (size_t)n * i] += eps;
    st = ipx_lemke(n, S, q, z, w, ipx_lemke_default_max_pivots(n), dwork + nn, iwork, NULL);
    if (st != IPX_OK) return st;
    *shift = eps;
    for (int i = 0; i < n; i++) w[i] -= eps * z[i]; /* M z + q of the unshifted M */
    return IPX_OK;
}
