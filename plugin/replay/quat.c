/* Quaternion and rotation helpers (quat.h). */
#include "quat.h"

#include <math.h>

void cli_quat_product(const double a[4], const double b[4], double out[4])
{
    out[0] = a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3];
    out[1] = a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2];
    out[2] = a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1];
    out[3] = a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0];
}

void cli_quat_unit(const double q[4], double out[4])
{
    const double n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    for (int i = 0; i < 4; i++) out[i] = q[i] / n;
}

void cli_quat_rotation(const double q[4], double R[9])
{
    double u[4];
    cli_quat_unit(q, u);
    const double w = u[0], x = u[1], y = u[2], z = u[3];
    const double r[9] = {1 - 2 * (y * y + z * z), 2 * (x * y - w * z),     2 * (x * z + w * y),
                         2 * (x * y + w * z),     1 - 2 * (x * x + z * z), 2 * (y * z - w * x),
                         2 * (x * z - w * y),     2 * (y * z + w * x),     1 - 2 * (x * x + y * y)};
    for (int i = 0; i < 9; i++) R[i] = r[i];
}

void cli_quat_turn_back(const double q[4], const double v[3], double out[3])
{
    const double conj[4] = {q[0], -q[1], -q[2], -q[3]}, p[4] = {0.0, v[0], v[1], v[2]};
    double t[4], u[4];
    cli_quat_product(conj, p, t);
    cli_quat_product(t, q, u);
    for (int i = 0; i < 3; i++) out[i] = u[i + 1];
}

/* Shepperd's choice: the largest of 4 w^2, 4 x^2, 4 y^2, 4 z^2 is taken from the diagonal, the
   other three from the off-diagonal sums and differences divided by it, so nothing small divides. */
void cli_quat_from_rotation(const double R[9], double q[4])
{
    const double d[4] = {1 + R[0] + R[4] + R[8], 1 + R[0] - R[4] - R[8], 1 - R[0] + R[4] - R[8],
                         1 - R[0] - R[4] + R[8]};
    int k = 0;
    for (int i = 1; i < 4; i++)
        if (d[i] > d[k]) k = i;
    const double s = 2.0 * sqrt(d[k]);                              /* 4 |q_k| */
    const double skew[3] = {R[7] - R[5], R[2] - R[6], R[3] - R[1]}; /* 4 w (x, y, z) */
    const double sym[3] = {R[1] + R[3], R[2] + R[6], R[5] + R[7]};  /* 4 (xy, xz, yz) */
    /* q_k from the diagonal; the others from skew (w with x, y, z) and sym (pairs of x, y, z) */
    const double by_k[4][4] = {{0.25 * s, skew[0] / s, skew[1] / s, skew[2] / s},
                               {skew[0] / s, 0.25 * s, sym[0] / s, sym[1] / s},
                               {skew[1] / s, sym[0] / s, 0.25 * s, sym[2] / s},
                               {skew[2] / s, sym[1] / s, sym[2] / s, 0.25 * s}};
    for (int i = 0; i < 4; i++) q[i] = by_k[k][i];
    if (q[0] < 0.0)
        for (int i = 0; i < 4; i++) q[i] = -q[i];
    cli_quat_unit(q, q);
}

void cli_turn(const double R[9], const double a[3], double out[3])
{
    for (int i = 0; i < 3; i++)
        out[i] = R[3 * i] * a[0] + R[3 * i + 1] * a[1] + R[3 * i + 2] * a[2];
}
