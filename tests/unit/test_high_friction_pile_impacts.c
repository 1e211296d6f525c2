/* Impacts in a pile of boxes with mu = 5000 (PyODE's tutorial3: 30 boxes dropped on a plane,
   a common stand-in for "no slip"), under every model that solves the Anitescu-Potra LCP:
   aplcp, routh (its steps and its closing solve) and bowling (its polygonal LCP). Each island
   (high_friction_pile_data.h, as the ODE adapter captured it) must be answered (status ok) and
   the answer must keep every promise of its model (the invariant checker at its default
   tolerances, ipx_test_solve).
   With the cone row mu lambda_n - E^T lambda_D left at mu, mu = 5000 was the LCP's largest
   entry, Lemke scaled the LCP by it (lemke.c) and G fell to 1e-4 of the pivot and tie
   tolerances' scale: Lemke ended on inaccurate bases and false rays on these islands, and the
   iterative solver did not settle them either: aplcp left both impacts to ODE (routh and
   bowling answered these two by other paths; core/src/numerics/anitescu_potra.h "Units"). */
#include <stdio.h>

#include "ensure.h"
#include "high_friction_pile_data.h"
#include "model_test.h"

static void check_island(const char *name, int k, const double *W, const double *v)
{
    static ipx_contact contact[64];
    ENSURE(k <= 64);
    for (int i = 0; i < k; i++)
        contact[i] = (ipx_contact){.mu = 5000.0, .e = 0.2, .v_capture = 0.0, .v_plastic = 0.0};
    const ipx_problem p = {
        .k = k, .W = W, .v = v, .contact = contact, .flags = IPX_PROBLEM_W_ASSEMBLED};
    static const char *models[] = {"aplcp", "routh", "bowling"};
    for (int m = 0; m < 3; m++) {
        const ipx_params par = ipx_test_params(models[m], "");
        ipx_result r;
        const ipx_status st = ipx_test_solve(&par, &p, &r); /* and the model's promises */
        if (st != IPX_OK) printf("  %s, %s: %s\n", name, models[m], r.message);
        ENSURE(st == IPX_OK);
    }
}

static void test_tutorial3_pile_of_20_contacts_is_answered(void)
{
    check_island("pile20", pile20_k, pile20_W, pile20_v);
}

static void test_tutorial3_pile_of_23_contacts_is_answered(void)
{
    check_island("pile23", pile23_k, pile23_W, pile23_v);
}

int main(void)
{
    RUN(test_tutorial3_pile_of_20_contacts_is_answered);
    RUN(test_tutorial3_pile_of_23_contacts_is_answered);
    return ipx_test_exit();
}
