/* The Anitescu-Potra impact LCP against closed forms (docs/models/routh.md §7, 8.1, 8.3, 8.7) and, on random
   problems, against its own guarantees through the invariant checker. */
#include <math.h>
#include <stdlib.h>

#include "ensure.h"
#include "model_test.h"
#include "paper_scenes.h"

static ipx_params aplcp(const char *text) { return ipx_test_params("aplcp", text); }

static ipx_scene scene; /* large: static storage */

static void test_single_frictionless_contact_stops_normal_velocity(void)
{
    const double u[3] = {0.3, -1.0, 0.2};
    ipx_scene_block_corner(&scene, 0.0, u);
    ipx_params par = aplcp("");
    ipx_result r;
    ENSURE(ipx_test_solve(&par, &scene.problem, &r) == IPX_OK);
    const double *W = scene.problem.W, *v = scene.problem.v;
    /* pi_n = -v_n / W_nn, no tangential impulse */
    ENSURE_NEAR(r.impulse[IPX_N], -v[IPX_N] / W[IPX_N + 3 * IPX_N], 1e-12);
    ENSURE_NEAR(r.impulse[IPX_T1], 0.0, 1e-15);
    ENSURE_NEAR(r.v_post[IPX_N], 0.0, 1e-12);
}

static void test_point_mass_friction_cases_match_routh_8_7(void)
{
    /* M = I2, v0 = (1, -1): mu 0 -> (1, 0); mu 0.5 -> (0.5, 0); mu 2 -> (0, 0) */
    const double mu[3] = {0.0, 0.5, 2.0}, vx_after[3] = {1.0, 0.5, 0.0};
    for (int c = 0; c < 3; c++) {
        ipx_scene_point_mass(&scene, mu[c], 1.0, -1.0);
        ipx_params par = aplcp("");
        ipx_result r;
        ENSURE(ipx_test_solve(&par, &scene.problem, &r) == IPX_OK);
        double u[3];
        ipx_scene_planar_velocity_after(&scene, 0, r.impulse, u);
        ENSURE_NEAR(u[0], vx_after[c], 1e-12);
        ENSURE_NEAR(u[1], 0.0, 1e-12);
    }
}

static void test_slip_reversal_corner_gives_ap_outcome(void)
{
    /* docs/models/routh.md §8.7: AP gives v+ = [0.44706, -0.26471, -0.52941], Jt v+ = -0.08235 */
    const double u0[3] = {0.3, -1.0, 0.0};
    ipx_scene_block_corner(&scene, 0.2, u0);
    ipx_params par = aplcp("");
    ipx_result r;
    ENSURE(ipx_test_solve(&par, &scene.problem, &r) == IPX_OK);
    double u[3];
    ipx_scene_planar_velocity_after(&scene, 0, r.impulse, u);
    ENSURE_NEAR(u[0], 0.44706, 5e-6);
    ENSURE_NEAR(u[1], -0.26471, 5e-6);
    ENSURE_NEAR(u[2], -0.52941, 5e-6);
    ENSURE_NEAR(r.v_post[IPX_T1], -0.08235, 5e-6);
}

static void test_rocking_block_simultaneous_impact_ends_at_rest(void)
{
    const double v0 = sqrt(2.0 * 9.81 * 0.01); /* 1 cm drop, docs/models/routh.md §8.1 */
    ipx_scene_rocking_block(&scene, v0);
    for (int nd = 2; nd <= 8; nd += 2) {
        char text[64];
        snprintf(text, sizeof text, "friction_directions=%d", nd);
        ipx_params par = aplcp(text);
        ipx_result r;
        ENSURE(ipx_test_solve(&par, &scene.problem, &r) == IPX_OK);
        double u[3];
        ipx_scene_planar_velocity_after(&scene, 0, r.impulse, u);
        for (int a = 0; a < 3; a++) ENSURE_NEAR(u[a], 0.0, 1e-12);
        /* by symmetry each corner takes half of m v0 */
        ENSURE_NEAR(r.impulse[IPX_N], 0.5 * v0, 1e-12);
        ENSURE_NEAR(r.impulse[3 + IPX_N], 0.5 * v0, 1e-12);
    }
}

static void test_box_sliding_into_wall_stops(void)
{
    ipx_scene_box_wall(&scene);
    ENSURE_NEAR(scene.problem.v[IPX_N], 0.0, 1e-12); /* A slides along the floor */
    ENSURE_NEAR(scene.problem.v[IPX_T1], 1.0, 1e-12);
    ENSURE_NEAR(scene.problem.v[3 + IPX_N], -1.0, 1e-12); /* B hits the wall */
    ipx_params par = aplcp("");
    ipx_result r;
    ENSURE(ipx_test_solve(&par, &scene.problem, &r) == IPX_OK);
    double u[3];
    ipx_scene_planar_velocity_after(&scene, 0, r.impulse, u);
    for (int a = 0; a < 3; a++) ENSURE_NEAR(u[a], 0.0, 1e-12);
}

static void test_newton_target_reflects_frictionless_approach(void)
{
    ipx_scene_point_mass(&scene, 0.0, 0.0, -2.0);
    scene.contact[0].e = 0.5;
    ipx_params par = aplcp("newton_restitution=1");
    ipx_result r;
    ENSURE(ipx_test_solve(&par, &scene.problem, &r) == IPX_OK);
    ENSURE_NEAR(r.v_post[IPX_N], 1.0, 1e-12); /* e |v_n-| */
    ENSURE_NEAR(r.delta_ke, 0.5 * (1.0 - 4.0), 1e-12);
}

static void test_newton_target_off_below_capture_speed(void)
{
    ipx_scene_point_mass(&scene, 0.0, 0.0, -0.05);
    scene.contact[0].e = 0.9;
    scene.contact[0].v_capture = 0.1; /* m/s: the approach 0.05 is below it, so no bounce */
    ipx_params par = aplcp("newton_restitution=1");
    ipx_result r;
    ENSURE(ipx_test_solve(&par, &scene.problem, &r) == IPX_OK);
    ENSURE_NEAR(r.v_post[IPX_N], 0.0, 1e-12);
}

static void test_random_problems_keep_the_inelastic_promises(void)
{
    ipx_params par = aplcp("");
    ipx_workspace *ws = ipx_workspace_create(&par, 12);
    ipx_check_options opt = ipx_check_default_options();
    opt.kinds = par.model->promises(par.value);
    ipx_gen_options gen = ipx_gen_default_options();
    ipx_rng rng;
    ipx_rng_seed(&rng, 20261122);
    int failures = 0, solved = 0;
    for (int t = 0; t < 10000; t++) {
        int k = 1 + (int)(ipx_rng_next(&rng) % 12);
        ipx_gen_random(&scene, k, &gen, &rng);
        ipx_result r;
        if (ipx_solve(&par, &scene.problem, ws, &r) != IPX_OK) {
            failures++;
            fprintf(stderr, "problem %d (k = %d): %s\n", t, k, r.message);
            continue;
        }
        solved++;
        ipx_check_report rep;
        if (ipx_check(&scene.problem, &r, &opt, &rep) != 0) {
            char text[1024];
            ipx_check_format(&rep, text, sizeof text);
            fprintf(stderr, "problem %d (k = %d):\n%s", t, k, text);
            failures++;
        }
        /* explicit restatement of the bounds */
        ENSURE(r.delta_ke <= 1e-9 * (1.0 + fabs(r.delta_ke)));
        for (int c = 0; c < k; c++) ENSURE(r.v_post[3 * c + IPX_N] >= -1e-9);
    }
    ENSURE(failures == 0);
    ENSURE(solved == 10000);
    ipx_workspace_destroy(ws);
}

int main(void)
{
    RUN(test_single_frictionless_contact_stops_normal_velocity);
    RUN(test_point_mass_friction_cases_match_routh_8_7);
    RUN(test_slip_reversal_corner_gives_ap_outcome);
    RUN(test_rocking_block_simultaneous_impact_ends_at_rest);
    RUN(test_box_sliding_into_wall_stops);
    RUN(test_newton_target_reflects_frictionless_approach);
    RUN(test_newton_target_off_below_capture_speed);
    RUN(test_random_problems_keep_the_inelastic_promises);
    return ipx_test_exit();
}
