/// Inside the core: the minimum-norm solve of a square system by whichever of the two solvers
/// is faster at its size: ipx_plus_lsq up to IPX_PLUS_LSQ_SMALL unknowns (no LAPACK call
/// overhead), LAPACK's dgelsy above (bench_plus measures the crossover). The same complete
/// orthogonal factorisation either way; the contract of ipx_lsq_min_norm (A overwritten, b
/// becomes x; rank_out may be NULL).
#ifndef IMPAX_MIN_NORM_H
#define IMPAX_MIN_NORM_H

#include <stddef.h>
#include "impax/types.h"

/// Work doubles for systems of up to n unknowns (iwork: n ints).
size_t ipx_min_norm_work_doubles(int n);

ipx_status ipx_min_norm_solve(int n, double *A, double *b, double rcond, double *work, int *iwork,
                              int *rank_out);

#endif
