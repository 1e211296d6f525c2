/* The Routh model's impulse steps against closed forms (docs/models/routh.md §8.6, 8.7), its fallback,
   reproducibility, homogeneity, the Poisson restitution extension and its API checks. */
#include <stdio.h>

#include "routh_planar.h"

static planar sys;

/* Unit point mass on the ground, M = I2, Jn = [0, 1], Jt = [1, 0] (docs/models/routh.md §8.7). */
static void point_mass(planar *s, double mu, double vx, double vy)
{
    const double M[4] = {1, 0, 0, 1}, u0[2] = {vx, vy}, jn[2] = {0, 1}, jt[2] = {1, 0};
    planar_init(s, 2, M, u0);
    planar_contact(s, jn, jt, mu);
    planar_finish(s);
}

/* One sample with a generator seeded by seed. */
static ipx_status sample(const ipx_problem *p, const ipx_params *par, uint64_t seed, ipx_result *r)
{
    ipx_rng rng;
    ipx_rng_seed(&rng, seed);
    ipx_workspace *ws = ipx_test_workspace(par, p->k); /* kept: r's arrays live there */
    return ipx_routh_sample(p, par->value, &rng, ws, r);
}

static int promises_kept(const ipx_problem *p, const ipx_params *par, const ipx_result *r)
{
    ipx_check_options opt = ipx_check_default_options();
    opt.kinds = par->model->promises(par->value);
    ipx_check_report rep;
    return ipx_check(p, r, &opt, &rep) == 0;
}

static void test_point_mass_cases_match_routh_8_7(void)
{
    /* v0 = (1, -1): mu 0 -> (1, 0); mu 0.5 -> (0.5, 0); mu 2 -> (0, 0), for any caps */
    const double mu[3] = {0.0, 0.5, 2.0}, vx_after[3] = {1.0, 0.5, 0.0};
    for (int c = 0; c < 3; c++) {
        point_mass(&sys, mu[c], 1.0, -1.0);
        ipx_params par = ipx_test_params("routh", "friction_directions=2");
        for (uint64_t seed = 0; seed < 20; seed++) {
            ipx_result r;
            ENSURE(sample(&sys.problem, &par, seed, &r) == IPX_OK);
            double u[2];
            planar_velocity_after(&sys, r.impulse, u);
            ENSURE_NEAR(u[0], vx_after[c], 1e-12);
            ENSURE_NEAR(u[1], 0.0, 1e-12);
            ENSURE(promises_kept(&sys.problem, &par, &r));
        }
    }
}

static void test_slip_reversal_converges_to_routh_as_h_shrinks(void)
{
    /* docs/models/routh.md §8.7: corner A alone, mu 0.2, v0 = [0.3, -1, 0]; fixed caps h: Jt v+ per h;
       exact Routh -0.27009; one huge step = Anitescu-Potra, -0.08235 */
    const double u0[3] = {0.3, -1.0, 0.0};
    const char *steps[5] = {"step=0.5", "step=0.05", "step=0.01", "step=7e-4", "step=1e6"};
    const double jt_after[5] = {-0.11696, -0.25882, -0.26990, -0.27008, -0.08235};
    planar_block(&sys, u0, 0.2, 1);
    for (int i = 0; i < 5; i++) {
        ipx_params par =
            ipx_test_params("routh", "random_caps=0,max_steps=10000,friction_directions=2");
        char msg[IPX_MESSAGE_SIZE];
        ENSURE(ipx_params_parse(&par, steps[i], msg, sizeof msg) == IPX_OK);
        ipx_result r;
        ENSURE(sample(&sys.problem, &par, 1, &r) == IPX_OK);
        ENSURE(r.counts.limits_hit == 0);
        ENSURE_NEAR(r.v_post[IPX_T1], jt_after[i], 1e-5);
        ENSURE_NEAR(r.v_post[IPX_N], 0.0, 1e-12);
    }
}

static void test_zeno_corner_impact_scales_angular_speed_by_0_7(void)
{
    /* docs/models/routh.md §8.6: pivoting about A at thetadot, B strikes; B sticks, A lifts: thetadot+ =
       0.7 thetadot (68); at thetadot = -1: Lambda_n,B = 0.85, Lambda_t,B = -0.30 */
    const double rates[2] = {-1.0, -0.37};
    for (int c = 0; c < 2; c++) {
        const double w = rates[c], u0[3] = {-w, 0.5 * w, w}; /* velocity of a pivot about A */
        planar_block(&sys, u0, 1.0, 2);
        ipx_params par = ipx_test_params("routh", "friction_directions=2");
        for (uint64_t seed = 0; seed < 20; seed++) {
            ipx_result r;
            ENSURE(sample(&sys.problem, &par, seed, &r) == IPX_OK);
            double u[3];
            planar_velocity_after(&sys, r.impulse, u);
            ENSURE_NEAR(u[2], 0.7 * w, 1e-12);
            ENSURE_NEAR(r.impulse[3 + IPX_N], -0.85 * w, 1e-12);
            ENSURE_NEAR(r.impulse[3 + IPX_T1], 0.30 * w, 1e-12);
            ENSURE_NEAR(r.impulse[IPX_N], 0.0, 1e-12);
        }
    }
}

static void test_same_seed_gives_bit_identical_results(void)
{
    planar_rocking_block(&sys, 0.442945, 0.0);
    ipx_params par = ipx_test_params("routh", "friction_directions=2,seed=7");
    /* two workspaces: a result's arrays live in its solve's workspace */
    ipx_workspace *ws = ipx_workspace_create(&par, 2), *ws_a = ipx_workspace_create(&par, 2);
    ipx_result a, b;
    ENSURE(ipx_solve(&par, &sys.problem, ws_a, &a) == IPX_OK);
    ENSURE(ipx_solve(&par, &sys.problem, ws, &b) == IPX_OK);
    ENSURE(a.impulse != b.impulse && a.n_rows == 6 && b.n_rows == 6);
    ENSURE(memcmp(a.impulse, b.impulse, 6 * sizeof *a.impulse) == 0);
    ENSURE(memcmp(a.v_post, b.v_post, 6 * sizeof *a.v_post) == 0);
    ENSURE(memcmp(&a.delta_ke, &b.delta_ke, sizeof a.delta_ke) == 0);
    ENSURE(memcmp(&a.counts, &b.counts, sizeof a.counts) == 0);
    int differ = 0; /* other seeds give other samples */
    for (int s = 8; s < 12; s++) {
        char msg[IPX_MESSAGE_SIZE];
        ENSURE(ipx_params_set(&par, "seed", s, msg, sizeof msg) == IPX_OK);
        ENSURE(ipx_solve(&par, &sys.problem, ws, &b) == IPX_OK);
        differ += memcmp(a.impulse, b.impulse, 6 * sizeof *a.impulse) != 0;
    }
    ENSURE(differ > 0);
    ipx_workspace_destroy(ws);
    ipx_workspace_destroy(ws_a);

    ipx_routh_cloud c1 = cloud_make(500, 2), c2 = cloud_make(500, 2);
    ipx_routh_summary s1, s2;
    ENSURE(run_set(&sys.problem, &par, 99, 500, &c1, &s1) == IPX_OK);
    ENSURE(run_set(&sys.problem, &par, 99, 500, &c2, &s2) == IPX_OK);
    ENSURE(c1.count == c2.count && s1.kept == s2.kept && s1.at_rest == s2.at_rest);
    ENSURE(s1.dke_min == s2.dke_min && s1.dke_max == s2.dke_max && s1.pivots == s2.pivots);
    for (int i = 0; i < 2; i++) /* each summary's ranges live in its own workspace */
        ENSURE(s1.vn_min[i] == s2.vn_min[i] && s1.vn_max[i] == s2.vn_max[i] &&
               s1.vt_min[i] == s2.vt_min[i] && s1.vt_max[i] == s2.vt_max[i]);
    ENSURE(memcmp(c1.v_post, c2.v_post, sizeof(double) * 6 * (size_t)c1.count) == 0);
    ENSURE(memcmp(c1.impulse, c2.impulse, sizeof(double) * 6 * (size_t)c1.count) == 0);
    cloud_free(&c1);
    cloud_free(&c2);
}

static void test_automatic_step_makes_outcomes_homogeneous(void)
{
    /* Lemma 11: k v(s/k) solves when v(s) does; with h proportional to the impact the same
       caps give the scaled outcome */
    ipx_params par = ipx_test_params("routh", "friction_directions=2");
    for (uint64_t seed = 0; seed < 20; seed++) {
        ipx_result r1, r3;
        planar_rocking_block(&sys, 0.442945, 0.0);
        ENSURE(sample(&sys.problem, &par, seed, &r1) == IPX_OK);
        planar_rocking_block(&sys, 3.0 * 0.442945, 0.0);
        ENSURE(sample(&sys.problem, &par, seed, &r3) == IPX_OK);
        for (int i = 0; i < 6; i++) ENSURE_NEAR(r3.v_post[i], 3.0 * r1.v_post[i], 1e-12);
        ENSURE(r3.counts.steps == r1.counts.steps);
    }
}

static void test_step_limit_finishes_with_one_ap_solve(void)
{
    planar_rocking_block(&sys, 0.442945, 0.0);
    ipx_params par = ipx_test_params("routh", "step=0.01,max_steps=3,friction_directions=2");
    ipx_result r;
    ENSURE(sample(&sys.problem, &par, 5, &r) == IPX_OK);
    ENSURE(r.counts.limits_hit == IPX_ROUTH_HIT_MAX_STEPS);
    ENSURE(r.counts.steps == 3 && r.counts.lcp_solves == 4);
    ENSURE(fmin(r.v_post[IPX_N], r.v_post[3 + IPX_N]) >= -1e-12);
    ENSURE(promises_kept(&sys.problem, &par, &r));
    /* the set sampler discards such samples instead */
    ipx_routh_summary sum;
    ENSURE(run_set(&sys.problem, &par, 5, 50, NULL, &sum) == IPX_OK);
    ENSURE(sum.unterminated == 50 && sum.kept == 0);
}

static void test_poisson_restitution_extension(void)
{
    /* one frictionless contact: Poisson = Newton, v_n+ = -e v_n- */
    point_mass(&sys, 0.0, 0.3, -1.0);
    sys.contact[0].e = 0.5;
    ipx_params par = ipx_test_params("routh", "poisson_restitution=1,friction_directions=2");
    ipx_result r;
    ENSURE(sample(&sys.problem, &par, 3, &r) == IPX_OK);
    ENSURE_NEAR(r.v_post[IPX_N], 0.5, 1e-12);
    ENSURE_NEAR(r.v_post[IPX_T1], 0.3, 1e-12);
    /* below the capture speed it does not bounce */
    sys.contact[0].v_capture = 2.0;
    ENSURE(sample(&sys.problem, &par, 3, &r) == IPX_OK);
    ENSURE_NEAR(r.v_post[IPX_N], 0.0, 1e-12);
    /* two contacts, e = 1: never more energy than before (checker), nothing approaches
       afterwards, and the corners leave faster than any inelastic outcome (0.09302, 8.1) */
    planar_rocking_block(&sys, 0.442945, 1.0);
    double highest = 0.0;
    for (uint64_t seed = 0; seed < 200; seed++) {
        ENSURE(sample(&sys.problem, &par, seed, &r) == IPX_OK);
        ENSURE(promises_kept(&sys.problem, &par, &r));
        highest = fmax(highest, fmax(r.v_post[IPX_N], r.v_post[3 + IPX_N]));
    }
    printf("  e = 1 rocking block: highest corner speed %.5f m/s\n", highest);
    ENSURE(highest > 0.09302);
}

static void test_bad_calls_are_refused(void)
{
    planar_rocking_block(&sys, 0.442945, 0.0);
    ipx_params par = ipx_test_params("routh", "");
    char msg[IPX_MESSAGE_SIZE];
    ENSURE(ipx_params_parse(&par, "step=-1", msg, sizeof msg) == IPX_ERR_INPUT);
    ENSURE(ipx_params_parse(&par, "max_steps=2.5", msg, sizeof msg) == IPX_ERR_INPUT);
    ipx_workspace *ws = ipx_workspace_create(&par, 2);
    ipx_result r;
    ENSURE(ipx_routh_sample(&sys.problem, par.value, NULL, ws, &r) == IPX_ERR_INPUT);
    ipx_rng rng;
    ipx_rng_seed(&rng, 1);
    double bad[IPX_MAX_PARAMS];
    memcpy(bad, par.value, sizeof bad);
    bad[IPX_ROUTH_FRICTION_DIRECTIONS] = 2.5;
    ENSURE(ipx_routh_sample(&sys.problem, bad, &rng, ws, &r) == IPX_ERR_INPUT);
    ENSURE(r.impulse[IPX_N] == 0.0 && r.message[0] != '\0');
    ipx_workspace *small = ipx_workspace_create_bytes(64);
    ENSURE(ipx_routh_sample(&sys.problem, par.value, &rng, small, &r) != IPX_OK);
    ipx_routh_cloud cl = cloud_make(10, 2);
    ipx_routh_summary sum;
    ENSURE(ipx_routh_set(&sys.problem, par.value, &rng, 11, ws, &cl, &sum) == IPX_ERR_INPUT);
    cloud_free(&cl);
    ipx_workspace_destroy(small);
    ipx_workspace_destroy(ws);
}

int main(void)
{
    RUN(test_point_mass_cases_match_routh_8_7);
    RUN(test_slip_reversal_converges_to_routh_as_h_shrinks);
    RUN(test_zeno_corner_impact_scales_angular_speed_by_0_7);
    RUN(test_same_seed_gives_bit_identical_results);
    RUN(test_automatic_step_makes_outcomes_homogeneous);
    RUN(test_step_limit_finishes_with_one_ap_solve);
    RUN(test_poisson_restitution_extension);
    RUN(test_bad_calls_are_refused);
    return ipx_test_exit();
}
