/// impax core: PLUS, the impact model of Uchida, Sherman & Delp, "Making a meaningful impact:
/// modelling simultaneous frictional collisions in spatial multibody systems", Proc. R. Soc. A
/// 471:20140859 (2015); docs/models/plus.md. Equation numbers (2.x), Table 1, Algorithms 1-2 are the
/// paper's.
///
/// Model. Time and configuration are frozen; W is the paper's Delassus operator A (2.2). The
/// impact runs in rounds (Algorithm 2). At the start of a round every contact is expanding (it
/// compressed in the previous round with a non-zero impulse and e > 0), observing (not
/// expanding, v_n >= -eps_v) or compressing (the rest). Compressing contacts drive v_n to 0
/// (2.3) and earn e * (their compression impulse) (2.4); expanding ones deliver what they
/// earned. A round is a sequence of intervals (Algorithm 1): each contact is sliding
/// (|v_t| >= v_transition: friction -mu pi_n s_hat against the start slip (2.8), (2.9a)), rolling
/// (drive v_t to 0, (2.7)) or in impending slip (friction against the end slip (2.9b), solved by
/// Newton's method with an analytic Jacobian). The interval impulse is the minimum-2-norm
/// solution of Table 1 (complete orthogonal factorisation), with the paper's active-set
/// heuristic (largest violation first: a rolling contact turns impending, otherwise a
/// compressing contact's normal row is dropped). Only alpha * pi is applied: alpha stops where a
/// sliding contact comes closest to rolling (2.12)-(2.13) or where its slip direction has turned
/// by theta_max (2.14), never below alpha_min. The round ends with an interval of alpha = 1;
/// the impact ends when no contact is compressing or expanding.
///
/// COR (Fig. 2, ipx_plus_cor). Per contact: e_min = contact.e, v_capture = contact.v_capture,
/// v_plastic = contact.v_plastic, where v_plastic = 0 means "v_capture". ODE/Gazebo mapping:
/// e = surface.bounce, v_capture = surface.bounce_vel, so with v_plastic unset a bounce is a
/// constant COR above the capture band, and the paper's curve appears when v_plastic is set
/// higher. The registry parameters v_capture, v_plastic and e_min override every contact when
/// >= 0; any negative value (default -1) means "no override".
///
/// Counts: rounds, intervals, lsq_solves (every min-norm solve, Newton steps included),
/// newton_iters, lcp_solves and pivots (the plastic finish); limits_hit holds the
/// IPX_PLUS_HIT_* bits below. The guards (max_rounds, max_intervals per round, max_passes per
/// interval, newton_max_iters) set their bit and the impact goes on. Cost bound (deviation 12):
/// an impact makes at most max_solves min-norm solves (of at most 4k unknowns), spends at most
/// max_work work units on them plus the one solve that crosses it (a factorisation of m
/// unknowns counts m^3, docs/models/plus.md §5.8), and solves one LCP of at most k rows; the
/// solve fails (IPX_ERR_NOT_CONVERGED) only if both Lemke's method and its
/// rescue, MPRGP, fail on the plastic finish's LCP, which has a solution.
///
/// Promises (ipx_check): energy (no gain, with energy_cap = 1), friction cone, friction
/// direction (deviation 3), no pulling normal impulse, consistency, and non-penetration to within
/// max(eps_v, the problem's v_tol): a contact approaching slower observes and the impact may end
/// with it (paper 3b: "decaying rebound velocities will never reach zero exactly"; v_tol, the
/// host's accuracy, docs/core-api.md "Solve accuracy"). A contact that approaches faster although no
/// impulse can reach it (W_nn = 0: both bodies immovable along its normal) would end the
/// impact approaching: such a problem is refused (IPX_ERR_INPUT, naming the contact). Not velocity complementarity: Poisson
/// restitution gives impulse to contacts that end separating.
///
/// Numerics: the min-norm solves use ipx_plus_lsq (below) at every size, with a factor of the
/// unchanged columns reused when a few columns change from solve to solve (min_norm.c;
/// bench_plus has the timings, test_plus_lsq and test_min_norm_cache the agreement with dgelsy).
///
/// Deliberate deviations from the paper (each one documented where the code does it):
///  1. Energy cap (docs/models/plus.md §8.16). Rounds in which contacts that compressed together have different
///     CORs can gain energy (three balls, u = (-2, 0, 0.005), e_min 1, v_capture 0.01: +22 %;
///     deviation 10 removes that case at its root, the cap remains a safety net for the rest).
///     With energy_cap = 1 (default) a round that would leave the kinetic energy above its
///     value at the start of the impact is scaled down as a whole to the largest fraction that
///     does not; contacts left approaching compress in the next round. IPX_PLUS_HIT_ENERGY_CAP.
///  2. Ties (docs/models/plus.md §5.4 [D]): every contact whose violation is within a relative 1e-6 of the
///     largest (of its group, 13) is pruned in the same pass, so symmetric scenes stay
///     symmetric.
///  3. Impending slip (2.9b), right by construction. A rolling contact whose rolling impulse
///     leaves the cone turns impending; it stays impending only with a direction s in which
///     friction on the cone opposes its end slip w = v_t + A_t pi (angle within 1e-7 rad, or
///     w below 1e-10 of the impact's velocity scale: no slip, no direction). First Newton on
///     the angles alone, each evaluation the min-norm solve of the rows at those angles, where
///     the factor cache makes those solves cheap (from 16 unknowns m, and up to m / 8
///     impending contacts, at least 8 and at most 32); where it ends consistent, that solve is
///     the interval impulse. Otherwise Newton with an
///     analytic Jacobian on the unknowns of Table 1 plus the angle of each s (friction rows
///     pi_t + mu pi_n s = 0, and w x s = 0), a root with w . s < 0 turned by pi; Newton's
///     root is the interval impulse (a min-norm re-solve with the same directions would move
///     it in the null space of redundant rows, four corners of a face, and leave friction off
///     the end slips). Where Newton stalls, or leaves an angle above the tolerance, the
///     directions are searched one contact at a time (the others fixed: w x s as a function of
///     the angle, scanned every 30 deg, each sign change with w . s > 0 refined by regula
///     falsi, given up where it narrows to 1e-6 rad with the end slip still 0.6 deg off the
///     direction on both sides: a jump where the rows turn singular, not a root; several
///     impending contacts visited in turn until, since the last one moved, all others kept
///     their angles, the sweeps over them accelerated by Anderson mixing of the last four
///     sweeps' angles, since in piles they converge only linearly, by 0.7-0.9 a sweep, and by
///     Newton's method on the angles alone after sweeps 1, 2, 4, 8 and 16 (each evaluation one
///     min-norm solve; as many impending contacts as the factor cache's columns allow;
///     its point taken only where it is consistent or nearly so), and
///     stopped at 20 sweeps short of the roots). Which root a contact takes: where Newton
///     failed (no convergence within newton_max_iters, a stall, the wrong branch after 2 ni
///     turns; docs/models/plus.md §5.5), of several roots the one without a pulling normal,
///     then the smallest impulse (Table 1's min-norm principle); where Newton converged but
///     left an angle off, with slip_root = 0 (the default) the root nearest Newton's
///     directions, with slip_root = 1 the min-norm one as before. A root with a
///     pulling normal is a root: the active set then drops that normal. The spec's
///     division-free residual |w| pi_t + mu pi_n w vanishes for every pi_t where w = 0, and
///     Simbody's PLUSImpulseSolver builds its direction from A_t pi alone, with the sign the
///     issue reports as wrong; impax follows (2.9b) (test_plus_core checks the sign).
///  4. Fallback (docs/models/plus.md §5.8). After max_rounds, or when a round applies no impulse while
///     contacts still compress, inelastic rounds run in which every contact that is not
///     separating compresses (e = 0, leftover expansion dropped), so no resting contact can be
///     pushed into approach by the others. If the active set still leaves a contact
///     approaching, the plastic finish of deviation 12 ends the impact
///     (IPX_PLUS_HIT_FRICTIONLESS): every promise holds, Coulomb's law is given up for that
///     last increment.
///  5. A contact whose normal row of W is zero (between two immovable bodies) always observes.
///  6. all_participate = 1 is the paper's contrast model of Fig. 14 row C (every contact
///     compresses in the first round, whatever its velocity), kept for A/B comparisons.
///  7. Painleve sliding (docs/models/plus.md §8.8). A sliding compressing contact with A_nn - mu s_hat.A_tn <= 0
///     cannot end its compression while it slides ((2.11) asks for a pulling impulse and the
///     active set would drop its normal row every round). It slides on the edge of its cone
///     with a prescribed growing normal impulse until its slip stops, as in the Darboux-Keller
///     picture, then rolls. IPX_PLUS_HIT_PAINLEVE.
///  8. Chatter. Where the slip direction is strongly attracted to an equilibrium the explicit
///     direction of (2.9a) overshoots by theta_max every interval and back (alpha stays tiny,
///     the round never ends). A sliding contact whose direction-limited turn reverses for the
///     second time in a row takes the implicit (impending, (2.9b)) form for that interval; if
///     that form has no direction with friction against the end slip, the contact stays
///     explicit for the rest of the round. Smooth turns (Example 1: 116/11/8 intervals) are
///     unaffected.
///  9. Where the paper is silent: an impending contact with no such direction (the search
///     found none: other contacts' sliding friction or expansion make every direction turn the
///     slip along the friction) is pruned like any non-rolling contact that violates Table 1:
///     its normal row is dropped for the interval and its remaining approach waits for the next
///     round (docs/models/plus.md §5.7); no impulse, so no energy, comes from it. IPX_PLUS_HIT_NEWTON says it
///     happened. A contact made impending against chatter (8) slides explicitly again instead.
///     Whenever the active set drops a normal row, the contacts it turned impending that share
///     a body with the dropped one roll again and are decided anew: a contact that could not
///     roll beside a normal that is now gone may roll (the cone it needs depends on the
///     others). reset_scope = 0 resets every one of the group (13) instead (impax's rule before;
///     docs/models/plus.md §5.4 compares the two).
/// 10. Plastic contacts are held (hold_plastic = 1, docs/models/plus.md §8.16, issue [scale]). A contact that
///     compressed with e = 0 (the capture band, e_min = 0, or held already) and ended its round
///     closed (|v_n| < eps_v) compresses again, with e = 0, in every later round that has
///     something to do (a contact approaching or expanding), until it separates. In the
///     paper's rounds it observes and is driven into a new approach: beside a neighbour that
///     expands it bounces with its own COR (three balls, u = (-2, 0, 0.005), e_min 1,
///     v_capture 0.01: +22 % kinetic energy; held, ball 1 rebounds off the pair 2-3: u = (0.67,
///     -1.3325, -1.3325), no gain); beside a neighbour that compresses the two ping-pong, the
///     velocities decaying only geometrically (two spheres dropped with e = 0: 34 rounds to
///     eps_v; a stack of 4: the 100-round cap). Holding them projects the velocities at once
///     onto "closed", the limit of that ping-pong: stacks and chains of 2-32 spheres with e = 0
///     end within 1e-5 m/s (eps_v) of the paper's ping-pong run to its end, in k rounds. A
///     contact with e > 0 whose normal the active set dropped is not held. If holding leaves a
///     round with no impulse (a sliding neighbour whose normal would have to pull), the impact
///     goes on with the paper's rules, nothing held. hold_plastic = 0 gives the paper's
///     rounds. The energy cap (1) stays for what is left: a round in which a
///     neighbour expands while a compressing contact cannot push (its normal would pull) can
///     still end above the initial energy (test_plus_slip checks that nothing else makes the
///     cap fire on random boxes and stacks).
/// 11. Ping-pong settled (settle_rounds = 4, issue [scale]). With e > 0 a stack or chain can
///     alternate for hundreds of rounds: the same contacts compress and expand by turns, none
///     opens (an expansion does not separate a contact its neighbour pushes), the approach
///     speeds decay geometrically (16 spheres dropped with e = 0.5: 1519 rounds to eps_v; 32:
///     5906). While the same contacts G act and stay closed, every impulse is in the span of
///     G's rows, so the velocities' kinetic-metric projection onto "G closed" is the same after
///     every round, and it is where the ping-pong ends if it goes on until G stops moving. After
///     settle_rounds consecutive rounds with an unchanged set of compressing or expanding
///     contacts, none of them separating at the end of a round, and energy dissipated, those
///     contacts are held (10) with their pending expansion dropped: one round reaches the
///     limit. Stacks and chains of 2-32 spheres with e = 0.5 (with 10): at most 2k + 10 rounds,
///     post-impact velocities within 1.1 % of the impact speed of the paper's rounds run to
///     their end (most within eps_v). What is given up: a contact the paper's rounds would open
///     late stays closed. An elastic ping-pong dissipates nothing and a travelling wave changes
///     its contacts, so neither is settled (Table 2, Examples 1-4, equal-mass elastic stacks
///     unchanged). settle_rounds = 0 gives the paper's rounds.
/// 12. Cost bound and plastic finish (max_solves, max_work; issues [scale], [real-clients]).
///     Every min-norm solve (active-set pass or Newton step) counts, and is charged its work
///     units (m^3 a factorisation of m unknowns, m^2 a column from the factor cache); once
///     max_solves (0: 2000 + 100 k) or max_work (0: 2e10 units) are spent,
///     the interval under way is abandoned (velocities and impulses stay those of the last
///     completed interval; with energy_cap = 1 the round so far is capped like any round) and
///     the plastic finish ends the impact (IPX_PLUS_HIT_MAX_SOLVES): one frictionless, perfectly
///     plastic round in which every contact that can be pushed takes part, solved exactly as
///     the LCP 0 <= z, W_nn z + v_n >= 0, z.(W_nn z + v_n) = 0 by Lemke's method (impax/lcp.h).
///     Where Lemke fails in floating point (a false ray, the pivot limit, an inaccurate basis:
///     a pile's near-duplicate contacts), MPRGP (impax/lcp_psd.h) solves the same LCP, as the
///     bound-constrained minimum of 1/2 z.W_nn z + v_n.z, to 1e-12 of max |v_n| (lcp_solves
///     counts both). No contact approaches after it, and it dissipates: dT = -1/2 z.W_nn z <= 0. max_rounds
///     = 0 (the default) means 100 + 4 k: a wave needs k rounds to cross a chain of k contacts,
///     and an elastic stack dropped on the ground about 3 k.
/// 13. Uncoupled groups solved apart (issue [scale]). The contacts whose normal rows are on
///     when an interval begins fall into groups that share no body (W couples them, directly
///     or through others with a normal row on); B is block-diagonal over the groups, so its
///     min-norm solution, the violations, prunes and impending-slip directions are each
///     group's own. Each group runs its own active set on its own unknowns, its tolerance
///     relative to its own largest impulse; ties (2) and the resets after a dropped normal (9)
///     are taken within a group, since a drop changes nothing another group can hold. In exact
///     arithmetic this is Algorithm 1's answer; the systems are the groups' (a bin: one system
///     of 120-150 unknowns became several of up to 60), and a group's passes are not repeated
///     while another's run. The observer sees each contact's group and the passes. Rounds and
///     intervals stay global, as in the paper (alpha is the least over all groups).
/// 14. No sliding past the closest approach (docs/models/plus.md §10). The paper takes a whole
///     interval whenever it leaves a sliding slip below v_transition, "regardless of
///     alpha_CP"; where the slip passes its closest point to zero inside the interval, the rest
///     reverses it, and friction against the start slip pushes along the slip (a three-corner
///     box landing gained 1.8e-4 J so). The whole interval is taken only while the slip still
///     shrinks at its end; otherwise it stops at the closest point (2.13) and the contact rolls.
/// 15. Infinite friction (docs/models/plus.md §5.9). A contact with mu = +INFINITY (ODE's
///     dInfinity) rolls from the start of every interval and its cone never rejects it: the
///     limit of the paper's rules as mu grows, in which the slip stops within a normal impulse
///     of order 1 / mu. Where rolling would pull its normal, the limit is a slide or an
///     impending slip with a vanishing normal impulse, which the interval's system has no form
///     for: every infinite mu of the impact takes 1000 for the rest of it, the interval starts
///     again, and the paper's path follows.
///
/// Every interval is recorded in the result for the invariant checker: slip_state and
/// last_step of the last interval (IPX_CHECK_FRICTION_DIRECTION: sliding friction opposes the
/// start slip, impending friction the end slip), and nets = IPX_NET_ENERGY_CAP when the cap
/// scaled a round.
#ifndef IMPAX_PLUS_H
#define IMPAX_PLUS_H

#include "impax/registry.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Parameter indices of the "plus" model (see its table for ranges, units and docs).
enum {
    IPX_PLUS_THETA_MAX = 0, ///< rad, largest slip-direction change per interval (2.14)
    IPX_PLUS_V_TRANSITION,  ///< m/s, sliding/rolling transition speed (2.9), (2.12)
    IPX_PLUS_V_CAPTURE,     ///< m/s, overrides every contact's v_capture if >= 0
    IPX_PLUS_V_PLASTIC,     ///< m/s, overrides every contact's v_plastic if >= 0
    IPX_PLUS_E_MIN,         ///< overrides every contact's e (= e_min) if >= 0
    IPX_PLUS_ALPHA_MIN,     ///< smallest interval fraction from (2.14)
    IPX_PLUS_MAX_ROUNDS, ///< rounds before the inelastic fallback rounds (deviation 4); 0 = 100 + 4k
    IPX_PLUS_MAX_INTERVALS,    ///< intervals per round before alpha is forced to 1
    IPX_PLUS_MAX_PASSES,       ///< active-set passes per interval; 0 = (k+1)^2 + 1 (never binding)
    IPX_PLUS_NEWTON_MAX_ITERS, ///< Newton iterations per impending-slip solve
    IPX_PLUS_NEWTON_TOL,       ///< relative residual at which Newton stops
    IPX_PLUS_EPS_V,            ///< m/s, velocity noise: max(eps_v, v_tol) observes
    IPX_PLUS_EPS_PI,           ///< relative impulse tolerance (violations, "non-zero impulse")
    IPX_PLUS_RCOND,            ///< relative rank threshold of the min-norm solves
    IPX_PLUS_EPS_POS,          ///< m, proximity tolerance: read by host adapters, not the solve
    IPX_PLUS_ALL_PARTICIPATE,  ///< flag: Fig. 14 row C contrast model
    IPX_PLUS_ENERGY_CAP,       ///< flag: scale down a round that would gain energy (deviation 1)
    IPX_PLUS_HOLD_PLASTIC,     ///< flag: plastic contacts held closed (deviation 10)
    IPX_PLUS_SETTLE_ROUNDS, ///< rounds of a repeating dissipative ping-pong before it is settled (deviation 11)
    IPX_PLUS_MAX_SOLVES, ///< min-norm solves per impact before the plastic finish (deviation 12)
    IPX_PLUS_SPARSE_MIN, ///< unknowns from which a min-norm solve tries SuiteSparseQR; 0 = never
                         ///< (within an impact, only until it has declined
                         ///< IPX_PLUS_SPARSE_GIVE_UP systems more than it answered)
    IPX_PLUS_MAX_WORK,   ///< work units per impact before the plastic finish (deviation 12); a
                         ///< factorisation of m unknowns counts m^3; 0 = PLUS_AUTO_WORK
    IPX_PLUS_SLIP_ROOT, ///< impending-slip root where Newton converged with an angle off (deviation
                        ///< 3): 0 = the one nearest Newton's, 1 = the min-norm one of all
    IPX_PLUS_RESET_SCOPE, ///< impending contacts that roll again after a dropped normal
                          ///< (deviation 9): 1 = those beside it, 0 = all of its group
    IPX_PLUS_N_PARAMS
};

/// Bits of ipx_counts.limits_hit set by the "plus" model.
enum {
    IPX_PLUS_HIT_MAX_ROUNDS =
        1u << 0, ///< max_rounds reached: the fallback rounds ran (deviation 4)
    IPX_PLUS_HIT_MAX_INTERVALS = 1u << 1, ///< a round reached max_intervals: alpha forced to 1
    IPX_PLUS_HIT_MAX_PASSES = 1u << 2,    ///< an active-set search stopped with violations left
    IPX_PLUS_HIT_NEWTON = 1u << 3, ///< an impending contact had no end-slip direction (deviation 9)
    IPX_PLUS_HIT_ENERGY_CAP = 1u << 4, ///< a round was scaled down to gain no energy
    IPX_PLUS_HIT_STALLED = 1u << 5,    ///< a round applied no impulse: the fallback rounds ran
    IPX_PLUS_HIT_PAINLEVE = 1u << 6,   ///< a Painleve sliding contact was advanced (deviation 7)
    IPX_PLUS_HIT_FRICTIONLESS =
        1u << 7, ///< the fallback rounds left a contact approaching: the plastic finish ran
    IPX_PLUS_HIT_MAX_SOLVES =
        1u << 8 ///< max_solves or max_work reached: the plastic finish ran (deviation 12)
};

/// Class of a contact for one round (section 3b).
typedef enum ipx_plus_class {
    IPX_PLUS_OBSERVING = 0,
    IPX_PLUS_COMPRESSING,
    IPX_PLUS_EXPANDING
} ipx_plus_class;

/// Tangential state of a contact in one interval (section 2d).
typedef enum ipx_plus_slip {
    IPX_PLUS_NO_FRICTION = 0, ///< observing, or mu = 0
    IPX_PLUS_SLIDING,
    IPX_PLUS_ROLLING,
    IPX_PLUS_IMPENDING
} ipx_plus_slip;

/// What an observer sees after every interval. Arrays are valid during the call only.
typedef struct ipx_plus_interval {
    int round;    ///< 1-based
    int interval; ///< 1-based, within the round
    int fallback; ///< 0; 1 inelastic fallback round; 2 the plastic finish (deviation 12)
    double alpha; ///< fraction of the interval impulse applied, (0, 1]
    int k;        ///< contacts
    const ipx_plus_class *cls; ///< k: class of each contact in this round
    const ipx_plus_slip *slip; ///< k: tangential state in this interval
    const int *normal_active;  ///< k: 0 dropped/observing, 1 C active or E, 2 Painleve sliding
    const double *step;        ///< 3k, N*s: impulse applied in this interval (alpha * pi)
    const double *impulse;     ///< 3k, N*s: accumulated impulse after the interval
    const double *v;           ///< 3k, m/s: contact velocities after the interval
    const int *group;          ///< k: the coupled group each contact was solved in (the
                               ///< index of one of its contacts; deviation 13), -1 if its
                               ///< normal row was off when the interval began, and for
                               ///< every contact in the plastic finish (one LCP)
    int passes;                ///< active-set passes of the interval, over all its groups
                               ///< (0 in the plastic finish)
    int sparse_answered;       ///< the impact's systems so far that the sparse path answered
    int sparse_declined;       ///< and that it declined (sparse_min)
} ipx_plus_interval;

/// A system the sparse path declines (one it cannot vouch for: near rank-deficient, as a bin's
/// are) costs its factorisation on top of the dense solve. Within an impact the path is offered
/// only while it has declined fewer than this many systems more than it answered.
#define IPX_PLUS_SPARSE_GIVE_UP 8

/// Called after every interval.
typedef void (*ipx_plus_observer)(const ipx_plus_interval *iv, void *user);

/// COR of Fig. 2 for an approach speed a = -v_n (m/s) at the start of a contact's compression
/// round: 0 if a < v_capture (or a < 0); else max(e_min, 1 - (1 - e_min) a / v_p) with
/// v_p = v_plastic, or v_capture if v_plastic is 0 (then the COR is e_min above the band).
double ipx_plus_cor(double approach, double e_min, double v_capture, double v_plastic);

/// Solves p like the registered model (validation included, as ipx_solve) with the parameter
/// values param (indexed as above, in range), calling observer(iv, user) after every interval
/// if observer is not NULL. ws: sized for the "plus" model (ipx_workspace_create). On failure
/// r->status and r->message say why and r->impulse is all zero.
ipx_status ipx_plus_trace(const ipx_problem *p, const double *param, ipx_workspace *ws,
                          ipx_plus_observer observer, void *user, ipx_result *r);

/// Work doubles ipx_plus_lsq needs for an m x n system.
size_t ipx_plus_lsq_work_doubles(int m, int n);

/// The dense solver of PLUS's min-norm solves, at every size (exposed for its agreement test
/// and bench): minimum-2-norm least-squares solution of A x = b by complete orthogonal
/// factorisation (Householder QR with column pivoting, then the trapezoid reduced in place by
/// reflectors from the right: dgelsy's algorithm without LAPACK's call overhead; from 128 columns
/// the pivoted QR is LAPACK's blocked dgeqp3, faster there). Same contract as
/// ipx_lsq_min_norm: A (m x n, column-major) is overwritten; b has max(m, n) entries, the first
/// m are the right-hand side, the first n become x; the rank is the number of pivots with
/// |R_jj| > rcond |R_11| (dgelsy estimates the condition of R11 incrementally instead).
/// work: ipx_plus_lsq_work_doubles(m, n) doubles; iwork: n ints.
ipx_status ipx_plus_lsq(int m, int n, double *A, double *b, double rcond, double *work, int *iwork,
                        int *rank_out);

extern const ipx_model ipx_model_plus;

#ifdef __cplusplus
}
#endif
#endif
