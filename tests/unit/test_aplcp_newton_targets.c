/* aplcp's Newton restitution where the full targets cannot be met. A Newton LCP (0 <= lambda_n
   _|_ v_n+ + e v_n- >= 0) need not have a solution: friction that holds the bodies can forbid the
   bounce asked of a contact. The island of bench_piles' seed 4 (mu = dInfinity, bounce 0.49;
   aplcp_newton_data.h) asks contact 0, approaching at 0.38 m/s, to leave at 0.19 m/s while
   contacts 1 and 2 stick: impax's Lemke ends on a ray, Siconos' lexicographic Lemke runs off
   along it (z of 1e14, w of -0.1), and the island was left to ODE. aplcp now answers with the targets scaled
   by the largest fraction it finds solved (IPX_APLCP_HIT_TARGETS_SCALED), every promise kept.
   Asked exactly, no fraction above 0 is solved, so contact 0 does not bounce; to the host's
   accuracy a fraction is solved, each row within v_tol of its scaled target (the fraction
   itself, found by bisection, need not be within v_tol of 0): contact 0 leaves slower than asked,
   faster than without the targets. Where the targets can be met (the same island at mu = 1)
   they are, unscaled. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "ensure.h"
#include "impax/aplcp.h"
#include "impax/impax.h"
#include "model_test.h"
#include "numerics/anitescu_potra.h"
#include "siconos_lcp.h"

#include "aplcp_newton_data.h"

static const double v_tol = 0.0450208; /* m/s, the host's accuracy in the capture */

static ipx_problem pile4(ipx_contact *contact, double mu)
{
    for (int i = 0; i < 3; i++) {
        contact[i] = contacts_pile4[i];
        contact[i].mu = mu;
    }
    return (ipx_problem){.k = 3, .W = W_pile4, .v = v_pile4, .contact = contact, .v_tol = v_tol};
}

/* Contact i's Newton target (m/s): e times its approach where that beats v_capture. */
static double target(const ipx_problem *p, int i)
{
    const double approach = -p->v[3 * i + IPX_N];
    return approach > p->contact[i].v_capture ? p->contact[i].e * approach : 0.0;
}

/* aplcp under params on p: IPX_OK and every promise kept, else the test fails. */
static void solve_aplcp(const char *params, const ipx_problem *p, ipx_result *r)
{
    const ipx_params par = ipx_test_params("aplcp", params);
    ENSURE(ipx_solve(&par, p, ipx_test_workspace(&par, p->k), r) == IPX_OK);
    ENSURE(ipx_test_keeps_promises(&par, p, r));
}

static void test_full_targets_have_no_solution(void)
{
    ipx_contact contact[3];
    const ipx_problem p = pile4(contact, 1000.0);
    ENSURE(target(&p, 0) > 0.18 && target(&p, 1) == 0.0 && target(&p, 2) == 0.0);
    int fric[3];
    double scale[3];
    ipx_ap_layout L;
    ipx_ap_layout_init(&L, &p, 4, fric, scale);
    const int n = L.size;
    double *M = calloc((size_t)n * n, sizeof *M), *q = calloc((size_t)n, sizeof *q);
    double *z = calloc((size_t)n, sizeof *z), *w = calloc((size_t)n, sizeof *w);
    double *dwork = calloc(ipx_lemke_work_doubles(n), sizeof *dwork);
    int *iwork = calloc(ipx_lemke_work_ints(n), sizeof *iwork), pivots = 0;
    ENSURE(M && q && z && w && dwork && iwork);
    ipx_ap_fill(&L, &p, p.v, M, n, 0, q);
    for (int i = 0; i < 3; i++) q[i] -= ipx_ap_row_scale(&L, i) * target(&p, i);
    /* Siconos reports success, but its iterate has run off along the ray: not a solution */
    const int info = ipx_siconos_lexicolemke(n, M, q, z, w);
    double zmax = 0.0, wmin = 0.0;
    for (int i = 0; i < n; i++) {
        double wi = q[i];
        for (int j = 0; j < n; j++) wi += M[i + (size_t)n * j] * z[j];
        zmax = fmax(zmax, z[i]), wmin = fmin(wmin, wi);
    }
    printf("  Siconos: info %d, largest z %.3g, smallest w %.3g\n", info, zmax, wmin);
    ENSURE(info != 0 || (zmax > 1e10 && wmin < -1e-3));
    ENSURE(ipx_lemke(n, M, q, z, w, ipx_lemke_default_max_pivots(n), dwork, iwork, &pivots) ==
           IPX_ERR_LCP_RAY);
    free(M), free(q), free(z), free(w), free(dwork), free(iwork);
}

static void test_unreachable_targets_are_scaled(void)
{
    ipx_contact contact[3];
    const ipx_problem p = pile4(contact, 1000.0);
    ipx_problem exact = p;
    exact.v_tol = 0.0;
    ipx_result r, r0, inelastic;
    solve_aplcp("newton_restitution=1", &exact, &r0);
    ENSURE(r0.counts.limits_hit & IPX_APLCP_HIT_TARGETS_SCALED);
    printf("  asked exactly, contact 0 leaves at %.2g m/s of the %.4f asked\n", r0.v_post[IPX_N],
           target(&p, 0));
    ENSURE(fabs(r0.v_post[IPX_N]) <= 1e-9); /* no fraction of the bounce is solved exactly */
    solve_aplcp("newton_restitution=1", &p, &r);
    ENSURE(r.counts.limits_hit & IPX_APLCP_HIT_TARGETS_SCALED);
    const double vn0 = r.v_post[IPX_N];
    printf("  to v_tol %.4f m/s, at %.4f m/s\n", v_tol, vn0);
    ENSURE(vn0 > 0.1 * target(&p, 0) && vn0 < target(&p, 0)); /* a bounce, smaller than asked */
    solve_aplcp("", &p, &inelastic);
    ENSURE(inelastic.v_post[IPX_N] < vn0);
}

static void test_reachable_targets_are_met(void)
{
    ipx_contact contact[3];
    const ipx_problem p = pile4(contact, 1.0);
    ipx_result r;
    /* to the host's accuracy (the iterative solver's answer) */
    solve_aplcp("newton_restitution=1", &p, &r);
    ENSURE(!(r.counts.limits_hit & IPX_APLCP_HIT_TARGETS_SCALED));
    for (int i = 0; i < 3; i++) ENSURE(r.v_post[3 * i + IPX_N] >= target(&p, i) - v_tol);
    /* asked exactly (the dense Lemke's) */
    ipx_problem exact = p;
    exact.v_tol = 0.0;
    solve_aplcp("newton_restitution=1", &exact, &r);
    ENSURE(r.counts.pivots > 0 && !(r.counts.limits_hit & IPX_APLCP_HIT_TARGETS_SCALED));
    for (int i = 0; i < 3; i++) ENSURE(r.v_post[3 * i + IPX_N] >= target(&p, i) - 1e-9);
}

int main(void)
{
    RUN(test_full_targets_have_no_solution);
    RUN(test_unreachable_targets_are_scaled);
    RUN(test_reachable_targets_are_met);
    return ipx_test_exit();
}
