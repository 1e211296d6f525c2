/* PLUS's plastic finish (core/src/models/plus/plus_finish.c) on an LCP that Lemke's method does not solve in
   floating point (plus_finish_data.h: 87 normal rows of the 200-box bin, where Lemke ended in an
   inaccurate basis and the island was left to ODE). The finish rescues it with MPRGP
   (impax/lcp_psd.h):
   - the LCP itself: MPRGP's answer has z >= 0, w = M z + q >= -1e-12 max|q| and z_i w_i to the
     same accuracy, and no energy gain (q.z + 1/2 z.M z <= 0);
   - PLUS on the contacts it came from (W_nn = M, frictionless, plastic), its cost bound spent at
     once (max_solves=1) so that the finish ends the impact: IPX_OK with
     IPX_PLUS_HIT_MAX_SOLVES, and every promise the invariant checker tests. Before the rescue
     this impact failed ("the plastic finish (LCP of 87 normal rows) failed");
   - PLUS with its defaults on two islands of ODE's feedback demo under dWorldStep
     (plus_finish_host_data.h) whose finishes MPRGP did not solve to 1e-12 in its iterations:
     answered since the rescue stops at the host's accuracy (v_tol), ending the impact with no
     contact approaching faster than v_tol and no energy gained, every promise kept. fbws_70
     still ends at its cost bound, by the finish; fbws_59 has ended before it since its
     min-norm solves are refined rather than redone densely (core/src/numerics/min_norm.c),
     and is held to the same promises. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "ensure.h"
#include "impax/impax.h"
#include "impax/lcp.h"
#include "impax/lcp_psd.h"
#include "impax/plus.h"
#include "model_test.h"
#include "plus_finish_data.h"
#include "plus_finish_host_data.h"
#include "w_blocks.h"

enum { M_ = FINISH_M, N_ = 3 * FINISH_M };

static double M[M_ * M_];

static void unpack(void)
{
    for (int e = 0; e < FINISH_NZ; e++) {
        const int i = finish_upper[e].i, j = finish_upper[e].j;
        M[i + M_ * j] = M[j + M_ * i] = finish_upper[e].value;
    }
}

static void apply_m(void *user, const double *x, double *y)
{
    (void)user;
    for (int i = 0; i < M_; i++) {
        double s = 0.0;
        for (int j = 0; j < M_; j++) s += M[i + M_ * j] * x[j];
        y[i] = s;
    }
}

static double q_max(void)
{
    double m = 0.0;
    for (int i = 0; i < M_; i++) m = fmax(m, fabs(finish_q[i]));
    return m;
}

static void test_the_lcp_is_solved_by_mprgp(void)
{
    static double z[M_], w[M_], mz[M_], work[9 * M_], diag[M_], dwork[1 << 16];
    static int iwork[1 << 10];
    ENSURE(ipx_lemke_work_doubles(M_) <= sizeof dwork / sizeof dwork[0]);
    ENSURE(ipx_lemke_work_ints(M_) <= sizeof iwork / sizeof iwork[0]);
    int pivots = 0;
    const ipx_status lemke =
        ipx_lemke(M_, M, finish_q, z, w, ipx_lemke_default_max_pivots(M_), dwork, iwork, &pivots);
    printf("  Lemke: %s after %d pivots (captured as a numerical failure after 36)\n",
           ipx_status_name(lemke), pivots);
    for (int i = 0; i < M_; i++) diag[i] = M[i + M_ * i];
    const ipx_lcp_operator op = {M_, apply_m, NULL, diag, 0.0};
    ipx_lcp_psd_options opt = ipx_lcp_psd_default_options();
    opt.tol = 1e-12;
    ipx_lcp_psd_info info;
    ENSURE(ipx_lcp_psd(&op, finish_q, z, w, &opt, work, &info) == IPX_OK);
    const double tol = 1e-12 * q_max();
    double energy = 0.0, worst = 0.0;
    apply_m(NULL, z, mz); /* w afresh from z, not MPRGP's own */
    for (int i = 0; i < M_; i++) {
        ENSURE(z[i] >= 0.0);
        const double wi = mz[i] + finish_q[i];
        worst = fmax(worst, fmax(-wi, z[i] > 0.0 ? fabs(wi) : 0.0));
        energy += z[i] * (finish_q[i] + 0.5 * mz[i]);
    }
    printf("  MPRGP: %d products, worst row %.3g m/s (max |q| %.3g), energy change %.3g J\n",
           info.products, worst, q_max(), energy);
    ENSURE(worst <= tol);
    ENSURE(energy <= 0.0);
}

static void test_plus_ends_the_impact_with_the_rescued_finish(void)
{
    static double W[N_ * N_], v[N_];
    static ipx_contact contact[M_];
    for (int i = 0; i < M_; i++) {
        for (int t = 0; t < 2; t++)
            W[(3 * i + t) * (N_ + 1)] = M[i * (M_ + 1)]; /* tangents: decoupled */
        for (int j = 0; j < M_; j++) W[(3 * i + IPX_N) + N_ * (3 * j + IPX_N)] = M[i + M_ * j];
        v[3 * i + IPX_N] = finish_q[i];
        contact[i] = (ipx_contact){.mu = 0.0, .e = 0.0, .v_capture = 0.0, .v_plastic = 0.0};
    }
    const ipx_problem p = {
        .k = M_, .W = W, .v = v, .contact = contact, .flags = IPX_PROBLEM_W_ASSEMBLED};
    const ipx_params par = ipx_test_params("plus", "max_solves=1");
    ipx_result r;
    const ipx_status st = ipx_solve(&par, &p, ipx_test_workspace(&par, M_), &r);
    if (st != IPX_OK) printf("  %s\n", r.message);
    ENSURE(st == IPX_OK);
    ENSURE(r.counts.limits_hit & IPX_PLUS_HIT_MAX_SOLVES);
    ENSURE(ipx_test_check_kinds(&p, &r, par.model->promises(par.value), par.value[IPX_PLUS_EPS_V]));
    printf("  PLUS: %d min-norm solves, %d LCP solves, energy change %.3g J\n", r.counts.lsq_solves,
           r.counts.lcp_solves, r.delta_ke);
}

static void test_the_finish_answers_to_the_hosts_accuracy(void)
{
    enum { MAX_K = 70 };
    static double W[9 * MAX_K * MAX_K];
    static ipx_contact contact[MAX_K];
    const ipx_test_island islands[] = {IPX_TEST_ISLAND(fbws_70, 0.0),
                                       IPX_TEST_ISLAND(fbws_59, 0.0)};
    const ipx_params par = ipx_test_params("plus", "");
    int finished = 0; /* islands the finish ended */
    for (size_t n = 0; n < sizeof islands / sizeof islands[0]; n++) {
        const ipx_test_island *is = &islands[n];
        ENSURE(is->k <= MAX_K);
        const ipx_problem p = ipx_test_island_problem(is, W, contact);
        ipx_result r;
        const ipx_status st = ipx_solve(&par, &p, ipx_test_workspace(&par, p.k), &r);
        printf("  %s: %s, %d min-norm solves, %d LCP solves, energy change %.3g J%s%s\n", is->name,
               ipx_status_name(st), r.counts.lsq_solves, r.counts.lcp_solves, r.delta_ke,
               st ? ": " : "", st ? r.message : "");
        ENSURE(st == IPX_OK);
        finished += (r.counts.limits_hit & IPX_PLUS_HIT_MAX_SOLVES) != 0;
        ENSURE(ipx_test_check_kinds(&p, &r, par.model->promises(par.value),
                                    par.value[IPX_PLUS_EPS_V]));
        ENSURE(r.delta_ke <= 0.0);
        double slowest = INFINITY; /* m/s: the fastest approach left */
        for (int i = 0; i < p.k; i++) slowest = fmin(slowest, r.v_post[3 * i + IPX_N]);
        ENSURE(slowest >= -p.v_tol);
    }
    ENSURE(finished >= 1); /* the finish answered to the host's accuracy where it ran */
}

int main(void)
{
    unpack();
    RUN(test_the_lcp_is_solved_by_mprgp);
    RUN(test_plus_ends_the_impact_with_the_rescued_finish);
    RUN(test_the_finish_answers_to_the_hosts_accuracy);
    return ipx_test_exit();
}
