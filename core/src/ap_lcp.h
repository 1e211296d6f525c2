/// Inside the core: the Anitescu-Potra impact LCP block (Halm & Posa (31); routh.md section 7),
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
/// has G entries of 1e-12 next to E's 1 and Lemke (which can only scale M as a whole) failed on
/// it; 1e-9 kg the other way round. So the LCP is formed in the problem's units: the impulse
/// unknowns lambda_n, lambda_D are z times mass_scale = ipx_mass_unit(W) (kg) times 1 m/s, G
/// enters as mass_scale * G, the mu and gamma rows keep their form, and the cap rows of a Routh
/// step take cap / mass_scale. The scaled matrix is the same in every unit of mass, and a common
/// factor of the velocities scales q alone, which Lemke's path follows exactly: the pivots and
/// the answer do not depend on the unit system. Only z, the caps in q and ipx_ap_impulse see the
/// scale.
#ifndef IMPAX_AP_LCP_H
#define IMPAX_AP_LCP_H

#include "impax/types.h"

/// Largest number of friction directions per contact.
#define IPX_AP_MAX_DIRECTIONS 16

typedef struct ipx_ap_layout {
    int k;                          /* contacts */
    int nd;                         /* friction directions per friction contact */
    int kf;                         /* contacts with mu > 0 */
    int size;                       /* LCP size k + (nd + 1) kf */
    int *fric;                      /* k: contact index of the f-th friction contact (caller's) */
    double mass_scale;              /* kg: lambda (N*s) = mass_scale * z (see Units above) */
    double dir[2 * IPX_AP_MAX_DIRECTIONS]; /* (cos, sin) of each direction in the (t1, t2) plane */
} ipx_ap_layout;

/// Sets up the layout of problem p with nd directions (2 <= nd <= IPX_AP_MAX_DIRECTIONS);
/// fric: the caller's storage of p->k ints, which the layout keeps. Sets mass_scale from W.
void ipx_ap_layout_init(ipx_ap_layout *L, const ipx_problem *p, int nd, int *fric);

/// LCP size for k contacts with nd directions in the worst case (every contact has friction).
int ipx_ap_max_size(int k, int nd);

/// Writes the AP matrix (in the scaled units of the layout) into M (leading dimension ld) at rows and columns off..off+size-1, and
/// q[off..] from the contact velocities v (3k). Other entries of M and q are left alone.
void ipx_ap_fill(const ipx_ap_layout *L, const ipx_problem *p, const double *v, double *M, int ld,
                 int off, double *q);

/// Writes only q (k + (nd + 1) kf entries starting at q) from the contact velocities v (3k):
/// [v_n; D^T v_t; 0]. The matrix does not change while v does (Routh's impulse steps).
void ipx_ap_fill_q(const ipx_ap_layout *L, const double *v, double *q);

/// Contact impulses pi (3k, [t1 t2 n], N*s) from the AP part of an LCP solution (z starts at
/// lambda_n, in the layout's scaled units).
void ipx_ap_impulse(const ipx_ap_layout *L, const double *z, double *pi);

#endif
