/// impax core: the Anitescu-Potra simultaneous impact LCP (Halm & Posa eq. (31)-(35); docs/models/routh.md
/// sections 2 and 7): velocity complementarity at every contact and Coulomb friction linearised
/// by a polygon of friction directions, solved as one LCP. Inelastic by default; optionally a
/// Newton restitution target v_n+ >= -e v_n- at contacts approaching faster than v_capture.
/// It is the baseline closest to ODE's own contact handling.
///
/// Solvers (issue scale). Below `lcp_switch` contacts the LCP is solved by the dense
/// lexicographic Lemke (impax/lcp.h): exact up to round-off, O(n^2) per pivot on the
/// (nd + 2) k unknowns, so O(k^3). A problem that gives the host's accuracy (v_tol > 0) takes
/// the iterative solver from `lcp_switch_host` contacts on instead, where that is smaller: the
/// host keeps nothing finer than v_tol, and on piles the dense Lemke of 2-15 contacts cost 2 to
/// 20 times the iterative solve to v_tol (docs/models/aplcp.md §3). From `lcp_switch` contacts on
/// it is solved contact by contact on a block-sparse copy of W (projected block Gauss-Seidel
/// with Anderson acceleration, each contact's own small LCP solved exactly;
/// core/src/numerics/nsgs.h): the answer is accepted when
/// the LCP's relative residual (natural map, each row against the problem's largest impulse and
/// velocity) is at most `lcp_tol`, which the invariant checker's default tolerance (1e-9
/// relative) then also accepts. Frictional LCPs can have several solutions (redundant contacts
/// of a pile make many): the iterative answer is a solution, not necessarily the dense Lemke's.
/// When `max_sweeps` sweeps do not reach lcp_tol, or sooner once the iteration has stalled
/// (`stall_sweeps` sweeps without its best residual halving, after the acceleration has given
/// way to plain sweeps, and that best already within what the next lines take: lcp_accept, or
/// anything where the dense Lemke redoes the problem; 0 turns this off):
///  - up to `lcp_fallback` contacts the dense Lemke solves the problem again (its sweeps are then
///    cut to about one dense solve's cost, 50 + k^2/2), limits_hit bit IPX_APLCP_HIT_DENSE_FALLBACK;
///  - above it, up to `block_rounds` exact blocks follow: the contacts still violating their
///    conditions (by more than the host's v_tol, or lcp_tol relative to the problem's velocity
///    scale) and their neighbours through W, up to 384 LCP unknowns (64 contacts with 4
///    directions), solved together by the dense Lemke with every other contact's impulse held,
///    each block judged as the iterate (core/src/numerics/nsgs.h, "Exact blocks"; ODE's crash
///    demo left an island of 226 contacts to ODE where one contact slid and its sweeps cycled);
///  - then the best iterate is the answer if its residual is within `lcp_accept` and it gains
///    no energy beyond that, bit IPX_APLCP_HIT_LOOSE_LCP (deep piles of a few hundred contacts
///    and more, where Gauss-Seidel stalls around 1e-5 .. 1e-3; judge it with the checker's
///    tol_rel = lcp_accept); otherwise IPX_ERR_NOT_CONVERGED with the residual reached (the host
///    then keeps its own step).
/// Wherever the dense Lemke fails (a false ray or an inaccurate basis on a degenerate LCP, as
/// real piles' near-duplicate contacts make), below lcp_switch or as the fallback, the iterative
/// solver answers the same LCP with its full max_sweeps and lcp_accept (bit
/// IPX_APLCP_HIT_ITERATIVE_RESCUE); where that stalls too on the inelastic LCP and the host
/// gives its accuracy (v_tol > 0), Lemke on the LCP with G + eps I (eps = 1, 10, 100 times
/// sqrt(DBL_EPSILON) max G_ii) answers it, taken only if the velocity the shift leaves unmet is
/// within v_tol (docs/models/aplcp.md, "Shifted Lemke"). counts.steps = sweeps of the iterative
/// solver, counts.pivots = Lemke pivots (the dense ones, or those of contacts whose small LCP the
/// iterative solver left to Lemke), counts.lcp_solves = the solves run (2 when both solvers ran,
/// one more for each shifted Lemke).
#ifndef IMPAX_APLCP_H
#define IMPAX_APLCP_H

#include "impax/registry.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Parameter indices of the "aplcp" model (see its table for ranges and docs).
enum {
    IPX_APLCP_FRICTION_DIRECTIONS = 0, ///< k: directions of the friction polygon (even)
    IPX_APLCP_NEWTON_RESTITUTION,      ///< 1: target v_n+ >= -e v_n- (Newton); 0: inelastic
    IPX_APLCP_MAX_PIVOTS,              ///< Lemke pivot limit; 0 = automatic
    IPX_APLCP_LCP_SWITCH,              ///< contacts from which the iterative solver is used
    IPX_APLCP_LCP_TOL,                 ///< relative LCP residual the iterative solver must reach
    IPX_APLCP_MAX_SWEEPS,              ///< sweeps of the iterative solver before it gives up
    IPX_APLCP_LCP_FALLBACK, ///< contacts up to which a failed iterative solve is redone densely
    IPX_APLCP_LCP_ACCEPT,   ///< residual accepted above lcp_fallback when lcp_tol is not reached
    IPX_APLCP_STALL_SWEEPS, ///< plain sweeps without progress that end an unconverged solve early
    IPX_APLCP_LCP_SWITCH_HOST, ///< as lcp_switch, where the host gives its accuracy (v_tol > 0)
    IPX_APLCP_BLOCK_ROUNDS,    ///< exact blocks that may end an unsettled iterative solve; 0 = none
    IPX_APLCP_N_PARAMS
};

/// Bits of ipx_counts.limits_hit set by the aplcp model.
enum {
    /// the iterative solver did not reach lcp_tol in max_sweeps; the dense Lemke solved it
    IPX_APLCP_HIT_DENSE_FALLBACK = 1u << 0,
    /// the iterative solver did not reach lcp_tol and the problem is above lcp_fallback: its best
    /// iterate, within lcp_accept, is the answer (the checker needs tol_rel >= lcp_accept)
    IPX_APLCP_HIT_LOOSE_LCP = 1u << 1,
    /// the dense Lemke failed (a false ray or an inaccurate basis on a degenerate LCP), below
    /// lcp_switch or as the fallback; the iterative solver answered it (to lcp_tol, or within
    /// lcp_accept with IPX_APLCP_HIT_LOOSE_LCP too)
    IPX_APLCP_HIT_ITERATIVE_RESCUE = 1u << 2,
    /// newton_restitution: the LCP with the full Newton targets was not solved (a Newton LCP
    /// need not have a solution: friction that holds the bodies can forbid the bounce asked
    /// of a contact); the targets were scaled by the largest fraction s in [0, 1) found solved
    /// (bisection, 8 halvings; s = 0 is the inelastic LCP, which always has a solution)
    IPX_APLCP_HIT_TARGETS_SCALED = 1u << 3
};

extern const ipx_model ipx_model_aplcp;

#ifdef __cplusplus
}
#endif
#endif
