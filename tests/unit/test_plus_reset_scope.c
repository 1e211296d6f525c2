/* PLUS's resets after a dropped normal, the parameter reset_scope (docs/models/plus.md §5.4,
   deviation 9): its range; and impacts of piles (generated bins and towers of boxes, settled
   and churning; the captured bin corners of plus_bin_data.h) answered under both settings with
   the energy cap off, each answer keeping every promise of the model (the invariant checker)
   and gaining no energy, and the two taking other paths (other counts of min-norm solves) where
   a drop leaves impending contacts apart from it. Which one costs less is bench_replay's and
   bench_piles' to say (docs/performance.md); the counts and the answers that differ by more
   than 1e-9 of the impact speed are printed: docs/models/plus.md §5.4 quotes them. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ensure.h"
#include "impax/plus.h"
#include "model_test.h"
#include "pile_gen.h"
#include "plus_bin_data.h"

/* reset_scope is 1 (beside) by default and takes 0 or 1 only; a bad value is refused with a
   message naming it and leaves the parameters as they were. */
static void test_reset_scope_takes_group_or_beside_only(void)
{
    static const char *const bad[] = {"reset_scope=2", "reset_scope=-1", "reset_scope=0.5",
                                      "reset_scope=inf"};
    ipx_test_param_refuses("plus", "reset_scope", IPX_PLUS_RESET_SCOPE, 1.0, bad,
                           sizeof bad / sizeof bad[0]);
    ENSURE(ipx_test_params("plus", "reset_scope=0").value[IPX_PLUS_RESET_SCOPE] == 0.0);
}

typedef struct tally {
    int impacts, differ, other_path;
    long solves[2]; /* by reset_scope */
} tally;

/* p under both settings, energy cap off: each answer keeping the model's promises (contacts
   closed to eps_v) with no net fired, and gaining nothing. */
static void both_scopes(const ipx_problem *p, const char *what, tally *t)
{
    ipx_result r[2];
    for (int scope = 0; scope < 2; scope++) {
        const ipx_params par =
            ipx_test_params("plus", scope ? "energy_cap=0" : "energy_cap=0,reset_scope=0");
        ENSURE(ipx_solve(&par, p, ipx_test_workspace(&par, p->k), &r[scope]) == IPX_OK);
        ENSURE(ipx_test_check_kinds(
            p, &r[scope], par.model->promises(par.value) | IPX_CHECK_ENERGY | IPX_CHECK_SAFETY_NET,
            par.value[IPX_PLUS_EPS_V]));
        t->solves[scope] += r[scope].counts.lsq_solves;
    }
    const int n = IPX_ROWS_PER_CONTACT * p->k;
    double speed = 0.0, gap = 0.0; /* m/s */
    for (int i = 0; i < n; i++) {
        speed = fmax(speed, fabs(p->v[i]));
        gap = fmax(gap, fabs(r[0].v_post[i] - r[1].v_post[i]));
    }
    t->impacts++;
    t->differ += gap > 1e-9 * speed;
    t->other_path += r[0].counts.lsq_solves != r[1].counts.lsq_solves;
    printf("  %s k = %d: %d / %d min-norm solves (group / beside), answers %.2g m/s apart\n", what,
           p->k, r[0].counts.lsq_solves, r[1].counts.lsq_solves, gap);
}

static void test_piles_answered_under_both_scopes(void)
{
    tally t = {0};
    ipx_rng rng;
    ipx_rng_seed(&rng, 41);
    for (int kind = 0; kind < 2; kind++)
        for (int motion = 0; motion < 2; motion++)
            for (int k = 24; k <= 48; k += 24) {
                ipx_pile_options o = ipx_pile_default_options(kind ? IPX_PILE_STACK : IPX_PILE_BIN);
                o.motion = motion ? IPX_PILE_CHURNING : IPX_PILE_SETTLED;
                ipx_pile pile;
                ENSURE(ipx_pile_make(&pile, k, &o, &rng) == 0);
                both_scopes(&pile.problem, kind ? "towers" : "bin", &t);
                ipx_pile_free(&pile);
            }
    static const struct {
        int k;
        const double *W, *v;
    } bin[] = {{6, bin_270_W, bin_270_v},
               {8, bin_358_W, bin_358_v},
               {11, bin_536_W, bin_536_v},
               {9, bin_968_W, bin_968_v},
               {8, bin_1174_W, bin_1174_v}};
    for (size_t i = 0; i < sizeof bin / sizeof bin[0]; i++) {
        const ipx_problem p = {.k = bin[i].k,
                               .W = bin[i].W,
                               .v = bin[i].v,
                               .contact = bin_contact,
                               .flags = IPX_PROBLEM_W_ASSEMBLED};
        both_scopes(&p, "captured bin", &t);
    }
    printf("  %d impacts: %ld min-norm solves with reset_scope = group, %ld beside; %d took "
           "another path, %d answers differ by more than 1e-9 of the impact speed\n",
           t.impacts, t.solves[0], t.solves[1], t.other_path, t.differ);
    ENSURE(t.other_path > 0); /* the scopes differ where a drop has impending contacts apart */
}

int main(void)
{
    RUN(test_reset_scope_takes_group_or_beside_only);
    RUN(test_piles_answered_under_both_scopes);
    return ipx_test_exit();
}
