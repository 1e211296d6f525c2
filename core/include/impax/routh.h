/// impax core: the Routh set-valued simultaneous impact model of Halm & Posa (docs/models/routh.md; paper
/// eqs. (72)-(75), Algorithms 1 and 2).
///
/// Every contact accumulates normal impulse at its own, randomly chosen rate; friction follows
/// (linearised) Coulomb at the end-of-step velocity; the impact ends when no contact approaches.
/// One impulse step is one LCP (75): the Anitescu-Potra block plus a per-contact cap
/// lambda_max = h * U(0,1] on the normal impulse increment. Random caps make one call one
/// *sample* of the set of possible post-impact velocities; many samples approximate the set.
/// Inelastic, never gains energy (Thm 7, checked at every step: to round-off for a step LCP the
/// dense Lemke solved; for one the iterative solver solved to the relative residual r, to the
/// work its residual allows, (nd + 3) k r Z V with Z and V its impulse and velocity scales: a
/// 70-contact step in the 200-box bin, r = 8e-11, gained 7e-17 J, which the check without that
/// allowance called a violation), terminates (Thm 8, and a hard step limit with a fallback).
///
/// Three entry points:
///  - the registry model "routh" (ipx_solve): one sample drawn with a generator seeded from the
///    `seed` parameter mixed with a hash of the problem (v and W), so the same seed and the same
///    problem give a bit-identical result while different impacts get different cap streams.
///    The shim sets `seed` from IMPAX_SEED xor the world's index, so that independent worlds
///    draw independent streams.
///  - ipx_routh_sample: one sample with a generator the caller owns (Algorithm 1).
///  - ipx_routh_set: many samples, the point cloud and a summary (Algorithm 2 without the
///    finishing step: unterminated samples are discarded, as the authors' code does). The cloud
///    is generally not convex (rocking block: two segments meeting at rest): keep the points.
///
/// Step size h (impulse, N*s). Rule of thumb (docs/models/routh.md §4.3): h ~ the impulse that stops the
/// impact, i.e. effective mass x approach speed; smaller h interleaves the contacts more finely
/// (about ||v0||_M / h LCPs per sample), larger h drifts toward the simultaneous (AP) outcome.
/// Default: `step` = 0 selects h = step_relative x p_ref, where p_ref is the total normal
/// impulse of the Anitescu-Potra solution from v0 (one extra LCP per solve; if it fails, the
/// impulse that stops the fastest-approaching contact alone). Because the model is homogeneous
/// (Lemma 11: k v(s/k) solves when v(s) does), scaling h with the impact makes the distribution
/// of outcomes independent of the impact's speed and mass scale; no fixed h suits both a 50 g
/// gripper finger and a 50 kg biped. The paper's hand-picked steps are 0.68 (rocking block)
/// and 2.0 (compass gait, box-wall) times p_ref; step_relative = 1 sits in that range and needs
/// 2-4 impulse steps per sample (at most 16 on 10 000 random 1-4 contact problems). Set
/// `step` > 0 for a fixed h (the paper's values in the tests).
///
/// Solvers (issue scale): as for aplcp (impax/aplcp.h), every LCP of a problem with at least
/// `lcp_switch` contacts (the reference, each step, the fallback) is solved by the iterative
/// block solver to the relative residual `lcp_tol` (keep it below tol_v: the impact ends when
/// no contact approaches faster than tol_v x the largest approach, or than the host's accuracy
/// v_tol if that is larger), each step warm-started from
/// the previous step's impulse; an LCP it does not settle in `max_sweeps` sweeps (or sooner, once
/// stalled for `stall_sweeps`, as for aplcp) is solved by the
/// dense Lemke when k <= `lcp_fallback` (limits_hit bit IPX_ROUTH_HIT_DENSE_FALLBACK); above it
/// an LCP without caps (the reference, the fallback) first takes up to `block_rounds` exact
/// blocks, as aplcp (impax/aplcp.h); then
/// the best iterate is taken if its residual is within `lcp_accept` (IPX_ROUTH_HIT_LOOSE_LCP;
/// every step is still checked not to gain energy beyond tol_lcp), and otherwise the LCP counts
/// as failed (IPX_ROUTH_HIT_LCP_FAILURE: one Anitescu-Potra solve finishes the impact, itself
/// iterative). Below lcp_switch every LCP is the dense Lemke's, and
/// its answer must meet tol_lcp. Wherever the dense Lemke fails (a false ray or an inaccurate
/// basis on a degenerate LCP), below lcp_switch or as the fallback, the iterative solver answers
/// it with its full max_sweeps and lcp_accept (from its own best iterate when it ran first):
/// IPX_ROUTH_HIT_ITERATIVE_RESCUE. A problem that gives the host's accuracy (v_tol > 0) takes
/// the iterative solver from `lcp_switch_host` contacts on where that is smaller, as aplcp does.
/// Its default, 2, costs routh a third less on the piles of bench_piles than lcp_switch's 8
/// (docs/performance.md, "The iterative solver from two contacts"). A step so answered is
/// checked against Thm 7 with the work its answer does against complementarity allowed, as the
/// iterative solver measured it.
///
/// lcp_fallback is 96, as aplcp's: an impact's finishing LCP is aplcp's and has no later step to
/// make up for an unsettled answer; at 48 one island of 66 contacts of ODE's house of cards
/// (tests/unit/test_lcp_stall.c) was left to ODE, its iterative solve stalled at a residual of
/// 0.04. On the piles of bench_piles (docs/performance.md) 96 and 48 made the same events at the
/// same cost. The other defaults (lcp_switch 8; aplcp keeps 16, 2 where the host gives v_tol) were chosen on the problems one run of bench_scenes' 200-box bin handed to routh,
/// replayed (bench_replay; docs/performance.md "Performance"): a step LCP of k contacts has 7k unknowns
/// (nd = 4), and the dense Lemke on it costs 20-140 ms from k = 48 on, more than the whole rest
/// of the impact; problems of 8-15 contacts settle iteratively in a quarter of the dense time.
/// On 1 609 problems of 1-226 contacts the solves take 2.7 s instead of 4.2 s, every answer
/// keeps routh's promised invariants, and the post-impact velocities differ from those of the
/// previous defaults (relative to the largest pre-impact speed) by at most 0.15, at the 90th
/// percentile by 8e-11; two seeds of the model itself differ by at most 0.62, at the median by
/// 0.03 and at the 90th percentile by 0.15: a degenerate LCP has several solutions, and
/// Routh's outcome is a set.
#ifndef IMPAX_ROUTH_H
#define IMPAX_ROUTH_H

#include "impax/registry.h"
#include "impax/rng.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Parameter indices of the "routh" model (see its table for ranges and docs).
enum {
    IPX_ROUTH_STEP = 0,            ///< h, N*s; 0 = automatic (step_relative x p_ref, see above)
    IPX_ROUTH_STEP_RELATIVE,       ///< h / p_ref when step = 0
    IPX_ROUTH_MAX_STEPS,           ///< N: impulse steps per sample before the fallback
    IPX_ROUTH_FRICTION_DIRECTIONS, ///< directions of the friction polygon (2 = planar +-t1)
    IPX_ROUTH_RANDOM_CAPS,         ///< 1: caps h U(0,1] (paper); 0: every cap = h
    IPX_ROUTH_TOL_V,               ///< relative termination tolerance on the normal velocities
    IPX_ROUTH_TOL_LCP,             ///< relative LCP residual and per-step energy tolerance
    IPX_ROUTH_MAX_PIVOTS,          ///< Lemke pivot limit per LCP; 0 = automatic
    IPX_ROUTH_POISSON_RESTITUTION, ///< 1: Poisson restitution afterwards (extension)
    IPX_ROUTH_SEED,                ///< seed of the registry model's generator (not used by the API)
    IPX_ROUTH_LCP_SWITCH,          ///< contacts from which the LCPs are solved iteratively
    IPX_ROUTH_LCP_TOL,             ///< relative LCP residual the iterative solver must reach
    IPX_ROUTH_MAX_SWEEPS,          ///< sweeps of the iterative solver per LCP before it gives up
    IPX_ROUTH_LCP_FALLBACK, ///< contacts up to which an unconverged iterative LCP is redone densely
    IPX_ROUTH_LCP_ACCEPT,   ///< residual accepted above lcp_fallback when lcp_tol is not reached
    IPX_ROUTH_STALL_SWEEPS, ///< plain sweeps without progress that end an unconverged LCP early
    IPX_ROUTH_LCP_SWITCH_HOST, ///< as lcp_switch, where the host gives its accuracy (v_tol > 0)
    IPX_ROUTH_BLOCK_ROUNDS,    ///< exact blocks that may end an uncapped iterative LCP; 0 = none
    IPX_ROUTH_N_PARAMS
};

/// Bits of ipx_counts.limits_hit set by the Routh model.
enum {
    /// max_steps impulse steps did not end the impact: one Anitescu-Potra solve finished it
    /// (docs/models/routh.md §4.3 simulation fallback; it always ends the impact and dissipates energy).
    IPX_ROUTH_HIT_MAX_STEPS = 1u << 0,
    /// a step LCP failed (secondary ray, pivot limit or residual above tol_lcp): one
    /// Anitescu-Potra solve from the velocity reached so far finished the impact.
    IPX_ROUTH_HIT_LCP_FAILURE = 1u << 1,
    /// the Poisson restitution impulse was scaled down so that the impact gains no energy.
    IPX_ROUTH_HIT_RESTITUTION_CAP = 1u << 2,
    /// an LCP the iterative solver did not settle in its sweeps was solved by the dense Lemke.
    IPX_ROUTH_HIT_DENSE_FALLBACK = 1u << 3,
    /// an LCP above lcp_fallback took the iterative solver's best iterate, within lcp_accept.
    IPX_ROUTH_HIT_LOOSE_LCP = 1u << 4,
    /// below lcp_switch the dense Lemke failed on an LCP (or missed tol_lcp); the iterative solver
    /// answered it.
    IPX_ROUTH_HIT_ITERATIVE_RESCUE = 1u << 5
};

extern const ipx_model ipx_model_routh;

/// One sample (Algorithm 1) with a caller-owned generator. param: values indexed like the
/// "routh" table (ipx_params.value of a "routh" ipx_params); `seed` is ignored. ws: sized for
/// the "routh" model (ipx_workspace_create). Validates the problem like ipx_solve; on failure
/// r->status and r->message say why and r->impulse is all zero. Same generator state, same
/// result, bit for bit. If max_steps is reached, or a step LCP fails, the impact is finished
/// by one Anitescu-Potra solve and a limits_hit bit says so.
ipx_status ipx_routh_sample(const ipx_problem *p, const double *param, ipx_rng *rng,
                            ipx_workspace *ws, ipx_result *r);

/// Where ipx_routh_set stores the kept samples (caller-owned arrays; any may be NULL).
typedef struct ipx_routh_cloud {
    int capacity;     ///< rows each array holds; must be >= the number of samples requested
    double *v_post;   ///< capacity x 3k, m/s: row j = post-impact contact velocities of sample j
    double *impulse;  ///< capacity x 3k, N*s: row j = total contact impulse of sample j
    double *delta_ke; ///< capacity, J: kinetic-energy change of sample j (<= 0)
    int count;        ///< out: rows written (= summary kept)
} ipx_routh_cloud;

/// What ipx_routh_set found. Ranges are over the kept samples; the per-contact ones (k each)
/// live at the start of the workspace, like a result's arrays (until its next use).
typedef struct ipx_routh_summary {
    int samples;                    ///< trajectories run
    int kept;                       ///< ended the impact within max_steps: stored
    int unterminated;               ///< reached max_steps: discarded
    int failed;                     ///< a step LCP failed: discarded
    int at_rest;                    ///< kept samples with every contact velocity 0 (tol_v)
    double *vn_min;                 ///< k, m/s, smallest post-impact normal velocity
    double *vn_max;                 ///< k, m/s, largest post-impact normal velocity
    double *vt_min;                 ///< k, m/s, smallest post-impact sliding speed |v_t|
    double *vt_max;                 ///< k, m/s, largest post-impact sliding speed |v_t|
    double dke_min, dke_max;        ///< J, range of the kinetic-energy change
    long long lcp_solves;           ///< over all samples (kept or not)
    long long pivots;               ///< Lemke pivots over all samples
    long long steps;                ///< impulse steps over all samples
    ipx_status first_failure;       ///< status of the first failed sample, IPX_OK if none
    char message[IPX_MESSAGE_SIZE]; ///< its message
} ipx_routh_summary;

/// Runs `samples` trajectories (Algorithm 2 without the finishing step) with the caller's
/// generator and stores every sample that ended the impact (a point cloud: never hull it).
/// Samples that reach max_steps or whose step LCP fails are counted and discarded (no AP
/// fallback here: it would add points that are not in the set). cloud may be NULL.
/// Returns IPX_OK once the samples ran (see summary->failed); IPX_ERR_INPUT for bad arguments
/// or problem; IPX_ERR_WORKSPACE; IPX_ERR_NUMERIC if a step gained energy (Thm 7 violated).
ipx_status ipx_routh_set(const ipx_problem *p, const double *param, ipx_rng *rng, int samples,
                         ipx_workspace *ws, ipx_routh_cloud *cloud, ipx_routh_summary *summary);

#ifdef __cplusplus
}
#endif
#endif
