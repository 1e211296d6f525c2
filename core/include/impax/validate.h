/// impax core: problem validation shared by every model.
#ifndef IMPAX_VALIDATE_H
#define IMPAX_VALIDATE_H

#include <stddef.h>
#include "impax/types.h"
#include "impax/workspace.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Relative tolerance for the symmetry and positive semi-definiteness of W: an entry pair may
/// differ by, and the smallest eigenvalue may fall below zero by, this times the largest
/// diagonal entry.
#define IPX_W_TOLERANCE 1e-9

/// Bytes of workspace ipx_problem_validate uses for k contacts.
size_t ipx_validate_workspace_bytes(int k);

/// Checks a problem: k >= 1; W, v and every contact parameter finite but mu, which may be
/// +INFINITY (ipx_problem_finite_mu); W symmetric and positive semi-definite within
/// IPX_W_TOLERANCE (with IPX_PROBLEM_W_ASSEMBLED: symmetric with a non-negative diagonal, its
/// curvature taken from its construction); W given one way (W or Ws), and as blocks only with
/// IPX_PROBLEM_W_ASSEMBLED and in the form types.h describes (checked in O(blocks)); mu >= 0;
/// e in [0, 1]; v_capture >= 0; v_plastic >= 0. The first problem found is written into
/// message, naming the item ("contact 3: mu = -0.2 is negative"). Returns IPX_OK or
/// IPX_ERR_INPUT.
ipx_status ipx_problem_validate(const ipx_problem *p, ipx_workspace *ws, char *message,
                                size_t message_size);

/// IPX_OK if every contact's mu is finite; otherwise IPX_ERR_INPUT with the first contact whose
/// mu is +INFINITY and the model (its name: one that needs a finite mu) named in message.
ipx_status ipx_problem_finite_mu(const ipx_problem *p, const char *model, char *message,
                                 size_t message_size);

/// Relative size below which a diagonal entry of W counts as 0: the rounding left by the
/// assembly of the largest one (a joint's elimination, a body's inverse inertia). Well above
/// it W is merely ill-conditioned: a 1 kg ball of radius 1000 m with the inertia of one of
/// 2.9 cm has W_nn 3e-10 times its tangential W_tt, and is a contact like any other.
#define IPX_W_NULL 1e-14

/// Index of the first contact that approaches (v_n < -eps_v, m/s) although no impulse can
/// change its normal velocity (W_nn <= IPX_W_NULL times W's largest diagonal entry: both
/// bodies immovable along that normal; then, W being PSD, its whole normal row is 0), or -1.
/// A model that promises to end an impact with nothing approaching cannot keep that promise on
/// such a problem and must refuse it.
int ipx_problem_unreachable_approach(const ipx_problem *p, double eps_v);

#ifdef __cplusplus
}
#endif
#endif
