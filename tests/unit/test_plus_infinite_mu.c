/* A contact with mu = +INFINITY (ODE's dInfinity: it never slides) under PLUS, and its refusal by
   the models that need a finite mu (docs/models/plus.md §5.9): the closed form of a corner that
   rolls from the start, the limit of the paper's sliding path as mu grows, the slide where
   rolling would pull, every promise kept. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ensure.h"
#include "impax/bowling.h"
#include "model_test.h"
#include "paper_scenes.h"

static ipx_scene scene;

/* The rocking block's corner A (docs/models/routh.md §8.1) moving right at 2 m/s and down at
   1 m/s, spinning at spin rad/s: its contact point slides fast (beyond v_transition). */
static void sliding_corner(double mu, double spin)
{
    const double u[3] = {2.0, -1.0, spin};
    ipx_scene_block_corner(&scene, mu, u);
}

/* PLUS's answer, with every promise of the model checked. */
static void solve_plus(const char *text, ipx_result *r)
{
    ipx_params par = ipx_test_params("plus", text);
    const ipx_status st = ipx_test_solve(&par, &scene.problem, r);
    ENSURE(st == IPX_OK);
    if (st != IPX_OK) fprintf(stderr, "  plus: %s\n", r->message);
    ENSURE(ipx_test_keeps_promises(&par, &scene.problem, r));
}

static void test_corner_rolls_from_the_start(void)
{
    /* e = 0 and the contact rolls throughout (2.7): one compression that drives the whole
       contact velocity to zero, W pi = -v on the plane's rows (t1, n; t2 is out of the plane and
       at rest): pi = -W^-1 v by Cramer's rule */
    const double spins[] = {0.0, 3.0, -1.0};
    for (size_t i = 0; i < sizeof spins / sizeof spins[0]; i++) {
        sliding_corner(INFINITY, spins[i]);
        const double *W = scene.W, *v = scene.problem.v;
        const double a = W[0], b = W[2 * 3 + 0], d = W[2 * 3 + 2]; /* rows t1 = 0 and n = 2 */
        const double det = a * d - b * b;
        ENSURE(fabs(v[0]) > 0.1); /* the corner slides at the start */
        ipx_result r;
        solve_plus("", &r);
        ENSURE_NEAR(r.impulse[IPX_T1], -(d * v[0] - b * v[2]) / det, 1e-12);
        ENSURE_NEAR(r.impulse[IPX_N], -(a * v[2] - b * v[0]) / det, 1e-12);
        ENSURE(r.impulse[IPX_T2] == 0.0);
        ENSURE_NEAR(r.v_post[IPX_T1], 0.0, 1e-12);
        ENSURE_NEAR(r.v_post[IPX_N], 0.0, 1e-12);
        ENSURE(r.slip_state[0] == IPX_SLIP_STICKING);
        ENSURE(r.delta_ke < 0.0);
        ENSURE(r.counts.limits_hit == 0);
    }
}

static void test_a_large_finite_mu_tends_to_it(void)
{
    /* the paper's path with a finite mu slides until friction stops the slip, in a normal
       impulse that shrinks as 1 / mu: the answer tends to the one that never slides */
    const double spins[] = {0.0, 3.0};
    for (size_t i = 0; i < sizeof spins / sizeof spins[0]; i++) {
        ipx_result limit, finite;
        double pi_inf[3], error_1e3 = 0.0, error_1e6 = 0.0;
        sliding_corner(INFINITY, spins[i]);
        solve_plus("", &limit);
        memcpy(pi_inf, limit.impulse, sizeof pi_inf);
        const double size = hypot(pi_inf[IPX_T1], pi_inf[IPX_N]);
        for (int e = 0; e < 2; e++) {
            sliding_corner(e == 0 ? 1e3 : 1e6, spins[i]);
            solve_plus("", &finite);
            double err = 0.0;
            for (int t = 0; t < 3; t++) err = fmax(err, fabs(finite.impulse[t] - pi_inf[t]));
            if (e == 0) error_1e3 = err / size;
            else error_1e6 = err / size;
        }
        ENSURE(error_1e3 < 1e-2);
        ENSURE(error_1e6 < 1e-5);
        ENSURE(error_1e6 < error_1e3); /* closer as mu grows */
    }
}

static void test_a_corner_whose_rolling_would_pull_slides(void)
{
    /* the corner slides at 3 m/s and approaches at 0.5 m/s: rolling would need a pulling normal
       (pi = -W^-1 v has pi_n < 0), and the limit of the paper's path as mu grows is a slide whose
       friction alone, with a normal impulse of order 1 / mu, stops the approach: pi_t = -v_n /
       W_nt, the slip left at v_t + W_tt pi_t. PLUS takes that path with PLUS_MU_FINITE (1000):
       within 2e-3 of the limit */
    const double u[3] = {3.0, -0.5, 0.0};
    ipx_scene_block_corner(&scene, INFINITY, u);
    const double *W = scene.W, *v = scene.problem.v;
    const double a = W[0], b = W[2 * 3 + 0], d = W[2 * 3 + 2];
    ENSURE(-(a * v[2] - b * v[0]) / (a * d - b * b) < 0.0); /* rolling would pull */
    const double pi_t = -v[2] / b, slip = v[0] + a * pi_t;
    ipx_result r;
    solve_plus("", &r);
    ENSURE_NEAR(r.impulse[IPX_T1], pi_t, 2e-3 * fabs(pi_t));
    ENSURE(r.impulse[IPX_N] >= 0.0 && r.impulse[IPX_N] <= 2e-3 * fabs(pi_t));
    ENSURE_NEAR(r.v_post[IPX_T1], slip, 2e-3 * fabs(slip));
    ENSURE(slip > 1.0); /* it slides on: neither stuck nor left frictionless */
    ENSURE_NEAR(r.v_post[IPX_N], 0.0, 1e-9);
    ENSURE(r.slip_state[0] == IPX_SLIP_SLIDING);
    ENSURE(r.counts.limits_hit == 0);
}

/* The rocking block thrown sideways onto both corners, each with friction mu. */
static void block_on_both_corners(double mu)
{
    ipx_scene_rocking_block(&scene, 1.0);
    scene.body_vel[0] = 1.5; /* m/s along the ground */
    scene.body_vel[5] = 0.7; /* rad/s about the plane's normal */
    scene.contact[0].mu = scene.contact[1].mu = mu;
    ipx_scene_finish(&scene, 2);
}

static void test_both_corners_take_the_finite_mu_together(void)
{
    /* rolling would pull one corner's normal in the first interval: every infinite mu of the
       impact then takes 1000 and the interval starts again, so the answer is the one with 1000
       at both corners, to the bit (one corner at 1000 beside one held rolling is not the
       paper's path for any mu, and can gain energy) */
    block_on_both_corners(1000.0);
    ipx_result finite;
    solve_plus("", &finite);
    double pi[6], v[6];
    memcpy(pi, finite.impulse, sizeof pi);
    memcpy(v, finite.v_post, sizeof v);
    block_on_both_corners(INFINITY);
    ipx_result r;
    solve_plus("", &r);
    for (int i = 0; i < 6; i++) ENSURE(r.impulse[i] == pi[i] && r.v_post[i] == v[i]);
    ENSURE(r.counts.limits_hit == finite.counts.limits_hit);
    for (int c = 0; c < 2; c++) ENSURE(r.v_post[IPX_ROWS_PER_CONTACT * c + IPX_N] >= -1e-5);
    ENSURE(r.delta_ke <= 0.0 && r.nets == 0);
}

static void test_the_other_models_refuse_it_by_name(void)
{
    const char *models[] = {"aplcp", "routh", "bowling", "jia", "gonthier"};
    for (size_t i = 0; i < sizeof models / sizeof models[0]; i++) {
        sliding_corner(INFINITY, 0.0);
        ipx_params par = ipx_test_params(models[i], "");
        ENSURE(!par.model->takes_infinite_mu);
        ipx_result r;
        ENSURE(ipx_test_solve(&par, &scene.problem, &r) == IPX_ERR_INPUT);
        ENSURE(strstr(r.message, "contact 0: friction mu = inf (never slides)") != NULL);
        ENSURE(strstr(r.message, models[i]) != NULL);
        ENSURE(r.impulse[IPX_N] == 0.0 && r.v_post[IPX_N] == 0.0);
    }
    /* bowling's own entry, which validates by itself */
    ipx_params par = ipx_test_params("bowling", "");
    ipx_workspace *ws = ipx_test_workspace(&par, 1);
    ipx_result r;
    ENSURE(ipx_bowling_solve(&par, &scene.problem, NULL, ws, &r) == IPX_ERR_INPUT);
    ENSURE(strstr(r.message, "friction mu = inf (never slides): model 'bowling' needs") != NULL);
    ipx_workspace_destroy(ws);
}

int main(void)
{
    RUN(test_corner_rolls_from_the_start);
    RUN(test_a_large_finite_mu_tends_to_it);
    RUN(test_a_corner_whose_rolling_would_pull_slides);
    RUN(test_both_corners_take_the_finite_mu_together);
    RUN(test_the_other_models_refuse_it_by_name);
    return ipx_test_exit();
}
