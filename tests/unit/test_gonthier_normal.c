/* Gonthier et al.'s normal force (docs/models/gonthier.md §2, V1): d(e) solves Eq. 10 and meets the
   closed forms at both ends; a sphere on a plane (1 DOF, the registry model's collision) leaves
   at exactly e v_imp for impact speeds 0.1-5 m/s and e in {0.1, 0.5, 0.9}, with the elastic
   peak depth and contact time of Hertz theory at e = 1, a force that starts and ends at zero
   and never pulls. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ensure.h"
#include "impax/gonthier.h"
#include "model_test.h"

static void test_damping_factor_solves_eq10_and_meets_the_closed_forms(void)
{
    for (double e = 0.05; e < 1.0; e += 0.05) {
        const double d = ipx_gonthier_damping_factor(e);
        ENSURE(d > 0.0 && d < 1.0 + 1e-15);
        if (d < 1.0 - 1e-6) /* Eq. 10, where 1 - d is well represented (below: the closed form) */
            ENSURE_NEAR((1.0 + d / e) / (1.0 - d), exp(d * (1.0 + 1.0 / e)),
                        1e-9 * exp(d * (1.0 + 1.0 / e)));
    }
    /* large e: d = 3 e (1 - e^2) / (2 (1 + e^3)) to 0.25 % for e >= 0.95 (docs/models/gonthier.md §2.4) */
    for (double e = 0.95; e < 0.9999; e += 0.01) {
        const double closed = 3.0 * e * (1.0 - e * e) / (2.0 * (1.0 + e * e * e));
        ENSURE(fabs(ipx_gonthier_damping_factor(e) / closed - 1.0) < 2.5e-3);
    }
    /* small e: d = 1 - q e^-q, q = 1 + 1/e, to 3.4e-7 at e = 0.1 */
    const double q = 11.0;
    ENSURE_NEAR(ipx_gonthier_damping_factor(0.1), 1.0 - q * exp(-q), 4e-7);
    ENSURE_NEAR(ipx_gonthier_damping_factor(0.05), 1.0 - 21.0 * exp(-21.0), 1e-12);
    ENSURE(ipx_gonthier_damping_factor(1.0) == 0.0);
    printf("  d(0.5) = %.7f, d(0.9) = %.7f, d(0.1) = %.7f\n", ipx_gonthier_damping_factor(0.5),
           ipx_gonthier_damping_factor(0.9), ipx_gonthier_damping_factor(0.1));
}

/* One contact, W = 1/m, falling at v0 onto the plane. */
static ipx_result drop(double m, double v0, double e, const char *params)
{
    double W[9] = {0};
    for (int a = 0; a < 3; a++) W[4 * a] = 1.0 / m;
    const double v[3] = {0.0, 0.0, -v0};
    const ipx_contact c = {.mu = 0.0, .e = e};
    const ipx_problem p = {.k = 1, .W = W, .v = v, .contact = &c};
    ipx_params par = ipx_test_params("gonthier", params);
    ipx_result r;
    ENSURE(ipx_test_solve(&par, &p, &r) == IPX_OK);
    return r;
}

static void test_sphere_on_a_plane_leaves_at_e_times_the_impact_speed(void)
{
    const double e[3] = {0.1, 0.5, 0.9}, v0[5] = {0.1, 0.5, 1.0, 2.0, 5.0};
    const char *scene[2] = {"k=1e6",
                            "k=3.4e10"}; /* the paper's balls (2 kg) and Hertz steel (0.454 kg) */
    const double mass[2] = {2.0, 0.454};
    double worst = 0.0;
    for (int s = 0; s < 2; s++)
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 5; j++) {
                ipx_result r = drop(mass[s], v0[j], e[i], scene[s]);
                const double e_eff = r.v_post[IPX_N] / v0[j];
                worst = fmax(worst, fabs(e_eff / e[i] - 1.0));
                ENSURE(fabs(e_eff / e[i] - 1.0) < 5e-3);
                ENSURE(r.impulse[IPX_N] > 0.0);
            }
    printf("  largest |e_eff / e - 1| over 30 drops: %.2e\n", worst);
}

/* e = 1 is Hertz's elastic impact: delta_max = (5 m v^2 / (4 k))^(2/5), t_c = 2.943 delta_max / v
   (docs/models/gonthier.md §V1); the force starts and ends at zero (every term carries delta^p) and never pulls. */
static void test_force_is_continuous_never_pulls_and_matches_hertz(void)
{
    const double e[2] = {1.0, 0.1};
    for (int c = 0; c < 2; c++) {
        const double m = 0.454, k = 3.4e10, v0 = 1.0, h = 1e-9;
        ipx_gonthier_law law;
        const ipx_contact contact = {.mu = 0.0, .e = e[c]};
        ipx_params par = ipx_test_params("gonthier", "k=3.4e10");
        ipx_gonthier_law_for(par.value, &contact, &law);
        ipx_gonthier_state st = ipx_gonthier_fresh(&law);
        double delta = 0.0, v = -v0, t = 0.0, delta_max = 0.0, f_max = 0.0, f_first = -1.0,
               f_last = 0.0;
        double lowest_factor = INFINITY;
        while (t == 0.0 || delta > 0.0) {
            const double f = ipx_gonthier_normal(&st, &law, delta, -v);
            if (delta > 0.0) {
                if (f_first < 0.0) f_first = f;
                f_last = f;
                lowest_factor = fmin(lowest_factor, 1.0 + st.a * -v);
            }
            ENSURE(f >= 0.0);
            v += f / m * h;
            delta -= v * h;
            t += h;
            delta_max = fmax(delta_max, delta);
            f_max = fmax(f_max, f);
        }
        printf("  e = %.1f: delta_max %.2f um, F_max %.0f N, contact %.1f us, first/last force "
               "%.1e/%.1e of F_max\n",
               e[c], delta_max * 1e6, f_max, t * 1e6, f_first / f_max, f_last / f_max);
        ENSURE(f_first / f_max < 1e-3 && f_last / f_max < 1e-3);
        ENSURE(lowest_factor >= 0.0); /* Eq. 6: an isolated impact never needs the clamp */
        if (e[c] == 1.0) {
            const double dmax = pow(5.0 * m * v0 * v0 / (4.0 * k), 0.4);
            ENSURE(fabs(delta_max / dmax - 1.0) < 1e-3);
            ENSURE(fabs(t / (2.943 * dmax / v0) - 1.0) < 2e-3);
        }
    }
}

static void test_unknown_or_bad_parameters_are_refused_by_name(void)
{
    ipx_params par;
    char msg[256];
    ENSURE(ipx_params_init(&par, "gonthier", msg, sizeof msg) == IPX_OK);
    ENSURE(ipx_params_parse(&par, "k=-1", msg, sizeof msg) == IPX_ERR_INPUT &&
           strstr(msg, "k = -1"));
    ENSURE(ipx_params_parse(&par, "e=1.5", msg, sizeof msg) == IPX_ERR_INPUT &&
           strstr(msg, "e = 1.5"));
    ENSURE(ipx_params_parse(&par, "sigma0=nan", msg, sizeof msg) == IPX_ERR_INPUT &&
           strstr(msg, "sigma0"));
    ENSURE(ipx_params_parse(&par, "preset=4", msg, sizeof msg) == IPX_ERR_INPUT &&
           strstr(msg, "preset"));
}

/* A host step with a bad depth or step is refused by name and changes nothing. */
static void test_host_step_refuses_bad_input_and_changes_nothing(void)
{
    double W[9] = {0};
    for (int a = 0; a < 3; a++) W[4 * a] = 0.5;
    const double v[3] = {0.0, 0.0, -1.0};
    const ipx_contact c = {.mu = 0.3, .e = 0.5};
    const ipx_problem p = {.k = 1, .W = W, .v = v, .contact = &c};
    ipx_params par = ipx_test_params("gonthier", "");
    ipx_workspace *ws = ipx_workspace_create(&par, 1);
    ipx_gonthier_law law;
    ipx_gonthier_law_for(par.value, &c, &law);
    ipx_gonthier_state st = ipx_gonthier_fresh(&law), before = st;
    st.z[0] = before.z[0] = 1e-4;
    double depth = NAN;
    ipx_result r;
    ENSURE(ipx_gonthier_step(&par, &p, &depth, &st, 1e-3, NULL, ws, &r, NULL) == IPX_ERR_INPUT);
    ENSURE(strstr(r.message, "contact 0") && strstr(r.message, "depth"));
    ENSURE(memcmp(&st, &before, sizeof st) == 0 && isnan(depth));
    depth = 1e-3;
    ENSURE(ipx_gonthier_step(&par, &p, &depth, &st, 0.0, NULL, ws, &r, NULL) == IPX_ERR_INPUT);
    ENSURE(strstr(r.message, "h = 0") && memcmp(&st, &before, sizeof st) == 0 && depth == 1e-3);
    /* and a good step moves the depth and pushes the bodies apart */
    double mean[3];
    ENSURE(ipx_gonthier_step(&par, &p, &depth, &st, 1e-3, NULL, ws, &r, mean) == IPX_OK);
    ENSURE(r.impulse[IPX_N] > 0.0 && mean[IPX_N] > 0.0 && mean[IPX_N] < r.impulse[IPX_N] &&
           depth > 1e-3);
    ipx_workspace_destroy(ws);
}

/* Two coupled contacts (W_01 < 0: pressing one presses the other in, as on one rotating
   body), e = 0.01, frictionless, one host step of 1 ms: contact 0 separates at 0.136 m/s, so
   its damper takes its whole force (f = 0, never pulling); contact 1 is pressed in at
   0.032 m/s, 1.7 mm deep (k delta^p = 72 N). Energy: the bodies' kinetic energy changes by
   pi.v + pi.W pi / 2 (exact for the step's total impulse pi), the springs' by delta_stored;
   the dampers only take, so the sum may not be positive beyond the springs' integration defect.
   The forces came from the linear implicit solve clamped at 0 afterwards: contact 1's damper
   acted as if contact 0 pulled it out, its force was 0 while its depth grew, and the springs
   gained 7.0e-4 J from nothing (demo_plane2d: 11 events); they are the complementarity
   problem's now (contact 1 pushes, near-plastic, at a small fraction of its spring). W's
   diagonal, the depths, speeds and latched states are demo_plane2d's step 2555; the coupling
   is chosen. */
static void test_separating_contact_does_not_weaken_its_neighbour(void)
{
    double W[36] = {0};
    const double diag[6] = {85.0962, 85.0962, 85.0962, 237.709, 237.709, 237.709};
    for (int a = 0; a < 6; a++) W[7 * a] = diag[a];
    W[2 + 6 * 5] = W[5 + 6 * 2] = -100.0; /* the normal rows' coupling, 1/kg */
    const double v[6] = {0.0, 0.0, 0.136258, 0.0, 0.0, -0.0318647};
    const ipx_contact c[2] = {{.e = 0.01}, {.e = 0.01}};
    const ipx_problem p = {.k = 2, .W = W, .v = v, .contact = c};
    ipx_params par = ipx_test_params("gonthier", "mu_s=0,mu_c=0");
    ipx_workspace *ws = ipx_workspace_create(&par, 2);
    ipx_gonthier_state st[2];
    const double v_imp[2] = {0.595332, 0.117698};
    for (int i = 0; i < 2; i++) {
        ipx_gonthier_law law;
        ipx_gonthier_law_for(par.value, &c[i], &law);
        st[i] = ipx_gonthier_fresh(&law);
        st[i].v_imp = v_imp[i];
        st[i].a = ipx_gonthier_damping_factor(0.01) / (0.01 * v_imp[i]);
    }
    double depth[2] = {0.00059153, 0.00173601};
    const double spring = 1e6 * pow(depth[1], 1.5);
    ipx_result r;
    ENSURE(ipx_gonthier_step(&par, &p, depth, st, 1e-3, NULL, ws, &r, NULL) == IPX_OK);
    double dT = 0.0;
    for (int a = 0; a < 6; a++) {
        double wpi = 0.0;
        for (int b = 0; b < 6; b++) wpi += W[a + 6 * b] * r.impulse[b];
        dT += r.impulse[a] * (v[a] + 0.5 * wpi);
    }
    printf("  contact 1 pushes %.4g N on average (spring %.4g N); kinetic %+.3e J, stored %+.3e "
           "J, sum %+.3e J (springs' defect %.1e J)\n",
           r.impulse[5] / 1e-3, spring, dT, r.delta_stored, dT + r.delta_stored, r.energy_error);
    ENSURE(dT + r.delta_stored <= r.energy_error);
    ENSURE(r.impulse[5] > 0.0 && r.impulse[2] == 0.0);
    ipx_workspace_destroy(ws);
}

int main(void)
{
    RUN(test_damping_factor_solves_eq10_and_meets_the_closed_forms);
    RUN(test_sphere_on_a_plane_leaves_at_e_times_the_impact_speed);
    RUN(test_force_is_continuous_never_pulls_and_matches_hertz);
    RUN(test_unknown_or_bad_parameters_are_refused_by_name);
    RUN(test_host_step_refuses_bad_input_and_changes_nothing);
    RUN(test_separating_contact_does_not_weaken_its_neighbour);
    return ipx_test_exit();
}
