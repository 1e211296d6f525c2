/// The Anitescu-Potra impact LCP of a problem as a dense matrix, built here from W by the layout
/// that core/src/numerics/anitescu_potra.h documents (without its per-contact scaling), so that tests and benches
/// judge the core's answers, and hand the same LCP to Siconos Numerics, independently of the
/// core's own assembly:
///   z = [lambda_n (k); lambda_D (nd per friction contact); gamma (1 per friction contact)]
///   M = [[G_nn, G_nD, 0], [G_Dn, G_DD, E], [mu, -E^T, 0]],  q = [v_n (+ shift); D^T v_t; 0]
/// with the nd directions d_j = cos(2 pi j/nd) t1 + sin(2 pi j/nd) t2. Needs the problem's dense
/// W. O(n^2) memory (n = k + (nd + 1) kf): 300 MB at 1 024 friction contacts with nd = 4.
#ifndef IMPAX_TEST_AP_DENSE_H
#define IMPAX_TEST_AP_DENSE_H

#include "impax/impax.h"

#define IPX_TEST_AP_MAX_DIRECTIONS 16

typedef struct ipx_test_ap {
    int k, nd, kf; /* contacts, directions, contacts with mu > 0 */
    int n, nl;     /* LCP size; impulse unknowns (lambda_n and lambda_D) come first */
    int *fric;     /* kf: the contact of each friction contact */
    double dir[IPX_TEST_AP_MAX_DIRECTIONS][2];
    double *M; /* n x n, column-major */
    double *q; /* n */
} ipx_test_ap;

/// Builds the LCP of p (dense W) with nd directions (2 <= nd <= 16) and shift[i] (m/s) added to
/// contact i's normal row (NULL: none; aplcp's Newton targets). Returns 0, -1 if memory is short.
int ipx_test_ap_make(ipx_test_ap *a, const ipx_problem *p, const double *shift, int nd);

void ipx_test_ap_free(ipx_test_ap *a);

/// z of impulses pi (3k, N*s): lambda_D the least multipliers that make pi_t (the two directions
/// of its sector), gamma the least that makes its rows feasible at v + W pi.
void ipx_test_ap_z_of(const ipx_test_ap *a, const ipx_problem *p, const double *pi, double *z);

/// The impulses pi (3k, [t1 t2 n], N*s) of an LCP vector z.
void ipx_test_ap_impulse_of(const ipx_test_ap *a, const double *z, double *pi);

/// How far pi is from solving the LCP: per row max(-z/Z, -w/V, min(z/Z, w/V)) with Z the largest
/// impulse unknown (N*s) and V the largest velocity of q and gamma (m/s), and a frictionless
/// contact's tangential impulse over Z (nd = 2: also any impulse along t2). The natural-map
/// residual relative to the problem's own scales, as the core's iterative solver measures it.
double ipx_test_ap_residual(const ipx_test_ap *a, const ipx_problem *p, const double *pi);

/// How far pi is from solving the LCP in velocity, the stop at the host's accuracy of
/// docs/core-api.md "Solve accuracy": the largest row violation in m/s, per row
/// max(-z M_rr, -w, min(z M_rr, w)) for an impulse z against a velocity w, and
/// max(-w m, -z, min(z, w m)) for gamma against its row's impulse w, m the contact's mean
/// tangential diagonal of W (and a frictionless contact's tangential impulse times m); into
/// *work (m/s) the largest z w of an impulse row over Z. 1e300 if memory is short.
double ipx_test_ap_row_velocity(const ipx_test_ap *a, const ipx_problem *p, const double *pi,
                                double *work);

/// The same, building and freeing the LCP (1e300 if memory is short).
double ipx_test_ap_residual_of(const ipx_problem *p, const double *pi, const double *shift, int nd);

/// The unknowns in contact order: order[r] is the LCP row of the r-th unknown when each contact's
/// unknowns [lambda_n; lambda_D; gamma] form one block; block contact i is rows
/// start[i] .. start[i + 1] - 1 (start: k + 1). The blocks of Siconos' lcp_nsgs_SBM.
void ipx_test_ap_contact_order(const ipx_test_ap *a, int *order, int *start);

#endif
