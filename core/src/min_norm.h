/// Inside the core: the minimum-norm solve of a square system that PLUS and bowling use
/// (min_norm.c). Always the complete orthogonal factorisation of ipx_plus_lsq (faster than
/// LAPACK's dgelsy at every size these models meet: `bench_plus lsq`); from
/// IPX_MIN_NORM_CACHE_MIN unknowns on, the work array also keeps the last system, and a
/// factorisation of it without a few columns once the same few columns keep changing (the
/// impending-slip direction search), which then solves each next system in O(m^2). The
/// contract of ipx_lsq_min_norm (A overwritten, b becomes x; rank_out may be NULL). work must
/// be the same array from call to call for the reuse to happen; contents left by anything else
/// are recognised (a header and an exact comparison of the matrix) and ignored, but a caller
/// must not modify the array between two calls of its own and expect a fresh solve.
#ifndef IMPAX_MIN_NORM_H
#define IMPAX_MIN_NORM_H

#include <stddef.h>
#include "impax/types.h"

/// Systems below this many unknowns are solved directly, without the cache (bench_plus_scale
/// and bench_plus: the cache's bookkeeping costs more than it saves below it).
#ifndef IPX_MIN_NORM_CACHE_MIN
#define IPX_MIN_NORM_CACHE_MIN 16
#endif

/// Work doubles for systems of up to n unknowns (iwork: n ints).
size_t ipx_min_norm_work_doubles(int n);

ipx_status ipx_min_norm_solve(int n, double *A, double *b, double rcond, double *work, int *iwork,
                              int *rank_out);

/// ipx_min_norm_solve for a caller that will change the same few columns again and again (the
/// direction search's probes): a system that differs from the cached one in a few columns gets
/// its base factor at once, not after BUILD_AFTER dense solves of those columns.
ipx_status ipx_min_norm_solve_again(int n, double *A, double *b, double rcond, double *work,
                                    int *iwork, int *rank_out);

/// How the last ipx_min_norm_solve of n unknowns on this work array was solved: the same
/// system again, from a base factor (O(m^2) per changed column), or by a dense factorisation
/// (every system below IPX_MIN_NORM_CACHE_MIN unknowns). For the tests of the cache's rules.
enum { IPX_MIN_NORM_SAME = 1, IPX_MIN_NORM_BASE = 2, IPX_MIN_NORM_DENSE = 3 };
int ipx_min_norm_path(int n, const double *work);

#endif
