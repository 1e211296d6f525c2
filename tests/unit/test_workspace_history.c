/* An impact's answer depends on its problem alone, never on what its workspace held before
   (core/src/numerics/min_norm.h: the factor cache is begun empty with each impact). For PLUS
   and bowling, on towers of boxes (4 contacts per face: 12 and 16 contacts, systems large
   enough for the cache) and settled bins, impact B solved on a workspace that has just solved
   impact A of the same size (the same bodies and contacts struck otherwise, or a tower of the
   same shape with other masses) gives bitwise the impulses and velocities of B solved on a
   workspace of its own; so does B solved twice in a row. These pairs hold at the level of
   ipx_solve what test_min_norm_cache's test_new_impact_starts_empty shows of the cache itself,
   where a leftover of the same size was once taken up. */
#include <stdio.h>
#include <string.h>

#include "ensure.h"
#include "impax/impax.h"
#include "model_test.h"
#include "pile_gen.h"
#include "stack_scenes.h"

static ipx_scene scene_a, scene_b; /* large: static storage */

/* B's impulses and velocities after first solving A (if not NULL) on the same workspace, into
   impulse and v_post (3k each). */
static void solve_after(const char *model, const ipx_problem *a, const ipx_problem *b,
                        double *impulse, double *v_post)
{
    const ipx_params par = ipx_test_params(model, "");
    ipx_workspace *ws = ipx_workspace_create(&par, b->k);
    ENSURE(ws != NULL);
    ipx_result r;
    if (a) ENSURE(ipx_solve(&par, a, ws, &r) == IPX_OK);
    ENSURE(ipx_solve(&par, b, ws, &r) == IPX_OK);
    memcpy(impulse, r.impulse, sizeof(double) * (size_t)r.n_rows);
    memcpy(v_post, r.v_post, sizeof(double) * (size_t)r.n_rows);
    ipx_workspace_destroy(ws);
}

/* B after A, and B after B, against B alone: bitwise. */
static void check_pair(const char *model, const char *what, const ipx_problem *a,
                       const ipx_problem *b)
{
    static double fresh[2][4 * IPX_TEST_MAX_ROWS], after[2][4 * IPX_TEST_MAX_ROWS];
    const size_t bytes = sizeof(double) * (size_t)(IPX_ROWS_PER_CONTACT * b->k);
    solve_after(model, NULL, b, fresh[0], fresh[1]);
    for (int twice = 0; twice < 2; twice++) {
        solve_after(model, twice ? b : a, b, after[0], after[1]);
        const int same =
            memcmp(fresh[0], after[0], bytes) == 0 && memcmp(fresh[1], after[1], bytes) == 0;
        if (!same)
            printf("  %s, %s (k = %d): B after %s differs from B alone\n", model, what, b->k,
                   twice ? "B" : "A");
        ENSURE(same);
    }
}

static void test_answer_does_not_depend_on_the_workspace_history(void)
{
    const char *models[] = {"plus", "bowling"};
    for (int mi = 0; mi < 2; mi++) {
        for (int n = 3; n <= 4; n++) {
            ipx_stack_options o = ipx_stack_default_options();
            o.struck = 0; /* the whole tower drops: every contact approaches */
            ipx_scene_box_tower(&scene_a, n, 4, &o, NULL);
            o.speed = 0.6, o.slip = 0.8, o.spin = 0.2, o.mu = 0.3;
            ipx_scene_box_tower(&scene_b, n, 4, &o, NULL); /* the same tower struck otherwise */
            check_pair(models[mi], "the same tower struck otherwise", &scene_a.problem,
                       &scene_b.problem);
            for (int seed = 1; seed <= 2; seed++) { /* random masses, offsets and yaws */
                ipx_rng rng;
                ipx_rng_seed(&rng, (uint64_t)(100 * n + seed));
                ipx_scene_box_tower(&scene_a, n, 4, &o, &rng);
                ipx_scene_box_tower(&scene_b, n, 4, &o, &rng);
                check_pair(models[mi], "two random towers", &scene_a.problem, &scene_b.problem);
            }
        }
    }
}

/* A settled bin struck at its top, then the same bin struck twice as hard. */
static void test_bins_struck_twice(void)
{
    static double v2[IPX_TEST_MAX_ROWS * 4];
    const char *models[] = {"plus", "bowling"};
    for (int mi = 0; mi < 2; mi++)
        for (int k = 20; k <= 30; k += 10)
            for (int seed = 1; seed <= 2; seed++) {
                ipx_pile pile;
                ipx_rng rng;
                ipx_rng_seed(&rng, (uint64_t)(1000 * k + seed));
                const ipx_pile_options opt = ipx_pile_default_options(IPX_PILE_BIN);
                ENSURE(ipx_pile_make(&pile, k, &opt, &rng) == 0);
                ipx_problem b = pile.problem;
                for (int i = 0; i < IPX_ROWS_PER_CONTACT * k; i++) v2[i] = 2.0 * pile.v[i];
                b.v = v2;
                check_pair(models[mi], "a bin struck twice as hard", &pile.problem, &b);
                check_pair(models[mi], "a bin struck half as hard", &b, &pile.problem);
                ipx_pile_free(&pile);
            }
}

int main(void)
{
    RUN(test_answer_does_not_depend_on_the_workspace_history);
    RUN(test_bins_struck_twice);
    return ipx_test_exit();
}
