/// How far an answer (z, w) is from solving LCP(M, q), for the LCP tests.
#ifndef IMPAX_TEST_LCP_CHECK_H
#define IMPAX_TEST_LCP_CHECK_H

/// Largest violation of the LCP conditions by (z, w), relative: z >= 0, w = M z + q >= 0 and
/// z_i w_i = 0, with M column-major n x n and w recomputed from z; z-quantities are measured
/// against max|z|, w-quantities against S = max_i (|q_i| + sum_j |M_ij z_j|), the size of the
/// terms of w_i. w (may be NULL) is the answer's own w, which must equal M z + q.
double ipx_test_lcp_violation(int n, const double *M, const double *q, const double *z,
                              const double *w);

#endif
