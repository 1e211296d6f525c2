/* Islands of bench_piles (bowling_piles_lemke_data.h) that bowling left to ODE at e67277b
   (docs/performance.md, the piles table: seeds 2 and 6) because the dense Lemke ended their
   polygonal LCPs on an inaccurate basis or a false ray, then their inelastic LCPs too. Each AP
   LCP has a solution: the model must answer each island (status ok, no fallback) and keep every
   promise it makes, by the invariant checker at its default tolerances, with no host accuracy
   to lean on (v_tol 0: its own tol decides). Both ways to the LCP's answer are taken: the
   default (the dense Lemke below lcp_switch = 16 contacts, the iterative solver from there on)
   and the dense Lemke first (lcp_switch=1000), where the iterative solver must take over from
   Lemke's failure with its full sweeps. */
#include <stdio.h>

#include "bowling_piles_lemke_data.h"
#include "ensure.h"
#include "model_test.h"
#include "w_blocks.h"

enum { MAX_K = 49 };

typedef struct island {
    const char *name;
    int k, blocks;
    const int *row, *col;
    const double *blk, *v;
    ipx_contact contact; /* every contact's */
} island;

#define ISLAND(name)                                                                  \
    (island)                                                                          \
    {                                                                                 \
#name, name##_k, name##_blocks, name##_row, name##_col, name##_blk, name##_v, \
        {                                                                             \
            .mu = name##_mu, .e = name##_e, .v_capture = name##_v_capture             \
        }                                                                             \
    }

static void check_island(const island *is, const char *params)
{
    static double W[9 * MAX_K * MAX_K];
    static ipx_contact contact[MAX_K];
    ENSURE(is->k <= MAX_K);
    ipx_test_w_from_upper_blocks(is->k, is->blocks, is->row, is->col, is->blk, W);
    for (int i = 0; i < is->k; i++) contact[i] = is->contact;
    const ipx_problem p = {
        .k = is->k, .W = W, .v = is->v, .contact = contact, .flags = IPX_PROBLEM_W_ASSEMBLED};
    const ipx_params par = ipx_test_params("bowling", params);
    ipx_result r;
    const ipx_status st = ipx_test_solve(&par, &p, &r); /* and the model's promises */
    if (st != IPX_OK) printf("  %s (%s): %s\n", is->name, params, r.message);
    ENSURE(st == IPX_OK);
    ENSURE(r.delta_ke <= 0.0);
}

static void check_both_ways(const island *is)
{
    check_island(is, "");
    check_island(is, "lcp_switch=1000");
}

static void test_a_box_landing_on_a_resting_box_in_a_bin_is_answered(void)
{
    check_both_ways(&ISLAND(piles2_6));
}

static void test_islands_of_7_43_and_49_contacts_on_a_floor_are_answered(void)
{
    check_both_ways(&ISLAND(piles6_7));
    check_both_ways(&ISLAND(piles6_43));
    check_both_ways(&ISLAND(piles6_49));
}

int main(void)
{
    RUN(test_a_box_landing_on_a_resting_box_in_a_bin_is_answered);
    RUN(test_islands_of_7_43_and_49_contacts_on_a_floor_are_answered);
    return ipx_test_exit();
}
