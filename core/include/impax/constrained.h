/// impax core: contact-space problems from rigid bodies linked by bilateral joints, in maximal
/// coordinates. Engine-agnostic: a host adapter supplies the bodies' inverse masses and world
/// inverse inertias, the bilateral (joint) rows and the contact rows; this file eliminates the
/// joints and gives the contact-space Delassus matrix W and velocities v that every model takes.
///
/// Notation (M^-1 block diagonal, 6x6 per body; J_b the joint rows, J_c the contact rows):
///   B = J_b M^-1/2                   the joint rows in the kinetic-energy metric (M^-1/2 per
///                                    body: 1/sqrt(m) and the inverse inertia's square root)
///   N                                orthonormal basis of B's null space (Householder QR with
///                                    column pivoting of B^T: B^T P = Q R, N = Q's last columns)
///   P = M^-1/2 N N^T M^-1/2          the joint-consistent inverse mass
///                                    (= M^-1 - M^-1 J_b^T A^+ J_b M^-1 with A = B B^T)
///   W = J_c P J_c^T = K K^T, K = J_c M^-1/2 N   (3k x 3k, symmetric PSD as computed)
///   du = P J_c^T pi = M^-1/2 N K^T pi   velocity change of contact impulses pi; J_b du = 0
/// A is never formed: squaring B's condition number, it cannot tell a joint impulse that moves
/// only a heavy body (one 1e12 kg link among 1 kg ones: A's eigenvalue 1e-12 of the largest)
/// from a redundant row. B's rank counts the factor's pivots |R_jj| above
/// max(n_joint_rows, jointed dofs) DBL_EPSILON times the largest, so redundant joint rows are
/// harmless. Only the movable bodies some joint row touches enter B; the others' part of W and
/// du is the plain J M^-1 J^T.
/// A contact row the joints hold rigid (no part on unjointed bodies and its row of K within the
/// round-off the factorisation leaves there, IPX_CONSTRAINED_HOLD) gets an exactly zero row and
/// column of W, and a velocity v_i of exactly 0 where, after the projection below, it is within
/// the round-off that projection leaves (IPX_CONSTRAINED_HOLD max(m, jointed dofs) eps times
/// sum |J_i| |u| before it): a contact on a mechanism its joints lock is not left approaching at
/// 1e-31 m/s, which no impulse could stop.
///
/// Body velocities that violate the joints (J_b u != 0, e.g. drift or a host that left them
/// inconsistent) are first projected onto J_b u = 0 in the kinetic-energy metric,
/// u <- u - M^-1/2 B^+ J_b u (the velocity a perfectly plastic joint impulse would leave; two
/// steps, the second removing the first's round-off), and v = J_c u is taken from the
/// projected velocities. The projection is reported.
///
/// Rows: each row acts on up to two bodies, 6 entries per body [linear (3) | angular (3)], so
/// the row's velocity is sum over its bodies of J . [v, w]. Bodies with zero inverse mass and
/// inertia (kinematic, or the world given as a body) are allowed: they keep their velocity.
/// No allocation: the caller provides ipx_constrained_work_doubles() doubles.
#ifndef IMPAX_CONSTRAINED_H
#define IMPAX_CONSTRAINED_H

#include <stddef.h>
#include "impax/bodies.h"
#include "impax/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/// A contact row counts as held rigid by the joints when its row of K = J_c M^-1/2 N is at most
/// this times max(n_joint_rows, jointed dofs) DBL_EPSILON times the round-off the factorisation
/// can leave in it: |R_11| |R11^-1 Q_r^T (J M^-1/2)^T| + |J M^-1/2| (a held row is a combination
/// of B's rows, whose products with N are that round-off). Relative to the row itself: a contact
/// that moves a 1e12 kg link through 1 kg ones (W_ii 1e-12 of its value without joints) is a
/// contact, not a held row.
#define IPX_CONSTRAINED_HOLD 64.0

/// One constraint row acting on up to two bodies.
typedef struct ipx_row {
    int body[2];    ///< body indices into the system's bodies, -1 = none (world)
    double J[2][6]; ///< per body: linear part (unitless) then angular part (m), world frame
} ipx_row;

/// The bodies and rows of one problem. Read-only to every function here.
typedef struct ipx_constrained {
    int n_bodies;
    const ipx_body *body; ///< inv_mass, inv_inertia (com is not used here)
    int n_joint_rows;
    const ipx_row *joint_row; ///< bilateral rows, J_b u = 0 is enforced
    int n_contact_rows;       ///< 3k: per contact [t1, t2, n], the core's row order
    const ipx_row *contact_row;
} ipx_constrained;

/// What the assembly found.
typedef struct ipx_constrained_info {
    int joint_rank;          ///< numerical rank of B (less than n_joint_rows = redundant rows)
    double violation_before; ///< max |J_b u| of the velocities given (m/s or rad/s)
    double violation_after;  ///< max |J_b u| after the projection
} ipx_constrained_info;

/// Doubles of work the two functions below need for a system of this size.
size_t ipx_constrained_work_doubles(int n_bodies, int n_joint_rows, int n_contact_rows);

/// Projects the body velocities u (6 per body: m/s then rad/s, world frame; overwritten)
/// onto J_b u = 0, then writes W (n_contact_rows^2, column-major, 1/kg) and v = J_c u (m/s).
/// The factorisation of B stays in work for ipx_constrained_delta_u and ipx_constrained_apply.
/// info may be NULL. Returns IPX_ERR_INPUT for a row naming a body out of range,
/// IPX_ERR_NUMERIC if LAPACK fails or a number is not finite; the message says which.
/// Costs O(n_contact_rows^2 (1 + d)), d the dimension of the jointed bodies' joint-consistent
/// velocities: ipx_constrained_factor alone is linear in the contact rows.
ipx_status ipx_constrained_assemble(const ipx_constrained *s, double *u, double *W, double *v,
                                    double *work, ipx_constrained_info *info, char *message,
                                    size_t message_size);

/// ipx_constrained_assemble without W: the factorisation, u projected, v = J_c u. W then comes
/// densely from ipx_constrained_delassus or as blocks from ipx_constrained_blocks.
ipx_status ipx_constrained_prepare(const ipx_constrained *s, double *u, double *v, double *work,
                                   ipx_constrained_info *info, char *message, size_t message_size);

/// Blocks ipx_constrained_blocks writes, after ipx_constrained_factor (or _prepare) in work: the
/// 3 x 3 blocks of W (contact i: rows 3i .. 3i + 2; n_contact_rows a multiple of 3) of the
/// contact pairs that share a body or that both move jointed bodies (K K^T couples them), and
/// every diagonal block. O(blocks) without joints. -1 if n_contact_rows is not a multiple of 3.
int ipx_constrained_block_count(const ipx_constrained *s, double *work);

/// W as those blocks, in ipx_wsparse's form (types.h): start (k + 1), row (the count above),
/// blk (9 times the count; 1/kg). Each entry is the one ipx_constrained_delassus writes, to the
/// bit. O(blocks log blocks per column) plus, with joints, O(nn) per entry (K's products).
/// IPX_ERR_NUMERIC if an entry is not finite, IPX_ERR_INPUT if n_contact_rows is not a multiple
/// of 3 (the message says which).
ipx_status ipx_constrained_blocks(const ipx_constrained *s, double *work, int *start, int *row,
                                  double *blk, char *message, size_t message_size);

/// The part of ipx_constrained_assemble that W is made from, without W: M^-1 J^T per row, the
/// joint-space factorisation and K (O(m n^2 + n^3 + n d c) for m joint rows on n jointed dofs,
/// d of them left free, and c contact rows; no joints: O(c)), and W's diagonal, left in work
/// for ipx_constrained_delta_u, ipx_constrained_apply, ipx_constrained_diagonal and ipx_constrained_delassus. info (may be
/// NULL) gets the joint rank (no velocities are involved: both violations 0). Errors as
/// ipx_constrained_assemble's.
ipx_status ipx_constrained_factor(const ipx_constrained *s, double *work,
                                  ipx_constrained_info *info, char *message, size_t message_size);

/// u (6 per body, m/s and rad/s; overwritten) projected onto J_b u = 0 in the kinetic-energy
/// metric with the factorisation in work, as ipx_constrained_prepare projects the velocities, and
/// v = J_c u (n_contact_rows, m/s). Linear in u: for u = M^-1 F h it gives P F h, the velocity
/// change a body-space impulse F h makes with the joints holding.
void ipx_constrained_project(const ipx_constrained *s, double *u, double *v, double *work);

/// W (n_contact_rows^2, column-major, 1/kg) from the factorisation in work: what
/// ipx_constrained_assemble writes, entry for entry.
void ipx_constrained_delassus(const ipx_constrained *s, double *work, double *W);

/// y = W x (n_contact_rows each; x in N*s, y in m/s) without forming W: du = P J_c^T x through the
/// bodies, then y = J_c du (du: 6 per body, overwritten). Each contact row touches at most two
/// bodies, so this costs O(n_contact_rows + n_bodies) plus O(d (c + n)) for the joints; the
/// rows the joints hold rigid are zero in x and y, as in the W of ipx_constrained_assemble.
void ipx_constrained_apply(const ipx_constrained *s, const double *x, double *y, double *du,
                           double *work);

/// W's diagonal (n_contact_rows, 1/kg; 0 for a row the joints hold rigid) from the factorisation.
void ipx_constrained_diagonal(const ipx_constrained *s, double *work, double *diag);

/// Body velocity change du = P J_c^T pi (6 per body) of contact impulses pi (n_contact_rows,
/// N*s), using the factorisation ipx_constrained_assemble left in work (unchanged since).
void ipx_constrained_delta_u(const ipx_constrained *s, const double *pi, double *du, double *work);

/// max over joint rows of |J_b u|: how far u is from joint-consistent (m/s or rad/s).
double ipx_constrained_joint_residual(const ipx_constrained *s, const double *u);

#ifdef __cplusplus
}
#endif
#endif
