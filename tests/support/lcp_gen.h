/// Random linear complementarity problems LCP(q, M) of classes on which Lemke's method is
/// guaranteed to end with a solution, for test_lcp and bench_lcp. M is n x n column-major.
#ifndef IMPAX_TEST_LCP_GEN_H
#define IMPAX_TEST_LCP_GEN_H

#include "impax/impax.h"

typedef enum ipx_lcp_class {
    /// B B^T + 0.1 I (B n x n Gaussian): symmetric positive definite, unique solution for any q.
    IPX_LCP_SPD,
    /// B B^T with B n x (n/2 + 1): symmetric PSD, rank deficient. Solvable for the planted q;
    /// z is not unique but w (indeed M z) is.
    IPX_LCP_PSD,
    /// D1 (S + K) D2: S SPD, K skew, D1 and D2 positive diagonal spanning e^-2..e^2. S + K is
    /// positive definite, so all its principal minors are positive and the diagonal scalings
    /// keep them positive: a P-matrix (unique solution for any q), neither symmetric nor PD.
    IPX_LCP_P_MATRIX,
    /// [[G, -A^T], [A, 0]] with G = B B^T PSD of rank about n/2: M + M^T is PSD, so M is
    /// copositive-plus (the KKT matrix of a convex QP); solvable for the planted q.
    IPX_LCP_MONOTONE,
    /// The Anitescu-Potra impact LCP (core/src/numerics/anitescu_potra.h):
    ///   [[G_nn, G_nD, 0], [G_Dn, G_DD, E], [mu, -E^T, 0]],  q = [Jbar u; 0]
    /// with G = Jbar Minv Jbar^T from random bodies (inverse masses and inertias spanning
    /// five decades, so the rows of M differ greatly in scale) and u random body velocities.
    /// M is copositive (not copositive-plus); for this q Lemke's method still ends with a
    /// solution (Anitescu & Potra 1997): z >= 0, M z >= 0, z^T M z = 0 force Jbar^T lambda = 0,
    /// so q^T z = u^T Jbar^T lambda = 0 >= 0.
    IPX_LCP_IMPACT,
    IPX_LCP_N_CLASSES
} ipx_lcp_class;

/// Short name of a class ("spd", "psd", ...).
const char *ipx_lcp_class_name(ipx_lcp_class cls);

/// Fills M (n x n, n <= 256) of class cls and a q for which LCP(q, M) has a solution.
/// q is planted (q = w* - M z* for a random complementary pair z*, w* >= 0, each index active
/// with probability 1/2) for SPD, PSD, P-matrix and monotone; for SPD and P-matrix, with
/// probability 1/2 q is Gaussian instead, which has a solution too. For the impact class q is the
/// natural [Jbar u; 0]. z_star (may be NULL) receives z* and the return value is 1 when q is
/// planted, else 0.
int ipx_lcp_generate(ipx_lcp_class cls, int n, ipx_rng *rng, double *M, double *q, double *z_star);

/// q = w* - M z* for a random complementary pair (z*, w*): z*_i in (0, 2) or w*_i in (0, 2)
/// with probability 1/2 each. z_star receives z*.
void ipx_lcp_planted_q(int n, const double *M, ipx_rng *rng, double *q, double *z_star);

#endif
