/* Islands of PyODE's tutorial3 (lcp_stall_data.h, captured with the shim's IMPAX_CAPTURE) that
   aplcp and routh left to ODE: the iterative solver's sweeps ran in cycles at a residual of 0.03
   to 0.07 (mu = 5000: Gauss-Seidel on the Coulomb law is no descent method), and the dense
   Lemke, their fallback, ended on a false ray or an inaccurate basis. Each LCP has a solution
   (the Anitescu-Potra LCP always has one). The model must answer each island (status ok) to
   the host's velocity accuracy v_tol that the adapter gave it, and keep every promise it makes
   by the invariant checker at its default tolerances, with no safety net: since the fixed
   friction bounds that follow a stall (core/src/numerics/nsgs.h) it does; an island of ODE's
   house of cards that routh left to ODE, answered since its lcp_fallback is 96; and two islands
   of ODE's crash demo (the car's hit into the wall of boxes, 301 and 331 contacts, above
   lcp_fallback), on which the fixed bounds renewed outright ran in cycles at 0.087: answered
   since the damped bounds that follow (nsgs.c, DAMPED_AFTER); and a third (153 contacts), whose
   plain sweeps cycled at 0.0657 without f rising: answered since a stall above lcp_accept
   switches to the fixed bounds too. bowling's polygonal LCP of the three walls as well, since
   its iterative solve goes on past a stall where the work bound cannot pay a dense one. And two
   tutorial3 islands (lcp_cone_data.h) on which neither the plain sweeps nor the fixed bounds
   went below 0.046 and 0.078 and the dense Lemke ended on an inaccurate basis: answered since
   the cone stage (nsgs.h) comes first. And a fourth island of the crash demo's wall
   (lcp_block_data.h, 226 contacts) on which all three stages cycled around one sliding contact
   (best residual 0.0675): answered since aplcp's exact blocks follow them. */
#include <stdio.h>
#include <string.h>

#include "ensure.h"
#include "lcp_block_data.h"
#include "lcp_cone_data.h"
#include "lcp_stall_data.h"
#include "model_test.h"
#include "w_blocks.h"

enum { MAX_K = 331 };

/* The island's problem, in storage every test shares (large: static). */
static ipx_problem island_problem(const ipx_test_island *is)
{
    static double W[9 * MAX_K * MAX_K];
    static ipx_contact contact[MAX_K];
    ENSURE(is->k <= MAX_K);
    return ipx_test_island_problem(is, W, contact);
}

static void check_island_with(const ipx_test_island *is, const char *model, const char *text)
{
    const ipx_problem p = island_problem(is);
    const ipx_params par = ipx_test_params(model, text);
    ipx_result r;
    const ipx_status st = ipx_test_solve(&par, &p, &r); /* and the model's promises */
    printf("  %s under %s: %s, counts.steps %d, %d LCP solves%s%s\n", is->name, model,
           ipx_status_name(st), r.counts.steps, r.counts.lcp_solves, st ? ": " : "",
           st ? r.message : "");
    ENSURE(st == IPX_OK);
    ENSURE(r.delta_ke <= 0.0);
}

static void check_island(const ipx_test_island *is, const char *model)
{
    check_island_with(is, model, "");
}

static void test_aplcp_answers_the_islands_it_left_to_ode(void)
{
    const ipx_test_island islands[] = {IPX_TEST_ISLAND(t3_33, 0.2), IPX_TEST_ISLAND(t3_64, 0.2),
                                       IPX_TEST_ISLAND(t3_72, 0.2)};
    for (size_t i = 0; i < sizeof islands / sizeof islands[0]; i++)
        check_island(&islands[i], "aplcp");
}

static void test_routh_answers_the_islands_it_left_to_ode(void)
{
    /* cards_66: routh's finishing LCP, which the iterative solver cannot settle, redone by the
       dense Lemke (lcp_fallback 96, as aplcp's) */
    const ipx_test_island islands[] = {IPX_TEST_ISLAND(t3_60, 0.2), IPX_TEST_ISLAND(cards_66, 0.0)};
    for (size_t i = 0; i < sizeof islands / sizeof islands[0]; i++)
        check_island(&islands[i], "routh");
}

/* The other model on each: the LCPs are the same kind (routh's last solve is aplcp's LCP). */
static void test_each_island_is_answered_by_both_lcp_models(void)
{
    const ipx_test_island islands[] = {IPX_TEST_ISLAND(t3_33, 0.2), IPX_TEST_ISLAND(t3_60, 0.2),
                                       IPX_TEST_ISLAND(t3_64, 0.2), IPX_TEST_ISLAND(t3_72, 0.2),
                                       IPX_TEST_ISLAND(cards_66, 0.0)};
    for (size_t i = 0; i < sizeof islands / sizeof islands[0]; i++) {
        check_island(&islands[i], "aplcp");
        check_island(&islands[i], "routh");
    }
}

/* The crash demo's wall: routh left crash_301 and crash_153 to ODE, bowling crash_331; aplcp
   stalled on all three. Each model answers each, to v_tol and keeping its promises. */
static void test_both_lcp_models_answer_the_crash_walls(void)
{
    const ipx_test_island islands[] = {IPX_TEST_ISLAND(crash_301, 0.0),
                                       IPX_TEST_ISLAND(crash_331, 0.0),
                                       IPX_TEST_ISLAND(crash_153, 0.0)};
    for (size_t i = 0; i < sizeof islands / sizeof islands[0]; i++) {
        check_island(&islands[i], "aplcp");
        check_island(&islands[i], "routh");
    }
}

/* bowling's polygonal LCP (8 directions, mu_d) of the same walls: its iterative solve ended at
   a stall for the dense Lemke, which the work bound could not pay for at 3 000 rows (work bound
   spent on all three); the stall now goes on to the fixed bounds where no dense solve follows. */
static void test_bowling_answers_the_crash_walls_without_its_work_bound(void)
{
    const ipx_test_island islands[] = {IPX_TEST_ISLAND(crash_301, 0.0),
                                       IPX_TEST_ISLAND(crash_331, 0.0),
                                       IPX_TEST_ISLAND(crash_153, 0.0)};
    for (size_t i = 0; i < sizeof islands / sizeof islands[0]; i++)
        check_island(&islands[i], "bowling");
}

/* The islands that came once aplcp's iterative solver took islands from 8 contacts
   (lcp_switch_host): sweeps over each contact's friction cone settle them where the plain and
   fixed-bound sweeps ran in cycles. */
static void test_the_cone_stage_answers_the_cycling_islands(void)
{
    const ipx_test_island islands[] = {IPX_TEST_ISLAND(t3_37, 0.2), IPX_TEST_ISLAND(t3_50, 0.2)};
    for (size_t i = 0; i < sizeof islands / sizeof islands[0]; i++) {
        check_island(&islands[i], "aplcp");
        check_island(&islands[i], "routh");
    }
}

/* crash_226: without exact blocks aplcp's iterative solve ends unsettled (left to ODE); with
   them (the default) the one block around the sliding contact answers it, to v_tol and keeping
   every promise. routh's and bowling's solvers settle it without blocks; routh's with fewer
   sweeps needs them. */
static void test_exact_blocks_answer_the_island_the_stages_cycled_on(void)
{
    const ipx_test_island is = IPX_TEST_ISLAND(crash_226, 0.0);
    const ipx_problem p = island_problem(&is);
    const ipx_params none = ipx_test_params("aplcp", "block_rounds=0");
    ipx_result r;
    ENSURE(ipx_solve(&none, &p, ipx_test_workspace(&none, p.k), &r) == IPX_ERR_NOT_CONVERGED);
    ENSURE(strstr(r.message, "residual") != NULL);
    const ipx_params one = ipx_test_params("aplcp", "block_rounds=1");
    ENSURE(ipx_test_solve(&one, &p, &r) == IPX_OK);
    ENSURE(r.counts.limits_hit == 0); /* to v_tol, not accepted loosely */
    check_island(&is, "aplcp");
    check_island(&is, "routh");
    check_island(&is, "bowling");
    /* routh's fallback LCP (uncapped) takes the blocks too: with its sweeps cut to 100 a step
       LCP fails, and the fallback is left unsettled without blocks */
    const ipx_params cut = ipx_test_params("routh", "max_sweeps=100,stall_sweeps=0,block_rounds=0");
    ENSURE(ipx_solve(&cut, &p, ipx_test_workspace(&cut, p.k), &r) == IPX_ERR_NOT_CONVERGED);
    check_island_with(&is, "routh", "max_sweeps=100,stall_sweeps=0");
}

int main(void)
{
    RUN(test_aplcp_answers_the_islands_it_left_to_ode);
    RUN(test_routh_answers_the_islands_it_left_to_ode);
    RUN(test_each_island_is_answered_by_both_lcp_models);
    RUN(test_both_lcp_models_answer_the_crash_walls);
    RUN(test_bowling_answers_the_crash_walls_without_its_work_bound);
    RUN(test_the_cone_stage_answers_the_cycling_islands);
    RUN(test_exact_blocks_answer_the_island_the_stages_cycled_on);
    return ipx_test_exit();
}
