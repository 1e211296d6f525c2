/// Inside the core: the Anitescu-Potra impact LCP (anitescu_potra.h) of a large problem, solved contact
/// by contact on a block-sparse copy of W: projected block Gauss-Seidel ("non-smooth Gauss-
/// Seidel", the iteration of Siconos Numerics' lcp_nsgs_SBM) with Anderson acceleration. Used by
/// aplcp and routh from a size switch on (issue scale); small problems keep the dense Lemke.
///
/// The unknowns of contact i form one block, in the order of a Routh step LCP (75):
///   [beta_i (capped only); lambda_n,i; lambda_D,i (nd, mu_i > 0 only); gamma_i (mu_i > 0 only)]
/// The blocks couple only through the contacts' velocities: row block i of the LCP depends on
/// the other contacts' unknowns only through u_i = v_i + sum_{j != i} W_ij pi_j, the velocity of
/// contact i without its own impulse. One step of the iteration solves contact i's own small LCP
/// (the single-contact AP LCP, or a Routh step's, with q from u_i: always solvable) exactly, and
/// passes the change of its impulse to every contact coupled to it (a block column of W).
/// Contacts that share no body have zero blocks, so a sweep costs O(blocks of W) = O(k) in a
/// pile. The small LCP is solved by enumerating its cases (no impulse; sticking; sliding at a
/// vertex of the friction polygon or along an edge; each with lambda_n free or at the cap) and
/// taking the first that meets all its conditions to 1e-11 of its own scales, trying first the
/// case the contact took in the previous sweep (contacts seldom change cases between sweeps: one
/// candidate instead of up to 2 + 2 nd; the routh bin's replayed problems -13 % time); only what
/// that leaves open (never seen on piles and random problems) goes to the dense Lemke.
///
/// Acceleration: Anderson (depth 5) on the impulses, restarted when a sweep's residual jumps
/// (a contact changed modes), and switched off for good when the best residual has not halved in
/// 200 sweeps (deep piles, where the extrapolation keeps crossing mode changes: plain sweeps from
/// the best iterate creep on). The answer is always the best sweep's iterate (a sweep's output
/// keeps every contact's own conditions: lambda >= 0, the friction polygon, the cap).
///
/// Cone stage (where the caller asks for it: cone below): once a plain sweep raises f or plain
/// sweeps stall (as below), the sweeps first go on from the best iterate with each contact's
/// step the exact minimiser of f = 1/2 pi'W pi + v'pi over its own impulse within its friction
/// cone (pi_t in the polygon of radius mu_i pi_n: a convex set, so the sweeps descend on one
/// convex QP and settle; ipx_nsgs_cone_local). Where the QP's KKT conditions hold, the LCP's
/// hold at every contact that sticks (pi inside its cone: zero velocity) or carries no impulse
/// (the QP asks it to leave at least mu times its slip, the LCP only to leave); only a pressing
/// contact that slides differs (the QP lets it lift off). So where the contacts stick, as under
/// the "no slip" mu of PyODE's tutorial3 (5000), the stage's answer is the LCP's: on two of its
/// islands (37 and 50 contacts, test_lcp_stall.c) plain sweeps and fixed bounds cycled at
/// residuals of 0.046 and 0.078, and the stage settles them. Where its own best residual has
/// not halved in 200 sweeps (sliding contacts: the crash demo's wall, mu 0.5), the fixed bounds
/// go on from the best iterate.
///
/// Fixed friction bounds: once a plain sweep raises f = 1/2 pi'W pi + v'pi (the kinetic energy
/// change, J) above the last judged iterate's by more than 3e-3 of its terms, or plain sweeps stall
/// (stall_sweeps) above stall_accept (a cycle whose period divides the sweeps between judgements
/// leaves f unchanged where it is judged), and the cone stage (if asked for) stalled, the sweeps go
/// on from the best iterate with each contact's friction bound fixed at mu_i s_i (a Tresca fixed
/// point), s_i its normal impulse, renewed every fourth sweep, when the residual is judged. Where
/// that has not halved the best residual in 2 000 sweeps (renewed outright, the bounds can run in
/// cycles: the crash demo's wall), the fixed point is damped: each bound's QP is solved to a tenth
/// of the last LCP residual, and the bounds then move a tenth of the way to the normal impulses
/// (nsgs.c, DAMPED_AFTER). Before it is judged, each friction impulse beyond mu_i lambda_n,i is
/// scaled back onto that polygon, so every iterate judged, and the answer, keeps each contact's own
/// conditions (lambda >= 0, the cone, the cap).
///
/// Exact blocks (where the caller asks for them: block_rounds below): where every stage above
/// has ended without reaching the accuracy, the iterate they left (the best) is finished block
/// by block. A block is the contacts whose own violation (ipx_nsgs_violations) exceeds
/// v_tol (tol times the problem's velocity scale without v_tol) and their neighbours through W,
/// breadth first, up to IPX_NSGS_BLOCK_UNKNOWNS LCP unknowns; its AP LCP, with every other
/// contact's impulse held in its velocities, is solved by the dense Lemke, which cannot cycle
/// (impax/lcp.h), and the iterate is judged. It is one step of block Gauss-Seidel with the
/// contacts the sweeps could not settle as one block: exact where the trouble is local. On ODE's
/// crash demo's wall (226 contacts, mu 0.5; test_lcp_stall.c) one contact slid at 0.28 m/s with
/// its friction at a third of its bound while every other met v_tol, and the plain sweeps, the
/// cone stage and the fixed bounds (damped too) all cycled around it for 5 000 sweeps; one block
/// of 64 contacts (40 ms) answers it. A block of at most 384 unknowns costs one dense Lemke of
/// that size, so rounds are few (aplcp: block_rounds, 8).
///
/// Gauss-Seidel on the Coulomb law is no descent method: a sliding contact's local answer may raise
/// 1/2 pi'W pi + v'pi, and on high-friction piles (PyODE's tutorial3, mu = 5000) and the crash
/// demo's wall (mu = 0.5) the sweeps ran in cycles (on one tutorial3 island that value went from
/// -134.6 to -98.1 J in one sweep and the iterates repeated every 2 200 sweeps), with the residual
/// 0.03 to 0.2 at best; on deep low-friction bins, where f rises far less and plain sweeps still
/// settle, they stay plain (fixed bounds settled those more slowly). With the bounds fixed, each
/// contact's step minimises that convex function over its own impulse (ipx_nsgs_bounded_local), so
/// the sweeps descend and settle; the Anitescu-Potra conditions with mu lambda_n in place of mu s
/// are the QP's KKT conditions, so where s = lambda_n the sweeps solve the LCP, and the residual
/// judged is the LCP's own.
///
/// Accuracy: the iteration stops when the LCP residual (see ipx_nsgs_residual) is at most tol.
/// The residual of a row is max(-z/Z, -w/V, min(z/Z, w/V)) with z and w in their own units,
/// Z = the largest impulse unknown (N*s) and V = the largest velocity (m/s) of the problem (q
/// and the velocity-like unknowns): the natural-map residual relative to the problem's own
/// scales, as routh's tol_lcp and the invariant checker's tol_rel measure. A residual below 1e-9
/// passes the checker at its default tolerances. It also stops at the host's accuracy
/// (ipx_problem.v_tol; docs/core-api.md "Solve accuracy") once every row is within v_tol in
/// velocity, an impulse z against a velocity w by min(z W_ii, w) (the velocity z makes at its own
/// row), and no impulse row does more work against complementarity than Z v_tol (z w; below,
/// ipx_nsgs_scales). residual * V is no such measure: where V is as small as v_tol (a Routh
/// step's LCP late in an impact) it let an answer push contacts apart at 70 times V
/// (tests/unit/test_routh_host_accuracy.c).
///
/// W comes as these blocks from a problem that gives it so (ipx_problem.Ws: the ODE adapter's,
/// above the models' dense fallback), and everything here is O(blocks); from a dense W the scan
/// into blocks is O(k^2). What an assembly could give for better still: J and M^-1 per body,
/// with which a contact step costs O(1) through the bodies' velocities and a body-space
/// factorisation becomes possible for the deep piles that Gauss-Seidel settles only slowly.
#ifndef IMPAX_LCP_BLOCK_H
#define IMPAX_LCP_BLOCK_H

#include <stddef.h>

#include "anitescu_potra.h"
#include "impax/workspace.h"
#include "nsgs_block.h"
#include "wblocks.h"

/// Depth of the Anderson acceleration (differences kept).
#define IPX_NSGS_AA_DEPTH 5

typedef struct ipx_nsgs_options {
    double tol;     ///< residual to reach (relative, see above)
    int max_sweeps; ///< sweeps over all contacts before giving up
    int accelerate; ///< 1: Anderson acceleration of the sweeps; 0: plain Gauss-Seidel
    /// A stall: after the acceleration is off, this many plain sweeps without the best residual
    /// halving end the solve early (as max_sweeps would, IPX_ERR_NOT_CONVERGED with the best
    /// iterate) if that best is within stall_accept, and otherwise switch the plain sweeps to
    /// fixed friction bounds (above); 0: never. Callers pass the residual they
    /// take the best iterate at anyway (lcp_accept), or INFINITY where a dense solve redoes an
    /// unconverged one: deep piles' residuals sit on plateaus for thousands of sweeps.
    int stall_sweeps;
    double stall_accept;
    /// m/s, >= 0: the solve also ends when every row is within v_tol in velocity and no
    /// impulse row's complementarity work exceeds Z v_tol (above; the problem's v_tol: the accuracy
    /// the host holds), IPX_OK; 0: tol alone decides.
    double v_tol;
    /// 1: the cone stage (above) comes before the fixed bounds (a solve with caps, a Routh
    /// step's, keeps the local LCP for a capped contact's step there); 0: the fixed bounds follow
    /// the plain sweeps at once. Its local QPs cost a small Lemke each, and where contacts slide it
    /// only spends its 200 sweeps: routh's many LCPs on ODE's house of cards (mu 5) took 1.67 s
    /// of CPU with it, 0.25 to 0.31 s without. So aplcp asks for it where no dense solve
    /// follows (its rescue of a failed dense Lemke, and above lcp_fallback), the answer's last
    /// chance.
    int cone;
    /// Exact blocks (above) that may end a solve the stages before did not settle; 0: none.
    /// aplcp asks for them above lcp_fallback, where its iterative solve is the only one (not in
    /// the rescue of a failed dense Lemke, whose shifted Lemke follows). Solves with caps (a
    /// Routh step's) never take them.
    int block_rounds;
} ipx_nsgs_options;

/// The scales of a residual (ipx_nsgs_residual) and the complementarity work of its impulse
/// rows: an impulse z (lambda_n, lambda_D) against its row's velocity w, z w where both are
/// positive, what complementarity makes zero. The impulse pi of an iterate does work
/// pi . (v + W pi) of at most `work`: the friction rows' gamma terms only take work away
/// (-gamma sum lambda_D), a cap's beta likewise, so an iterate taken where the exact LCP's
/// answer dissipates (a Routh step, Thm 7) gains at most `work`. The relative residual alone
/// does not bound it: a row with z within the residual of Z may have any w, and the velocities
/// an iterate leaves can exceed V.
typedef struct ipx_nsgs_scales {
    double impulse;  ///< N*s: Z, the largest impulse unknown
    double velocity; ///< m/s: V, the largest velocity of the problem
    /// m/s: the largest row violation in velocity, min(z W_ii, w) of an impulse z against a
    /// velocity w (W_ii: the row's own diagonal of the LCP, the velocity z makes there; the
    /// tangential diagonal's mean for the friction bound's row), and -w
    double row_velocity;
    double pair_work; ///< J: the largest z w of one impulse row
    double work;      ///< J: the sum of z w over the impulse rows
} ipx_nsgs_scales;

/// The solver's state; everything lives in the workspace it was set up from.
typedef struct ipx_nsgs {
    const ipx_problem *p;
    ipx_wblocks W;
    int k, nd;
    int capped; /* the current solve has caps */
    double dir[2 * IPX_AP_MAX_DIRECTIONS];
    double *pi;               /* 3k, N*s: contact impulses (kept between solves: warm start) */
    double *vp;               /* 3k, m/s: v + W pi, kept up to date during a sweep */
    double *pi_old, *pi_best; /* 3k each: before the last sweep; the best sweep's impulses */
    double *hist[3 * (IPX_NSGS_AA_DEPTH + 1)]; /* 3k each: the acceleration's last g, f, v + W g,
                                                  then a ring of their differences */
    double *gram, *gram_rhs; /* the differences' Gram matrix and their products with f */
    double *Mloc, *ql, *zl, *wl, *dwork; /* one local problem for the local Lemke */
    int *iwork;
    int *last_case;       /* k: the case each contact's local solve took last (-1: none yet) */
    double *bound;        /* k, N*s: the normal impulses s of the fixed friction bounds */
    double *stop_impulse; /* k, kg: (1 + mu) / largest |W_ii entry|, the local impulse scale per
                             m/s of velocity (its tolerance) */
    double *res_iz, *res_vw, *res_vz, *res_iw; /* the residual's row pairs (see its definition) */
    /* statistics of the last solve */
    int sweeps;
    double residual;
    ipx_nsgs_scales scales; /* of the residual */
    long pivots;            /* pivots of the local Lemke */
    int local_lemke;        /* local problems the enumeration left to Lemke */
    int local_failures;     /* local problems Lemke failed too (the contact kept its impulse) */
    int accelerated;        /* the acceleration was still on at the end */
    int bounded_sweeps;     /* sweeps with fixed friction bounds (after a stall) */
    int cone_sweeps;        /* sweeps of the cone stage (after the fixed bounds) */
    int block_solves;       /* exact blocks solved (after every other stage) */
    ipx_nsgs_block block;
} ipx_nsgs;

/// Bytes ipx_nsgs_init takes for k contacts with nd friction directions; in_place: the problem
/// gives W as blocks (O(k) bytes then; O(k^2) from a dense W, see ipx_wblocks_bytes).
size_t ipx_nsgs_bytes(int k, int nd, int in_place);

/// Builds the block copy of p's W. nd: even, 2 .. IPX_AP_MAX_DIRECTIONS (the directions of
/// anitescu_potra.h). pi starts at 0.
ipx_status ipx_nsgs_init(ipx_nsgs *s, const ipx_problem *p, int nd, ipx_workspace *ws);

/// Solves the AP LCP with q from the contact velocities v (3k; [t1 t2 n] per contact), plus
/// qn_shift[i] on contact i's normal row (NULL: none; aplcp's Newton target), and, when cap is
/// not NULL, lambda_n,i <= cap[i] (a Routh step LCP, (73)-(74)). warm = 1 starts from the impulses
/// of the previous solve, 0 from zero. On return s->pi holds the impulses, s->vp = v + W pi
/// (recomputed from the blocks; without the shift), s->residual the residual reached, s->sweeps
/// the sweeps. IPX_OK if residual <= tol; IPX_ERR_NOT_CONVERGED if max_sweeps did not reach it
/// (s->pi is then the best sweep's iterate, which keeps every per-contact condition: lambda >= 0,
/// the friction polygon, the cap).
ipx_status ipx_nsgs_solve(ipx_nsgs *s, const double *v, const double *qn_shift, const double *cap,
                          int warm, const ipx_nsgs_options *opt);

/// One contact's step with its friction bound fixed: pi (3, N*s) minimising
/// 1/2 pi' W_ii pi + u' pi over 0 <= pi_n (<= *cap unless cap is NULL) and pi_t in the friction
/// polygon (nd directions dir, as ipx_nsgs's) of radius b (N*s); w: W_ii (column-major), u: the
/// contact's velocity without its own impulse (m/s). Returns 0 where no active set meets the
/// KKT conditions to round-off (a singular W_ii), pi then undefined.
int ipx_nsgs_bounded_local(const double w[9], const double u[3], const double *dir, int nd,
                           double b, const double *cap, double pi[3]);

/// The cone stage's step (nsgs_cone.c): pi (3, N*s) minimising 1/2 pi' W_ii pi + u' pi over
/// pi_t in the friction polygon (s's directions) of radius mu pi_n; w: W_ii (column-major), u:
/// the contact's velocity without its own impulse (m/s), mu > 0. Uses s's local Lemke storage.
/// Returns 0 where W_ii is singular or Lemke fails.
int ipx_nsgs_cone_local(ipx_nsgs *s, const double w[9], const double u[3], double mu, double pi[3]);

/// Sweeps the iterative solver gets when an unconverged solve will be redone by the dense
/// Lemke: about as many as one dense solve of k contacts costs (a sweep is O(k), the dense
/// Lemke O(k^3)), 50 + k^2 / 2, and at most max_sweeps; so a problem the iteration cannot settle
/// costs about twice the dense path, not max_sweeps sweeps.
int ipx_nsgs_fallback_sweeps(int k, int max_sweeps);

/// Fewest contacts from which aplcp and routh never take the dense Lemke (at or above
/// lcp_switch, above lcp_fallback; both parameters at most 1e9): their blocks_from, the model
/// reading W's blocks only from there on.
static inline int ipx_lcp_blocks_from(double lcp_switch, double lcp_fallback)
{
    return (int)(lcp_switch > lcp_fallback + 1.0 ? lcp_switch : lcp_fallback + 1.0);
}

/// Contacts from which aplcp and routh answer a problem by the iterative solver: lcp_switch,
/// or lcp_switch_host where it is smaller and the problem gives the host's accuracy (v_tol > 0,
/// m/s): the dense Lemke's exactness is worth its O(k^3) only to a caller that asks for it
/// (docs/models/aplcp.md §3).
static inline double ipx_lcp_iterative_from(double v_tol, double lcp_switch, double lcp_switch_host)
{
    return v_tol > 0.0 && lcp_switch_host < lcp_switch ? lcp_switch_host : lcp_switch;
}

/// 1 for the dense Lemke's failures on an LCP that has a solution (a false ray, the pivot limit,
/// an inaccurate basis: degenerate LCPs of real piles' near-duplicate contacts), which the
/// models' iterative solver answers instead (aplcp, routh: their rescue).
static inline int ipx_lemke_rescuable(ipx_status st)
{
    return st == IPX_ERR_LCP_RAY || st == IPX_ERR_LCP_PIVOTS || st == IPX_ERR_NUMERIC;
}

/// The residual of s->pi against q (v, qn_shift, cap as for the solve) with s->vp as the
/// velocities. The LCP's unknowns are made from pi: lambda_D from pi_t by the two directions of
/// its sector of the polygon (the least multipliers), the auxiliaries as the smallest that make
/// their rows feasible (gamma_i = max(0, max_j -d_j.v_t), beta_i = max(0, -v_n)); so it measures
/// whether pi solves the LCP. scales (NULL: not wanted) receives the scales the residual is
/// relative to and the complementarity work of its impulse rows.
double ipx_nsgs_residual(const ipx_nsgs *s, const double *v, const double *qn_shift,
                         const double *cap, ipx_nsgs_scales *scales);

/// ipx_nsgs_residual without caps, with each contact's violation of its conditions into viol (k,
/// m/s): the largest of its rows' violations in velocity (min(z W_ii, w) of an impulse z against
/// a velocity w, and -w: as ipx_nsgs_scales.row_velocity) and of its impulse rows'
/// complementarity work z w over Z (N*s, the largest impulse). The solve is within the host's
/// v_tol at every contact whose violation is at most v_tol.
double ipx_nsgs_violations(const ipx_nsgs *s, const double *v, const double *qn_shift, double *viol,
                           ipx_nsgs_scales *scales);

#endif
