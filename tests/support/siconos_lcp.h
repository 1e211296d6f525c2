/// Siconos Numerics' LCP solvers that ours are checked and timed against: the lexicographic
/// Lemke (lcp_lexicolemke) for ipx_lemke, and the projected block Gauss-Seidel on a sparse block
/// matrix (lcp_nsgs_SBM) for the models' iterative solver (core/src/numerics/nsgs.h). Test/bench
/// code only: impax itself does not link Siconos.
#ifndef IMPAX_TEST_SICONOS_LCP_H
#define IMPAX_TEST_SICONOS_LCP_H

#include "ap_dense.h"

/// Solves LCP(M, q) (M column-major n x n) with lcp_lexicolemke; z and w receive its answer.
/// Returns Siconos' info (0 = it claims convergence).
int ipx_siconos_lexicolemke(int n, const double *M, const double *q, double *z, double *w);

/// Solves LCP(M, q) (dense, column-major n x n) by Siconos' semismooth Newton method on the
/// Fischer-Burmeister function with a line search (lcp_newton_FB; dense LU each step) from z = 0,
/// for at most max_iter steps or until its error is below tol; *iters receives the steps made.
/// Returns Siconos' info (0: within tol).
int ipx_siconos_newton_fb(int n, const double *M, const double *q, int max_iter, double tol,
                          double *z, double *w, int *iters);

/// An LCP in Siconos' sparse block form, ready for lcp_nsgs_SBM.
typedef struct ipx_siconos_sbm ipx_siconos_sbm;

/// The AP LCP a (ap_dense.h) in Siconos' sparse block form: each contact's unknowns one block
/// (ipx_test_ap_contact_order), only M's blocks with a non-zero entry (and the diagonal ones)
/// stored. The functions below take and give vectors in a's own order. NULL if memory is short.
ipx_siconos_sbm *ipx_siconos_ap(const ipx_test_ap *a);

/// Blocks stored (the diagonal included).
int ipx_siconos_sbm_blocks(const ipx_siconos_sbm *s);

/// lcp_nsgs_SBM from z (its start; the answer on return, w = M z + q): sweeps over the blocks,
/// each block's LCP solved by lcp_lexicolemke, until Siconos' own error (lcp_compute_error,
/// after each sweep) is below tol or max_sweeps are done. A block whose local Lemke fails ends
/// that sweep (Siconos' rule). *sweeps receives the sweeps made. Returns Siconos' info (0:
/// within tol).
int ipx_siconos_nsgs(ipx_siconos_sbm *s, int max_sweeps, double tol, double *z, double *w,
                     int *sweeps);

/// y = M x (n each) by Siconos' own product of the stored blocks (SBM_gemv): checks the form.
void ipx_siconos_sbm_apply(const ipx_siconos_sbm *s, const double *x, double *y);

void ipx_siconos_sbm_free(ipx_siconos_sbm *s);

#endif
