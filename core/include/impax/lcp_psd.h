/// impax core: LCPs whose matrix is symmetric positive semidefinite and given as an operator,
/// solved iteratively (issue [scale]: the ODE adapter's position recovery of islands of hundreds
/// of contacts, where W = J M^-1 J^T is applied body by body and never formed).
///
/// Finds z with  w = M z + q,  z >= 0,  w >= 0,  z^T w = 0, which for a symmetric PSD M are the
/// optimality conditions of   min f(z) = 1/2 z^T M z + q^T z   over z >= 0. The method is MPRGP
/// (Dostál & Schöberl 2005, "Minimizing quadratic functions subject to bound constraints with
/// the rate of convergence and finite termination", Comput. Optim. Appl. 30(1)): conjugate
/// gradients on the free unknowns (z_i > 0) while they are "proportional" (the gradient of the
/// unknowns at their bound is small against the free gradient), a fixed-length projected
/// gradient step ("expansion") when a conjugate-gradient step would leave z >= 0, and a step
/// along the chopped gradient ("proportioning") that releases unknowns from their bound. One
/// product with M per iteration (two in an expansion). With a diagonal given, the solver works on
/// the Jacobi-scaled problem D^-1/2 M D^-1/2 (a positive diagonal scaling keeps the bounds).
///
/// Accuracy (what IPX_OK guarantees): with w computed afresh as M z + q by one last product,
///     max_i r_i <= tol * max_i |q_i|,   r_i = |w_i| if z_i > 0,   r_i = max(0, -w_i) if z_i = 0,
/// and z >= 0 holds exactly at every iterate (also on failure). So no w_i is below -tol max|q|
/// and every z_i > 0 has |w_i| <= tol max|q|. Where M is singular z is not unique, but M z (so
/// w) is: two answers differ in w by the tolerance's order, not in z.
///
/// Infeasible LCPs (for a PSD M: f unbounded below on z >= 0) end with IPX_ERR_LCP_RAY once the
/// iteration finds a direction of no curvature that descends without a bound to stop it.
/// No allocation: the caller passes ipx_lcp_psd_work_doubles(n) doubles.
#ifndef IMPAX_LCP_PSD_H
#define IMPAX_LCP_PSD_H

#include <stddef.h>
#include "impax/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/// y = M x (n entries each; y never aliases x). user: the operator's own data.
typedef void (*ipx_lcp_apply_fn)(void *user, const double *x, double *y);

/// The LCP's matrix as an operator.
typedef struct ipx_lcp_operator {
    int n;                  ///< unknowns
    ipx_lcp_apply_fn apply; ///< y = M x; M symmetric PSD (the solver never checks this)
    void *user;             ///< passed to apply
    const double *diag; ///< NULL, or M_ii > 0 (n entries): Jacobi scaling, usually fewer iterations
    double norm;        ///< an upper bound of the 2-norm of the matrix solved on (D^-1/2 M D^-1/2
                        ///< with diag, else M); 0: estimated by five power iterations. The
                        ///< expansion step is 1.9 / norm; a step that does not lower f is halved,
                        ///< so an estimate below the norm costs products, never accuracy
} ipx_lcp_operator;

typedef struct ipx_lcp_psd_options {
    double tol;   ///< relative accuracy (see above), > 0
    int max_iter; ///< iterations before IPX_ERR_NOT_CONVERGED
    int warm;     ///< 1: start from the z given (negative entries taken as 0); 0: from z = 0
} ipx_lcp_psd_options;

/// tol 1e-9, max_iter 0 (= 10 n + 100), warm 0.
ipx_lcp_psd_options ipx_lcp_psd_default_options(void);

/// What a solve did.
typedef struct ipx_lcp_psd_info {
    int iterations;     ///< conjugate-gradient, expansion and proportioning steps
    int products;       ///< products with M (the cost: each is one apply)
    int expansions;     ///< expansion steps (each adds unknowns to the bound)
    int proportionings; ///< proportioning steps (each releases unknowns)
    double residual;    ///< max_i r_i / max_i |q_i| of the answer (0 when q >= 0)
} ipx_lcp_psd_info;

/// Doubles of work a problem of n unknowns takes: 9 n.
size_t ipx_lcp_psd_work_doubles(int n);

/// Solves LCP(M, q) for the operator op (see the top). z, w: n entries (z read when opt->warm).
/// Returns IPX_OK with the accuracy above; IPX_ERR_NOT_CONVERGED after max_iter iterations (z
/// is the last iterate, z >= 0, w = M z + q); IPX_ERR_LCP_RAY for an infeasible LCP (z, w as
/// for not converged); IPX_ERR_NUMERIC if a product gave a non-finite number (z, w zeroed);
/// IPX_ERR_INPUT for n < 1, a NULL pointer, tol <= 0, a diagonal entry <= 0, non-finite q.
/// q >= 0 gives z = 0, w = q with no product.
/// opt may be NULL (the defaults); info may be NULL.
ipx_status ipx_lcp_psd(const ipx_lcp_operator *op, const double *q, double *z, double *w,
                       const ipx_lcp_psd_options *opt, double *work, ipx_lcp_psd_info *info);

#ifdef __cplusplus
}
#endif
#endif
