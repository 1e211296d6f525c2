/* bowling's refine_memo (docs/models/bowling.md §5): a slip-direction root search that does not
   solve again a direction it already solved must give every answer the full search gives with
   refine_memo 0 (each step solved): the same status, the same slip state of every contact and
   the same impulses to round-off, on random problems of 1 to 6 contacts
   (tests/support/problem_gen.h) and on captured pile problems (bowling_pile_data.h: runs of up
   to 6 neighbouring contacts of ODE's house of cards, small enough for the exhaustive search
   and the active-set loop that the direction search serves). The memo must also act: fewer
   candidate solves in all. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bowling_pile_data.h"
#include "ensure.h"
#include "impax/bowling.h"
#include "model_test.h"
#include "problem_gen.h"

enum { MAX_K = 80, SUB_MAX = 6 };

static ipx_scene scene; /* large: static storage */

typedef struct tally {
    int compared, differed;
    long rounds_full, rounds_memo;
} tally;

/* Solves p with the memo on and off; 1 if the answers are the same (status, slip states,
   impulses to round-off), and the candidate solves of each into t. */
static int same_answer(const char *params, const ipx_problem *p, tally *t)
{
    char full_text[256];
    snprintf(full_text, sizeof full_text, "%s%srefine_memo=0", params, *params ? "," : "");
    const ipx_params memo = ipx_test_params("bowling", params);
    const ipx_params full = ipx_test_params("bowling", full_text);
    ipx_workspace *wm = ipx_workspace_create(&memo, p->k), *wf = ipx_workspace_create(&full, p->k);
    ipx_result rm, rf;
    const ipx_status sm = ipx_solve(&memo, p, wm, &rm), sf = ipx_solve(&full, p, wf, &rf);
    int same = sm == sf;
    if (same && sm == IPX_OK) {
        double scale = 0.0;
        for (int i = 0; i < rf.n_rows; i++) scale = fmax(scale, fabs(rf.impulse[i]));
        for (int i = 0; i < rf.n_rows; i++)
            same = same && fabs(rm.impulse[i] - rf.impulse[i]) <= 1e-12 * scale;
        for (int i = 0; i < rf.k; i++) same = same && rm.slip_state[i] == rf.slip_state[i];
        same = same && rm.counts.limits_hit == rf.counts.limits_hit;
        t->rounds_full += rf.counts.rounds;
        t->rounds_memo += rm.counts.rounds;
    }
    if (!same)
        fprintf(stderr, "  k = %d '%s': memo %s dT %.17g, full %s dT %.17g\n", p->k, params,
                ipx_status_name(sm), rm.delta_ke, ipx_status_name(sf), rf.delta_ke);
    t->compared++;
    t->differed += !same;
    ipx_workspace_destroy(wm);
    ipx_workspace_destroy(wf);
    return same;
}

static void report(const char *what, const tally *t)
{
    printf("  %s: %d problems, %d answers differ; candidate solves %ld with the memo, %ld "
           "without\n",
           what, t->compared, t->differed, t->rounds_memo, t->rounds_full);
}

static void random_batch(const char *what, const char *params, int count, uint64_t seed)
{
    tally t = {0};
    ipx_gen_options opt = ipx_gen_default_options();
    ipx_rng rng;
    ipx_rng_seed(&rng, seed);
    for (int i = 0; i < count; i++) {
        const int k = 1 + (int)(ipx_rng_next(&rng) % (uint64_t)SUB_MAX);
        ipx_gen_random(&scene, k, &opt, &rng);
        ENSURE(same_answer(params, &scene.problem, &t));
    }
    report(what, &t);
    ENSURE(t.differed == 0);
    ENSURE(t.rounds_memo < t.rounds_full); /* the memo acted */
}

static void test_random_problems_get_the_full_search_answers(void)
{
    random_batch("k = 1..6, defaults", "", 1000, 40);
    random_batch("k = 1..6, e_* 0.5, mu_d = mu_s / 2", "e_star=0.5,mu_dynamic_ratio=0.5", 1000,
                 2009);
    random_batch("k = 1..6, energetic 0.7, e_t 0.3", "energetic=1,e_energetic=0.7,e_t=0.3", 500,
                 46);
}

/* W and v of contacts [first, first + k) of a captured island: a principal block of its W
   (symmetric PSD as the whole), from the upper triangle's blocks of the data file. */
static void sub_island(int first, int k, int blocks, const int *row, const int *col,
                       const double *blk, const double *v, double *W, double *vs)
{
    const int n = 3 * k;
    memset(W, 0, sizeof(double) * (size_t)n * (size_t)n);
    for (int b = 0; b < blocks; b++) {
        const int i = row[b] - first, j = col[b] - first;
        if (i < 0 || i >= k || j < 0 || j >= k) continue;
        for (int r = 0; r < 3; r++)
            for (int c = 0; c < 3; c++) {
                const double x = blk[9 * b + r + 3 * c];
                W[(3 * i + r) + (size_t)n * (size_t)(3 * j + c)] = x;
                W[(3 * j + c) + (size_t)n * (size_t)(3 * i + r)] = x;
            }
    }
    memcpy(vs, v + 3 * first, sizeof(double) * (size_t)n);
}

static void pile_runs(const char *name, int k_all, int blocks, const int *row, const int *col,
                      const double *blk, const double *v, tally *t)
{
    static double W[9 * SUB_MAX * SUB_MAX], vs[3 * SUB_MAX];
    ipx_contact contact[SUB_MAX];
    for (int i = 0; i < SUB_MAX; i++) contact[i] = (ipx_contact){.mu = 5.0};
    for (int k = 2; k <= SUB_MAX; k++)
        for (int first = 0; first + k <= k_all; first++) {
            sub_island(first, k, blocks, row, col, blk, v, W, vs);
            const ipx_problem p = {.k = k,
                                   .W = W,
                                   .v = vs,
                                   .contact = contact,
                                   .flags = IPX_PROBLEM_W_ASSEMBLED,
                                   .v_tol = 0.5 * 0.01};
            if (!same_answer("", &p, t))
                fprintf(stderr, "  %s contacts %d..%d\n", name, first, first + k - 1);
        }
}

#define RUNS(name, t) \
    pile_runs(#name, name##_k, name##_blocks, name##_row, name##_col, name##_blk, name##_v, t)

static void test_captured_pile_problems_get_the_full_search_answers(void)
{
    tally t = {0};
    RUNS(cards48, &t);
    RUNS(cards76, &t);
    report("runs of 2..6 contacts of the captured card islands", &t);
    ENSURE(t.differed == 0);
}

int main(void)
{
    RUN(test_random_problems_get_the_full_search_answers);
    RUN(test_captured_pile_problems_get_the_full_search_answers);
    return ipx_test_exit();
}
