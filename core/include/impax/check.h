/// impax core: the invariant checker, usable on any (problem, result) pair.
///
/// It recomputes everything from the problem and the impulses (it does not trust v_post or
/// delta_ke) and reports every violation with its size. Used by the tests, by the adapter in
/// debug mode and by the per-impact trace.
#ifndef IMPAX_CHECK_H
#define IMPAX_CHECK_H

#include <stddef.h>
#include "impax/types.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum ipx_check_kind {
    IPX_CHECK_ENERGY = 1u << 0,         ///< dT + delta_stored <= tol + energy_error (no gain)
    IPX_CHECK_NONPENETRATION = 1u << 1, ///< v_n+ >= -(tol + p->v_tol) at every contact
    IPX_CHECK_CONE = 1u << 2,           ///< |pi_t| <= mu pi_n (+ tol)
    IPX_CHECK_COMPLEMENTARITY =
        1u << 3, ///< pi_n * v_n+ <= tol + |pi| p->v_tol (impulse only at closing contacts)
    IPX_CHECK_UNILATERAL = 1u << 4,         ///< pi_n >= -tol (no pulling)
    IPX_CHECK_CONSISTENCY = 1u << 5,        ///< v_post = v + W pi and delta_ke as reported, finite
    IPX_CHECK_FRICTION_DIRECTION = 1u << 6, ///< friction of the last interval opposes the slip
    IPX_CHECK_SAFETY_NET = 1u << 7          ///< no safety net changed the answer (nets == 0)
} ipx_check_kind;

#define IPX_CHECK_ALL 0xffu
#define IPX_MAX_VIOLATIONS 32

typedef struct ipx_check_options {
    unsigned kinds;   ///< bit set of ipx_check_kind to test
    double tol_rel;   ///< relative tolerance (of the problem's velocity / impulse / energy scale)
    double tol_abs;   ///< absolute floor, in the unit of each check
    double tol_angle; ///< rad, friction-direction tolerance
} ipx_check_options;

/// All kinds, tol_rel 1e-9, tol_abs 1e-12, tol_angle 1e-6 rad.
ipx_check_options ipx_check_default_options(void);

typedef struct ipx_violation {
    ipx_check_kind kind;
    int contact; ///< contact index, or -1 for a whole-problem check (energy)
    double size; ///< by how much the bound is exceeded, in the check's unit
} ipx_violation;

typedef struct ipx_check_report {
    int count; ///< number of violations found (may exceed IPX_MAX_VIOLATIONS)
    ipx_violation list[IPX_MAX_VIOLATIONS]; ///< the first ones
} ipx_check_report;

/// Checks the result against the problem. Returns the number of violations (0 = clean), or -1
/// if memory for its two sums W pi (2 x 3k doubles, allocated and freed here) is short. A result
/// of another problem (k, n_rows) or whose solve never started (NULL impulse or v_post) is one
/// consistency violation; NULL last_step or slip_state mean "not reported" (no direction check).
///
/// Energy: dT (recomputed from the impulses) plus the change of the energy the model's own
/// elastic elements hold (r->delta_stored: a compliant model's springs and bristles; 0 for an
/// impulse model) must not exceed the tolerance plus the model's stated integration error
/// (r->energy_error). A compliant step may give the bodies energy its springs held; it may
/// not give them more.
///
/// Friction direction: for every contact whose slip_state is IPX_SLIP_IMPENDING or
/// IPX_SLIP_SLIDING and whose last-interval friction (last_step's tangential rows) exceeds the
/// impulse tolerance, the angle between that friction and the opposite of its slip must be at
/// most tol_angle: the end slip v_post for impending slip (2.9b), the start slip of the last
/// interval (v_post - W last_step) for sliding (2.9a). Slips below the velocity tolerance have
/// no direction and pass. The violation's size is the excess angle (rad). Both slips are
/// recomputed from the problem and the impulses.
///
/// Safety net: a result whose nets are not 0 is reported (size = the nets bits), so a test that
/// checks everything treats a fired net as a finding.
int ipx_check(const ipx_problem *p, const ipx_result *r, const ipx_check_options *opt,
              ipx_check_report *report);

/// The energy test of ipx_check alone (IPX_CHECK_ENERGY, same options), for a result whose
/// v_post is v + W pi as every model's solve leaves it: dT = pi.v + pi.(v_post - v) / 2 needs no
/// product with W, so this allocates nothing and costs O(k). Returns by how much (J) dT +
/// delta_stored exceeds the tolerance plus r->energy_error: > 0 (or NaN) is an energy gain.
/// ipx_solve runs it on every answer of a model that promises no energy gain.
double ipx_check_energy_excess(const ipx_problem *p, const ipx_result *r,
                               const ipx_check_options *opt);

/// Name of a check kind ("energy", "cone", ...).
const char *ipx_check_kind_name(ipx_check_kind kind);

/// One line per violation: "cone at contact 2 exceeded by 3.1e-05".
void ipx_check_format(const ipx_check_report *report, char *buf, size_t size);

#ifdef __cplusplus
}
#endif
#endif
