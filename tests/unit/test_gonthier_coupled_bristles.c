/* Bristle springs coupled through a shared body (ipx_gonthier_step): a point of mass m resting
   on N contacts of one normal, like a table on N legs on a slope that static friction holds,
   so that every entry of W's tangential and normal blocks is 1/m. Host steps of 10 ms carry the
   velocities, depths and bristles over, as the ODE adapter does.
   - The sub-step is set by each contact's own W_tt, for accuracy: the bristle's spring on
     1/m, 0.2 / sqrt(sigma0 / m), or a tenth of its time constant sigma1 / sigma0 where that is
     longer (an overdamped bristle, as here: 316 us), whatever N: 32 sub-steps a 10 ms step.
     Held at its start stretch, the bristle's spring was kept below its stability bound
     0.2 / sqrt(w sigma0) with w the Gershgorin row sum N / m: 159, 317, 633 and 1 265
     sub-steps on 1, 4, 16 and 64 legs.
   - The energy never rises: over each host step the kinetic energy and what the contacts hold
     change by no more than the load's work m a.dx (dx from the step's mean impulse), beyond
     the rounding of sums over the n contacts (16 n eps of the energies compared).
   - The stick holds: the slip ends below 1e-9 m/s, no creep at h w |load|. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "ensure.h"
#include "impax/gonthier.h"
#include "model_test.h"

static const double mass = 0.01, host_h = 0.01; /* kg, s */

typedef struct legs_rest {
    double worst_gain; /* J: the largest of one host step, above the rounding */
    double slip;       /* m/s: at the end */
    int substeps;      /* of the first host step */
} legs_rest;

/* J: kinetic energy of the point of velocity u (m/s). */
static double kinetic(const double u[3])
{
    return 0.5 * mass * (u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
}

/* The point on n contacts under the load accel (m/s^2) from the slip v_t0 (m/s along t1), at
   the depth its share of the load rests at, fresh bristles; `seconds` of host steps. */
static legs_rest rest_on_legs(int n, const double accel_body[3], double v_t0, double seconds)
{
    const int rows = 3 * n;
    double *W = calloc((size_t)rows * rows, sizeof *W), *v = calloc((size_t)rows, sizeof *v);
    double *accel = calloc((size_t)rows, sizeof *accel), *mean = calloc((size_t)rows, sizeof *mean);
    double *depth = calloc((size_t)n, sizeof *depth);
    ipx_contact *c = calloc((size_t)n, sizeof *c);
    ipx_gonthier_state *st = calloc((size_t)n, sizeof *st);
    ipx_params par = ipx_test_params("gonthier", "k=100,p=1,substep=1");
    ipx_gonthier_law law;
    c[0] = (ipx_contact){.mu = 0.5, .e = 0.5};
    ipx_gonthier_law_for(par.value, &c[0], &law);
    const double f_n = mass * -accel_body[IPX_N] / n; /* N per contact */
    for (int i = 0; i < n; i++) {
        c[i] = c[0];
        depth[i] = pow(f_n / law.k, 1.0 / law.p);
        st[i] = ipx_gonthier_fresh(&law);
        ipx_gonthier_normal(&st[i], &law, depth[i], 0.0); /* resting: latched at v_floor */
        for (int a = 0; a < 3; a++) {
            v[3 * i + a] = a == IPX_T1 ? v_t0 : 0.0;
            accel[3 * i + a] = accel_body[a];
            for (int j = 0; j < n; j++) W[(3 * i + a) + (size_t)rows * (3 * j + a)] = 1.0 / mass;
        }
    }
    ENSURE(c[0].mu * -accel_body[IPX_N] > hypot(accel_body[IPX_T1], accel_body[IPX_T2]));
    ENSURE(fabs(v_t0) < law.v_s); /* in stick */
    const ipx_problem p = {.k = n, .W = W, .v = v, .contact = c};
    ipx_workspace *ws = ipx_workspace_create(&par, n);
    legs_rest out = {-INFINITY, 0.0, 0};
    for (int step = 0; step * host_h < seconds; step++) {
        double before = 0.0, after = 0.0, u[3], u_end[3], work = 0.0; /* J */
        for (int i = 0; i < n; i++) before += ipx_gonthier_stored_energy(&law, &st[i], depth[i]);
        ipx_result r;
        ENSURE(ipx_gonthier_step(&par, &p, depth, st, host_h, accel, ws, &r, mean) == IPX_OK);
        if (step == 0) out.substeps = r.counts.steps;
        for (int a = 0; a < 3; a++) {
            double pushed = 0.0; /* m/s: the contacts' mean impulse over the step, on the point */
            for (int i = 0; i < n; i++) pushed += mean[3 * i + a] / mass;
            const double dx = (v[a] + pushed + 0.5 * accel_body[a] * host_h) * host_h; /* m */
            work += mass * accel_body[a] * dx;
            u[a] = v[a];
            u_end[a] = r.v_post[a] + accel_body[a] * host_h;
        }
        for (int i = 0; i < n; i++) {
            after += ipx_gonthier_stored_energy(&law, &st[i], depth[i]);
            for (int a = 0; a < 3; a++) v[3 * i + a] = u_end[a];
        }
        const double scale =
            kinetic(u) + kinetic(u_end) + fabs(work) + before + after + 0.5 * mass * v_t0 * v_t0;
        out.worst_gain = fmax(out.worst_gain, kinetic(u_end) - kinetic(u) + after - before - work -
                                                  16.0 * n * DBL_EPSILON * scale);
    }
    out.slip = hypot(v[IPX_T1], v[IPX_T2]);
    ipx_workspace_destroy(ws);
    free(W), free(v), free(accel), free(mean), free(depth), free(c), free(st);
    return out;
}

static const double slope = 20.0 * 3.14159265358979323846 / 180.0; /* rad: tan 0.36 < mu 0.5 */

static void test_substeps_do_not_grow_with_the_contacts_a_body_shares(void)
{
    ipx_params par = ipx_test_params("gonthier", "k=100,p=1,substep=1");
    const ipx_contact c = {.mu = 0.5, .e = 0.5};
    ipx_gonthier_law law;
    ipx_gonthier_law_for(par.value, &c, &law);
    const double h_bristle = fmax(0.2 / sqrt(law.sigma0 / mass), 0.1 * law.sigma1 / law.sigma0);
    const double h_spring = 0.2 / sqrt(law.k / mass);                       /* p = 1: k' = k */
    const int alone = (int)ceil(host_h / fmin(h_bristle, h_spring) - 1e-9); /* 16 */
    const double accel[3] = {9.81 * sin(slope), 0.0, -9.81 * cos(slope)};
    for (int n = 1; n <= 64; n *= 4) {
        const legs_rest r = rest_on_legs(n, accel, 5e-4, host_h);
        printf("  %2d legs: %d sub-steps a %.0f ms step (one contact alone: %d)\n", n, r.substeps,
               host_h * 1e3, alone);
        ENSURE(r.substeps == alone);
    }
}

static void test_energy_never_rises_and_the_stick_holds(void)
{
    const double accel[3] = {9.81 * sin(slope), 0.0, -9.81 * cos(slope)};
    for (int n = 1; n <= 64; n *= 4) {
        const legs_rest r = rest_on_legs(n, accel, 5e-4, 0.5);
        printf("  %2d legs: largest gain of a step %.3g J, slip at the end %.3g m/s\n", n,
               r.worst_gain, r.slip);
        ENSURE(r.worst_gain <= 0.0);
        ENSURE(r.slip <= 1e-9);
    }
}

/* One contact of a point of 1 kg in stick (ipx_gonthier_friction with the exact w = 1/m, so the
   step's end slip is v - h w F): a bristle barely damped (sigma1 = 1 N s/m) rings at
   omega = sqrt(sigma0 / m). Its stretch z and the slip v, taken at omega h up to 100, never
   gain energy over a ring-down: m v^2 / 2 + sigma0 z^2 / 2 ends below its start. Held at its
   start stretch, the bristle's spring was stable only while
   (omega h)^2 < 4 + 2 h w sigma1: at omega h = 20 and 100 the energy ended 21 and 1 450 times
   above its start. */
static void test_a_lone_bristle_is_stable_at_any_step(void)
{
    ipx_params par = ipx_test_params("gonthier", "sigma1=1");
    const ipx_contact c = {.mu = 0.5, .e = 0.5};
    ipx_gonthier_law law;
    ipx_gonthier_law_for(par.value, &c, &law);
    const double m = 1.0, f_n = 1e3, omega = sqrt(law.sigma0 / m); /* kg, N (no saturation), 1/s */
    const double omega_h[4] = {0.2, 4.0, 20.0, 100.0};
    for (int i = 0; i < 4; i++) {
        const double h = omega_h[i] / omega;
        ipx_gonthier_state st = ipx_gonthier_fresh(&law);
        double v[2] = {0.5 * law.v_s, 0.0}, f[2];
        const double start = 0.5 * m * v[0] * v[0];
        double energy = start;
        for (int step = 0; step < 2000; step++) {
            ipx_gonthier_friction(&st, &law, f_n, v, h, 1.0 / m, f);
            for (int j = 0; j < 2; j++) v[j] += h * f[j] / m;
            energy = 0.5 * m * (v[0] * v[0] + v[1] * v[1]) +
                     0.5 * law.sigma0 * (st.z[0] * st.z[0] + st.z[1] * st.z[1]);
        }
        printf("  omega h %5.1f: energy after 2000 steps %.3g of the start's\n", omega_h[i],
               energy / start);
        ENSURE(energy < start);
    }
}

int main(void)
{
    RUN(test_a_lone_bristle_is_stable_at_any_step);
    RUN(test_substeps_do_not_grow_with_the_contacts_a_body_shares);
    RUN(test_energy_never_rises_and_the_stick_holds);
    return ipx_test_exit();
}
