/* A load that friction presses into the surface rests on its spring, it does not sink
   (docs/models/gonthier.md §6.5a, the cause of demo_cyl's box sinking into the trimesh ramp,
   held there by mu 50).

   One contact of a body whose friction drives the contact in (W_nt < 0, a box's corner held on
   a slope), under a steady load (the host's accel) that static friction holds: the resting
   forces solve W f + accel = 0 in the (t1, n) rows, f_n = 3 N. Host steps of 10 ms carry the
   velocities and depths over, as the ODE adapter does, from the resting depth with a fresh
   bristle. At rest the spring holds the load, k delta^p = f_n, so the depth must settle at
   (f_n / k)^(1/p) and stay, with the contact stuck. */
#include <math.h>
#include <stdio.h>

#include "ensure.h"
#include "impax/gonthier.h"
#include "model_test.h"

typedef struct held {
    double depth_ratio; /* the depth after the run over the resting depth (f_n / k)^(1/p) */
    double v_n, v_t;    /* m/s at the end (v_n < 0: sinking) */
} held;

/* The contact above with the tangential resting force f_t (N), over `seconds` of 10 ms host
   steps from rest at the resting depth, fresh bristle. */
static held hold(double f_t, double seconds)
{
    /* (t1, t2, n) rows, column-major; t2 decoupled. 1/kg. */
    const double W[9] = {10.0, 0.0, -6.0, 0.0, 10.0, 0.0, -6.0, 0.0, 10.0};
    const double f_n = 3.0; /* N */
    const double accel[3] = {-(W[0] * f_t + W[6] * f_n), 0.0, -(W[2] * f_t + W[8] * f_n)};
    const ipx_contact c = {.mu = 50.0, .e = 0.0, .v_capture = 0.01};
    const ipx_problem p0 = {.k = 1, .W = W, .contact = &c};
    ipx_params par = ipx_test_params("gonthier", "");
    ipx_workspace *ws = ipx_workspace_create(&par, 1);
    ipx_gonthier_law law;
    ipx_gonthier_law_for(par.value, &c, &law);
    const double rest = pow(f_n / law.k, 1.0 / law.p); /* m: k delta^p = f_n */
    ENSURE(c.mu * f_n > f_t);                          /* static friction holds it */
    ENSURE(W[2] * f_t < 0.0);                          /* and presses it in */
    ipx_gonthier_state st = ipx_gonthier_fresh(&law);
    double v[3] = {0.0, 0.0, 0.0}, depth = rest;
    ipx_gonthier_normal(&st, &law, depth, 0.0); /* latched at v_floor: a = 1e4 s/m */
    const double h = 0.01;
    for (int step = 0; step * h < seconds; step++) {
        ipx_problem p = p0;
        p.v = v;
        ipx_result r;
        ENSURE(ipx_gonthier_step(&par, &p, &depth, &st, h, accel, ws, &r, NULL) == IPX_OK);
        for (int a = 0; a < 3; a++) v[a] = r.v_post[a] + accel[a] * h;
    }
    ipx_workspace_destroy(ws);
    const held out = {depth / rest, v[IPX_N], v[IPX_T1]};
    printf("  f_t %.2g N, f_n %.2g N: after %.0f s at %.9f of the resting depth %.4g m, v_n %.2g "
           "m/s, v_t %.2g m/s\n",
           f_t, f_n, seconds, out.depth_ratio, rest, out.v_n, out.v_t);
    return out;
}

/* Friction adds W_nt f_t = -1.2 m/s^2 to the normal rate. The dampers predicting the end rate
   without it expected the contact to leave at h |W_nt f_t| a sub-step (100 us) and, with
   a = 1e4 s/m (e = 0, v_floor 0.01 m/s), held the force at k delta^p (1 - 1.2): zero, until the
   contact had sunk enough: it sank for good, still at 35 um/s after 10 s, 3.5 times the resting
   depth. */
static void test_load_pressed_in_by_friction_rests_at_the_spring_depth(void)
{
    const held r = hold(0.2, 10.0);
    /* settled (the start's transient, as the bristle takes up the load, is a few um deep) */
    ENSURE_NEAR(r.depth_ratio, 1.0, 1e-5);
    ENSURE(r.v_n >= -1e-9);      /* not sinking */
    ENSURE(fabs(r.v_t) <= 1e-9); /* stuck */
}

/* Ten times the tangential load: 2 N, which its Coulomb force, stopping only the slip at the
   sub-step's start with the bound w = 16 /kg of the contact's rows (W_nt counted), left to creep
   at h w |f_t| = 3.2 mm/s, beyond v_s (1 mm/s): in slip for good, where the Coulomb force
   pressed it in and it sank at 1.1 mm/s (54 times the resting depth after 10 s). */
static void test_load_static_friction_holds_sticks_instead_of_creeping(void)
{
    const held r = hold(2.0, 20.0);
    ENSURE_NEAR(r.depth_ratio, 1.0, 1e-5);
    ENSURE(r.v_n >= -1e-9);
    ENSURE(fabs(r.v_t) <= 1e-9);
}

int main(void)
{
    RUN(test_load_pressed_in_by_friction_rests_at_the_spring_depth);
    RUN(test_load_static_friction_holds_sticks_instead_of_creeping);
    return ipx_test_exit();
}
