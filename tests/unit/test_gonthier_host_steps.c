/* The sub-steps hosts take (ipx_gonthier_step at the default substep of 100 us, within the
   springs' accuracy bound 0.2 / omega) against closed forms: one body dropped on a plane
   without gravity and advanced in host steps of 1 ms (10 sub-steps each), as the ODE adapter
   drives it.
   - A linear spring (p = 1, e = 1) is half a period of a harmonic oscillator: contact time
     pi / omega, peak depth v / omega, exit speed v.
   - Hertz's elastic impact (p = 3/2, e = 1): peak depth (5 m v^2 / (4 k))^(2/5), contact time
     2.943 delta_max / v (docs/models/gonthier.md V1).
   - The exit speed is e v for e 0.1 to 0.9 and impact speeds 0.1 to 5 m/s (Eq. 10's promise).
   Bounded by the springs' own 0.2 / sqrt(W_nn k') alone (substep=1: a few sub-steps a host
   step here) the implicit midpoint rule leaves Hertz's ball at 0.9999 v and the drops up to
   0.88 % off e v (semi-implicit Euler, which held the springs at the step's start: 1.029 v and
   4.2 %), so these tolerances fail if the sub-steps grow past what the accuracy needs. */
#include <math.h>
#include <stdio.h>

#include "ensure.h"
#include "impax/gonthier.h"
#include "model_test.h"

static const double pi = 3.14159265358979323846;

typedef struct bounce {
    double v_out;    /* m/s, normal speed after the contact (> 0 leaving) */
    double peak;     /* m, largest depth: the vertex of the parabola through the host steps'
                        depths around the largest */
    double duration; /* s, first touch to separation (the last crossing interpolated) */
} bounce;

/* A body of mass m (kg) meeting the plane at v0 (m/s) at depth 0, in host steps of h (s). */
static bounce drop(const char *params, double m, double v0, double e, double h)
{
    double W[9] = {0}, v[3] = {0.0, 0.0, -v0};
    for (int a = 0; a < 3; a++) W[4 * a] = 1.0 / m;
    const ipx_contact c = {.mu = 0.0, .e = e};
    const ipx_problem p = {.k = 1, .W = W, .v = v, .contact = &c};
    ipx_params par = ipx_test_params("gonthier", params);
    ipx_workspace *ws = ipx_workspace_create(&par, 1);
    ipx_gonthier_law law;
    ipx_gonthier_law_for(par.value, &c, &law);
    ipx_gonthier_state st = ipx_gonthier_fresh(&law);
    double depth = 0.0, t = 0.0, last[3] = {0.0, 0.0, 0.0}; /* the depths of 3 host steps */
    bounce b = {0.0, 0.0, 0.0};
    for (int step = 0; step < 100000; step++) {
        ipx_result r;
        const double before = depth;
        ENSURE(ipx_gonthier_step(&par, &p, &depth, &st, h, NULL, ws, &r, NULL) == IPX_OK);
        v[IPX_N] = r.v_post[IPX_N];
        t += h;
        last[0] = last[1], last[1] = last[2], last[2] = depth;
        const double curve = last[0] - 2.0 * last[1] + last[2];
        if (last[1] >= last[0] && last[1] > last[2] && curve < 0.0)
            b.peak = last[1] - (last[2] - last[0]) * (last[2] - last[0]) / (8.0 * curve);
        if (depth <= 0.0) { /* apart: the crossing, linearly between the last two depths */
            b.duration = t - h * depth / (depth - before);
            break;
        }
    }
    b.v_out = v[IPX_N];
    ipx_workspace_destroy(ws);
    return b;
}

static void test_linear_spring_is_half_an_oscillation(void)
{
    const double m = 1.0, k = 1e4, v0 = 1.0, omega = sqrt(k / m); /* 100 rad/s */
    const bounce b = drop("k=1e4,p=1,e=1", m, v0, 1.0, 1e-3);
    printf("  exit %.8f m/s (v %.1f), peak %.8f m (v/omega %.8f), contact %.6f s (pi/omega "
           "%.6f)\n",
           b.v_out, v0, b.peak, v0 / omega, b.duration, pi / omega);
    ENSURE(fabs(b.v_out / v0 - 1.0) < 2e-5);
    ENSURE(fabs(b.peak * omega / v0 - 1.0) < 3e-5);
    ENSURE(fabs(b.duration * omega / pi - 1.0) < 1e-4);
}

static void test_hertz_peak_depth_and_contact_time(void)
{
    const double m = 2.0, k = 1e6, v0 = 1.0; /* the paper's balls */
    const double dmax = pow(5.0 * m * v0 * v0 / (4.0 * k), 0.4);
    const bounce b = drop("k=1e6,e=1", m, v0, 1.0, 1e-3);
    printf("  exit %.7f m/s, peak %.4f mm (Hertz %.4f), contact %.3f ms (2.943 delta_max / v "
           "%.3f)\n",
           b.v_out, b.peak * 1e3, dmax * 1e3, b.duration * 1e3, 2.943 * dmax / v0 * 1e3);
    ENSURE(fabs(b.v_out / v0 - 1.0) < 1e-5);
    ENSURE(fabs(b.peak / dmax - 1.0) < 1e-3);
    ENSURE(fabs(b.duration / (2.943 * dmax / v0) - 1.0) < 2e-3);
}

static void test_exit_speed_is_e_times_the_impact_speed_in_host_steps(void)
{
    const double e[3] = {0.1, 0.5, 0.9}, v0[5] = {0.1, 0.5, 1.0, 2.0, 5.0};
    double worst = 0.0;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 5; j++) {
            const bounce b = drop("k=1e6", 2.0, v0[j], e[i], 1e-3);
            const double off = fabs(b.v_out / (e[i] * v0[j]) - 1.0);
            worst = fmax(worst, off);
            if (off >= 1e-4)
                printf("  e %.1f, v %.1f m/s: leaves at %.6f m/s\n", e[i], v0[j], b.v_out);
            ENSURE(off < 1e-4);
        }
    printf("  largest |v_out / (e v) - 1| over 15 drops in 1 ms host steps: %.2e\n", worst);
}

int main(void)
{
    RUN(test_linear_spring_is_half_an_oscillation);
    RUN(test_hertz_peak_depth_and_contact_time);
    RUN(test_exit_speed_is_e_times_the_impact_speed_in_host_steps);
    return ipx_test_exit();
}
