/// An exact free flight of a body with isotropic inertia (the cube of the tosses), for the
/// replay tests of impax (tests/replay) and of the anchors (tests/anchors): its state in closed
/// form, and the position error a semi-implicit (symplectic) Euler step makes of it.
#ifndef IMPAX_TEST_FREE_FLIGHT_H
#define IMPAX_TEST_FREE_FLIGHT_H

/// a ⊗ b (w x y z).
void ipx_quat_product(const double a[4], const double b[4], double out[4]);
/// The rotation by angle (rad) about the unit axis.
void ipx_quat_about(const double axis[3], double angle, double q[4]);

/// The flight at t: thrown from (0.1, -0.2, z0_m) at (0.7, -0.4, 1.2) m/s, tilted 0.9 rad about
/// (0.48, 0.64, 0.6), spinning at (3, -4, 2) rad/s in the body frame (|w| = sqrt 29), under
/// gravity g along -z: x = x0 + v0 t - g t^2 e_z / 2, v = v0 - g t e_z, q = q0 ⊗ exp(w_b t / 2),
/// w_b constant (isotropic inertia: no gyroscopic torque).
void ipx_free_flight(double z0_m, double g_mps2, double t_s, double x_m[3], double q[4],
                     double v_mps[3], double w_body_radps[3]);

/// m: how far from the flight at t_s the centre is after steps steps of h of semi-implicit Euler
/// (v += g h, then x += h v): x_n = x0 + v0 n h - g h^2 n (n + 1) / 2, so ½ g h t below the
/// parabola, plus v0 times any difference between n h and t_s.
double ipx_free_flight_euler_error_m(double g_mps2, double h_s, double steps, double t_s);

#endif
