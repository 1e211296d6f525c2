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
    IPX_CHECK_ENERGY = 1u << 0,          ///< dT <= tol (no energy gain)
    IPX_CHECK_NONPENETRATION = 1u << 1,  ///< v_n+ >= -tol at every contact
    IPX_CHECK_CONE = 1u << 2,            ///< |pi_t| <= mu pi_n (+ tol)
    IPX_CHECK_COMPLEMENTARITY = 1u << 3, ///< pi_n * v_n+ <= tol (impulse only at closing contacts)
    IPX_CHECK_UNILATERAL = 1u << 4,      ///< pi_n >= -tol (no pulling)
    IPX_CHECK_CONSISTENCY = 1u << 5      ///< v_post = v + W pi and delta_ke as reported, finite
} ipx_check_kind;

#define IPX_CHECK_ALL 0x3fu
#define IPX_MAX_VIOLATIONS 32

typedef struct ipx_check_options {
    unsigned kinds;       ///< bit set of ipx_check_kind to test
    double tol_rel;       ///< relative tolerance (of the problem's velocity / impulse / energy scale)
    double tol_abs;       ///< absolute floor, in the unit of each check
} ipx_check_options;

/// All kinds, tol_rel 1e-9, tol_abs 1e-12.
ipx_check_options ipx_check_default_options(void);

typedef struct ipx_violation {
    ipx_check_kind kind;
    int contact;          ///< contact index, or -1 for a whole-problem check (energy)
    double size;          ///< by how much the bound is exceeded, in the check's unit
} ipx_violation;

typedef struct ipx_check_report {
    int count;            ///< number of violations found (may exceed IPX_MAX_VIOLATIONS)
    ipx_violation list[IPX_MAX_VIOLATIONS]; ///< the first ones
} ipx_check_report;

/// Checks the result against the problem. Returns the number of violations (0 = clean).
int ipx_check(const ipx_problem *p, const ipx_result *r, const ipx_check_options *opt,
              ipx_check_report *report);

/// Name of a check kind ("energy", "cone", ...).
const char *ipx_check_kind_name(ipx_check_kind kind);

/// One line per violation: "cone at contact 2 exceeded by 3.1e-05".
void ipx_check_format(const ipx_check_report *report, char *buf, size_t size);

#ifdef __cplusplus
}
#endif
#endif
