/// impax core: the Flickinger-Bowling algebraic impact law (D. M. Flickinger and A. Bowling,
/// "Impact forces in the simulation of simultaneous impacts and contacts in multibody systems
/// with friction"; docs/models/bowling.md). Equation numbers (n) are the paper's; sections are the
/// spec's. [P] = in the paper, [A] = assumed by the spec, switchable here.
///
/// Law (3.3, 3.4) [A: the paper names the ingredients but gives no equations for them]. One
/// algebraic map, no integration in impulse space: v+ = v + W pi (I2, the contact-space form of
/// the integrated impulse-momentum equation (13)). Every contact in the active set S gets one
/// row law per row, as a target b on v+:
///   normal      v_n+ = -e v_n-   (contact.e; e = 0 when the approach -v_n- <= contact.v_capture
///                                 or the contact does not approach: persistent contact)
///   tangential  v_t+ = -e_t v_t- (stick; e_t = 0 stick, -1 unchanged, > 0 reversal), Coulomb:
///               |pi_t| <= mu_s pi_n, else slip pi_t = -mu_d pi_n s, s the unit direction of
///               v_t+ - b_t (slip_reference 0) or of v_t+ (1), found as a fixed point (5)
///   moment      w+ = -e_m w-      on angular rows, which only patch contacts have (see below),
///               unlimited, or with moment_limits = 1 |pi_torsion| <= mu_s torsion_radius pi_n
///               and |pi_roll| <= mu_s roll_radius pi_n, slipping like friction beyond them.
/// mu_s = contact.mu, mu_d = mu_dynamic_ratio * mu_s (the paper's example: 0.5 and 0.25).
/// Contacts outside S take no impulse and must not approach (v_n+ >= 0).
///
/// Active set (3.3) [P: complementarity and maximum dissipation are named; A: their form]. A
/// candidate is S plus a stick/slip mode per friction group; its impulse is the minimum-norm
/// solution of the square linear system of its row laws (slip rows eliminated), equilibrated
/// and refined once, so redundant contacts (singular W) are solved, and reported (limits_hit
/// IPX_BOWLING_INDETERMINATE). A candidate is admissible if pi_n >= 0 in S, v_n+ >= 0 at every
/// contact, |pi_g| <= mu_s pi_n in stick, its targets are met, and its slip directions are
/// fixed points. When the number of candidates is at most enumerate_max every one is solved and
/// the admissible one with the least kinetic energy wins (maximum dissipation); otherwise the
/// spec's loop runs (start: the polygonal LCP's set with loop_seed 1, or if that LCP fails,
/// IPX_BOWLING_SEED_FAILED, approaching/persistent contacts sticking; drop the most negative
/// pi_n, or add the most penetrating outside contact, else switch stick -> slip on the cone,
/// slip -> stick on reversal, and update slip directions), which gives one admissible set. If
/// neither finds one (lcp_fallback = 1) the polygonal Anitescu-Potra LCP with the same targets
/// and mu_d decides (limits_hit IPX_BOWLING_LCP_USED; angular rows then take no impulse), and
/// if that LCP fails, the inelastic one (targets 0; IPX_BOWLING_INELASTIC_USED). Islands of
/// more than loop_max contacts are not searched: that LCP's outcome is the law's (LCP_USED).
/// The LCP is solved by the dense Lemke below lcp_switch contacts, by the iterative solver of
/// aplcp and routh (IPX_BOWLING_ITERATIVE_LCP) from there on, each taking over where the other
/// does not answer (Lemke's false rays, pivot limits and inaccurate bases on degenerate piles;
/// the iterative solver's stalls); an iterate that did not reach its tolerance (or the host's
/// accuracy, ipx_problem.v_tol) is never the answer.
///
/// Energy (3.4, 3.5). What is capped [A]: a contact-space problem has no generalised mass, so
/// the total T- is not known; what it has is the kinetic energy of the motion the contact
/// impulses can change. With u = u_par + u_perp, u_perp in the null space of the contact rows
/// (J u_perp = 0) and u_par in the range of M^-1 J^T, T = T_par + T_perp, the impact changes
/// only T_par, and T_par = 1/2 v^T W^+ v (W^+ the pseudo-inverse: the least kinetic energy with
/// those contact velocities; frame invariant, since it sees relative velocities only). So
/// ipx_solve caps T_par+ = T_par- + dT <= e_* T_par-, i.e. dT <= -(1 - e_*) T_par-. Against the
/// fixed ground with a point mass T_par = T (the spec's unit test). A host that knows its total
/// T- (the paper's reading, "half of all kinetic energy") passes it to ipx_bowling_solve, which
/// then caps dT <= -(1 - e_*) T-; that demands more loss and is reached less often.
///  - e_* [P effect, A formula]: cap_reading 0: T+ <= e_* T- (default); 1: T+ <= (1 - e_*) T-.
///    The two agree at the paper's 0.5. The squared reading e_*^2 contradicts the paper's text
///    (docs/models/bowling.md §3.4) and is not offered. e_* = 1 (default) only forbids energy gain.
///  - Correction (3.5) [P: "correct the velocities first"; A: how]: if the cap is exceeded,
///    every COR (e, e_t, e_m) is scaled by lambda in [0, 1] and lambda is found by a bracketing
///    root search (Illinois) so that dT meets the cap; the feasible side is kept, so the cap
///    holds. If even lambda = 0 (all targets 0) loses too little (IPX_BOWLING_CAP_UNREACHED):
///    cap_fallback 0 (A, default) keeps lambda = 0; cap_fallback 1 (B) scales the velocity of
///    the impact subspace, v+ -> s v+ with s = sqrt(target / T_par+), through the contact
///    impulse pi - (1 - s) W^+ v+ (this keeps impulse-momentum exact in contact space, unlike
///    scaling all of qdot, but the impulse may pull or leave the cone).
///  - Energetic COR e_E (Stronge-type, optional) [A]: with energetic = 1 the compression state
///    (all CORs 0) gives dT_c; the release target T+ = T_c + e_E^2 (T- - T_c) is
///    dT = (1 - e_E^2) dT_c, reached by one normal COR common to every contact (it replaces
///    contact.e) found by the same root search (IPX_BOWLING_ENERGETIC_UNREACHED if even 1 is
///    too lossy); e_t and e_m stay. The e_* cap applies afterwards.
/// Whatever the options, T+ <= T- (the inelastic outcome never gains energy): the model promises
/// no energy gain, non-penetration, the friction cone with mu = contact.mu, no pulling and
/// consistency; not velocity complementarity (restitution gives impulse to contacts that leave).
/// cap_fallback 1 drops the cone and no-pulling promises.
///
/// Impact forces (3.6, (18)-(19)) [P]: ipx_bowling_impact_forces below, for a host that has the
/// generalised coordinates (a contact-space problem has no q, Jdot or Adot). force_law 1
/// minimises F^T W F subject to c^T F = dT ((17)-(18), c = J_p q) and f_pn >= 0 by an active
/// set; 0 gives F_p = 0 (the spec's switch: (18) depends on the coordinate origin). Also 0 when
/// ||c|| ~ 0, the problem is infeasible or W is singular. How long F_p acts after the restart
/// [A] is the host's choice; the tests' planar simulator uses it only at the restart instant.
/// The event list and integrator of 3.7 [A] are likewise the host's.
///
/// Angular rows and the moment COR. The shared ipx_problem has [t1, t2, n] per contact: the
/// point contacts of ODE, at which the docs/models/bowling.md (§3.4, 6) requires the angular rows to stay free with
/// zero moment (a moment COR there would stop rolling). So through ipx_solve (shim, command
/// line) the moment COR has nothing to act on and e_m is inert. For patch contacts a host calls
/// ipx_bowling_solve with rows_per_contact 4 ([t1, t2, n, torsion]) or 6 ([t1, t2, n, torsion,
/// roll1, roll2]): the same ipx_problem, with W r k x r k and v r k in that row order (angular
/// rows in rad/s, their impulses in N*m*s). The row count travels beside the problem, not in
/// it: the extension of docs/architecture.md "Rows per contact" is proposed, not made: an
/// `int rows_per_contact` (0 = 3) at the end of ipx_problem with this row order (as `flags` went
/// in: a caller's positional initialiser {k, W, v, contact} then warns under -Wextra, so the
/// repository's are designated), an `int max_rows_per_contact` in ipx_model that ipx_solve
/// checks, and the row stride in validate.c, result.c and check.c. Until then ipx_check reads 3
/// rows only.
///
/// Counts: rounds = candidate sets solved, lsq_solves = linear solves, lcp_solves and pivots
/// of the fallback, steps = root-search evaluations (cap and energetic COR), newton_iters =
/// slip-direction fixed-point updates. limits_hit: the IPX_BOWLING_* bits below.
///
/// Cost bound (max_work, docs/models/bowling.md §9). Every linear solve of m unknowns is charged
/// m^3 work units, every candidate's velocity update n^2 (n rows), every Lemke pivot of the
/// polygonal LCP (L rows) L (2L + 2), its tableau as much, every sweep of the iterative solver
/// 9 per block of W plus (nd^2 + 64) per contact; a Lemke run or an iterative solve is given
/// only the pivots or sweeps the units left pay for. Once max_work is spent nothing more is solved (IPX_BOWLING_WORK):
/// the active-set loop ends as at max_iterations (the best admissible set so far, else the
/// polygonal LCP's outcome if it was solved, the model's own fallback), a root search keeps its
/// feasible end; where neither is at hand (the polygonal LCP or the first solves did not fit)
/// the solve fails (IPX_ERR_NOT_CONVERGED, the message names max_work) and a host leaves the
/// impact to its own solver.
#ifndef IMPAX_BOWLING_H
#define IMPAX_BOWLING_H

#include "impax/registry.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Parameter indices of the "bowling" model (see its table for ranges and docs).
enum {
    IPX_BOWLING_E_STAR = 0,       ///< e_*: energy-modifying COR, T+ <= e_* T- (cap_reading 0)
    IPX_BOWLING_CAP_READING,      ///< 0: T+ <= e_* T-; 1: T+ <= (1 - e_*) T-
    IPX_BOWLING_CAP_FALLBACK,     ///< cap unreachable: 0 (A) keep lambda = 0; 1 (B) scale v+
    IPX_BOWLING_CAP_SCOPE,        ///< T- of the cap: 0 impacting contacts' subspace; 1 every row's
    IPX_BOWLING_E_T,              ///< tangential COR e_t in [-1, 1]
    IPX_BOWLING_E_M,              ///< moment COR e_m in [-1, 1] (angular rows only)
    IPX_BOWLING_MU_DYNAMIC_RATIO, ///< mu_d / mu_s
    IPX_BOWLING_ENERGETIC,        ///< flag: Stronge-type energetic COR e_E replaces contact.e
    IPX_BOWLING_E_ENERGETIC,      ///< e_E in [0, 1]
    IPX_BOWLING_SLIP_REFERENCE,   ///< slip opposes 0: v_t+ - b_t; 1: v_t+
    IPX_BOWLING_ENUMERATE_MAX,    ///< exhaustive search up to this many candidate sets
    IPX_BOWLING_MAX_ITERATIONS,   ///< guard: iterations of the active-set loop
    IPX_BOWLING_LOOP_SEED, ///< loop start: 0 the spec's (all sticking); 1 the polygonal LCP's set
    IPX_BOWLING_LCP_FALLBACK,    ///< flag: polygonal LCP when no admissible set is found
    IPX_BOWLING_LCP_DIRECTIONS,  ///< friction polygon directions of that LCP
    IPX_BOWLING_MOMENT_LIMITS,   ///< flag: Coulomb-like limits on the angular rows
    IPX_BOWLING_TORSION_RADIUS,  ///< m: torsion limit mu_s * radius * pi_n
    IPX_BOWLING_ROLL_RADIUS,     ///< m: rolling-moment limit mu_s * radius * pi_n
    IPX_BOWLING_FORCE_LAW,       ///< 1: eq. (18) force minimisation; 0: F_p = 0
    IPX_BOWLING_ROOT_ITERATIONS, ///< guard: evaluations of one root search
    IPX_BOWLING_TOL,             ///< relative tolerance of the admissibility tests
    IPX_BOWLING_RCOND,           ///< rank threshold of the minimum-norm solves
    IPX_BOWLING_MAX_WORK,        ///< work units per impact before the solve fails (a solve of m
                                 ///< unknowns counts m^3, a Lemke pivot on L rows L (2L + 2));
                                 ///< 0 = BW_AUTO_WORK (docs/models/bowling.md §9)
    IPX_BOWLING_LCP_SWITCH,      ///< contacts from which the polygonal LCP is solved by the
                                 ///< iterative solver (below: dense Lemke, rescued by it)
    IPX_BOWLING_LOOP_MAX,        ///< most contacts of an active-set search; above, the
                                 ///< polygonal LCP's outcome is the law's
    IPX_BOWLING_MAX_SWEEPS,      ///< sweeps of one iterative LCP solve
    IPX_BOWLING_REFINE_MEMO,     ///< flag: a slip-direction root search does not solve again
                                 ///< a direction it solved (0: every step solved, the reference)
    IPX_BOWLING_N_PARAMS
};

/// counts.limits_hit bits of the "bowling" model. Only IPX_BOWLING_ITERATIONS with the LCP
/// fallback off, or IPX_BOWLING_WORK with no answer at hand, fails a solve
/// (IPX_ERR_NOT_CONVERGED); the others are reports.
enum {
    IPX_BOWLING_CAP_UNREACHED = 1u << 0,       ///< e_* cap not reachable with lambda = 0
    IPX_BOWLING_ENERGETIC_UNREACHED = 1u << 1, ///< e_E target not reachable with a COR of 1
    IPX_BOWLING_LCP_USED = 1u << 2,            ///< no admissible active set: polygonal LCP
    IPX_BOWLING_INELASTIC_USED = 1u << 3,      ///< that LCP failed too: inelastic LCP
    IPX_BOWLING_ITERATIONS = 1u << 4,          ///< max_iterations reached in the loop
    IPX_BOWLING_ROOT_LIMIT = 1u << 5,          ///< root_iterations reached (feasible side kept)
    IPX_BOWLING_INDETERMINATE = 1u << 6,       ///< the chosen set's system was rank-deficient
    IPX_BOWLING_SEED_FAILED = 1u << 7,         ///< loop_seed 1: the polygonal LCP that seeds the
    ///< loop failed; the loop started from the spec's set
    ///< (after an exhaustive search: no second search)
    IPX_BOWLING_WORK = 1u << 8, ///< max_work spent: the loop or root search ended there, or (no
                                ///< answer at hand) the solve failed
    IPX_BOWLING_ITERATIVE_LCP = 1u << 9 ///< the iterative solver took on the polygonal LCP
                                        ///< (lcp_switch, or Lemke's rescue)
};

extern const ipx_model ipx_model_bowling;

/// Host data beside the problem (all optional: a zeroed struct is what ipx_solve uses).
typedef struct ipx_bowling_host {
    int rows_per_contact; ///< 0 or 3: [t1, t2, n]; 4: + torsion; 6: + torsion, roll1, roll2
    double ke_before;     ///< J, the host's total kinetic energy T- for the e_* cap; 0: T_par-
} ipx_bowling_host;

/// Workspace bytes for up to k_max contacts of up to 6 rows (use with ipx_workspace_create_bytes
/// for angular rows; ipx_workspace_create sizes for this model already covers them).
size_t ipx_bowling_workspace_bytes(int k_max, const double *param);

/// Like ipx_solve with a "bowling" ipx_params, for problems with angular rows and/or a host T-.
/// Validates (W, v of r k rows; contacts as ipx_problem_validate), then solves. r->impulse and
/// r->v_post have r k entries; delta_ke is over all rows. Never allocates.
ipx_status ipx_bowling_solve(const ipx_params *params, const ipx_problem *p,
                             const ipx_bowling_host *host, ipx_workspace *ws, ipx_result *r);

/// Kinetic energy of the impact subspace, T_par = 1/2 v^T W^+ v (J), of n rows (W n x n,
/// column-major; rcond as the model's). work: ipx_bowling_ke_work_doubles(n); iwork: n ints.
size_t ipx_bowling_ke_work_doubles(int n);
ipx_status ipx_bowling_impact_ke(int n, const double *W, const double *v, double rcond,
                                 double *work, int *iwork, double *ke);

/// The impact-force problem (18)-(19) of p impact rows.
typedef struct ipx_bowling_force_problem {
    int p;             ///< rows of J_p, >= 1
    const double *W;   ///< p x p column-major, J_p A^-1 J_p^T, symmetric positive definite
    const double *c;   ///< p, c = J_p q (m on force rows, rad on moment rows), (17)-(18)
    const double *r;   ///< p, Jdot_p qdot* - J_p A^-1 Adot qdot* (m/s^2, rad/s^2), (19)
    const int *normal; ///< p flags: nonzero = a normal row, f_pn >= 0
    double dT;         ///< J, T(qdot*) - T(qdot-)
} ipx_bowling_force_problem;

/// Its solution. The caller points F and accel at arrays of p doubles.
typedef struct ipx_bowling_forces {
    double *F;      ///< p, N (N*m on moment rows), F_p
    double *accel;  ///< p, m/s^2 (rad/s^2), the optimal thetadot_p* = W F_p + r (19)
    int held;       ///< normal rows held at f_pn = 0 by the active set
    int iterations; ///< active-set iterations
    int zero;       ///< 1: F_p = 0 (force_law 0, ||c|| ~ 0, infeasible, W singular)
} ipx_bowling_forces;

/// Doubles of work ipx_bowling_impact_forces needs for p rows.
size_t ipx_bowling_force_work_doubles(int p);

/// Solves (18) (min F^T W F s.t. c^T F = dT, f_pn >= 0; active set on the normal rows, KKT
/// multipliers checked) and recovers thetadot_p* by (19). param: "bowling" values (force_law,
/// tol). Returns IPX_ERR_INPUT for bad sizes or NULLs (out->F, out->accel included), else
/// IPX_OK (out->zero says F_p = 0).
ipx_status ipx_bowling_impact_forces(const ipx_bowling_force_problem *fp, const double *param,
                                     double *work, ipx_bowling_forces *out);

#ifdef __cplusplus
}
#endif
#endif
