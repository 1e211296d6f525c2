#include "free_flight.h"

#include <math.h>

static const double V0_MPS[3] = {0.7, -0.4, 1.2};

void ipx_quat_product(const double a[4], const double b[4], double out[4])
{
    out[0] = a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3];
    out[1] = a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2];
    out[2] = a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1];
    out[3] = a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0];
}

void ipx_quat_about(const double axis[3], double angle, double q[4])
{
    q[0] = cos(angle / 2);
    for (int i = 0; i < 3; i++) q[i + 1] = sin(angle / 2) * axis[i];
}

void ipx_free_flight(double z0_m, double g_mps2, double t_s, double x_m[3], double q[4],
                     double v_mps[3], double w_body_radps[3])
{
    const double x0[3] = {0.1, -0.2, z0_m}, wb[3] = {3.0, -4.0, 2.0},
                 tilt_axis[3] = {0.48, 0.64, 0.6};
    double q0[4], dq[4];
    ipx_quat_about(tilt_axis, 0.9, q0);
    const double wn = sqrt(wb[0] * wb[0] + wb[1] * wb[1] + wb[2] * wb[2]);
    const double axis[3] = {wb[0] / wn, wb[1] / wn, wb[2] / wn};
    ipx_quat_about(axis, wn * t_s, dq);
    for (int i = 0; i < 3; i++) {
        x_m[i] = x0[i] + V0_MPS[i] * t_s + (i == 2 ? -0.5 * g_mps2 * t_s * t_s : 0.0);
        v_mps[i] = V0_MPS[i] + (i == 2 ? -g_mps2 * t_s : 0.0);
        w_body_radps[i] = wb[i];
    }
    ipx_quat_product(q0, dq, q);
}

double ipx_free_flight_euler_error_m(double g_mps2, double h_s, double steps, double t_s)
{
    double e[3];
    for (int i = 0; i < 3; i++) e[i] = V0_MPS[i] * (steps * h_s - t_s);
    e[2] += -g_mps2 * (h_s * h_s * steps * (steps + 1) / 2 - t_s * t_s / 2);
    return sqrt(e[0] * e[0] + e[1] * e[1] + e[2] * e[2]);
}
