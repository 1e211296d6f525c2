/// Inside the core: the Anitescu-Potra impact LCP block (Halm & Posa (31); docs/models/routh.md §7),
/// shared by the aplcp model and by each impulse step of the Routh model.
///
///   z = [lambda_n (k); lambda_D (nd per friction contact); gamma (1 per friction contact)]
///   M = [[G_nn, G_nD, 0], [G_Dn, G_DD, E], [mu, -E^T, 0]],   q = [v_n; D^T v_t; 0]
///
/// G = Jbar M^-1 Jbar^T comes straight from the contact-space W. The friction polygon of a
/// contact has nd unit directions d_j = cos(2 pi j/nd) t1 + sin(2 pi j/nd) t2 (inscribed in the
/// Coulomb cone). Contacts with mu = 0 get no friction rows (they would only be inert, degenerate
/// rows for Lemke).
///
/// Units (units.h): the LCP mixes velocity rows (n, D: m/s) with impulse rows (gamma: N*s), and
/// the blocks E and mu are pure numbers while G is 1/kg. Formed as it stands, a box of 1e11 kg
/// has G entries of 1e-12 next to E's 1 and Lemke failed on it; 1e-9 kg the other way round. One
/// unit of mass for the whole problem is not enough either: a contact of 1e12 kg bodies next to
/// one of 1 kg bodies puts W_nn of 1e-12 and 1 into the same G, and Lemke ended on rays (the
/// heavy arm of tests/world/heavy: bowling's polygonal LCP). So the LCP is scaled per contact
/// (Jacobi scaling). With the problem's mass unit u = ipx_mass_unit(W) (kg) and per contact
/// c_i = ipx_contact_scale(u, W_nn,i) (kg, a power of two, about sqrt(u / W_nn,i)):
///   - the impulses of contact i are lambda_n,i = c_i z_n,i and lambda_D,i = c_i z_D,i;
///   - its velocity rows (n and D) are multiplied by r_i = c_i / u, so G'_ij = r_i G_ij c_j =
///     (c_i / sqrt u) G_ij (c_j / sqrt u), symmetric, whose normal diagonal is between 1/2 and
///     2 (the tangential one is W_tt,i / W_nn,i times that) and, by Cauchy-Schwarz, whose other
///     normal entries are at most 2 in magnitude; q' = r_i q on those rows;
///   - its slip variable (a velocity) is gamma_i = z_gamma,i / r_i, so E keeps its 1s;
///   - its cone row mu lambda_n - E^T lambda_D (N*s) is multiplied by 1 / c_i, so it stays
///     mu z_n - E^T z_D, and then by 1 / max(1, mu), so it is z_n - E^T z_D / mu when mu > 1.
///     The row's entries are then at most 1, as G's are. Left at mu, a large mu (PyODE's
///     tutorial3 gives 5000, a common stand-in for "no slip") becomes Lemke's scale sigma =
///     max|M_ij| and every G entry falls to 1e-4 of it, near the pivot and tie tolerances,
///     which are relative to sigma: Lemke ended on false rays and inaccurate bases
///     (IPX_ERR_NUMERIC) on the impact LCPs of a pile of 30 boxes with mu = 5000
///     (comment on sigma in lemke.c).
/// This is an equivalent LCP: each row w_r and its partner unknown z_r are each multiplied by a
/// positive factor, and 0 <= z _|_ w >= 0 holds iff it holds for (t z, s w) with s, t > 0
/// (complementarity is invariant under positive diagonal scaling of each pair), so the scaled
/// LCP has the same solutions, mapped back by lambda = c z.
/// c_i / sqrt u is the Jacobi factor 1 / sqrt(W_nn,i) in the problem's unit of mass: c_i is
/// rounded to a power of two relative to u, not to 1 kg, so a contact whose u W_nn,i is in
/// (1/2, 2] gets c_i = u and r_i = 1 exactly, and a problem without a scale disparity is the one
/// LCP of the problem-wide unit, bit for bit. (Rounding 1 / sqrt(W_nn,i) to a power of two of
/// kg^1/2 instead scales G by 1 or 4 where u gives 1/2 or 2: on the hinged chain of
/// test_ode_recovery_scale, u = 0.5 kg, W_nn about 1.8/kg, Lemke then ended at its pivot limit on
/// the degenerate 144-row LCP that it solves at u; on a degenerate LCP, Lemke's path depends on
/// the scaling through its tie tolerances.) Every c_i and u scale with the unit of mass and are
/// powers of two, so scaling is exact and the pivots and the answer do not depend on the unit
/// system (up to that rounding). Only z, the caps of a Routh step (cap_i / c_i), the targets
/// added to q (times r_i) and ipx_ap_impulse see the scale.
#ifndef IMPAX_AP_LCP_H
#define IMPAX_AP_LCP_H

#include <stddef.h>

#include "impax/types.h"

/// Largest number of friction directions per contact.
#define IPX_AP_MAX_DIRECTIONS 16

typedef struct ipx_ap_layout {
    int k;            /* contacts */
    int nd;           /* friction directions per friction contact */
    int kf;           /* contacts with mu > 0 */
    int size;         /* LCP size k + (nd + 1) kf */
    int *fric;        /* k: contact index of the f-th friction contact (caller's) */
    double mass_unit; /* kg: u (Units above) */
    double *scale;    /* k, kg: c_i, lambda_i (N*s) = c_i z_i (Units above; caller's) */
    double dir[2 * IPX_AP_MAX_DIRECTIONS]; /* (cos, sin) of each direction in the (t1, t2) plane */
} ipx_ap_layout;

/// Sets up the layout of problem p with nd directions (2 <= nd <= IPX_AP_MAX_DIRECTIONS);
/// fric, scale: the caller's storage of p->k ints and p->k doubles, which the layout keeps. Sets
/// the mass unit and the contacts' scales from W's normal diagonal.
void ipx_ap_layout_init(ipx_ap_layout *L, const ipx_problem *p, int nd, int *fric, double *scale);

/// r_i = c_i / u: the factor of contact i's velocity rows (a velocity added to its q, such as a
/// restitution target, enters times this).
double ipx_ap_row_scale(const ipx_ap_layout *L, int i);

/// The factor of contact i's cone row, 1 / max(1, mu_i) (Units above).
double ipx_ap_cone_row_scale(const ipx_problem *p, int i);

/// LCP size for k contacts with nd directions in the worst case (every contact has friction).
int ipx_ap_max_size(int k, int nd);

/// Writes the AP matrix (in the scaled units of the layout) into M (leading dimension ld) at rows and columns off..off+size-1, and
/// q[off..] from the contact velocities v (3k). Other entries of M and q are left alone.
void ipx_ap_fill(const ipx_ap_layout *L, const ipx_problem *p, const double *v, double *M, int ld,
                 int off, double *q);

/// Writes only q (k + (nd + 1) kf entries starting at q) from the contact velocities v (3k):
/// [r v_n; r D^T v_t; 0] (scaled per contact). The matrix does not change while v does (Routh's
/// impulse steps).
void ipx_ap_fill_q(const ipx_ap_layout *L, const double *v, double *q);

/// Contact impulses pi (3k, [t1 t2 n], N*s) from the AP part of an LCP solution (z starts at
/// lambda_n, in the layout's scaled units: lambda = c_i z).
void ipx_ap_impulse(const ipx_ap_layout *L, const double *z, double *pi);

/// Doubles of work ipx_ap_lemke_shifted needs: ipx_lemke_work_doubles(n) + n; its ints:
/// ipx_lemke_work_ints(n).
size_t ipx_ap_lemke_work_doubles(int n);

/// Lemke (ipx_lemke) on the AP LCP of layout L as ipx_ap_fill wrote it (M: L->size square,
/// column-major; q: L->size), with the diagonal of G (the lambda_n and lambda_D rows) raised
/// by eps = eps_rel max G_ii: an AP LCP whose G is singular to round-off (near-duplicate contact
/// rows) can end Lemke on a false ray, and G + eps I keeps its bases conditioned (ap_lemke.c).
/// M is restored exactly; w is returned for it, so each shifted row may be short by eps z_i:
/// *v_err (m/s) is the largest velocity that leaves unmet, max_i eps z_i / r_i (a contact left
/// approaching at most that, a friction row off by at most that). The shift only dissipates
/// (it is the work eps |z|^2 of a compliance), so the energy promise holds as on M. Returns
/// what ipx_lemke returned (*v_err = 0 on failure).
ipx_status ipx_ap_lemke_shifted(const ipx_ap_layout *L, double *M, const double *q, double eps_rel,
                                double *z, double *w, int max_pivots, double *dwork, int *iwork,
                                int *pivots, double *v_err);

#endif
