/* Rigid poses for the SDF loader: SDF's "x y z roll pitch yaw" and their composition. */
#ifndef IMPAX_WORLD_POSE_H
#define IMPAX_WORLD_POSE_H

typedef struct ipx_pose {
    double p[3]; /* m, origin in the parent frame */
    double R[9]; /* row-major rotation: columns are the frame's axes in the parent frame */
} ipx_pose;

ipx_pose ipx_pose_identity(void);
/// SDF 1.6: R = Rz(yaw) Ry(pitch) Rx(roll) (rotations about the fixed parent axes x, y, z in
/// that order).
ipx_pose ipx_pose_from_xyzrpy(const double xyz_rpy[6]);
/// The pose of `child` (given relative to `parent`) in parent's own parent frame.
ipx_pose ipx_pose_compose(const ipx_pose *parent, const ipx_pose *child);
/// |v| without overflow or underflow (scaled by the largest component first): finite for any
/// finite v.
double ipx_vec3_norm(const double v[3]);
/// v / |v| into out, computed on v scaled by its largest component so that neither 1e155 nor
/// 1e-300 components lose the direction. 0, or -1 (out untouched) for a zero or non-finite v.
int ipx_vec3_unit(const double v[3], double out[3]);
/// The inverse pose (R^T, -R^T p).
ipx_pose ipx_pose_inverse(const ipx_pose *pose);
/// R v.
void ipx_pose_rotate(const ipx_pose *pose, const double v[3], double out[3]);
/// R A R^T (a tensor given in the pose's frame, expressed in the parent frame).
void ipx_pose_rotate_tensor(const ipx_pose *pose, const double A[9], double out[9]);

#endif
