/* The friction's bristle gives the bodies no energy it does not give up (docs/models/gonthier.md
   §6.5b, kind 3 of demo_boxstack's energy gains in docs/real-clients.md).

   One contact of a 1 kg point (W = I / m), resting on its normal spring under a load
   (the host's accel, m/s^2) and slipping slower than v_s, so that the bristle holds it: host
   steps of 100 us (one sub-step each) carry the velocity, depth and bristle over, as the ODE
   adapter does. Over every step the energy balance the real-client check takes from the trace
   (check_client.py), kinetic energy + what the contact holds (ipx_gonthier_stored_energy) -
   the load's work m h a.(v + v+) / 2, must not rise, and the point must come to rest stuck
   (shortening the bristle does not let static friction creep). */
#include <float.h>
#include <math.h>
#include <stdio.h>

#include "ensure.h"
#include "impax/gonthier.h"
#include "model_test.h"

enum { STEPS = 4000 }; /* 0.4 s: the bristle's oscillation (316 rad/s) dies out several times */

typedef struct run {
    double gain; /* J: the largest of one step, above the rounding of the energies compared */
    double v_t;  /* m/s: the slip at the end */
} run;

/* The contact above under the load accel from the slip v_t0 (m/s, along t1). */
static run stick(const double accel[3], double v_t0)
{
    const double m = 1.0, W[9] = {1.0 / m, 0.0, 0.0, 0.0, 1.0 / m, 0.0, 0.0, 0.0, 1.0 / m};
    const ipx_contact c = {.mu = 0.5, .e = 0.0, .v_capture = 0.01};
    const ipx_problem p0 = {.k = 1, .W = W, .contact = &c};
    ipx_params par = ipx_test_params("gonthier", "");
    ipx_workspace *ws = ipx_workspace_create(&par, 1);
    ipx_gonthier_law law;
    ipx_gonthier_law_for(par.value, &c, &law);
    ENSURE(c.mu * m * -accel[IPX_N] > m * fabs(accel[IPX_T1])); /* static friction holds it */
    ENSURE(fabs(v_t0) < law.v_s);                               /* in stick */
    ipx_gonthier_state st = ipx_gonthier_fresh(&law);
    double v[3] = {v_t0, 0.0, 0.0}, depth = pow(m * -accel[IPX_N] / law.k, 1.0 / law.p);
    ipx_gonthier_normal(&st, &law, depth, 0.0); /* resting: latched at v_floor */
    const double h = 1e-4;
    double worst = -INFINITY;
    for (int step = 0; step < STEPS; step++) {
        ipx_problem p = p0;
        p.v = v;
        ipx_result r;
        const double before = ipx_gonthier_stored_energy(&law, &st, depth);
        ENSURE(ipx_gonthier_step(&par, &p, &depth, &st, h, accel, ws, &r, NULL) == IPX_OK);
        ENSURE(r.counts.steps == 1);
        double kinetic = 0.0, work = 0.0; /* J: the step's change, the load's work */
        for (int a = 0; a < 3; a++) {
            const double v_end = r.v_post[a] + accel[a] * h;
            kinetic += 0.5 * m * (v_end * v_end - v[a] * v[a]);
            work += m * h * accel[a] * 0.5 * (v[a] + v_end);
            v[a] = v_end;
        }
        const double stored = ipx_gonthier_stored_energy(&law, &st, depth);
        const double scale = fabs(before) + fabs(stored) + fabs(work) + 0.5 * m * v_t0 * v_t0;
        worst = fmax(worst, kinetic + stored - before - work - 16.0 * DBL_EPSILON * scale);
    }
    ipx_workspace_destroy(ws);
    const run out = {worst, hypot(v[IPX_T1], v[IPX_T2])};
    printf("  load (%.3g, %.3g) m/s^2, slip %.3g m/s: largest gain of a step %.3g J, slip at "
           "the end %.3g m/s\n",
           accel[IPX_T1], accel[IPX_N], v_t0, out.gain, out.v_t);
    return out;
}

/* Level ground, a slip of 0.5 mm/s: the bristle takes it up and springs back, its
   oscillation damped by sigma1. The bristle's force held over the step at its end stretch
   z + h v_d while the bodies moved by h (v + v+) / 2 gave them up to 3.7e-11 J a step more
   than the bristle gave up, where it sprang back. */
static void test_bristle_spring_back_gains_no_energy(void)
{
    const double accel[3] = {0.0, 0.0, -9.81};
    const run r = stick(accel, 5e-4);
    ENSURE(r.gain <= 0.0);
    ENSURE(r.v_t <= 1e-9);
}

/* A slope of 20 degrees, which static friction holds: from rest with a fresh bristle the load
   stretches it and the contact settles, creeping back and forth about the bristle's rest; it
   gained up to 1.0e-8 J a step, springing back. */
static void test_load_held_on_a_slope_gains_no_energy(void)
{
    const double slope = 20.0 * acos(-1.0) / 180.0;
    const double accel[3] = {9.81 * sin(slope), 0.0, -9.81 * cos(slope)};
    const run r = stick(accel, 0.0);
    ENSURE(r.gain <= 0.0);
    ENSURE(r.v_t <= 1e-9);
}

int main(void)
{
    RUN(test_bristle_spring_back_gains_no_energy);
    RUN(test_load_held_on_a_slope_gains_no_energy);
    return ipx_test_exit();
}
