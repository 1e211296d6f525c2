/* bowling on one large island (issue [real-clients] item 5; docs/models/bowling.md §9): the
   impact ends within its stated work bound whatever the island. A settled bin of boxes
   (tests/support/pile_gen.h), the kind of island ODE's crash demo makes when a car drives into
   a wall of boxes. Before the bound, its polygonal LCP (k + 9k rows, dense Lemke) had a pivot
   cap of 50 (10k) + 1000 pivots of O((10k)^2) each, and the active-set loop behind it solves of
   up to 3k unknowns: an island of 300 contacts did not end in ctest's 600 s. Now, at the
   default max_work, it ends: with an answer that keeps every promise, or failed by the bound
   (IPX_ERR_NOT_CONVERGED, limits_hit IPX_BOWLING_WORK, a message naming max_work, no impulse
   written). A small max_work ends it by the bound in any case, a churning pile whose loop
   finds no admissible set ends with the model's own LCP fallback, and a moderate pile is still
   solved as before, far inside the default bound. */
#include <stdio.h>
#include <string.h>

#include "ensure.h"
#include "impax/bowling.h"
#include "impax/impax.h"
#include "model_test.h"
#include "pile_gen.h"

/* Solves the pile under `params`; returns the status with r filled. */
static ipx_status solve_pile(const ipx_problem *p, const char *params, ipx_result *r)
{
    const ipx_params par = ipx_test_params("bowling", params);
    const ipx_status st = ipx_solve(&par, p, ipx_test_workspace(&par, p->k), r);
    printf("  k = %d, %s: %s, %d sets, %d solves, %d LCPs, %d pivots, limits 0x%x %s\n", p->k,
           params[0] ? params : "defaults", ipx_status_name(st), r->counts.rounds,
           r->counts.lsq_solves, r->counts.lcp_solves, r->counts.pivots, r->counts.limits_hit,
           r->message);
    return st;
}

/* A failure by the work bound: its status, bit and message, and no impulse. */
static void failed_by_the_bound(const ipx_result *r)
{
    ENSURE(r->status == IPX_ERR_NOT_CONVERGED);
    ENSURE(r->counts.limits_hit & IPX_BOWLING_WORK);
    ENSURE(strstr(r->message, "max_work") != NULL);
    for (int i = 0; i < r->n_rows; i++) ENSURE(r->impulse[i] == 0.0);
}

/* An answer: every promise kept, the bound not reached. */
static void solved(const ipx_problem *p, const char *params, const ipx_result *r)
{
    const ipx_params par = ipx_test_params("bowling", params);
    ENSURE(r->status == IPX_OK);
    ENSURE(!(r->counts.limits_hit & IPX_BOWLING_WORK));
    ENSURE(ipx_test_keeps_promises(&par, p, r));
}

static void make_bin(ipx_pile *pile, int k, ipx_pile_motion motion)
{
    ipx_pile_options po = ipx_pile_default_options(IPX_PILE_BIN);
    po.motion = motion;
    ipx_rng rng;
    ipx_rng_seed(&rng, 1);
    ENSURE(ipx_pile_make(pile, k, &po, &rng) == 0);
}

static void test_large_island_impact_ends_within_the_work_bound(void)
{
    ipx_pile pile;
    make_bin(&pile, 300, IPX_PILE_SETTLED);
    ipx_result r;
    if (solve_pile(&pile.problem, "", &r) == IPX_OK) solved(&pile.problem, "", &r);
    else failed_by_the_bound(&r);
    solve_pile(&pile.problem, "max_work=1e8", &r);
    failed_by_the_bound(&r);
    ipx_pile_free(&pile);
}

static void test_moderate_pile_is_solved_inside_the_bound(void)
{
    ipx_pile pile;
    make_bin(&pile, 40, IPX_PILE_SETTLED);
    ipx_result r;
    solve_pile(&pile.problem, "", &r);
    solved(&pile.problem, "", &r);
    ipx_pile_free(&pile);
}

/* A churning bin of 100 contacts searched by the active-set loop (loop_max above it; by default
   an island that large takes the polygonal LCP's outcome without a search): the loop does not
   find an admissible set, and took 1.5e11 units (40 s) before the polygonal LCP decided. At the
   default bound the loop ends there as at max_iterations, and the LCP's outcome (solved first,
   as the loop's seed) answers: IPX_OK, IPX_BOWLING_WORK and IPX_BOWLING_LCP_USED reported, every
   promise kept. */
static void test_churning_pile_ends_with_the_lcp_at_the_bound(void)
{
    ipx_pile pile;
    make_bin(&pile, 100, IPX_PILE_CHURNING);
    ipx_result r;
    solve_pile(&pile.problem, "loop_max=1000", &r);
    const ipx_params par = ipx_test_params("bowling", "loop_max=1000");
    ENSURE(r.status == IPX_OK);
    ENSURE(r.counts.limits_hit & IPX_BOWLING_WORK);
    ENSURE(r.counts.limits_hit & IPX_BOWLING_LCP_USED);
    ENSURE(r.message[0] == '\0');
    ENSURE(ipx_test_keeps_promises(&par, &pile.problem, &r));
    ipx_pile_free(&pile);
}

/* The e_* cap needs the kinetic energy before the impact T- (a dense minimum-norm solve over
   the impacting contacts' rows, m^3 units) only where it caps below T-: at the default e_* = 1
   its target is no gain whatever T- is. ODE's crash demo's wall (385 of 702 contacts
   approaching, m = 1 155 rows) spent 1.5e9 of the 2e9 units on that solve alone and was left to
   ODE in some runs. Here a settled bin of 300 contacts with the crash's contact settings (no
   bounce, bounce_vel 0, so every contact approaching at all is impacting: 184, m = 552 rows,
   1.7e8 units for T-) and a bound of 4e8 units, above what its polygonal LCP takes (3.0e8 to
   3.5e8): solved at e_* = 1; at e_* = 0.999, which needs T-, failed by the bound. */
static void test_no_gain_cap_spends_no_work_on_the_energy_before(void)
{
    ipx_pile pile;
    make_bin(&pile, 300, IPX_PILE_SETTLED);
    ipx_contact *contact = (ipx_contact *)pile.problem.contact;
    int impacting = 0;
    for (int i = 0; i < pile.problem.k; i++) {
        contact[i].v_capture = 0.0;
        contact[i].e = 0.0;
        impacting += pile.problem.v[3 * i + IPX_N] < 0.0;
    }
    ENSURE(impacting == 184);
    ipx_result r;
    solve_pile(&pile.problem, "max_work=4e8", &r);
    solved(&pile.problem, "max_work=4e8", &r);
    solve_pile(&pile.problem, "max_work=4e8,e_star=0.999", &r);
    failed_by_the_bound(&r);
    ipx_pile_free(&pile);
}

int main(void)
{
    RUN(test_no_gain_cap_spends_no_work_on_the_energy_before);
    RUN(test_moderate_pile_is_solved_inside_the_bound);
    RUN(test_churning_pile_ends_with_the_lcp_at_the_bound);
    RUN(test_large_island_impact_ends_within_the_work_bound);
    return ipx_test_exit();
}
