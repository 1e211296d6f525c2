#include "pose.h"

#include <math.h>
#include <string.h>

ipx_pose ipx_pose_identity(void)
{
    ipx_pose p = {{0, 0, 0}, {1, 0, 0, 0, 1, 0, 0, 0, 1}};
    return p;
}

ipx_pose ipx_pose_from_xyzrpy(const double v[6])
{
    const double cr = cos(v[3]), sr = sin(v[3]), cp = cos(v[4]), sp = sin(v[4]), cy = cos(v[5]),
                 sy = sin(v[5]);
    ipx_pose p = {{v[0], v[1], v[2]},
                  {cy * cp, cy * sp * sr - sy * cr, cy * sp * cr + sy * sr, sy * cp,
                   sy * sp * sr + cy * cr, sy * sp * cr - cy * sr, -sp, cp * sr, cp * cr}};
    return p;
}

/* The largest |component| of v (NaN if any is NaN). */
static double max_abs(const double v[3])
{
    double m = fabs(v[0]);
    for (int i = 1; i < 3; i++)
        if (!(fabs(v[i]) <= m)) m = fabs(v[i]);
    return m;
}

double ipx_vec3_norm(const double v[3])
{
    const double m = max_abs(v);
    if (!(m > 0) || !isfinite(m)) return m;
    const double x = v[0] / m, y = v[1] / m, z = v[2] / m;
    return m * sqrt(x * x + y * y + z * z);
}

int ipx_vec3_unit(const double v[3], double out[3])
{
    const double m = max_abs(v);
    if (!(m > 0) || !isfinite(m)) return -1;
    double s[3] = {v[0] / m, v[1] / m,
                   v[2] / m}; /* largest component +-1: no overflow, no underflow */
    const double n = sqrt(s[0] * s[0] + s[1] * s[1] + s[2] * s[2]);
    for (int i = 0; i < 3; i++) out[i] = s[i] / n;
    return 0;
}

void ipx_pose_rotate(const ipx_pose *pose, const double v[3], double out[3])
{
    double r[3];
    for (int i = 0; i < 3; i++)
        r[i] = pose->R[3 * i] * v[0] + pose->R[3 * i + 1] * v[1] + pose->R[3 * i + 2] * v[2];
    memcpy(out, r, sizeof r);
}

ipx_pose ipx_pose_compose(const ipx_pose *parent, const ipx_pose *child)
{
    ipx_pose out;
    ipx_pose_rotate(parent, child->p, out.p);
    for (int i = 0; i < 3; i++) out.p[i] += parent->p[i];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            double s = 0;
            for (int k = 0; k < 3; k++) s += parent->R[3 * i + k] * child->R[3 * k + j];
            out.R[3 * i + j] = s;
        }
    return out;
}

void ipx_pose_rotate_tensor(const ipx_pose *pose, const double A[9], double out[9])
{
    double RA[9];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            double s = 0;
            for (int k = 0; k < 3; k++) s += pose->R[3 * i + k] * A[3 * k + j];
            RA[3 * i + j] = s;
        }
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            double s = 0;
            for (int k = 0; k < 3; k++) s += RA[3 * i + k] * pose->R[3 * j + k];
            out[3 * i + j] = s;
        }
}

ipx_pose ipx_pose_inverse(const ipx_pose *pose)
{
    ipx_pose out;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) out.R[3 * i + j] = pose->R[3 * j + i];
    ipx_pose_rotate(&out, pose->p, out.p);
    for (int i = 0; i < 3; i++) out.p[i] = -out.p[i];
    return out;
}
