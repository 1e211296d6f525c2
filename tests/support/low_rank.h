/// Random dense matrices of a chosen rank, for the least-squares tests and benches.
#ifndef IMPAX_TEST_LOW_RANK_H
#define IMPAX_TEST_LOW_RANK_H

#include "impax/impax.h"

/// A (m x n, column-major) = L R with L (m x r) and R (r x n) of N(0, 1) entries drawn from rng
/// into the caller's L and R: rank r with probability one.
void ipx_gen_low_rank(ipx_rng *rng, int m, int n, int r, double *A, double *L, double *R);

#endif
