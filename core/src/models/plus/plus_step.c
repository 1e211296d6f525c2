/* PLUS interval length of one sliding contact (paper 2e; docs/models/plus.md §4). Over the interval
   its slip velocity moves on the segment v(alpha) = v0 + alpha d, d = A_xy pi (m/s). */
#include <math.h>

#include "mathutil.h"
#include "plus_step.h"

/* Smallest positive root with a + alpha b > 0 of the squared direction limit (2.14):
   (b^2 - c^2 a |d|^2) alpha^2 + 2ab(1 - c^2) alpha + a^2(1 - c^2) = 0, with a = v0.v0,
   b = v0.d, c = cos(theta_max). The constant term is > 0, so the product of the roots has the
   sign of the leading coefficient. The caller knows the limit is crossed inside (0, 1). */
static double direction_limit(double a, double b, double dd, double c)
{
    double q2 = b * b - c * c * a * dd, q1 = 2.0 * a * b * (1.0 - c * c),
           q0 = a * a * (1.0 - c * c);
    double disc = q1 * q1 - 4.0 * q2 * q0;
    if (disc < 0.0) disc = 0.0;
    /* stable pair: r1 = -2 q0 / (q1 + sgn(q1) sqrt(disc)), r2 = q0 / (q2 r1) */
    double t = -0.5 * (q1 + copysign(sqrt(disc), q1));
    double roots[2] = {t != 0.0 ? q0 / t : INFINITY, q2 != 0.0 ? t / q2 : INFINITY};
    double best = INFINITY;
    for (int i = 0; i < 2; i++)
        if (roots[i] > 0.0 && a + roots[i] * b > 0.0) best = fmin(best, roots[i]);
    return best;
}

double plus_slide_alpha(const double v0[2], const double d[2], double v_t, double cos_theta,
                        double alpha_min, int *limit)
{
    const double v1[2] = {v0[0] + d[0], v0[1] + d[1]};
    const double a = v0[0] * v0[0] + v0[1] * v0[1], b = v0[0] * d[0] + v0[1] * d[1];
    const double dd = d[0] * d[0] + d[1] * d[1];
    *limit = PLUS_LIMIT_END;
    /* (2.12) at the end of the interval: take all of it, no tiny terminal interval; but only
       while the slip still shrinks at the end (b + dd = v1.d <= 0: the closest point (2.13) is
       not inside). Past the closest point the friction against the start slip acts along the
       slip, and does work on the bodies: deviation 14 */
    if (ipx_length2(v1[0], v1[1]) < v_t && b + dd <= 0.0) return 1.0;
    if (dd > 0.0) {
        /* (2.13): closest point to the origin; (2.12): the contact rolls from there on */
        double a_cp = -b / dd;
        *limit = PLUS_LIMIT_CLOSEST;
        if (a_cp > 0.0 && a_cp < 1.0 && ipx_length2(v0[0] + a_cp * d[0], v0[1] + a_cp * d[1]) < v_t)
            return a_cp;
    }
    /* (2.14): the slip direction may turn by at most theta_max */
    double cos_end = (a + b) / (sqrt(a) * ipx_length2(v1[0], v1[1]));
    *limit = PLUS_LIMIT_NONE;
    if (cos_end >= cos_theta) return 1.0;
    *limit = PLUS_LIMIT_DIRECTION;
    double alpha = direction_limit(a, b, dd, cos_theta);
    return fmin(fmax(alpha, alpha_min), 1.0);
}
