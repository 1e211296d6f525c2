/// impax core: linear complementarity problems.
///
/// Finds z with  w = M z + q,  z >= 0,  w >= 0,  z^T w = 0  by Lemke's complementary pivoting
/// with the covering vector d = (1, ..., 1) and the lexicographic minimum-ratio rule, which
/// cannot cycle on degenerate problems (Cottle, Pang, Stone 1992, section 4.4). Dense tableau,
/// O(n^2) per pivot, no allocation: the caller passes the work arrays.
///
/// Floating point: M and q are scaled by max|M_ij| (so a common scale factor of M and q changes
/// neither the pivots nor z); an entry is pivoted on only if it is not round-off relative to its
/// row of the basis inverse and to the entering column; ratios that tie in exact arithmetic
/// (redundant contacts make many) are compared with a tolerance (the round-off of the basic
/// solution, from the scale of q and of that solution) and broken lexicographically, and z0
/// leaves whenever it is among the ties (that basis is a solution). The updated tableau carries
/// the round-off of every basis it passed through (far more than the tolerances assume after a
/// pivot on a small entry), so a ratio test that round-off could decide (a ratio close to the
/// minimum but not tied with it, a tie of unequal ratios, a pivot entry close to the tolerance)
/// is redone after the rhs and the entering column are re-solved from M and q (iterative
/// refinement with the basis inverse the tableau holds; ties are then judged by the error the
/// refinement measured, not by a normwise bound), and a secondary ray is reported only if the tableau of the basis
/// rebuilt from M and q (Gauss-Jordan with partial pivoting) confirms it. The final basis is
/// re-solved from the original data (iterative refinement of M_ZZ z_Z = -q_Z with the basis
/// inverse the tableau holds), w = M z + q is computed from M and q, and only entries negative
/// by round-off (relative to the magnitude of the terms they are computed from) are set to 0.
#ifndef IMPAX_LCP_H
#define IMPAX_LCP_H

#include <stddef.h>
#include "impax/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Doubles and ints of work space ipx_lemke needs for an n x n problem (0 for n < 1):
/// n (2n + 2) + 3n doubles (the tableau) and 2n ints.
size_t ipx_lemke_work_doubles(int n);
size_t ipx_lemke_work_ints(int n);

/// Default pivot limit for an n x n problem: 50 n + 1000 (Lemke typically needs n to 2n).
int ipx_lemke_default_max_pivots(int n);

/// Solves LCP(M, q). M is n x n column-major (M[i + n*j]); q, z, w have n entries.
/// Returns IPX_OK with z >= 0, w = M z + q >= 0 (from the data, up to the round-off clamp) and
/// z^T w = 0 up to round-off; q >= 0 gives z = 0, w = q with no pivot.
/// IPX_ERR_LCP_RAY when Lemke ends on a secondary ray (for a copositive-plus M this proves the
/// LCP infeasible); IPX_ERR_LCP_PIVOTS when another pivot would exceed max_pivots (the first
/// pivot, z0 entering, counts); IPX_ERR_NUMERIC if the final basis violates the conditions by
/// more than round-off; IPX_ERR_INPUT for n < 1, a NULL pointer, max_pivots < 1 or non-finite
/// M or q. A path that ends on a ray or on such a basis is walked a second time with the tableau
/// rebuilt from the data every n / 2 pivots (round-off can send a path astray; see lemke.c): the
/// status is the second walk's, and max_pivots and pivots_out count both. On failure z and w
/// are zeroed (when they are not NULL and n >= 1).
/// dwork and iwork: ipx_lemke_work_doubles(n) and ipx_lemke_work_ints(n) entries; no other
/// memory is used. pivots_out (may be NULL) receives the number of pivots made.
ipx_status ipx_lemke(int n, const double *M, const double *q, double *z, double *w, int max_pivots,
                     double *dwork, int *iwork, int *pivots_out);

/// The relative shift of ipx_lemke_psd: eps = IPX_LEMKE_PSD_SHIFT * max_i M_ii.
#define IPX_LEMKE_PSD_SHIFT 1e-6

/// Doubles of work ipx_lemke_psd needs: n^2 (the shifted copy of M) + ipx_lemke_work_doubles(n);
/// its ints: ipx_lemke_work_ints(n).
size_t ipx_lemke_psd_work_doubles(int n);

/// Solves LCP(M, q) for a symmetric positive semidefinite M that may be singular (W = J M^-1 J^T
/// of more contacts than the bodies have freedoms, a wall of boxes with four corners each) and a
/// feasible q. Lemke on M first (*shift = 0). On a singular M round-off can end Lemke on a false
/// secondary ray or an inaccurate basis; then Lemke on M + eps I (*shift = eps, see
/// IPX_LEMKE_PSD_SHIFT), positive definite, so that Lemke ends on its unique solution. Its z is
/// returned with w = M z + q of the unshifted M: w_i >= -eps z_i, every row short by at most eps
/// z_i, and z^T w = -eps |z|^2 <= 0 (for a feasible q, |z| is at most the least-norm solution's
/// of LCP(M, q): Tikhonov). Returns what the last ipx_lemke returned; z, w as there.
ipx_status ipx_lemke_psd(int n, const double *M, const double *q, double *z, double *w,
                         double *dwork, int *iwork, double *shift);

#ifdef __cplusplus
}
#endif
#endif
