/* The normal dampers count the friction that pulls a contact out as well as the friction that
   presses one in (docs/models/gonthier.md §6.5a; kind 4 of demo_cyl's energy gains in
   docs/real-clients.md).

   A planar box of 1 kg, 0.2 m by 0.1 m, held by static friction on a 20 degree slope on its
   two lower corners. The friction acts below the centre of mass, so its torque unloads the
   uphill corner: through W_nt it pulls that contact out while it presses the downhill one in.
   The box starts resting on its springs and slipping at 0.5 mm/s, so that the bristles take the
   slip up and spring back. Host steps of 100 us (one sub-step each) carry the velocities,
   depths and bristles over, as the ODE adapter does. Over every step the energy balance the
   real-client check takes from the trace (check_client.py), kinetic energy + what the contacts
   hold (ipx_gonthier_stored_energy) - gravity's work h F.(u + u+) / 2, must not rise, and the
   corners must stick (the box still settles onto its downhill corner at the end, slowly: at
   e = 0 the normal dampers are far stiffer than the springs). Counted only where it pressed
   in, the friction left out of the dampers' end rate held the uphill corner's force above the
   law's at the rate its depth moved while it opened: steps gained up to 4.2e-8 J, and the
   corners crept at 2.1e-9 m/s after 0.4 s. */
#include <float.h>
#include <math.h>
#include <stdio.h>

#include "ensure.h"
#include "impax/gonthier.h"
#include "model_test.h"

enum {
    K = 2,        /* contacts */
    DOF = 4,      /* the box's velocities: along t1, t2, n (m/s) and its spin about t2 (rad/s) */
    STEPS = 4000, /* 0.4 s: the bristles' oscillation dies out several times */
};

static const double mass = 1.0, half_w = 0.1, half_h = 0.05; /* kg, m, m */

/* The rows of contact c's velocities (t1, t2, n) over the box's (DOF), corners at
   (-+half_w, 0, -half_h) from the centre of mass: a spin w about t2 moves the point at r by
   w (r_n, 0, -r_t). */
static void jacobian(double J[3 * K][DOF])
{
    for (int c = 0; c < K; c++) {
        const double r_t = c == 0 ? -half_w : half_w, r_n = -half_h;
        const double rows[3][DOF] = {{1, 0, 0, r_n}, {0, 1, 0, 0}, {0, 0, 1, -r_t}};
        for (int i = 0; i < 3; i++)
            for (int d = 0; d < DOF; d++) J[3 * c + i][d] = rows[i][d];
    }
}

/* kg, kg, kg, kg m^2: the box's mass matrix (diagonal). */
static void masses(double M[DOF])
{
    M[0] = M[1] = M[2] = mass;
    M[3] = mass * (4.0 * half_w * half_w + 4.0 * half_h * half_h) / 12.0;
}

static double kinetic(const double M[DOF], const double u[DOF])
{
    double T = 0.0;
    for (int d = 0; d < DOF; d++) T += 0.5 * M[d] * u[d] * u[d];
    return T;
}

static void test_box_held_on_a_slope_gains_no_energy(void)
{
    const double g = 9.81, slope = 20.0 * acos(-1.0) / 180.0, h = 1e-4;
    double J[3 * K][DOF], M[DOF], W[3 * K * 3 * K];
    jacobian(J);
    masses(M);
    for (int a = 0; a < 3 * K; a++) /* W = J M^-1 J^T, column-major */
        for (int b = 0; b < 3 * K; b++) {
            W[a + 3 * K * b] = 0.0;
            for (int d = 0; d < DOF; d++) W[a + 3 * K * b] += J[a][d] * J[b][d] / M[d];
        }
    const double a_u[DOF] = {g * sin(slope), 0.0, -g * cos(slope), 0.0}; /* gravity, m/s^2 */
    double accel[3 * K];
    for (int a = 0; a < 3 * K; a++) {
        accel[a] = 0.0;
        for (int d = 0; d < DOF; d++) accel[a] += J[a][d] * a_u[d];
    }
    const ipx_contact c = {.mu = 0.5, .e = 0.0, .v_capture = 0.01}, cs[K] = {c, c};
    ENSURE(c.mu > tan(slope)); /* static friction holds it */
    ipx_params par = ipx_test_params("gonthier", "");
    ipx_workspace *ws = ipx_workspace_create(&par, K);
    ipx_gonthier_law law;
    ipx_gonthier_law_for(par.value, &c, &law);
    ipx_gonthier_state st[K];
    double depth[K], u[DOF] = {5e-4, 0.0, 0.0, 0.0}; /* slipping slower than v_s */
    ENSURE(u[0] < law.v_s);
    for (int i = 0; i < K; i++) { /* each corner carries half the normal load */
        st[i] = ipx_gonthier_fresh(&law);
        depth[i] = pow(0.5 * mass * g * cos(slope) / law.k, 1.0 / law.p);
        ipx_gonthier_normal(&st[i], &law, depth[i], 0.0); /* resting: latched at v_floor */
    }
    double worst = -INFINITY;
    for (int step = 0; step < STEPS; step++) {
        double v[3 * K];
        for (int a = 0; a < 3 * K; a++) {
            v[a] = 0.0;
            for (int d = 0; d < DOF; d++) v[a] += J[a][d] * u[d];
        }
        const ipx_problem p = {.k = K, .W = W, .v = v, .contact = cs};
        ipx_result r;
        double before = 0.0, stored = 0.0;
        for (int i = 0; i < K; i++) before += ipx_gonthier_stored_energy(&law, &st[i], depth[i]);
        ENSURE(ipx_gonthier_step(&par, &p, depth, st, h, accel, ws, &r, NULL) == IPX_OK);
        ENSURE(r.counts.steps == 1);
        double u_end[DOF], work = 0.0; /* J: gravity's, M a_u . h (u + u+) / 2 */
        for (int d = 0; d < DOF; d++) {
            u_end[d] = u[d] + a_u[d] * h;
            for (int a = 0; a < 3 * K; a++) u_end[d] += J[a][d] * r.impulse[a] / M[d];
            work += M[d] * a_u[d] * h * 0.5 * (u[d] + u_end[d]);
        }
        for (int i = 0; i < K; i++) stored += ipx_gonthier_stored_energy(&law, &st[i], depth[i]);
        const double dT = kinetic(M, u_end) - kinetic(M, u);
        const double scale = before + stored + fabs(work) + kinetic(M, u) + kinetic(M, u_end);
        worst = fmax(worst, dT + stored - before - work - 16.0 * DBL_EPSILON * scale);
        for (int d = 0; d < DOF; d++) u[d] = u_end[d];
    }
    ipx_workspace_destroy(ws);
    double slip = 0.0; /* m/s: the corners' at the end */
    for (int a = 0; a < 3 * K; a++) {
        double v_a = 0.0;
        for (int d = 0; d < DOF; d++) v_a += J[a][d] * u[d];
        if (a % 3 != IPX_N) slip = fmax(slip, fabs(v_a));
    }
    printf("  largest gain of a step %.3g J; the corners' slip at the end %.3g m/s\n", worst, slip);
    ENSURE(worst <= 0.0);
    ENSURE(slip <= 1e-9);
}

int main(void)
{
    RUN(test_box_held_on_a_slope_gains_no_energy);
    return ipx_test_exit();
}
