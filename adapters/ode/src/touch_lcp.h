/* The LCP of a compliant island's move back to first touch (first_touch.c):
       w = W_nn lambda - target >= 0,   lambda >= 0,   lambda^T w = 0,
   W_nn symmetric positive semidefinite and often singular (a wall of boxes, four corners
   each), target_i the normal displacement contact i is owed (m). */
#ifndef IMPAX_ODE_TOUCH_LCP_H
#define IMPAX_ODE_TOUCH_LCP_H

#include <stddef.h>

/* The problem and the room its solvers work in: q = -target (k), M = W_nn (k x k, column-major,
   1/kg); lambda and w (k) the answer; diag (k), val (nnz), start (k + 1) and col (nnz) the
   iterative solver's rows of M, nnz = ipx_ode_touch_nonzero(k, M); work the larger of
   ipx_lemke_psd_work_doubles(k) and ipx_lcp_psd_work_doubles(k) doubles, ilcp
   ipx_lemke_work_ints(k) ints. */
typedef struct touch_lcp {
    int k;
    const double *M, *q;
    double *lambda, *w, *diag, *val, *work;
    int *start, *col, *ilcp;
} touch_lcp;

/* For ipx_lcp_psd on a projection LCP w = W_nn z + q (q = -target, m; the move back to first
   touch here, the position recovery's in recovery_project.c), with diag (k) holding W_nn's
   diagonal on entry: a contact the joints hold rigid (diag_i = 0) cannot move, so one owed a
   displacement makes the LCP infeasible (returns 0), another stays out of the problem (diag_i
   set to 1: its row and column are zero, z_i = 0 with w_i = q_i = 0). Returns the solver's
   relative tolerance: every contact within accuracy (m) of its target, or tol of the largest
   target if that is more. */
double ipx_ode_projection_tol(int k, const double *q, double *diag, double tol, double accuracy);

/* Entries of M (k x k) that are not zero. */
size_t ipx_ode_touch_nonzero(int k, const double *M);

/* Solves t by the dense Lemke (shifted where round-off defeats it, ipx_lemke_psd) and the
   iterative solver (ipx_lcp_psd on M's non-zero rows), in that order if dense_first, else the
   other. The iterative answer holds to TOUCH_TOL of the largest target or TOUCH_ACCURACY (1 nm),
   whichever is more (touch_lcp.c): no contact is left more than that short of its target. 1 if one
   answered, 0 if neither did (or a contact the joints hold rigid, M_ii = 0, is owed a move: no
   answer exists). */
int ipx_ode_touch_solve(touch_lcp *t, int dense_first);

#endif
