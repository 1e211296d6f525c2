/* Gonthier et al.'s friction on a slipping contact whose friction drives it into the surface
   (a Painleve configuration, mu |W_nt| > W_nn: a light rod's end sliding on a rough floor).
   The normal force then grows several-fold per sub-step and the friction, mu f_n, soon exceeds
   what stops the slip within one sub-step. In continuous time the slip stops (a tangential
   impact) and the friction dissipates; the sub-stepped law must do the same: the slip is
   stopped, never reversed, and the bodies gain no energy beyond the contact spring's release.
   The second case is the host step recorded in worlds/routh_compass_gait.world (model
   gonthier, step 649: the walker tips sideways and a shin end slides at 1.2 m/s with mu = 5),
   where the explicit Coulomb force reversed the slip, larger at every sub-step, and the step
   added 2.07 J to a 2.47 J walker. Its numbers are replayed exactly (hex), through the core
   only, so the check does not depend on the BLAS kernel that led the world there. */
#include <math.h>
#include <stdio.h>

#include "ensure.h"
#include "impax/gonthier.h"
#include "model_test.h"

/* Kinetic energy change of a contact-space step: pi . (v + v_post) / 2 (v_post = v + W pi). */
static double energy_change(int k, const double *v, const ipx_result *r)
{
    double dT = 0.0;
    for (int a = 0; a < 3 * k; a++) dT += r->impulse[a] * 0.5 * (v[a] + r->v_post[a]);
    return dT;
}

/* Elastic energy (J) the contact springs k delta^p give back from depths d0 to d1. */
static double spring_release(int k, const ipx_gonthier_law *law, const double *d0, const double *d1)
{
    double E = 0.0;
    for (int i = 0; i < k; i++) {
        const double q = law[i].p + 1.0;
        E += law[i].k / q * (pow(fmax(d0[i], 0.0), q) - pow(fmax(d1[i], 0.0), q));
    }
    return fmax(E, 0.0);
}

/* One contact, the rod end's block of W (t2 decoupled): sliding at 1.2 m/s along -t1, 2.6 mm
   deep, just approaching, impact speed latched at 0.56 m/s with e = 0 (e_min 0.01: a = 178 s/m);
   the friction on it (+t1) pushes it into the surface (W_n,t1 < 0). */
static void test_friction_stops_the_slip_without_reversing_it(void)
{
    const double W[9] = {90.0, 0.0, -6.2, 0.0, 1.0, 0.0, -6.2, 0.0, 19.7};
    const double v0[3] = {-1.2, 0.0, -0.001};
    const ipx_contact c = {.mu = 5.0, .e = 0.0, .v_capture = 0.01};
    ipx_params par = ipx_test_params("gonthier", "");
    ipx_gonthier_law law;
    ipx_gonthier_law_for(par.value, &c, &law);
    ENSURE(c.mu * fabs(W[2]) > W[8]); /* the Painleve configuration */
    ipx_gonthier_state st = ipx_gonthier_fresh(&law);
    const double depth0 = 2.64e-3;
    ipx_gonthier_normal(&st, &law, depth0, 0.56); /* latches the impact speed */
    double v[3] = {v0[0], v0[1], v0[2]}, depth = depth0, impulse[3] = {0.0, 0.0, 0.0};
    double work[64], v_post[3];
    ENSURE(ipx_gonthier_advance_work_doubles(1) <= sizeof work / sizeof work[0]);
    ipx_gonthier_island is = {.k = 1,
                              .W = W,
                              .v = v,
                              .delta = &depth,
                              .state = &st,
                              .law = &law,
                              .impulse = impulse,
                              .work = work};
    const double h = 1e-5; /* the default sub-step: 100 of them make a 1 ms host step */
    double most_reversed = 0.0;
    for (int s = 0; s < 100; s++) {
        ipx_gonthier_advance(&is, h, 1);
        most_reversed = fmax(most_reversed, v[IPX_T1]); /* the slip was along -t1 */
    }
    ipx_result r = {.k = 1, .n_rows = 3, .impulse = impulse, .v_post = v_post};
    for (int a = 0; a < 3; a++) {
        r.impulse[a] = impulse[a];
        r.v_post[a] = v[a];
    }
    const double dT = energy_change(1, v0, &r), released = spring_release(1, &law, &depth0, &depth);
    printf("  slip %.3f -> %.2e m/s (most reversed %.2e), normal impulse %.3g N s, dT %.3g J "
           "(spring release %.2g J)\n",
           v0[IPX_T1], v[IPX_T1], most_reversed, impulse[IPX_N], dT, released);
    ENSURE(impulse[IPX_N] > 0.0 &&
           impulse[IPX_T1] > 0.0); /* it pressed, and friction opposed the slip */
    ENSURE(most_reversed <= 0.01 * fabs(v0[IPX_T1]));   /* the slip stops, it is not reversed */
    ENSURE(fabs(v[IPX_T1]) <= 0.01 * fabs(v0[IPX_T1])); /* and it stays stopped (stick) */
    ENSURE(dT <= released + 1e-9);
}

/* The recorded two-contact step: W (6 x 6, column-major, joints eliminated), v, and each
   contact's depth (net of its onset offset) and state (z, s_dw, a, v_imp) as the ODE adapter
   passed them to ipx_gonthier_step; the parameters are the model's defaults, mu = 5, e = 0. */
static void test_recorded_compass_gait_step_gains_no_energy(void)
{
    static const double W[36] = {
        0x1.66b55460f6509p+6,  -0x1.65a3fd2fc1bcep-1, -0x1.8a9089a17f70bp+2, -0x1.34f878ca9dd5dp+4,
        -0x1.2c2011578be3dp-3, -0x1.51394fea4d512p+1, -0x1.65a3fd2fc1bcep-1, 0x1.c906f8a3a34efp-1,
        -0x1.4dac3ae3b51b2p+1, 0x1.b1970d910d148p-1,  0x1.f968b7ccc65f3p-1,  0x1.f7d637245876ap+2,
        -0x1.8a9089a17f70bp+2, -0x1.4dac3ae3b51b2p+1, 0x1.3ba89816957d6p+4,  -0x1.a8f9966f2a58p+1,
        -0x1.a6d5d83379528p+1, -0x1.a642496979bcep+5, -0x1.34f878ca9dd5dp+4, 0x1.b1970d910d148p-1,
        -0x1.a8f9966f2a58p+1,  0x1.dab933af979cap+2,  0x1.ca66b738451f7p-1,  0x1.d175d08382c08p+3,
        -0x1.2c2011578be3dp-3, 0x1.f968b7ccc65f3p-1,  -0x1.a6d5d83379528p+1, 0x1.ca66b738451f7p-1,
        0x1.1c65c8df1f356p+0,  0x1.3bf195d729eap+3,   -0x1.51394fea4d512p+1, 0x1.f7d637245876ap+2,
        -0x1.a642496979bcep+5, 0x1.d175d08382c08p+3,  0x1.3bf195d729eap+3,   0x1.40249292034acp+7,
    };
    static const double v[6] = {
        -0x1.3835f62e2d3efp+0, 0x1.fedf487de45cbp-8,  0x1.4c9f9e1449703p-5,
        0x1.9d02c74e82f8ap-3,  -0x1.029fde9b0a83p-14, -0x1.3cb8661b23d78p-4,
    };
    double depth[2] = {0x1.5a06235bc3c34p-9, 0x1.4358cc14bc5acp-9};
    const double depth0[2] = {depth[0], depth[1]};
    ipx_gonthier_state st[2] = {
        {.z = {0x1.37e44c622fc76p-16, 0x1.8a7f4ae23b9f4p-23},
         .s_dw = 0x1.673efda834087p-19,
         .a = 0x1.647a846e472ffp+7,
         .v_imp = 0x1.1f4118b8bed23p-1},
        {.z = {0x1.336ca66ab0d68p-15, -0x1.0c323d6cf22bep-20},
         .s_dw = 0x1.636a531f7253p-16,
         .a = 0x1.315501df8e25ap+6,
         .v_imp = 0x1.4f5f6142b2ec3p+0},
    };
    const ipx_contact c[2] = {{.mu = 5.0, .e = 0.0, .v_capture = 0.01},
                              {.mu = 5.0, .e = 0.0, .v_capture = 0.01}};
    const ipx_problem p = {.k = 2, .W = W, .v = v, .contact = c};
    ipx_params par = ipx_test_params("gonthier", "");
    ipx_workspace *ws = ipx_workspace_create(&par, 2);
    ipx_gonthier_law law[2];
    for (int i = 0; i < 2; i++) ipx_gonthier_law_for(par.value, &c[i], &law[i]);
    ipx_result r;
    double mean[6];
    ENSURE(ipx_gonthier_step(&par, &p, depth, st, 1e-3, NULL, ws, &r, mean) == IPX_OK);
    const double dT = energy_change(2, v, &r), released = spring_release(2, law, depth0, depth);
    printf("  shin end slip %.3f -> %.3g m/s, dT %.3g J (spring release %.2g J; the walker has "
           "2.47 J)\n",
           v[IPX_T1], r.v_post[IPX_T1], dT, released);
    ENSURE(dT <= released + 1e-9);
    ENSURE(fabs(r.v_post[IPX_T1]) <=
           fabs(v[IPX_T1])); /* friction slowed the slip, did not reverse it larger */
    ipx_workspace_destroy(ws);
}

int main(void)
{
    RUN(test_friction_stops_the_slip_without_reversing_it);
    RUN(test_recorded_compass_gait_step_gains_no_energy);
    return ipx_test_exit();
}
