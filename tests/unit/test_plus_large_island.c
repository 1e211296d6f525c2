/* PLUS on one large island (issue [real-clients] item 5; docs/models/plus.md §5.8, deviation 12):
   the impact ends within its stated work bound whatever the island. A bin of 300 contacts
   (tests/support/pile_gen.h, settled: a box landing on a pile at rest), the kind of island ODE's
   crash demo makes when a car drives into a wall of boxes. Each min-norm solve there has up to
   900 unknowns, so the solve count of deviation 12 (2000 + 100 k = 32 000 solves) bounded
   nothing a user could wait for: the impact had not ended after 100 s of one core. With the
   default parameters it now ends by the work bound (max_work, 2e10 units): IPX_OK, the plastic
   finish reported (IPX_PLUS_HIT_MAX_SOLVES) long before the solve count is spent, every promise
   the invariant checker tests kept, and no energy gained. A smaller max_work ends it sooner
   with the same promises: the bound is on work, not on time. */
#include <stdio.h>

#include "ensure.h"
#include "impax/impax.h"
#include "impax/plus.h"
#include "model_test.h"
#include "pile_gen.h"

enum { ISLAND_CONTACTS = 300 };

/* Solves the settled bin under `params` and checks the work bound ended it with every promise. */
static void ends_by_the_work_bound(const ipx_problem *p, const char *params)
{
    const ipx_params par = ipx_test_params("plus", params);
    ipx_result r;
    ENSURE(ipx_plus_trace(p, par.value, ipx_test_workspace(&par, p->k), NULL, NULL, &r) == IPX_OK);
    printf("  %s: %d min-norm solves, %d rounds, limits 0x%x, dKE %.4g J\n",
           params[0] ? params : "defaults", r.counts.lsq_solves, r.counts.rounds,
           r.counts.limits_hit, r.delta_ke);
    ENSURE(r.counts.limits_hit & IPX_PLUS_HIT_MAX_SOLVES);
    ENSURE(r.counts.lsq_solves < 2000 + 100 * p->k); /* the work bound ended it, not the count */
    ENSURE(r.delta_ke <= 0.0);
    ENSURE(ipx_test_check_kinds(p, &r, par.model->promises(par.value), par.value[IPX_PLUS_EPS_V]));
}

static void test_large_island_impact_ends_within_the_work_bound(void)
{
    ipx_pile pile;
    ipx_pile_options po = ipx_pile_default_options(IPX_PILE_BIN);
    ipx_rng rng;
    ipx_rng_seed(&rng, 1);
    ENSURE(ipx_pile_make(&pile, ISLAND_CONTACTS, &po, &rng) == 0);
    ends_by_the_work_bound(&pile.problem, "");
    ends_by_the_work_bound(&pile.problem, "max_work=1e9");
    ipx_pile_free(&pile);
}

int main(void)
{
    RUN(test_large_island_impact_ends_within_the_work_bound);
    return ipx_test_exit();
}
