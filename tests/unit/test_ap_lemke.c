/* Lemke on the Anitescu-Potra LCP with G shifted (ipx_ap_lemke_shifted,
   core/src/numerics/ap_lemke.c). The island of ap_shift_data.h has contacts whose normal rows
   coincide; Lemke on its LCP ended on a false secondary ray (an AP LCP always has a solution),
   the iterative solver stalled, and aplcp left the island to ODE. Checked here:
   - the solver's contract on that LCP: a solution of the LCP with G + eps I, eps =
     sqrt(DBL_EPSILON) max G_ii, returned as z >= 0 with w = M z + q of the unshifted M
     (recomputed here), w >= 0 on the cone rows, w_i >= -eps z_i on the shifted rows, each
     pair complementary up to that, the velocity left unmet as reported, and M given back bit
     for bit;
   - aplcp answers the island without a safety net, keeping every promise by the checker;
   - the shifted answer of a point mass landing, in closed form. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ensure.h"
#include "impax/aplcp.h"
#include "impax/lcp.h"
#include "model_test.h"
#include "numerics/anitescu_potra.h"
#include "w_blocks.h"

#include "ap_shift_data.h"

enum { K = fbws_33_k, ND = 4 };

static double W[9 * K * K];
static ipx_contact contact[K];

static ipx_problem bridge(void)
{
    const ipx_test_island is = IPX_TEST_ISLAND(fbws_33, 0.0);
    return ipx_test_island_problem(&is, W, contact);
}

/* The AP LCP of p in freshly allocated M (n x n), q; returns n. */
static int ap_lcp(const ipx_problem *p, ipx_ap_layout *L, int *fric, double *scale, double **M,
                  double **q)
{
    ipx_ap_layout_init(L, p, ND, fric, scale);
    const int n = L->size;
    *M = calloc((size_t)n * (size_t)n, sizeof(double));
    *q = calloc((size_t)n, sizeof(double));
    ENSURE(*M && *q);
    ipx_ap_fill(L, p, p->v, *M, n, 0, *q);
    return n;
}

typedef struct lemke_out {
    ipx_status st;
    double *z, *w, v_err;
    int pivots;
} lemke_out;

static lemke_out run_shifted(const ipx_ap_layout *L, double *M, const double *q, double eps_rel)
{
    const int n = L->size;
    lemke_out o = {.z = calloc((size_t)n, sizeof(double)), .w = calloc((size_t)n, sizeof(double))};
    double *dwork = malloc(sizeof(double) * ipx_ap_lemke_work_doubles(n));
    int *iwork = malloc(sizeof(int) * ipx_lemke_work_ints(n));
    ENSURE(o.z && o.w && dwork && iwork);
    o.st = ipx_ap_lemke_shifted(L, M, q, eps_rel, o.z, o.w, ipx_lemke_default_max_pivots(n), dwork,
                                iwork, &o.pivots, &o.v_err);
    free(dwork);
    free(iwork);
    return o;
}

static void test_the_shifted_lemke_solves_the_bridge_lcp(void)
{
    const ipx_problem p = bridge();
    ipx_ap_layout L;
    int fric[K];
    double scale[K], *M, *q;
    const int n = ap_lcp(&p, &L, fric, scale, &M, &q);
    double *M0 = malloc(sizeof(double) * (size_t)n * (size_t)n);
    ENSURE(M0);
    memcpy(M0, M, sizeof(double) * (size_t)n * (size_t)n);
    const lemke_out o = run_shifted(&L, M, q, sqrt(DBL_EPSILON));
    printf("  LCP of %d unknowns: %s, %d pivots, %.3g m/s left unmet\n", n, ipx_status_name(o.st),
           o.pivots, o.v_err);
    ENSURE(o.st == IPX_OK);
    ENSURE(memcmp(M, M0, sizeof(double) * (size_t)n * (size_t)n) == 0);
    const int g = L.k + L.nd * L.kf; /* the shifted rows */
    double gmax = 0.0, zmax = 0.0, qmax = 0.0, v_err = 0.0;
    for (int i = 0; i < g; i++) gmax = fmax(gmax, M0[(size_t)i * (size_t)(n + 1)]);
    const double eps = sqrt(DBL_EPSILON) * gmax;
    for (int i = 0; i < n; i++) {
        zmax = fmax(zmax, fabs(o.z[i]));
        qmax = fmax(qmax, fabs(q[i]));
    }
    const double tol = 1e-9 * (qmax + gmax * zmax); /* round-off of M z + q, relative */
    for (int i = 0; i < n; i++) {
        double wi = q[i];
        for (int j = 0; j < n; j++) wi += M0[i + (size_t)n * (size_t)j] * o.z[j];
        ENSURE_NEAR(o.w[i], wi, tol);
        const double short_by = i < g ? eps * o.z[i] : 0.0; /* the shift's own */
        ENSURE(o.z[i] >= 0.0);
        ENSURE(wi >= -short_by - tol);
        ENSURE(o.z[i] * fabs(wi) <= o.z[i] * (short_by + tol));
        if (i < g) {
            const int c = i < L.k ? i : L.fric[(i - L.k) / L.nd];
            v_err = fmax(v_err, short_by / ipx_ap_row_scale(&L, c));
        }
    }
    ENSURE_NEAR(o.v_err, v_err, 1e-12 * v_err);
    ENSURE(o.v_err <= fbws_33_v_tol); /* what aplcp accepts */
    free(o.z);
    free(o.w);
    free(M0);
    free(M);
    free(q);
}

static void test_aplcp_answers_the_bridge_island(void)
{
    const ipx_problem p = bridge();
    const ipx_params par = ipx_test_params("aplcp", "");
    ipx_result r;
    const ipx_status st = ipx_test_solve(&par, &p, &r); /* and its promises, no net fired */
    printf("  aplcp: %s, %d LCP solves, %d pivots, limits 0x%x%s%s\n", ipx_status_name(st),
           r.counts.lcp_solves, r.counts.pivots, r.counts.limits_hit, st ? ": " : "",
           st ? r.message : "");
    ENSURE(st == IPX_OK);
    ENSURE(r.message[0] == '\0'); /* no word of the rescue that failed before it */
    ENSURE((r.counts.limits_hit & (IPX_APLCP_HIT_ITERATIVE_RESCUE | IPX_APLCP_HIT_LOOSE_LCP)) == 0);
    ENSURE(r.delta_ke <= 0.0);
}

/* A 1 kg point mass landing straight at 1 m/s, mu 0.5: G = I (the unit of mass is 1 kg, so no
   scaling), q_n = -1. Shifted by eps, (1 + eps) z_n = 1: z_n = 1 / (1 + eps), no friction, and
   the contact is left approaching at eps z_n = eps / (1 + eps) m/s, the velocity reported. */
static void test_a_point_mass_landing_shifted(void)
{
    double w3[9] = {1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0}, v[3] = {0.0, 0.0, -1.0};
    ipx_contact c1[1] = {{.mu = 0.5}};
    const ipx_problem p = {.k = 1, .W = w3, .v = v, .contact = c1};
    ipx_ap_layout L;
    int fric[1];
    double scale[1], *M, *q;
    const int n = ap_lcp(&p, &L, fric, scale, &M, &q);
    const double eps = 1e-3;
    const lemke_out o = run_shifted(&L, M, q, eps);
    ENSURE(o.st == IPX_OK);
    ENSURE_NEAR(o.z[0], 1.0 / (1.0 + eps), 1e-15);
    ENSURE_NEAR(o.w[0], -eps / (1.0 + eps), 1e-15);
    ENSURE_NEAR(o.v_err, eps / (1.0 + eps), 1e-15);
    for (int i = 1; i < n; i++) ENSURE(o.z[i] == 0.0); /* no friction, no slip */
    free(o.z);
    free(o.w);
    free(M);
    free(q);
}

int main(void)
{
    RUN(test_the_shifted_lemke_solves_the_bridge_lcp);
    RUN(test_aplcp_answers_the_bridge_island);
    RUN(test_a_point_mass_landing_shifted);
    return ipx_test_exit();
}
