/* routh ends an impact at the host's accuracy (ipx_problem.v_tol, docs/core-api.md "Solve
   accuracy"): no contact left approaching faster than v_tol. Its step LCPs from lcp_switch
   contacts on are solved to v_tol; an island of a pile (routh_pile_data.h) so solved still had
   contacts approaching at up to v_tol after each step, and the end it tested, tol_v (1e-9) of the
   largest approach, was never reached: after its 20 steps the Anitescu-Potra fallback finished
   the impact, a safety net answering in place of the model. */
#include <math.h>
#include <stdio.h>

#include "ensure.h"
#include "model_test.h"
#include "routh_pile_data.h"
#include "routh_plane2d_data.h"
#include "w_blocks.h"
#include "impax/routh.h"

enum { K = pile6_13_k, N = 3 * pile6_13_k };

static double W[N * N];
static ipx_contact contact[K];

static ipx_problem pile_island(double v_tol)
{
    ipx_test_w_from_upper_blocks(K, pile6_13_blocks, pile6_13_row, pile6_13_col, pile6_13_blk, W);
    for (int i = 0; i < K; i++)
        contact[i] =
            (ipx_contact){.mu = pile6_13_mu[i], .e = pile6_13_e, .v_capture = pile6_13_v_capture};
    return (ipx_problem){.k = K,
                         .W = W,
                         .v = pile6_13_v,
                         .contact = contact,
                         .flags = IPX_PROBLEM_W_ASSEMBLED,
                         .v_tol = v_tol};
}

/* m/s: the fastest approach left after the impact (0 if none approaches) */
static double fastest_approach(const ipx_result *r)
{
    double vmin = 0.0;
    for (int i = 0; i < r->k; i++) vmin = fmin(vmin, r->v_post[3 * i + 2]);
    return -vmin;
}

static void test_routh_ends_a_pile_impact_at_the_hosts_accuracy(void)
{
    const ipx_problem p = pile_island(pile6_13_v_tol);
    const ipx_params par = ipx_test_params("routh", "");
    ipx_result r;
    ENSURE(ipx_test_solve(&par, &p, &r) == IPX_OK); /* and routh's promises, no safety net */
    printf("  v_tol %.4f m/s: %d impulse steps, limits_hit 0x%x, fastest approach left %.3g m/s, "
           "dK %.4g J\n",
           p.v_tol, r.counts.steps, r.counts.limits_hit, fastest_approach(&r), r.delta_ke);
    ENSURE(r.counts.limits_hit == 0); /* neither the step cap nor the fallback */
    ENSURE(r.counts.steps <= (int)par.value[IPX_ROUTH_MAX_STEPS]);
    ENSURE(fastest_approach(&r) <= p.v_tol);
    ENSURE(r.delta_ke <= 0.0);
}

/* Without the host's accuracy the model's own end holds: its step LCPs solved to lcp_tol, it
   ends to tol_v of the largest approach, within its steps. */
static void test_routh_without_the_hosts_accuracy_ends_at_its_own_tolerance(void)
{
    const ipx_params par = ipx_test_params("routh", "");
    const ipx_problem own = pile_island(0.0);
    double vmax = 0.0; /* m/s, the largest initial approach */
    for (int i = 0; i < K; i++) vmax = fmax(vmax, -own.v[3 * i + 2]);
    ipx_result r;
    ENSURE(ipx_test_solve(&par, &own, &r) == IPX_OK);
    printf("  v_tol 0: %d impulse steps, limits_hit 0x%x, fastest approach left %.3g m/s of "
           "%.3g\n",
           r.counts.steps, r.counts.limits_hit, fastest_approach(&r), vmax);
    ENSURE(r.counts.limits_hit == 0);
    ENSURE(fastest_approach(&r) <= par.value[IPX_ROUTH_TOL_V] * vmax);
}

/* A step LCP solved to the host's accuracy ends once each of its rows is within v_tol in
   velocity (an impulse z against a velocity w by min(z W_ii, w)) and no impulse row
   does more work against complementarity than the largest impulse times v_tol
   (core/src/numerics/nsgs.h). On this island of ODE's plane2d demo the second step's LCP, its velocities
   no larger than 2 v_tol, was once taken after one sweep (its residual relative to that small
   scale, times it, within v_tol) with contacts pushed apart at up to 0.135 m/s; that gain broke
   Thm 7 and the step went to ODE. Now the steps keep Thm 7, the impact ends at the host's
   accuracy by the iterative solver alone (no pivot: not the dense Lemke of the exact solve that
   ipx_solve would make after an energy gain), and every contact's velocity is within v_tol of
   the exact answer's (this frictionless island's contacts all end at rest: the inelastic
   outcome). */
static void test_routh_plane2d_step_keeps_thm7_at_the_hosts_accuracy(void)
{
    static ipx_contact frictionless[plane2d_k];
    const ipx_problem p = {.k = plane2d_k,
                           .W = plane2d_W,
                           .v = plane2d_v,
                           .contact = frictionless,
                           .v_tol = plane2d_v_tol};
    ipx_problem exact = p;
    exact.v_tol = 0.0;
    const ipx_params par = ipx_test_params("routh", "");
    ipx_result r, r0;
    ENSURE(ipx_test_solve(&par, &exact, &r0) == IPX_OK);
    ENSURE(ipx_test_solve(&par, &p, &r) == IPX_OK); /* and routh's promises, no safety net */
    printf("  plane2d: %d impulse steps, %d pivots, limits_hit 0x%x, dK %.7g J (exactly %.7g)\n",
           r.counts.steps, r.counts.pivots, r.counts.limits_hit, r.delta_ke, r0.delta_ke);
    ENSURE(r.counts.limits_hit == 0 && r.counts.pivots == 0 && r0.counts.pivots > 0);
    ENSURE(fastest_approach(&r) <= p.v_tol);
    ENSURE(r.delta_ke <= 0.0);
    for (int i = 0; i < plane2d_k; i++) {
        ENSURE(fabs(r0.v_post[3 * i + IPX_N]) <= 1e-9);
        ENSURE(fabs(r.v_post[3 * i + IPX_N] - r0.v_post[3 * i + IPX_N]) <= p.v_tol);
    }
}

int main(void)
{
    RUN(test_routh_ends_a_pile_impact_at_the_hosts_accuracy);
    RUN(test_routh_without_the_hosts_accuracy_ends_at_its_own_tolerance);
    RUN(test_routh_plane2d_step_keeps_thm7_at_the_hosts_accuracy);
    return ipx_test_exit();
}
