/* PLUS on random problems from random rigid bodies (tests/support/problem_gen.h): every result
   keeps the model's promises through the invariant checker (energy, cone, unilateral,
   consistency at the checker's default tolerances; non-penetration to eps_v, the velocity
   noise below which PLUS lets a contact observe and the impact end, paper 3b and 5). */
#include <math.h>
#include <stdio.h>

#include "ensure.h"
#include "impax/plus.h"
#include "model_test.h"
#include "problem_gen.h"

static ipx_scene scene; /* large: static storage */

typedef struct tally {
    int solved, failed, bits[8], newton;
    long intervals, rounds;
} tally;

/* Every promise of the model; non-penetration with eps_v as its absolute floor. */
static int keeps_promises(const ipx_params *par, const ipx_problem *p, const ipx_result *r)
{
    return ipx_test_check_kinds(p, r, par->model->promises(par->value), par->value[IPX_PLUS_EPS_V]);
}

static void run_batch(const char *params, int k_max, int count, uint64_t seed, tally *t)
{
    ipx_params par = ipx_test_params("plus", params);
    ipx_gen_options opt = ipx_gen_default_options();
    ipx_workspace *ws = ipx_workspace_create(&par, k_max);
    ipx_rng rng;
    ipx_rng_seed(&rng, seed);
    for (int i = 0; i < count; i++) {
        int k = 1 + (int)(ipx_rng_next(&rng) % (uint64_t)k_max);
        ipx_gen_random(&scene, k, &opt, &rng);
        ipx_result r;
        ipx_status st = ipx_solve(&par, &scene.problem, ws, &r);
        int ok = st == IPX_OK && keeps_promises(&par, &scene.problem, &r);
        ENSURE(ok);
        if (!ok)
            fprintf(stderr, "  problem %d (k = %d, seed %llu, '%s'): %s %s\n", i, k,
                    (unsigned long long)seed, params, ipx_status_name(st), r.message);
        t->solved += st == IPX_OK;
        t->failed += st != IPX_OK;
        for (int b = 0; b < 8; b++) t->bits[b] += (r.counts.limits_hit >> b) & 1u;
        t->newton += r.counts.newton_iters > 0;
        t->intervals += r.counts.intervals;
        t->rounds += r.counts.rounds;
    }
    ipx_workspace_destroy(ws);
}

static void report(const char *what, const tally *t)
{
    printf("  %s: %d solved, %d failed, %ld rounds, %ld intervals, %d with Newton; limits hit: "
           "rounds %d, intervals %d, passes %d, newton %d, energy cap %d, stalled %d, "
           "painleve %d, frictionless %d\n",
           what, t->solved, t->failed, t->rounds, t->intervals, t->newton, t->bits[0], t->bits[1],
           t->bits[2], t->bits[3], t->bits[4], t->bits[5], t->bits[6], t->bits[7]);
}

static void test_ten_thousand_small_problems_keep_the_promises(void)
{
    tally t = {0};
    run_batch("", 6, 10000, 20150401, &t);
    report("k = 1..6, defaults", &t);
    ENSURE(t.solved == 10000);
}

static void test_paper_settings_keep_the_promises(void)
{
    tally t = {0};
    run_batch("theta_max=0.01,v_plastic=0.1", 4, 1000, 116, &t);
    report("k = 1..4, theta_max 0.01, v_plastic 0.1", &t);
    ENSURE(t.solved == 1000);
}

static void test_larger_problems_keep_the_promises(void)
{
    tally t = {0};
    run_batch("", 24, 200, 64, &t);
    report("k = 1..24, defaults", &t);
    ENSURE(t.solved == 200);
}

int main(void)
{
    RUN(test_ten_thousand_small_problems_keep_the_promises);
    RUN(test_paper_settings_keep_the_promises);
    RUN(test_larger_problems_keep_the_promises);
    return ipx_test_exit();
}
