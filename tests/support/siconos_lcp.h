/// Siconos Numerics' lexicographic Lemke (lcp_lexicolemke), the reference our ipx_lemke is
/// checked and timed against. Test/bench code only: impax itself does not link Siconos.
#ifndef IMPAX_TEST_SICONOS_LCP_H
#define IMPAX_TEST_SICONOS_LCP_H

/// Solves LCP(M, q) (M column-major n x n) with lcp_lexicolemke; z and w receive its answer.
/// Returns Siconos' info (0 = it claims convergence).
int ipx_siconos_lexicolemke(int n, const double *M, const double *q, double *z, double *w);

#endif
