/* Every kind of bad problem is rejected with a message naming the item, and ipx_solve then hands
   back no impulse. */
#include <math.h>
#include <string.h>

#include "ensure.h"
#include "paper_scenes.h"

static ipx_scene scene;
static double W[6 * 6]; /* the 2-contact block problem */

/* Validates and expects IPX_ERR_INPUT with `needle` in the message. */
static void expect_rejected(const ipx_problem *p, const char *needle)
{
    ipx_params par;
    char msg[IPX_MESSAGE_SIZE];
    ENSURE(ipx_params_init(&par, "aplcp", msg, sizeof msg) == IPX_OK);
    ipx_workspace *ws = ipx_workspace_create(&par, p->k > 0 ? p->k : 1);
    ipx_result r;
    memset(&r, 0x55, sizeof r); /* garbage in: the solve must clear it */
    ipx_status st = ipx_solve(&par, p, ws, &r);
    ENSURE(st == IPX_ERR_INPUT);
    ENSURE(r.status == IPX_ERR_INPUT);
    ENSURE(strstr(r.message, needle) != NULL);
    if (!strstr(r.message, needle))
        fprintf(stderr, "  message was '%s', expected '%s'\n", r.message, needle);
    ENSURE(r.k == p->k);
    if (p->k >= 1) ENSURE(r.n_rows == IPX_ROWS_PER_CONTACT * p->k && r.impulse && r.v_post);
    for (int i = 0; i < r.n_rows; i++) ENSURE(r.impulse[i] == 0.0 && r.v_post[i] == 0.0);
    ipx_workspace_destroy(ws);
}

static void fresh_block(void)
{
    ipx_scene_rocking_block(&scene, 1.0);
    memcpy(W, scene.W, sizeof(double) * 36);
    scene.problem.W = W;
}

static void test_good_problem_is_accepted(void)
{
    fresh_block();
    ipx_workspace *ws = ipx_workspace_create_bytes(ipx_validate_workspace_bytes(2));
    char msg[IPX_MESSAGE_SIZE] = "";
    ENSURE(ipx_problem_validate(&scene.problem, ws, msg, sizeof msg) == IPX_OK);
    ipx_workspace_destroy(ws);
}

static void test_rank_deficient_psd_W_is_accepted(void)
{
    /* four corners of a brick on the ground: 12 rows, rank 6 */
    ipx_rng rng;
    ipx_rng_seed(&rng, 7);
    ipx_gen_options opt = ipx_gen_default_options();
    ipx_gen_random(&scene, 1, &opt, &rng);
    for (int c = 1; c < 4; c++) {
        scene.frames[c] = scene.frames[0];
        scene.frames[c].point[c % 3] += 0.1 * c;
        scene.contact[c] = scene.contact[0];
    }
    ipx_scene_finish(&scene, 4);
    ipx_workspace *ws = ipx_workspace_create_bytes(ipx_validate_workspace_bytes(4));
    char msg[IPX_MESSAGE_SIZE] = "";
    ENSURE(ipx_problem_validate(&scene.problem, ws, msg, sizeof msg) == IPX_OK);
    if (msg[0]) fprintf(stderr, "  %s\n", msg);
    ipx_workspace_destroy(ws);
}

static void test_non_finite_velocity_is_named(void)
{
    fresh_block();
    scene.v[3 + IPX_N] = NAN;
    expect_rejected(&scene.problem, "contact 1: velocity v_n = nan");
    fresh_block();
    scene.v[IPX_T2] = INFINITY;
    expect_rejected(&scene.problem, "contact 0: velocity v_t2 = inf");
}

static void test_non_finite_W_is_named(void)
{
    fresh_block();
    W[1 + 6 * 4] = NAN;
    expect_rejected(&scene.problem, "W[1][4] = nan is not finite (contacts 0 and 1)");
}

static void test_asymmetric_W_is_rejected(void)
{
    fresh_block();
    W[0 + 6 * 2] += 1e-3;
    expect_rejected(&scene.problem, "W is not symmetric");
}

/* A large W is read in tiles for its symmetry; the message still names the first asymmetric
   pair in column order: here W[65][1] (column 1), though the pair W[5][2] comes first in the
   tiles' order (both in the first tile column, W[5][2] in its first tile). Each alone is found
   too, as is one in the last, partial tile. */
static void test_asymmetry_of_a_large_W_is_named_in_column_order(void)
{
    enum { K = 24, N = 3 * K };
    static double big[N * N], v[N];
    static ipx_contact ct[K];
    for (int i = 0; i < N; i++) big[i + N * i] = 1.0, v[i] = i % 3 == IPX_N ? -1.0 : 0.0;
    for (int c = 0; c < K; c++) ct[c] = (ipx_contact){.mu = 0.5, .e = 0.0};
    const ipx_problem p = {
        .k = K, .W = big, .v = v, .contact = ct, .flags = IPX_PROBLEM_W_ASSEMBLED};
    big[65 + N * 1] = 1e-3;
    big[5 + N * 2] = 1e-3;
    expect_rejected(&p, "W[65][1] = 0.001 but W[1][65] = 0");
    big[65 + N * 1] = 0.0;
    expect_rejected(&p, "W[5][2] = 0.001 but W[2][5] = 0");
    big[5 + N * 2] = 0.0;
    big[71 + N * 70] = 1e-3;
    expect_rejected(&p, "W[71][70] = 0.001 but W[70][71] = 0");
    big[71 + N * 70] = 0.0;
    char msg[IPX_MESSAGE_SIZE] = "";
    ipx_workspace *ws = ipx_workspace_create_bytes(ipx_validate_workspace_bytes(K));
    ENSURE(ipx_problem_validate(&p, ws, msg, sizeof msg) == IPX_OK);
    ipx_workspace_destroy(ws);
}

/* An assembled W (J M^-1 J^T) is trusted to be PSD, not to be well formed: its entries,
   symmetry and diagonal are still checked. */
static void test_assembled_W_is_still_checked_for_form(void)
{
    fresh_block();
    scene.problem.flags = IPX_PROBLEM_W_ASSEMBLED;
    W[0 + 6 * 2] += 1e-3;
    expect_rejected(&scene.problem, "W is not symmetric");
    fresh_block();
    scene.problem.flags = IPX_PROBLEM_W_ASSEMBLED;
    W[1 + 6 * 1] = -0.5;
    expect_rejected(&scene.problem, "W is indefinite: diagonal W[1][1]");
    fresh_block();
    scene.problem.flags = IPX_PROBLEM_W_ASSEMBLED;
    W[1 + 6 * 4] = INFINITY;
    expect_rejected(&scene.problem, "W[1][4] = inf is not finite");
    scene.problem.flags = 0;
}

static void test_indefinite_W_is_rejected(void)
{
    fresh_block();
    for (int i = 0; i < 6; i++) W[i + 6 * i] -= 3.0; /* shifts every eigenvalue down by 3 */
    expect_rejected(&scene.problem, "W is indefinite");
    /* zero diagonal, non-zero coupling: [[0, 1], [1, 0]] has eigenvalue -1 */
    fresh_block();
    memset(W, 0, sizeof(double) * 36);
    W[0 + 6 * 1] = W[1 + 6 * 0] = 1.0;
    expect_rejected(&scene.problem, "W is indefinite");
    /* a small negative eigenvalue hidden behind a large positive one */
    fresh_block();
    memset(W, 0, sizeof(double) * 36);
    for (int i = 0; i < 6; i++) W[i + 6 * i] = 1.0;
    W[4 + 6 * 5] = W[5 + 6 * 4] = 1.0 + 1e-4; /* eigenvalue -1e-4 */
    expect_rejected(&scene.problem, "W is indefinite");
}

static void test_bad_contact_parameters_are_named(void)
{
    fresh_block();
    scene.contact[1].mu = -0.2;
    expect_rejected(&scene.problem, "contact 1: friction mu = -0.2 is negative");
    fresh_block();
    scene.contact[0].mu = NAN;
    expect_rejected(&scene.problem, "contact 0: friction mu = nan is not a number");
    fresh_block();
    scene.contact[1].mu = -INFINITY;
    expect_rejected(&scene.problem, "contact 1: friction mu = -inf is negative");
    fresh_block(); /* valid data (never slides), but not for aplcp (test_plus_infinite_mu.c) */
    scene.contact[0].mu = INFINITY;
    expect_rejected(&scene.problem,
                    "contact 0: friction mu = inf (never slides): model 'aplcp' needs a finite mu");
    fresh_block();
    scene.contact[0].e = 1.5;
    expect_rejected(&scene.problem, "contact 0: restitution e = 1.5 is outside [0, 1]");
    fresh_block();
    scene.contact[1].e = -0.1;
    expect_rejected(&scene.problem, "contact 1: restitution e = -0.1 is outside [0, 1]");
    fresh_block();
    scene.contact[1].v_capture = -1.0;
    expect_rejected(&scene.problem, "contact 1: v_capture = -1 m/s");
    fresh_block();
    scene.contact[0].v_plastic = NAN;
    expect_rejected(&scene.problem, "contact 0: v_plastic = nan m/s");
}

static void test_contact_count_out_of_range_is_rejected(void)
{
    fresh_block();
    scene.problem.k = 0;
    expect_rejected(&scene.problem, "k = 0 contacts: a problem needs at least one");
    scene.problem.k = -3;
    expect_rejected(&scene.problem, "k = -3 contacts: a problem needs at least one");
}

static void test_null_arrays_are_rejected(void)
{
    fresh_block();
    scene.problem.v = NULL;
    expect_rejected(&scene.problem, "problem has a NULL v");
}

int main(void)
{
    RUN(test_good_problem_is_accepted);
    RUN(test_rank_deficient_psd_W_is_accepted);
    RUN(test_non_finite_velocity_is_named);
    RUN(test_non_finite_W_is_named);
    RUN(test_asymmetric_W_is_rejected);
    RUN(test_asymmetry_of_a_large_W_is_named_in_column_order);
    RUN(test_indefinite_W_is_rejected);
    RUN(test_assembled_W_is_still_checked_for_form);
    RUN(test_bad_contact_parameters_are_named);
    RUN(test_contact_count_out_of_range_is_rejected);
    RUN(test_null_arrays_are_rejected);
    return ipx_test_exit();
}
