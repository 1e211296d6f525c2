/// Inside the core: completing a result from its impulses, the same way for every model.
#ifndef IMPAX_RESULT_INTERNAL_H
#define IMPAX_RESULT_INTERNAL_H

#include "impax/types.h"
#include "impax/workspace.h"
#include "problem_internal.h" /* ipx_apply_dense, the product under ipx_velocity_after */

/// Workspace bytes the arrays of a result of k contacts, rows_per_contact rows each, take.
size_t ipx_result_bytes(int k, int rows_per_contact);

/// Starts a public call's result: clears r, sets r->k = k and takes its arrays (zeroed) from the
/// start of ws, where the call's later slices leave them. IPX_ERR_WORKSPACE (r->message says
/// so, arrays NULL) if ws cannot hold them; k < 1 gets no arrays (validation names it).
ipx_status ipx_result_begin(ipx_result *r, int k, int rows_per_contact, ipx_workspace *ws);

/// Given r->impulse (3k), sets r->k, r->v_post = v + W pi and r->delta_ke = pi^T v + 1/2 pi^T W pi.
/// Returns IPX_ERR_NUMERIC (with a message) if any of them is not finite, else IPX_OK.
ipx_status ipx_result_finish(const ipx_problem *p, ipx_result *r);

/// ipx_result_finish for a problem with rows_per_contact rows per contact (W, v and the result
/// of rows_per_contact * k rows; a model with angular rows, ipx_bowling_solve).
ipx_status ipx_result_finish_rows(const ipx_problem *p, int rows_per_contact, ipx_result *r);

/// vp = v + W pi over n rows (W n x n, column-major); returns pi^T v + 1/2 pi^T W pi (J).
double ipx_velocity_after(int n, const double *W, const double *v, const double *pi, double *vp);

/// A failed solve hands back no impulse (zero impulse, v_post, delta_ke) but keeps its message
/// and counts; sets r->status = st and returns st.
ipx_status ipx_result_fail(ipx_result *r, ipx_status st);

#endif
