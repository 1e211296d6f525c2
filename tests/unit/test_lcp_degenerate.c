/* Lemke on degenerate impact LCPs that it ended on false secondary rays in floating point,
   although each is solvable (a rational-arithmetic Lemke on the same data solves them in 21-36
   pivots). Captured on an AMD EPYC with OpenBLAS's default kernel; M and q exactly as captured
   (hexadecimal), then the contact problems (W, v) they came from.
   - wall: worlds/routh_box_wall.world under aplcp (step 231, 6 contacts of a box on a wall and
     the floor, mu 1, 4 friction directions; the 36 x 36 Anitescu-Potra LCP). Lemke pivoted on an
     entry of 2e-11 (a row of B^-1 of 1-norm 2, admitted by the pivot tolerance) in a column with
     entries of 1e6, i.e. on round-off; the step made basic variables of -0.066, and the ratio
     test found no row: "aplcp: Lemke failed (LCP ray termination) after 15 pivots".
   - drop13_cor50 / drop13_cor25: the polygonal LCPs of the bowling model on the ODE
     two-wheeler (tests/adapter/test_ode_bowling.c, drop 1.3 m, COR 0.5 step 1797 and COR 0.25
     step 1514; 8 and 6 contacts, W of rank 8). On the 80 x 80 one, ratios 1.0095708e-6 and
     1.0095713e-6 of mirror-image contacts were taken as a tie (the rhs tolerance, 3e-10, was far
     above the round-off of the b_i), the lexicographic rule let the larger leave, the others were
     left at -1.1e-10 and pivoted on with an entry of 8e-8 two steps later: a basic variable of
     -1.3e-3 the tableau did not see, and a false ray 27 pivots on. The two 60 x 60 ones (same M)
     pivoted on 1.6e-10 in a column with entries of 3e5, as the wall did.
   - bin_*: LCPs of 70-140 unknowns from the 200-box bin (lcp_bin_data.h). A tie of ratios that
     truly differ (by 2e-12 to 4e-7: the normwise tie tolerance is far looser than the actual
     error on an ill-conditioned basis) let the larger ratio's row leave; the smaller one's
     ended negative in the final basis (w_i down to -4.6e-5): "numerical failure".
   - mu1000_a / mu1000_b: random contact problems of 32 contacts (lcp_mu1000_data.h) with mu
     1000, what the ODE adapter gives dInfinity. Their Anitescu-Potra LCPs of 311 unknowns with
     8 friction directions (aplcp's friction_directions=8, bowling's default) ended on
     infeasible bases after 1 071 and 470 pivots ("numerical failure": the updated tableau's
     round-off had decided a ratio test wrongly; rebuilding the final basis from the data left
     an impulse at -3.6e-4), and the iterative solver stalled at a residual of 0.08 and 0.02, so
     both models failed. Lemke now walks a failed path again with the tableau rebuilt from the
     data every n / 2 pivots.
   - generated: random contact problems of 48 to 64 contacts at mu 1000, made again here from
     tests/support/problem_gen.h as the probe that found them made them (generated()). Their AP
     LCPs under aplcp (4 friction directions) ended on secondary rays after 699 to 1 167
     pivots, false ones (an AP LCP always has a solution), with the iterative solver stalled at
     residuals of 0.016 to 0.135. The walk again with the rebuilds answers them as it answers
     the infeasible bases above.
   Each must now be solved by ipx_lemke with a verified solution: z >= 0, w = M z + q >= 0 and
   z_i w_i = 0 up to round-off relative to the data, w as returned equal to M z + q; and each
   contact problem must be solved by the models that failed on it, keeping every promise. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "ensure.h"
#include "impax/bowling.h"
#include "impax/lcp.h"
#include "lcp_check.h"
#include "model_test.h"
#include "problem_gen.h"

#include "lcp_bin_data.h"
#include "lcp_degenerate_data.h"
#include "lcp_mu1000_data.h"

/* Tolerance of the LCP conditions, relative to the data's scale (as test_lcp.c). */
#define RES_TOL 1e-9

static void solves(const char *name, int n, const double *M, const double *q)
{
    double *z = malloc(sizeof(double) * (size_t)n), *w = malloc(sizeof(double) * (size_t)n);
    double *dwork = malloc(sizeof(double) * ipx_lemke_work_doubles(n));
    int *iwork = malloc(sizeof(int) * ipx_lemke_work_ints(n));
    int pivots = 0;
    const ipx_status st =
        ipx_lemke(n, M, q, z, w, ipx_lemke_default_max_pivots(n), dwork, iwork, &pivots);
    double zmax = 0.0;
    for (int i = 0; i < n; i++) zmax = fmax(zmax, z[i]);
    const double viol = st == IPX_OK ? ipx_test_lcp_violation(n, M, q, z, w) : INFINITY;
    printf("  %-16s n %3d: %s after %d pivots, max z %.4g, violation %.2e\n", name, n,
           ipx_status_name(st), pivots, zmax, viol);
    ENSURE(st == IPX_OK);
    ENSURE(viol <= RES_TOL);
    ENSURE(zmax > 0.0); /* q has negative entries: z = 0 is no solution */
    free(z);
    free(w);
    free(dwork);
    free(iwork);
}

static void test_wall_box_anitescu_potra_lcp_is_solved(void)
{
    solves("wall", 36, M_wall, q_wall_0);
}

static void test_two_wheeler_polygonal_lcps_are_solved(void)
{
    solves("drop13_cor50", 80, M_drop13_cor50, q_drop13_cor50_0);
    solves("drop13_cor25 #1", 60, M_drop13_cor25, q_drop13_cor25_0);
    solves("drop13_cor25 #2", 60, M_drop13_cor25, q_drop13_cor25_1);
}

static void test_bin_lcps_with_unequal_ties_are_solved(void)
{
    for (size_t b = 0; b < sizeof bin_lcps / sizeof bin_lcps[0]; b++) {
        const sparse_lcp *L = &bin_lcps[b];
        double *M = calloc((size_t)L->n * (size_t)L->n, sizeof *M);
        for (int e = 0; e < L->nnz; e++)
            M[L->row[e] + (size_t)L->n * (size_t)L->col[e]] = L->val[e];
        solves(L->name, L->n, M, L->q);
        free(M);
    }
}

static ipx_problem problem(int k, const double *W, const double *v, ipx_contact *contact,
                           ipx_contact c)
{
    for (int i = 0; i < k; i++) contact[i] = c;
    return (ipx_problem){.k = k, .W = W, .v = v, .contact = contact};
}

/* ipx_test_solve checks every promise of the model (the checker's default tolerances). */
static void model_solves(const char *model, const char *params, const char *name,
                         const ipx_problem *p)
{
    const ipx_params par = ipx_test_params(model, params);
    ipx_result r;
    const ipx_status st = ipx_test_solve(&par, p, &r);
    printf("  %-7s %-13s: %s, %d LCP solves, %d pivots, limits 0x%x, dT %.6f J\n", model, name,
           ipx_status_name(st), r.counts.lcp_solves, r.counts.pivots, r.counts.limits_hit,
           r.delta_ke);
    ENSURE(st == IPX_OK);
    if (st != IPX_OK) return;
    ENSURE(r.delta_ke <= 0.0);
    if (model[0] == 'b') /* no fallback of bowling's: neither the inelastic LCP */
        ENSURE((r.counts.limits_hit & IPX_BOWLING_INELASTIC_USED) == 0);
}

static void test_the_contact_problems_are_solved_by_the_models(void)
{
    ipx_contact c[8];
    const ipx_contact wall = {.mu = 1.0, .e = 0.0, .v_capture = 0.01, .v_plastic = 0.0};
    ipx_problem p = problem(6, W_wall, v_wall, c, wall);
    model_solves("aplcp", "", "wall", &p);
    model_solves("routh", "", "wall", &p);
    const char *bw = "e_star=0.5,mu_dynamic_ratio=0.5";
    p = problem(8, W_drop13_cor50, v_drop13_cor50, c,
                (ipx_contact){.mu = 0.5, .e = 0.5, .v_capture = 0.1, .v_plastic = 0.0});
    model_solves("bowling", bw, "drop13_cor50", &p);
    model_solves("aplcp", "", "drop13_cor50", &p);
    p = problem(6, W_drop13_cor25, v_drop13_cor25, c,
                (ipx_contact){.mu = 0.5, .e = 0.25, .v_capture = 0.1, .v_plastic = 0.0});
    model_solves("bowling", bw, "drop13_cor25", &p);
    model_solves("aplcp", "", "drop13_cor25", &p);
}

static void test_mu1000_contact_problems_are_solved_by_the_models(void)
{
    const ipx_problem a = {.k = 32, .W = W_mu1000_a, .v = v_mu1000_a, .contact = contacts_mu1000_a};
    const ipx_problem b = {.k = 32, .W = W_mu1000_b, .v = v_mu1000_b, .contact = contacts_mu1000_b};
    /* lcp_switch 1000: the dense Lemke, not the iterative solver, answers aplcp's LCP */
    model_solves("aplcp", "friction_directions=8,lcp_switch=1000", "mu1000_a", &a);
    model_solves("aplcp", "friction_directions=8,lcp_switch=1000", "mu1000_b", &b);
    model_solves("bowling", "", "mu1000_a", &a);
    model_solves("bowling", "", "mu1000_b", &b);
}

static ipx_scene scene; /* large: static storage */

/* The index-th problem of ipx_gen_random(k) from seed (default options), its bodies' velocities
   times vscale, every friction contact's mu set to mu and, if e >= 0, every e to e. */
static const ipx_problem *generated(int k, unsigned seed, int index, double vscale, double mu,
                                    double e)
{
    ipx_rng rng;
    ipx_rng_seed(&rng, seed);
    const ipx_gen_options opt = ipx_gen_default_options();
    for (int n = 0; n <= index; n++) ipx_gen_random(&scene, k, &opt, &rng);
    for (size_t i = 0; i < sizeof scene.body_vel / sizeof *scene.body_vel; i++)
        scene.body_vel[i] *= vscale;
    for (int c = 0; c < k; c++) {
        if (scene.contact[c].mu > 0.0) scene.contact[c].mu = mu;
        if (e >= 0.0) scene.contact[c].e = e;
    }
    ipx_scene_finish(&scene, k);
    return &scene.problem;
}

static void test_generated_problems_with_false_rays_are_solved(void)
{
    model_solves("aplcp", "", "k48 mu1000", generated(48, 101, 21, 1e-4, 1000.0, 0.0));
    model_solves("aplcp", "", "k56 mu1000", generated(56, 102, 35, 1e3, 1000.0, 1.0));
    model_solves("aplcp", "", "k64 mu1000", generated(64, 103, 9, 1e-4, 1000.0, -1.0));
}

int main(void)
{
    RUN(test_wall_box_anitescu_potra_lcp_is_solved);
    RUN(test_two_wheeler_polygonal_lcps_are_solved);
    RUN(test_bin_lcps_with_unequal_ties_are_solved);
    RUN(test_the_contact_problems_are_solved_by_the_models);
    RUN(test_mu1000_contact_problems_are_solved_by_the_models);
    RUN(test_generated_problems_with_false_rays_are_solved);
    return ipx_test_exit();
}
