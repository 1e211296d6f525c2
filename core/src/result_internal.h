/// Inside the core: completing a result from its impulses, the same way for every model.
#ifndef IMPAX_RESULT_INTERNAL_H
#define IMPAX_RESULT_INTERNAL_H

#include "impax/types.h"

/// Given r->impulse (3k), sets r->k, r->v_post = v + W pi and r->delta_ke = pi^T v + 1/2 pi^T W pi.
/// Returns IPX_ERR_NUMERIC (with a message) if any of them is not finite, else IPX_OK.
ipx_status ipx_result_finish(const ipx_problem *p, ipx_result *r);

/// y = W x for the problem's 3k x 3k W.
void ipx_apply_W(const ipx_problem *p, const double *x, double *y);

#endif
