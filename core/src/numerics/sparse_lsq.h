/// Inside the core: minimum-norm solves of large sparse systems through SuiteSparseQR (SPQR),
/// for PLUS's systems of many contacts, whose rows (W's rows of the active contacts, friction
/// and prescribed rows) couple only contacts that share a body. The dense path (min_norm.h)
/// stays the reference; this one answers only where it can show that its answer is the one
/// the dense path gives, and says so by its status.
///
/// Method: a QR factorisation of A^T (SPQR, with its rank detection at the dense path's
/// threshold, rcond times A's largest row norm) picks a set of r independent rows of A;
/// x = Q [R11^-T (E^T b)_1..r; 0] is then the minimum-norm solution of those rows, and it lies
/// in the row space of A. If it also satisfies the rows left out (the system is consistent,
/// which PLUS's velocity rows are: v is in the range of J), it is the minimum-norm
/// least-squares solution A^+ b of the whole system. Otherwise (an inconsistent system, whose
/// least-squares answer this method does not give, or a row SPQR's Heath method dropped that
/// is not dependent) the status asks for the dense solve. Heath's method is not
/// rank-revealing: it may keep a row the dense rule drops. So the kept rows must also be well
/// inside the dense rule's rank (the smallest singular value of their triangular factor,
/// estimated by inverse iteration, above 1e-8 of A's largest row norm, three decades above the
/// dense threshold rcond = 1e-11); a system with rows between the two is solved densely.
///
/// The state keeps the last symbolic analysis (SPQR's column ordering and front structure, from
/// the pattern of A^T alone) and reuses it for the next system whose non-zeros all lie in that
/// pattern: the steps of a Newton solve, whose Jacobians share one pattern, then pay only the
/// numeric factorisation. A separate analysis cannot use SPQR's singleton rows (found with the
/// values), so the answers' last bits differ from those of its combined factorisation; a kept
/// analysis's answers agree with a fresh state's and with dgelsy's to 10 m eps cond of the
/// kept rows (test_sparse_reuse).
#ifndef IMPAX_SPARSE_LSQ_H
#define IMPAX_SPARSE_LSQ_H

#include <stddef.h>

#include "impax/types.h"

/// Bytes of the SuiteSparse state (a cholmod_common and the kept analysis) a solve keeps in its
/// workspace.
size_t ipx_sparse_state_bytes(void);

/// Starts the state in `state` (ipx_sparse_state_bytes() bytes, 8-byte aligned); every started
/// state must be ended with ipx_sparse_end (it frees SuiteSparse's own workspace and the kept
/// analysis).
void ipx_sparse_begin(void *state);
void ipx_sparse_end(void *state);

/// SPQR's own upper bound of the floating-point operations of a factorisation on the analysis
/// the state keeps (cholmod_common.SPQR_flopcount_bound, from that analysis), 0 if none.
/// PLUS charges a sparse solve by it (deviation 12's work units).
double ipx_sparse_flops_bound(const void *state);

/// The symbolic analyses made on this state since ipx_sparse_begin (one per new pattern).
long ipx_sparse_analyses(const void *state);

/// x = A^+ b for the dense n x n column-major A (read, not modified) and b (n), if at most
/// max_density of A's entries are non-zero and the sparse path can vouch for the answer: IPX_OK,
/// x set and *rank_out (may be NULL) the numerical rank. IPX_ERR_NUMERIC: no answer (x
/// undefined); solve densely instead.
ipx_status ipx_sparse_min_norm(void *state, int n, const double *A, const double *b, double rcond,
                               double max_density, double *x, int *rank_out);

#endif
