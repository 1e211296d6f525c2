/* Islands of ODE's house-of-cards demo (bowling_pile_data.h, captured from the shim) on which
   bowling left the impact to ODE (issue [real-clients], the demo's cells of
   tests/realclients/known_gaps.txt): at 48 and 76 contacts the dense Lemke ended its polygonal
   LCP (480 and 760 rows) on an inaccurate basis ("the polygonal LCP failed (numerical
   failure)"), then on its inelastic retry too; at 78 contacts the active-set loop and Lemke
   spent the work bound (max_work) before either had an answer. Each LCP has a solution (the AP
   LCP always has one): the model must answer each island (status ok, no fallback) and keep
   every promise it makes, by the invariant checker at its default tolerances, with the host's
   velocity accuracy v_tol = |g| h as the adapter gave it. Both ways to the LCP's answer are
   taken: the default (the iterative solver from lcp_switch = 16 contacts on, the dense Lemke
   where it does not settle), and the dense Lemke first (lcp_switch=1000), which the iterative
   solver must rescue where Lemke fails. */
#include <stdio.h>

#include "bowling_pile_data.h"
#include "ensure.h"
#include "model_test.h"
#include "w_blocks.h"

enum { MAX_K = 80 };

static void check_island(const char *name, int k, int blocks, const int *row, const int *col,
                         const double *blk, const double *v, const char *params)
{
    static double W[9 * MAX_K * MAX_K];
    static ipx_contact contact[MAX_K];
    ENSURE(k <= MAX_K);
    ipx_test_w_from_upper_blocks(k, blocks, row, col, blk, W);
    for (int i = 0; i < k; i++) contact[i] = (ipx_contact){.mu = 5.0};
    const ipx_problem p = {.k = k,
                           .W = W,
                           .v = v,
                           .contact = contact,
                           .flags = IPX_PROBLEM_W_ASSEMBLED,
                           .v_tol = 0.5 * 0.01}; /* m/s: |g| h of the demo */
    const ipx_params par = ipx_test_params("bowling", params);
    ipx_result r;
    const ipx_status st = ipx_test_solve(&par, &p, &r); /* and the model's promises */
    if (st != IPX_OK) printf("  %s (%s): %s\n", name, params, r.message);
    ENSURE(st == IPX_OK);
    ENSURE(r.delta_ke <= 0.0);
}

#define ISLAND(name, params)                                                                   \
    check_island(#name, name##_k, name##_blocks, name##_row, name##_col, name##_blk, name##_v, \
                 params)

static void test_cards_island_of_48_contacts_is_answered(void)
{
    ISLAND(cards48, "");
    ISLAND(cards48, "lcp_switch=1000");
}

static void test_cards_island_of_76_contacts_is_answered(void)
{
    ISLAND(cards76, "");
    ISLAND(cards76, "lcp_switch=1000");
}

/* (The dense Lemke alone takes about as many pivots here as before, 1.2e6 work units each:
   lcp_switch=1000 spends the bound.) */
static void test_cards_island_of_78_contacts_is_answered_within_the_work_bound(void)
{
    ISLAND(cards78, "");
}

int main(void)
{
    RUN(test_cards_island_of_48_contacts_is_answered);
    RUN(test_cards_island_of_76_contacts_is_answered);
    RUN(test_cards_island_of_78_contacts_is_answered_within_the_work_bound);
    return ipx_test_exit();
}
