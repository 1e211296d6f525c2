/* <inertial>: mass, inertia tensor and inertial frame of a link, and the ranges that keep them a
   rigid body's that ODE can factorise (ranges.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ranges.h"
#include "sdf_parse.h"

/* <inertia>: the six entries of the symmetric tensor (SDF defaults: identity). */
static void parse_inertia(sdf_load *ld, const xmlNode *node, double I[9])
{
    static const char *const names[6] = {"ixx", "ixy", "ixz", "iyy", "iyz", "izz"};
    static const int at[6][2] = {{0, 0}, {0, 1}, {0, 2}, {1, 1}, {1, 2}, {2, 2}};
    for (const xmlNode *c = sdf_first(node); c; c = sdf_next(c)) {
        int k = 0;
        while (k < 6 && !sdf_is(c, names[k])) k++;
        if (k == 6) {
            sdf_unhandled(&ld->diag, c);
            continue;
        }
        double v;
        if (sdf_double(&ld->diag, c, &v) != 0) continue;
        I[3 * at[k][0] + at[k][1]] = I[3 * at[k][1] + at[k][0]] = v;
    }
}

/* The eigenvalues of the symmetric I in ascending order (the trigonometric solution of the
   characteristic cubic, on I scaled by its largest entry so that no square over- or underflows). */
static void principal_moments(const double I[9], double m[3])
{
    double scale = 0;
    for (int i = 0; i < 9; i++) scale = fmax(scale, fabs(I[i]));
    if (!(scale > 0)) {
        m[0] = m[1] = m[2] = 0;
        return;
    }
    double a[9];
    for (int i = 0; i < 9; i++) a[i] = I[i] / scale;
    const double off = a[1] * a[1] + a[2] * a[2] + a[5] * a[5], q = (a[0] + a[4] + a[8]) / 3;
    if (off == 0) { /* diagonal: exact */
        const double d[3] = {I[0], I[4], I[8]};
        m[0] = fmin(d[0], fmin(d[1], d[2]));
        m[2] = fmax(d[0], fmax(d[1], d[2]));
        m[1] = fmax(fmin(d[0], d[1]), fmin(fmax(d[0], d[1]), d[2])); /* the median */
        return;
    }
    const double d0 = a[0] - q, d1 = a[4] - q, d2 = a[8] - q;
    const double p = sqrt((d0 * d0 + d1 * d1 + d2 * d2 + 2 * off) / 6);
    if (!(p > 0)) {
        m[0] = m[1] = m[2] = q * scale;
        return;
    }
    /* r = det((A - q 1) / p) / 2, in [-1, 1] up to rounding */
    const double b0 = d0 / p, b1 = d1 / p, b2 = d2 / p, x = a[1] / p, y = a[2] / p, z = a[5] / p;
    double r = (b0 * (b1 * b2 - z * z) - x * (x * b2 - z * y) + y * (x * z - b1 * y)) / 2;
    r = fmax(-1.0, fmin(1.0, r));
    const double phi = acos(r) / 3, two_pi_3 = 2.0943951023931957;
    const double hi = q + 2 * p * cos(phi), lo = q + 2 * p * cos(phi + two_pi_3);
    m[0] = lo * scale;
    m[1] = (3 * q - hi - lo) * scale;
    m[2] = hi * scale;
}

/* A rigid body's tensor (positive definite, principal moments obeying the triangle inequality)
   in the ranges of ranges.h for this mass; the message says which condition fails. */
static void check_inertia(sdf_load *ld, const xmlNode *node, const scene_link *link)
{
    double m[3];
    principal_moments(link->inertia, m);
    const double g_lo = sqrt(fmax(m[0], 0) / link->mass), g_hi = sqrt(m[2] / link->mass);
    const char *name = sdf_s(link->name);
    if (!(m[0] > 0))
        sdf_error(&ld->diag, node,
                  "<inertia> of link '%s' is not positive definite (principal moments %g, %g, %g "
                  "kg m^2)",
                  name, m[0], m[1], m[2]);
    else if (m[0] + m[1] < m[2] * (1 - 1e-9))
        sdf_error(
            &ld->diag, node,
            "<inertia> of link '%s' is not a rigid body's: its principal moments %g, %g, "
            "%g kg m^2 break the triangle inequality (the two smaller must add up to the largest)",
            name, m[0], m[1], m[2]);
    else if (m[0] < RANGE_INERTIA_RATIO * m[2])
        sdf_error(&ld->diag, node,
                  "<inertia> of link '%s': the smallest principal moment %g kg m^2 is below %g of "
                  "the largest (%g): too thin a body for ODE's factorisation",
                  name, m[0], RANGE_INERTIA_RATIO, m[2]);
    else if (g_lo < RANGE_GYRATION_MIN || g_hi > RANGE_GYRATION_MAX)
        sdf_error(&ld->diag, node,
                  "<inertia> of link '%s' with mass %g kg: radii of gyration sqrt(I/m) %g to %g m "
                  "are out of range [%g, %g] m",
                  name, link->mass, g_lo, g_hi, RANGE_GYRATION_MIN, RANGE_GYRATION_MAX);
}

void sdf_parse_inertial(sdf_load *ld, const xmlNode *node, int link_index)
{
    ipx_pose local = ipx_pose_identity();
    scene_link *link = &ld->scene->links[link_index];
    const xmlNode *inertia =
        node; /* where a bad tensor is reported: its element, else <inertial> */
    int mass_ok = 1;
    for (const xmlNode *c = sdf_first(node); c; c = sdf_next(c)) {
        if (sdf_is(c, "mass")) {
            mass_ok =
                sdf_double_in(&ld->diag, c, RANGE_MASS_MIN, RANGE_MASS_MAX, "kg", &link->mass) == 0;
        } else if (sdf_is(c, "inertia")) {
            parse_inertia(ld, c, link->inertia);
            inertia = c;
        } else if (sdf_is(c, "pose")) {
            sdf_pose(&ld->diag, c, &local);
        } else {
            sdf_unhandled(&ld->diag, c);
        }
    }
    if (mass_ok) check_inertia(ld, inertia, link);
    link->inertial = ipx_pose_compose(&link->pose, &local);
}
