/* aplcp on the small islands of a pile (docs/models/aplcp.md §3, "Solvers"): where the host
   gives its accuracy (v_tol > 0), islands of lcp_switch_host (2) to lcp_switch - 1 (15) contacts
   are answered by the iterative solver to v_tol, not by the dense Lemke. On the islands of that
   size that seed 16 of bench_piles (tests/support/ode_pile_scene.h: 341 boxes, h 17 ms, the
   costliest seed of the dense Lemke in docs/performance.md) hands to aplcp, each event is
   judged against the dense Lemke's exact answer to the same captured problem (v_tol = 0):
   - the event was answered by the iterative solver, with no limit hit (no dense fallback, no
     rescue) and not left to ODE;
   - ipx_check finds nothing on it at the model's promises, v_tol included as the checker takes
     it (non-penetration and complementarity to v_tol);
   - the AP LCP's conditions hold to v_tol in velocity (docs/core-api.md "Solve accuracy": each
     row's violation in m/s and each row's complementarity work over the largest impulse, by
     tests/support/ap_dense.h, built independently of the core, are at most v_tol);
   - its kinetic-energy change is the dense Lemke's to within v_tol times the impulses' 1-norm
     (what complementarity errors of v_tol can change in pi^T v+). The frictional LCP may have
     several solutions and nothing bounds how their energies differ, so this is what the
     islands show, not a theorem: the largest gap is 0.95 of that bound (an island of 9
     contacts answered after two sweeps, its largest row violation 0.157 m/s against a v_tol
     of 0.169 m/s).
   The islands are captured live through the adapter's event callback. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ode/ode.h>

#include "ap_dense.h"
#include "ensure.h"
#include "impax/aplcp.h"
#include "impax/check.h"
#include "impax/problem.h"
#include "impax/registry.h"
#include "impax/ode.h"
#include "ode_pile_scene.h"

#define SEED 16     /* bench_piles' seed */
#define SECONDS 0.6 /* s simulated: 579 islands of 2-15 contacts */
#define SMALLEST 2  /* lcp_switch_host's default */
#define LARGEST 15  /* below lcp_switch's default, 16 */

typedef struct judged {
    ipx_params exact; /* aplcp's defaults: at v_tol = 0, the dense Lemke below 16 contacts */
    ipx_workspace *ws;
    long islands, iterative, limited, violations, lemke_failed;
    long loose;             /* answers beyond v_tol in velocity or work */
    double worst_violation; /* m/s: the largest row violation or work over Z */
    double worst_ke_gap;    /* |dT_it - dT_lemke| / (v_tol |pi|_1), largest */
} judged;

static double one_norm(const double *x, int n)
{
    double s = 0.0;
    for (int i = 0; i < n; i++) s += fabs(x[i]);
    return s;
}

static void on_event(const ipx_ode_event *ev, void *user)
{
    judged *j = user;
    const ipx_problem *p = ev->problem;
    if (p->k < SMALLEST || p->k > LARGEST) return;
    j->islands++;
    ENSURE(ev->ok);
    if (!ev->ok) return;
    ENSURE(p->v_tol > 0.0);
    j->iterative += ev->counts.steps > 0 && ev->counts.lcp_solves == 1;
    j->limited += ev->counts.limits_hit != 0;

    /* the iterative answer, as ipx_solve gives it, judged by the checker */
    ipx_result it;
    ENSURE(ipx_solve(&j->exact, p, j->ws, &it) == IPX_OK);
    ENSURE(it.counts.steps > 0 && it.counts.pivots == 0);
    ipx_check_options opt = ipx_check_default_options();
    opt.kinds = j->exact.model->promises(j->exact.value);
    ipx_check_report report;
    const int found = ipx_check(p, &it, &opt, &report);
    if (found != 0) {
        char text[512];
        ipx_check_format(&report, text, sizeof text);
        fprintf(stderr, "step %ld, k %d:\n%s", ev->step, p->k, text);
    }
    j->violations += found;
    ipx_test_ap ap;
    ENSURE(ipx_test_ap_make(&ap, p, NULL, 4) == 0); /* friction_directions' default */
    double work = 0.0;                              /* m/s */
    const double row_v = fmax(ipx_test_ap_row_velocity(&ap, p, it.impulse, &work), work);
    ipx_test_ap_free(&ap);
    if (row_v > j->worst_violation) j->worst_violation = row_v;
    j->loose += row_v > p->v_tol;
    const int rows = 3 * p->k;
    const double norm = one_norm(it.impulse, rows), dT_it = it.delta_ke, v_tol = p->v_tol;

    /* the same problem asked exactly: the dense Lemke */
    ipx_problem exact = *p;
    exact.v_tol = 0.0;
    ipx_result lemke;
    if (ipx_solve(&j->exact, &exact, j->ws, &lemke) != IPX_OK || lemke.counts.limits_hit != 0) {
        j->lemke_failed++; /* the rescue answered: no exact answer to compare with */
        return;
    }
    ENSURE(lemke.counts.pivots > 0 && lemke.counts.steps == 0);
    const double gap = fabs(dT_it - lemke.delta_ke) / (v_tol * fmax(norm, 1e-300));
    if (gap > j->worst_ke_gap) j->worst_ke_gap = gap;
    printf("    step %3ld, k %2d: dT %.6e J (Lemke %.6e), gap %.3f v_tol |pi|, violation %.2e "
           "m/s (v_tol %.2e), %d sweeps\n",
           ev->step, p->k, dT_it, lemke.delta_ke, gap, row_v, v_tol, it.counts.steps);
}

static void test_small_pile_islands_take_the_iterative_solver_to_v_tol(void)
{
    char msg[IPX_MESSAGE_SIZE];
    judged j = {0};
    ENSURE(ipx_params_init(&j.exact, "aplcp", msg, sizeof msg) == IPX_OK);
    j.ws = ipx_workspace_create(&j.exact, LARGEST);
    ENSURE(j.ws != NULL);

    pile_spec spec;
    const pile_draw_range range = pile_default_range();
    pile_draw(SEED, &range, SECONDS, &spec);
    pile_world w;
    ENSURE(pile_world_make(&w, &spec, "aplcp", NULL, msg, sizeof msg) == 0);
    ipx_ode_set_event_callback(w.ipx, on_event, &j);
    while (w.step < w.steps) pile_world_step(&w);
    pile_world_free(&w);
    ipx_workspace_destroy(j.ws);

    printf("  %ld islands of %d-%d contacts: %ld by the iterative solver, %ld at a limit, %ld "
           "check violations, %ld beyond v_tol (largest violation %.2e m/s); the dense Lemke "
           "failed on %ld; largest energy gap %.3f v_tol |pi|\n",
           j.islands, SMALLEST, LARGEST, j.iterative, j.limited, j.violations, j.loose,
           j.worst_violation, j.lemke_failed, j.worst_ke_gap);
    ENSURE(j.islands >= 10);
    ENSURE(j.iterative == j.islands);
    ENSURE(j.limited == 0);
    ENSURE(j.violations == 0);
    ENSURE(j.loose == 0);
    ENSURE(j.lemke_failed == 0); /* every island compared with an exact answer */
    ENSURE(j.worst_ke_gap <= 1.0);
}

int main(void)
{
    dInitODE2(0);
    ipx_ode_capture_messages(0);
    RUN(test_small_pile_islands_take_the_iterative_solver_to_v_tol);
    dCloseODE();
    return ipx_test_exit();
}
