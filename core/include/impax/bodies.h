/// impax core: contact-space problems from free rigid bodies (no joints), in maximal coordinates.
///
/// Used by the paper examples in the tests, by the problem generator of the tests and benches,
/// and as a reference for the host adapters (which add bilateral joints on top).
///
/// Convention (PLUS paper, section 2.1): a contact between body1 and body2 (index -1 = the
/// immovable world) has a unit normal pointing from body1 to body2. Contact velocity rows are
/// [t1 t2 n]^T (v2 + w2 x (p - c2) - v1 - w1 x (p - c1)), so v_n > 0 is separating, and an
/// impulse pi acts +pi on body2 and -pi on body1.
#ifndef IMPAX_BODIES_H
#define IMPAX_BODIES_H

#include "impax/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/// A rigid body as the impact sees it.
typedef struct ipx_body {
    double inv_mass;       ///< 1/kg; 0 = immovable
    double inv_inertia[9]; ///< 1/(kg m^2), world frame, about the centre of mass, column-major
    double com[3];         ///< m, centre of mass, world frame
} ipx_body;

/// Where and how two bodies touch.
typedef struct ipx_contact_frame {
    int body1, body2;    ///< body indices, -1 = world
    double point[3];     ///< m, contact point, world frame
    double t1[3], t2[3]; ///< unit tangents, world frame
    double n[3];         ///< unit normal from body1 to body2, world frame; t1 x t2 = n
} ipx_contact_frame;

/// A body of mass m (kg) with a diagonal body-frame inertia (kg m^2) rotated by R (3x3,
/// column-major, body to world) and centred at com (m).
ipx_body ipx_body_make(double mass, const double inertia_diag[3], const double R[9],
                       const double com[3]);

/// Completes a frame from a normal: t1, t2 orthonormal with t1 x t2 = n (like ODE's dPlaneSpace).
void ipx_frame_from_normal(const double n[3], double t1[3], double t2[3]);

/// Contact-space W (3k x 3k, column-major) and, if body_vel is not NULL, v (3k) from the bodies'
/// velocities (6 per body: linear m/s then angular rad/s, world frame).
void ipx_bodies_assemble(int n_bodies, const ipx_body *bodies, int k,
                         const ipx_contact_frame *frames, const double *body_vel, double *W,
                         double *v);

/// Adds the velocity change M^-1 J^T pi of the contact impulses pi (3k, N*s) to body_vel.
void ipx_bodies_apply_impulse(int n_bodies, const ipx_body *bodies, int k,
                              const ipx_contact_frame *frames, const double *pi, double *body_vel);

#ifdef __cplusplus
}
#endif
#endif
