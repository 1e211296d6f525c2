/* A stop beside a hinge (docs/validation.md "Impulses beside a joint"): a 1 kg, 0.4 m link
   (the robot arm's, worlds/robot_arm_strike.world) hinged to the world at one end turns at
   omega about the hinge axis and meets a fixed stop at a point d below the axis, the stop's
   normal along the link. Only the hinge rotation moves the point, so W_nn = d^2 / I_p (I_p the
   link's inertia about the axis) and the other rows are held by the hinge (zero rows of W);
   a plastic contact (e = 0, as the world's post) stops the point with the normal impulse
   pi_n = omega d / W_nn = I_p omega / d. The impulse grows without bound as d shrinks while its
   moment about the axis, pi_n d = I_p omega, stays the link's angular momentum: the 368 N s at
   4e-5 m/s of the arm's trace, at 0.73 mm from its first joint, is this answer. PLUS and
   bowling give it to 1e-9 from d = 0.1 m down to 0.1 mm; on the axis (d = 0) the point does
   not move, nothing approaches and the impulse is zero. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ensure.h"
#include "impax/constrained.h"
#include "impax/impax.h"
#include "model_test.h"

#define MASS 1.0         /* kg */
#define HALF 0.2         /* m, the link's centre of mass from the hinge */
#define I_AXIS 0.0137333 /* kg m^2, about its centre, across the link (the world's iyy) */
#define I_LONG 0.0008    /* kg m^2, about its long axis */
#define OMEGA 0.9        /* rad/s about +y: the free end goes down */
#define I_P (I_AXIS + MASS * HALF * HALF) /* kg m^2, about the hinge axis */

/* A row of body 0 for the velocity of its point at r (from its centre of mass, m) along e. */
static ipx_row point_row(const double r[3], const double e[3])
{
    ipx_row row = {.body = {0, -1}};
    row.J[0][0] = e[0], row.J[0][1] = e[1], row.J[0][2] = e[2];
    row.J[0][3] = r[1] * e[2] - r[2] * e[1]; /* r x e */
    row.J[0][4] = r[2] * e[0] - r[0] * e[2];
    row.J[0][5] = r[0] * e[1] - r[1] * e[0];
    return row;
}

/* W and v of the link at the stop d (m) below the hinge, into W (9) and v (3). */
static void hinge_stop(double d, double *W, double *v)
{
    /* the link along +x from the hinge at the origin; its centre of mass at (HALF, 0, 0) */
    ipx_body link = {.inv_mass = 1.0 / MASS,
                     .inv_inertia = {1.0 / I_LONG, 0, 0, 0, 1.0 / I_AXIS, 0, 0, 0, 1.0 / I_AXIS},
                     .com = {HALF, 0, 0}};
    const double ex[3] = {1, 0, 0}, ey[3] = {0, 1, 0}, ez[3] = {0, 0, 1}, zero[3] = {0, 0, 0};
    const double hinge[3] = {-HALF, 0, 0}, stop[3] = {-HALF, 0, -d};
    ipx_row joint[5] = {point_row(hinge, ex), point_row(hinge, ey), point_row(hinge, ez),
                        point_row(zero, zero), point_row(zero, zero)};
    joint[3].J[0][3] = 1.0; /* no turning about x or z */
    joint[4].J[0][5] = 1.0;
    /* [t1, t2, n] with n = +x (the stop's face, pushing the link away) and t1 x t2 = n */
    const ipx_row contact[3] = {point_row(stop, ey), point_row(stop, ez), point_row(stop, ex)};
    const ipx_constrained s = {1, &link, 5, joint, 3, contact};
    double u[6] = {0, 0, -OMEGA * HALF, 0, OMEGA, 0}; /* turning about the hinge */
    static double work[4096];
    ENSURE(ipx_constrained_work_doubles(1, 5, 3) <= sizeof work / sizeof work[0]);
    char msg[IPX_MESSAGE_SIZE];
    ENSURE(ipx_constrained_assemble(&s, u, W, v, work, NULL, msg, sizeof msg) == IPX_OK);
}

static void test_stop_beside_a_hinge_takes_the_angular_momentum(void)
{
    const char *models[] = {"plus", "bowling"};
    const double lever[] = {0.1, 0.01, 7.3e-4, 1e-4}; /* m */
    for (int mi = 0; mi < 2; mi++)
        for (size_t i = 0; i < sizeof lever / sizeof lever[0]; i++) {
            const double d = lever[i];
            double W[9], v[3];
            hinge_stop(d, W, v);
            ENSURE(fabs(W[8] - d * d / I_P) <= 1e-12 * d * d / I_P); /* W_nn = d^2 / I_p */
            const ipx_contact c = {.mu = 0.6, .e = 0.0, .v_capture = 0.01};
            const ipx_problem p = {
                .k = 1, .W = W, .v = v, .contact = &c, .flags = IPX_PROBLEM_W_ASSEMBLED};
            const ipx_params par = ipx_test_params(models[mi], "");
            ipx_result r;
            ENSURE(ipx_test_solve(&par, &p, &r) == IPX_OK);
            const double expect = I_P * OMEGA / d; /* N s */
            printf("  %-7s d = %.2e m: pi_n = %.9g N s (I_p omega / d = %.9g), tangential %.2g\n",
                   models[mi], d, r.impulse[2], expect,
                   fmax(fabs(r.impulse[0]), fabs(r.impulse[1])));
            ENSURE(fabs(r.impulse[2] - expect) <= 1e-9 * expect);
            ENSURE(r.impulse[0] == 0.0 && r.impulse[1] == 0.0); /* held by the hinge */
        }
}

static void test_stop_on_the_hinge_axis_takes_nothing(void)
{
    double W[9], v[3];
    hinge_stop(0.0, W, v);
    for (int i = 0; i < 9; i++) ENSURE(W[i] == 0.0); /* every row held by the hinge */
    ENSURE(fabs(v[2]) <= 1e-15);
    const ipx_contact c = {.mu = 0.6, .e = 0.0, .v_capture = 0.01};
    const ipx_problem p = {.k = 1, .W = W, .v = v, .contact = &c, .flags = IPX_PROBLEM_W_ASSEMBLED};
    const ipx_params par = ipx_test_params("plus", "");
    ipx_result r;
    ENSURE(ipx_test_solve(&par, &p, &r) == IPX_OK);
    for (int a = 0; a < 3; a++) ENSURE(r.impulse[a] == 0.0);
}

int main(void)
{
    RUN(test_stop_beside_a_hinge_takes_the_angular_momentum);
    RUN(test_stop_on_the_hinge_axis_takes_nothing);
    return ipx_test_exit();
}
