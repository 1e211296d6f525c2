/* The speeds and thresholds of the impact test (kinematics.c). */
#ifndef IMPAX_ODE_KINEMATICS_H
#define IMPAX_ODE_KINEMATICS_H

#include "internal.h"

/* Approach speed of a registered contact (m/s, > 0 approaching), NaN for bad data. */
double ipx_ode_approach_speed(const contact_record *r);
/* m/s: |g| h, the speed gravity adds in a step of h s. */
double ipx_ode_gravity_speed(const ipx_ode_context *ctx, dReal h);
/* m/s: approach speed above which a contact without bounce is impacting in a step of h s. */
double ipx_ode_impact_threshold(const ipx_ode_context *ctx, dReal h);

/* Dimensionless lever factor of a contact, sum over its dynamic bodies of sqrt(m_i W_i), with
   W_i = 1/m_i + (r_i x n)^T I_i^-1 (r_i x n) body i's part of the normal Delassus entry: the
   largest approach speed at the contact, per m/s, of bodies that each have the kinetic energy
   of moving at 1 m/s. 1 for one body pushed through its centre (a ball on the ground), 2 for a
   cube's corner on the ground, about 4 for two cubes' corners. NaN for bad mass data. */
double ipx_ode_lever_factor(const dContact *contact, dBodyID body1, dBodyID body2);

/* m/s: the approach speed above which a contact is an impact in a step whose gravity speed is
   gravity_speed = |g| h (m/s): impact_threshold + |g| h max(gravity_steps, jitter_steps x the
   lever factor); a dContactBounce contact impacts above the larger of that and its bounce_vel. */
double ipx_ode_contact_threshold(const ipx_ode_context *ctx, const dContact *contact, dBodyID body1,
                                 dBodyID body2, double gravity_speed);

#endif
