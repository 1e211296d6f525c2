/// Quaternion and rotation helpers of the replay libraries: unit quaternions w x y z, body to
/// world; rotation matrices row major.
#ifndef IMPAX_CLI_QUAT_H
#define IMPAX_CLI_QUAT_H

#ifdef __cplusplus
extern "C" {
#endif

/// out = a ⊗ b (out may not alias a or b).
void cli_quat_product(const double a[4], const double b[4], double out[4]);

/// out = q / |q| (q must not be zero; out may alias q).
void cli_quat_unit(const double q[4], double out[4]);

/// The rotation matrix of q, normalised first (q must not be zero).
void cli_quat_rotation(const double q[4], double R[9]);

/// The unit quaternion of the rotation matrix R (w >= 0).
void cli_quat_from_rotation(const double R[9], double q[4]);

/// out = q^-1 ⊗ (0, v) ⊗ q for unit q: v turned from q's outer frame (the world, for a body
/// to world q) into its inner one (out may not alias v).
void cli_quat_turn_back(const double q[4], const double v[3], double out[3]);

/// out = R a (out may not alias a).
void cli_turn(const double R[9], const double a[3], double out[3]);

#ifdef __cplusplus
}
#endif
#endif
