/* The Flickinger-Bowling model on random problems from random rigid bodies
   (tests/support/problem_gen.h): every result keeps the model's promises through the shared
   invariant checker (no energy gain, non-penetration, Coulomb cone with mu_s = contact mu, no
   pulling, consistency), and the e_* cap holds: the impact loses at least (1 - e_*) of T-, the
   kinetic energy of the impacting contacts' subspace (approach above v_capture; T- =
   1/2 v_I^T W_II^+ v_I, computed here independently), i.e. T+ <= e_* T- for a point, except
   where the model reports that even lambda = 0 cannot reach it (fallback A keeps the inelastic
   outcome). */
#include <math.h>
#include <stdio.h>

#include "ensure.h"
#include "impax/bowling.h"
#include "model_test.h"
#include "problem_gen.h"

static ipx_scene scene; /* large: static storage */
static double ke_work[IPX_TEST_MAX_ROWS * IPX_TEST_MAX_ROWS + 8 * 1024 * 64];
static double sub_W[IPX_TEST_MAX_ROWS * IPX_TEST_MAX_ROWS], sub_v[IPX_TEST_MAX_ROWS];
static int ke_iwork[IPX_TEST_MAX_ROWS];

/* T- of the cap: the impact subspace of the contacts approaching faster than v_capture. */
static double impacting_ke(const ipx_problem *p, double rcond)
{
    int rows[IPX_TEST_MAX_ROWS], m = 0, n = 3 * p->k;
    for (int i = 0; i < p->k; i++)
        if (-p->v[3 * i + IPX_N] > p->contact[i].v_capture)
            for (int j = 0; j < 3; j++) rows[m++] = 3 * i + j;
    if (m == 0) return 0.0;
    for (int a = 0; a < m; a++) {
        sub_v[a] = p->v[rows[a]];
        for (int b = 0; b < m; b++) sub_W[a + m * b] = p->W[rows[a] + n * rows[b]];
    }
    double ke = 0.0;
    ENSURE(ipx_bowling_impact_ke(m, sub_W, sub_v, rcond, ke_work, ke_iwork, &ke) == IPX_OK);
    return ke;
}

typedef struct tally {
    int solved, failed, capped, bits[8];
    long candidates, root_steps;
} tally;

/* dT <= -(1 - e_hat) T- (or the model says the cap was out of reach); *capped: it binds. */
static int keeps_cap(const ipx_params *par, const ipx_problem *p, const ipx_result *r, int *capped)
{
    const double e_star = par->value[IPX_BOWLING_E_STAR];
    const double e_hat = par->value[IPX_BOWLING_CAP_READING] != 0.0 ? 1.0 - e_star : e_star;
    const double T_minus = impacting_ke(p, par->value[IPX_BOWLING_RCOND]);
    const double target = -(1.0 - e_hat) * T_minus, tol = 1e-7 * T_minus + 1e-12;
    *capped = e_hat < 1.0 && fabs(r->delta_ke - target) <= tol;
    const int fallback_b = par->value[IPX_BOWLING_CAP_FALLBACK] != 0.0;
    if ((r->counts.limits_hit & IPX_BOWLING_CAP_UNREACHED) && !fallback_b) return 1;
    const int ok = r->delta_ke <= target + tol;
    if (!ok)
        fprintf(stderr, "  cap: dT = %.17g > -(1 - %g) T- = %.17g\n", r->delta_ke, e_hat, target);
    return ok;
}

static void report(const char *what, const tally *t)
{
    printf("  %s: %d solved, %d failed, %d at the cap, %ld candidate sets, %ld root steps; "
           "limits: cap unreached %d, energetic unreached %d, lcp %d, inelastic lcp %d, "
           "iterations %d, root %d, indeterminate %d\n",
           what, t->solved, t->failed, t->capped, t->candidates, t->root_steps, t->bits[0],
           t->bits[1], t->bits[2], t->bits[3], t->bits[4], t->bits[5], t->bits[6]);
}

/* count random problems of 1..k_max contacts under params, each one solved and keeping the
   promises and the cap (a test failure otherwise); prints the tally under what. */
static tally run_batch(const char *what, const char *params, int k_max, int count, uint64_t seed)
{
    tally t = {0};
    ipx_params par = ipx_test_params("bowling", params);
    ipx_gen_options opt = ipx_gen_default_options();
    ipx_workspace *ws = ipx_workspace_create(&par, k_max);
    ipx_rng rng;
    ipx_rng_seed(&rng, seed);
    for (int i = 0; i < count; i++) {
        int k = 1 + (int)(ipx_rng_next(&rng) % (uint64_t)k_max), capped = 0;
        ipx_gen_random(&scene, k, &opt, &rng);
        ipx_result r;
        ipx_status st = ipx_solve(&par, &scene.problem, ws, &r);
        int ok = st == IPX_OK && ipx_test_keeps_promises(&par, &scene.problem, &r) &&
                 keeps_cap(&par, &scene.problem, &r, &capped);
        ENSURE(ok);
        if (!ok)
            fprintf(stderr, "  problem %d (k = %d, seed %llu, '%s'): %s %s\n", i, k,
                    (unsigned long long)seed, params, ipx_status_name(st), r.message);
        t.solved += st == IPX_OK;
        t.failed += st != IPX_OK;
        t.capped += capped;
        for (int b = 0; b < 8; b++) t.bits[b] += (r.counts.limits_hit >> b) & 1u;
        t.candidates += r.counts.rounds;
        t.root_steps += r.counts.steps;
    }
    ipx_workspace_destroy(ws);
    report(what, &t);
    return t;
}

static void test_ten_thousand_problems_keep_the_cap_the_cone_and_non_penetration(void)
{
    const tally t = run_batch("k = 1..6, paper's e_* 0.5, mu_d = mu_s / 2",
                              "e_star=0.5,mu_dynamic_ratio=0.5", 6, 10000, 2009);
    ENSURE(t.capped > 500); /* the cap binds, not only idles */
}

static void test_defaults_keep_the_promises(void)
{
    run_batch("k = 1..6, defaults", "", 6, 1000, 7);
}

static void test_energetic_and_tangential_cors_keep_the_promises(void)
{
    run_batch("k = 1..6, energetic 0.7, e_t 0.3, e_* 0.5",
              "energetic=1,e_energetic=0.7,e_star=0.5,e_t=0.3,mu_dynamic_ratio=0.5", 6, 1000, 46);
    run_batch("k = 1..4, e_t -1, (1 - e_*) reading", "e_t=-1,e_star=0.5,cap_reading=1", 4, 1000,
              19);
}

static void test_scaling_fallback_always_reaches_the_cap(void)
{
    const tally t = run_batch("k = 1..6, e_* 0.2, e_t -1, fallback B",
                              "e_star=0.2,e_t=-1,cap_fallback=1", 6, 1000, 2011);
    ENSURE(t.bits[0] > 0); /* fallback B was needed */
}

static void test_loop_for_larger_problems_keeps_the_promises(void)
{
    run_batch("k = 1..24, e_* 0.5", "e_star=0.5", 24, 300, 64);
}

/* Maximum dissipation: the exhaustive search never keeps more energy than the loop's set. */
static void test_exhaustive_search_dissipates_at_least_as_much_as_the_loop(void)
{
    ipx_params all = ipx_test_params("bowling", "");
    ipx_params one = ipx_test_params("bowling", "enumerate_max=0");
    ipx_workspace *ws = ipx_workspace_create(&all, 4);
    ipx_gen_options opt = ipx_gen_default_options();
    ipx_rng rng;
    ipx_rng_seed(&rng, 1995);
    int compared = 0, lower = 0;
    for (int i = 0; i < 1000; i++) {
        int k = 1 + (int)(ipx_rng_next(&rng) % 4u);
        ipx_gen_random(&scene, k, &opt, &rng);
        ipx_result ra, rl;
        ENSURE(ipx_solve(&all, &scene.problem, ws, &ra) == IPX_OK);
        ENSURE(ipx_solve(&one, &scene.problem, ws, &rl) == IPX_OK);
        if (ra.counts.limits_hit || rl.counts.limits_hit) continue; /* an LCP outcome is no set */
        compared++;
        /* energy scale: the kinetic energy of all contact rows' subspace, T0 = 1/2 v^T W^+ v;
           the admissibility tests accept velocity errors of 1e-7 relative (1000 tol), which
           moves dT by up to about that fraction of T0 */
        double T0 = 0.0;
        ENSURE(ipx_bowling_impact_ke(3 * k, scene.problem.W, scene.problem.v, 1e-10, ke_work,
                                     ke_iwork, &T0) == IPX_OK);
        const double tol = 1e-6 * T0 + 1e-14;
        ENSURE(ra.delta_ke <= rl.delta_ke + tol);
        if (ra.delta_ke > rl.delta_ke + tol)
            fprintf(stderr, "  problem %d k %d: exhaustive dT %.10g (%d sets), loop %.10g\n", i, k,
                    ra.delta_ke, ra.counts.rounds, rl.delta_ke);
        lower += ra.delta_ke < rl.delta_ke - tol;
    }
    printf("  %d compared, the exhaustive search dissipated more in %d\n", compared, lower);
    ENSURE(compared > 750);
    ipx_workspace_destroy(ws);
}

int main(void)
{
    RUN(test_ten_thousand_problems_keep_the_cap_the_cone_and_non_penetration);
    RUN(test_defaults_keep_the_promises);
    RUN(test_energetic_and_tangential_cors_keep_the_promises);
    RUN(test_scaling_fallback_always_reaches_the_cap);
    RUN(test_loop_for_larger_problems_keeps_the_promises);
    RUN(test_exhaustive_search_dissipates_at_least_as_much_as_the_loop);
    return ipx_test_exit();
}
