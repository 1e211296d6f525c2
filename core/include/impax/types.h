/// impax core: the shared problem and result types of every impact model.
///
/// Conventions (all models):
///  - A problem has k contacts. Per contact the rows are ordered [t1, t2, n]: two orthonormal
///    tangents, then the unit normal. The normal points so that v_n > 0 means separating.
///  - v (3k, m/s) are the pre-impact relative contact velocities in those rows.
///  - W (3k x 3k, column-major, symmetric positive semi-definite, units 1/kg = (m/s)/(N*s)) is
///    the contact-space Delassus matrix J M^-1 J^T (bilateral joints already eliminated). It is
///    given densely (ipx_problem.W) or as its non-zero 3 x 3 contact blocks (ipx_problem.Ws,
///    ipx_wsparse): in a pile only contacts that share a body couple, so the blocks are O(k)
///    where the dense W is O(k^2) (40 MB at 750 contacts).
///  - An impulse pi (3k, N*s) in the same rows changes the contact velocities by W pi:
///    v+ = v + W pi. pi_n >= 0 pushes the bodies apart.
///  - Kinetic-energy change (J): dT = pi^T v + 1/2 pi^T W pi.
#ifndef IMPAX_TYPES_H
#define IMPAX_TYPES_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Rows per contact: t1, t2, n.
#define IPX_ROWS_PER_CONTACT 3
/// Size of the message buffer in results and reports.
#define IPX_MESSAGE_SIZE 256

/// Row offsets inside one contact's block.
enum { IPX_T1 = 0, IPX_T2 = 1, IPX_N = 2 };

/// Status of a core call. Anything but IPX_OK means the result must not be applied.
typedef enum ipx_status {
    IPX_OK = 0,
    IPX_ERR_INPUT,         ///< bad problem data or parameters; the message names the item
    IPX_ERR_WORKSPACE,     ///< the workspace is too small for this problem
    IPX_ERR_LCP_RAY,       ///< Lemke ended on a secondary ray (no solution found)
    IPX_ERR_LCP_PIVOTS,    ///< Lemke hit its pivot limit
    IPX_ERR_NOT_CONVERGED, ///< an iteration limit of the model was hit before the impact ended
    IPX_ERR_NUMERIC        ///< a factorisation failed or produced a non-finite number, or an
                           ///< answer gained energy its model promises not to gain
} ipx_status;

/// Human-readable name of a status ("ok", "bad input", ...).
const char *ipx_status_name(ipx_status s);

/// Per-contact material parameters (ODE/Gazebo meaning in brackets).
typedef struct ipx_contact {
    double mu;        ///< Coulomb friction coefficient, >= 0 [surface.mu]; +INFINITY: the contact
                      ///< never slides (ODE's dInfinity), for the models that take it
                      ///< (ipx_model.takes_infinite_mu); the others need it finite
    double e;         ///< restitution coefficient in [0, 1]; PLUS: e_min [surface.bounce]
    double v_capture; ///< m/s, >= 0: approach speeds below this do not bounce [surface.bounce_vel]
    double v_plastic; ///< m/s, >= 0: PLUS only, speed where the COR reaches e; 0 = constant COR
} ipx_contact;

/// Bits of ipx_problem.flags.
enum {
    /// W was assembled as J M^-1 J^T from positive-definite body masses and inertias (as
    /// ipx_constrained_assemble does): positive semi-definite by construction, so validation
    /// checks its entries, symmetry and diagonal (O(k^2)) but not its curvature (a pivoted
    /// Cholesky, O(k^3): seconds at a thousand contacts).
    IPX_PROBLEM_W_ASSEMBLED = 1u << 0
};

/// W as its 3 x 3 contact blocks that are not known to be zero, compressed by block column:
/// block b of column j is W(3 row[b] + r, 3 j + c) = blk[9 b + r + 3 c] (r, c in 0..2, the
/// rows [t1, t2, n]). Every block not stored is zero. Both triangles are stored: block (i, j)
/// is stored exactly when block (j, i) is, each column holds its diagonal block, and the rows
/// of a column ascend. ipx_constrained_blocks writes this form from bodies and rows.
typedef struct ipx_wsparse {
    int nnz;           ///< blocks stored
    const int *start;  ///< k + 1: the blocks of column j are start[j] .. start[j + 1] - 1
    const int *row;    ///< nnz: the block row (contact) of each block
    const double *blk; ///< 9 nnz, 1/kg: each block column-major
} ipx_wsparse;

/// One impact problem: plain data, read-only to every solver. W is given one way: densely
/// (W set, Ws NULL) or as blocks (Ws set, W NULL, and IPX_PROBLEM_W_ASSEMBLED: a block W's
/// curvature is taken from its construction, checking it would need the dense matrix). Models
/// that work on the blocks (ipx_model_reads_blocks) take them as they are; ipx_solve gives the
/// others a dense copy made in the workspace.
typedef struct ipx_problem {
    int k;                      ///< number of contacts, >= 1 (no upper limit but memory)
    const double *W;            ///< 3k x 3k, column-major, 1/kg; NULL when Ws is given
    const double *v;            ///< 3k, m/s, pre-impact contact velocities [t1, t2, n] per contact
    const ipx_contact *contact; ///< k per-contact parameters
    unsigned flags;             ///< IPX_PROBLEM_* bits (0: nothing is assumed of W)
    const ipx_wsparse *Ws;      ///< W as blocks, or NULL when W is given
    /// m/s, finite and >= 0: the velocity accuracy the caller's host holds at its contacts (the
    /// ODE adapter: accuracy_steps |g| h). The iterative LCP solvers of aplcp and routh may stop
    /// once every contact's conditions hold to it: no contact left approaching faster than v_tol,
    /// none separating faster than v_tol under a normal impulse that makes more than v_tol at it
    /// (docs/core-api.md "Solve accuracy"). 0: the models' own tolerances only.
    double v_tol;
} ipx_problem;

/// Work counters a model reports. Fields a model does not use stay 0.
typedef struct ipx_counts {
    int rounds;       ///< PLUS impact rounds
    int intervals;    ///< PLUS intervals (sliding/rolling segments)
    int lsq_solves;   ///< least-squares solves
    int lcp_solves;   ///< LCP solves
    int pivots;       ///< Lemke pivots, summed over LCP solves
    int steps;        ///< integration steps (Routh impulse steps, Jia/Gonthier steps)
    int newton_iters; ///< Newton iterations (PLUS impending slip)
    unsigned
        limits_hit; ///< bit set of model-specific limits that were reached (documented per model)
} ipx_counts;

/// Tangential state of a contact in a model's last interval, for the friction-direction check
/// of impax/check.h. Models without intervals leave every contact at IPX_SLIP_NONE.
typedef enum ipx_slip_state {
    IPX_SLIP_NONE = 0, ///< nothing to check: no normal impulse, mu = 0, or not reported
    IPX_SLIP_STICKING, ///< rolling: friction inside the cone, driving the slip to zero
    IPX_SLIP_SLIDING,  ///< friction on the cone against the slip at the start of the last interval
    IPX_SLIP_IMPENDING ///< friction on the cone against the slip at its end (= v_post)
} ipx_slip_state;

/// Safety nets: bits of ipx_result.nets, set when a net changed the model's own answer.
enum {
    IPX_NET_ENERGY_CAP = 1u << 0 ///< the answer was scaled down so as not to gain energy
};

/// The outcome of one solve. Its arrays live at the start of the workspace the solve was given
/// (sized for k_max by ipx_workspace_create): no allocation, and they stay valid until the next
/// call with that workspace or its destruction. To keep a result across solves, copy its arrays
/// or use another workspace. A result whose solve could not start (NULL arguments, a workspace
/// too small for its arrays) has NULL arrays and n_rows = 0.
typedef struct ipx_result {
    int k;               ///< number of contacts of the problem solved
    int n_rows;          ///< rows of impulse, v_post and last_step (3k; or the
                         ///< host's rows per contact times k, ipx_bowling_solve)
    double *impulse;     ///< n_rows, N*s, pi per contact [t1, t2, n]
    double *v_post;      ///< n_rows, m/s, v + W pi
    double delta_ke;     ///< J, pi^T v + 1/2 pi^T W pi (negative = dissipated)
    double delta_stored; ///< J, change of the energy the model's own elastic
                         ///< elements hold over the solve (compliant springs,
                         ///< bristles; 0 for impulse models): no gain means
                         ///< delta_ke + delta_stored <= 0
    double energy_error; ///< J, >= 0: size of the model's integration error in
                         ///< that balance (0 for algebraic models)
    int *slip_state;     ///< k, ipx_slip_state of each contact in the last interval
    double *last_step;   ///< n_rows, N*s, impulse of the last interval (0 if none)
    unsigned nets;       ///< IPX_NET_* bits: safety nets that changed the answer
    ipx_counts counts;
    ipx_status status;
    char message[IPX_MESSAGE_SIZE]; ///< why, when status != IPX_OK
} ipx_result;

#ifdef __cplusplus
}
#endif
#endif
