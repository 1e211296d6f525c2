/// Inside the core: the problem's own unit of mass, for the linear systems that mix rows of W
/// (velocity per impulse, 1/kg) with rows of pure numbers (friction, prescribed impulses, the
/// Anitescu-Potra LCP's E and mu blocks).
///
/// A solver with tolerances relative to the whole matrix (Lemke's pivot tolerances, the rank
/// threshold of a pivoted QR) cannot judge such a matrix fairly: in kg, a body of 1e11 kg puts W
/// entries of 1e-12 next to 1s, and W looks like round-off; a body of 1e-9 kg the other way
/// round. Multiplying the W rows (or W's block) by the problem's mass unit makes them pure numbers
/// of order 1 in every unit system, so the same pivots are taken and the same answer comes out
/// whatever the unit of mass. Velocities need no such unit: every row of these systems with a
/// velocity on its right-hand side is homogeneous in it.
#ifndef IMPAX_UNITS_H
#define IMPAX_UNITS_H

#include "impax/types.h"

/// kg: 1 / (mean of the normal diagonal entries W_nn,i of the k contacts of W, 3k x 3k), the
/// effective mass of a typical contact, rounded to the nearest power of two (so that scaling by
/// it is exact); 1 if that mean is not a positive finite number (no contact can be pushed).
/// W * ipx_mass_unit is then dimensionless with a mean normal diagonal between 1/sqrt 2 and sqrt 2.
double ipx_mass_unit(int k, const double *W);

/// ipx_mass_unit of p's W, given densely or as blocks (the same sum, the same bits).
double ipx_problem_mass_unit(const ipx_problem *p);

/// kg: the impulse unit of one contact of the Anitescu-Potra LCP (anitescu_potra.h), sqrt(unit / wnn)
/// for the problem's mass unit `unit` (kg, ipx_mass_unit) and the contact's normal diagonal
/// entry wnn = W_nn,i (1/kg), rounded to the nearest power of two; `unit` itself if that is not
/// a positive finite number (a contact that cannot be pushed). c^2 W_nn,i / unit is then between
/// 1/2 and 2, and c = unit exactly when unit W_nn,i is in (1/2, 2].
double ipx_contact_scale(double unit, double wnn);

#endif
