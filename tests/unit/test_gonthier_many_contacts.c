/* An island of many contacts (ipx_gonthier_advance): 40 planks, each landing tilted on its own
   four legs, as one island of 160 contacts and each plank alone. Nothing couples two planks
   (W is block diagonal), so the island's answer is each plank's alone. The island's normal
   forces come from the sweeps over its sparse rows (160 rows), each plank's from pivoting on
   its dense 4 x 4 problem: the two must agree to rounding, with legs that leave and are held
   at zero while the others still push, and a block W_nn of rank 2 (four legs, two degrees of
   freedom in the plane of the landing). Two more planks leave a row whose terms are far below
   the island's: the sweeps must answer them too, with no solve handed to the pivoting. With a
   host allowance (ipx_gonthier_island.w_tol) the sweeps may stop once every row is within it:
   the island's speeds then stay within the sub-steps' allowances of the pivoted planks', and
   through ipx_gonthier_step within 1e-3 of the problem's v_tol of its answer without one. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "ensure.h"
#include "impax/gonthier.h"
#include "model_test.h"

enum { PLANKS = 40, LEGS = 4, CONTACTS = PLANKS * LEGS };
/* Planks past PLANKS (edge_leg): UNDERFLOW touches 1e-210 m deep, so its damper underflows
   (S = k delta^p about 1e-315 N) and its row's 1/D overflows; UNLOADING, 1 to 4 mm deep, leaves at
   the speed where its force S (1 + a delta_dot) is 1e-9 of its spring's, a row of forces far
   below the island's largest, whose own terms the sweeps' stop does not resolve. */
enum { UNDERFLOW = PLANKS, UNLOADING, ALL_PLANKS };

static const double mass = 1.0, inertia = 0.05;           /* kg, kg m^2 */
static const double leg_x[LEGS] = {-0.3, -0.1, 0.2, 0.3}; /* m, from the centre */
static const double h = 1e-4;                             /* s */
static const long steps = 80; /* 8 ms: some legs have left, the others push */

/* Plank b's landing: the legs' normal speeds (m/s, < 0 approaching) for a drop v and a spin w. */
static double leg_speed(int b, int leg)
{
    const double v = 0.5 + 0.05 * b, w = (b % 2 ? 1.0 : -1.0) * (0.5 + 0.1 * (b % 7));
    return -(v + w * leg_x[leg]);
}

/* W of n planks (3 n LEGS rows, column-major): each plank's legs share its translation and its
   turn, W_nn = 1/m + x_i x_j / I; the tangential rows 1/m on the diagonal. */
static double *planks_W(int n)
{
    const int k = n * LEGS, rows = 3 * k;
    double *W = calloc((size_t)rows * rows, sizeof *W);
    for (int b = 0; b < n; b++)
        for (int i = 0; i < LEGS; i++) {
            const int ci = b * LEGS + i;
            for (int j = 0; j < LEGS; j++) {
                const int cj = b * LEGS + j;
                W[(3 * ci + IPX_N) + (size_t)rows * (3 * cj + IPX_N)] =
                    1.0 / mass + leg_x[i] * leg_x[j] / inertia;
            }
            for (int a = IPX_T1; a <= IPX_T2; a++)
                W[(3 * ci + a) * (size_t)(rows + 1)] = 1.0 / mass;
        }
    return W;
}

static const double edge_a = 1.5; /* s/m: the edge planks' damping factor, latched at 1 m/s */

/* Plank b's leg at the start: its depth (m), normal speed (m/s) and state. */
static void edge_leg(int b, int leg, double *depth, double *v_n, ipx_gonthier_state *st)
{
    if (b < PLANKS) {
        *depth = 0.0;
        *v_n = leg_speed(b, leg);
        return;
    }
    st->a = edge_a;
    st->v_imp = 1.0;
    *depth = (b == UNDERFLOW ? 1e-210 : 1e-3) * (1 + leg);
    *v_n = b == UNDERFLOW ? 1.0 : (1.0 - 1e-9) / edge_a; /* leaving: delta_dot = -v_n */
}

/* Every leg's contact: no friction, e 0.5. */
static const ipx_contact leg_contact = {.mu = 0.0, .e = 0.5};

/* The k legs of planks first, first + 1, ... at the start: each one's law (leg_contact), its
   state, its velocities (3 k) and depth (edge_leg). */
static void start_legs(int first, int k, const ipx_params *par, ipx_gonthier_law *law,
                       ipx_gonthier_state *st, double *v, double *depth)
{
    for (int i = 0; i < k; i++) {
        ipx_gonthier_law_for(par->value, &leg_contact, &law[i]);
        st[i] = ipx_gonthier_fresh(&law[i]);
        for (int a = 0; a < 3; a++) v[3 * i + a] = 0.0;
        edge_leg(first + i / LEGS, i % LEGS, &depth[i], &v[3 * i + IPX_N], &st[i]);
    }
}

/* Advances planks first .. first + n - 1 as one island over n_steps sub-steps: their velocities
   and depths into v, depth (3 n LEGS and n LEGS); the pivoting's solves into counts. */
static void land(int first, int n, long n_steps, double w_tol, double *v, double *depth,
                 ipx_counts *counts)
{
    const int k = n * LEGS;
    double *W = planks_W(n), *impulse = calloc(3 * (size_t)k, sizeof *impulse);
    double *work = calloc(ipx_gonthier_advance_work_doubles(k), sizeof *work);
    ipx_gonthier_state *st = calloc((size_t)k, sizeof *st);
    ipx_gonthier_law *law = calloc((size_t)k, sizeof *law);
    const ipx_params par = ipx_test_params("gonthier", "");
    start_legs(first, k, &par, law, st, v, depth);
    ipx_gonthier_island is = {.k = k,
                              .W = W,
                              .v = v,
                              .delta = depth,
                              .state = st,
                              .law = law,
                              .impulse = impulse,
                              .work = work,
                              .counts = counts,
                              .w_tol = w_tol};
    ipx_gonthier_advance(&is, h, n_steps);
    free(W);
    free(impulse);
    free(work);
    free(st);
    free(law);
}

/* Planks 0 .. n - 1 as one island against each alone, over n_steps sub-steps: the largest
   differences of normal speed (m/s) and depth (m, with the largest depth alone), the legs
   pressed and apart at the end, and the island's pivoting solves (the planks alone pivot: 4 rows). */
typedef struct landing {
    double worst_v, worst_depth, depth_scale;
    int pressed, apart;
    ipx_counts counts;
} landing;

static landing island_against_alone(int n, long n_steps, double w_tol)
{
    const int k = n * LEGS;
    double *v = malloc(3 * (size_t)k * sizeof *v), *depth = malloc((size_t)k * sizeof *depth);
    landing l = {0};
    land(0, n, n_steps, w_tol, v, depth, &l.counts);
    for (int b = 0; b < n; b++) {
        double v1[3 * LEGS], d1[LEGS];
        land(b, 1, n_steps, 0.0, v1, d1, NULL);
        for (int i = 0; i < LEGS; i++) {
            const int ci = b * LEGS + i;
            l.worst_v = fmax(l.worst_v, fabs(v[3 * ci + IPX_N] - v1[3 * i + IPX_N]));
            l.worst_depth = fmax(l.worst_depth, fabs(depth[ci] - d1[i]));
            l.depth_scale = fmax(l.depth_scale, fabs(d1[i]));
            l.pressed += d1[i] > 0.0;
            l.apart += d1[i] <= 0.0;
        }
    }
    free(v);
    free(depth);
    return l;
}

static void test_one_island_of_planks_is_each_plank_alone(void)
{
    const landing l = island_against_alone(PLANKS, steps, 0.0);
    printf("  %d contacts: normal speeds differ by %.2e m/s, depths by %.2e m (of up to %.2e m); "
           "%d legs pressed, %d apart at the end\n",
           CONTACTS, l.worst_v, l.worst_depth, l.depth_scale, l.pressed, l.apart);
    ENSURE(l.pressed > 0 && l.apart > 0); /* some legs left while others pushed */
    ENSURE(l.worst_v <= 1e-12);           /* speeds of order 1 m/s */
    ENSURE(l.worst_depth <= 1e-12 * l.depth_scale);
}

/* The edge planks in the island, over its first sub-steps (while at least 128 rows push, so
   the sweeps answer). Judged by its own terms only, or with an infinite diagonal, each edge
   plank sent one solve of the island's 168 rows to the pivoting; on ODE's crash demo such rows
   sent the wall's 600 rows to it, at a factorisation a pivot. */
static void test_rows_far_below_the_island_stay_with_the_sweeps(void)
{
    const landing l = island_against_alone(ALL_PLANKS, 5, 0.0);
    printf("  %d contacts, 5 sub-steps: %d solves by pivoting; speeds differ by %.2e m/s, depths "
           "by %.2e m\n",
           ALL_PLANKS * LEGS, l.counts.lcp_solves, l.worst_v, l.worst_depth);
    ENSURE(l.counts.lcp_solves == 0);
    ENSURE(l.worst_v <= 1e-12);
    ENSURE(l.worst_depth <= 1e-12 * l.depth_scale);
}

/* With an allowance of w_tol (m/s) a sub-step's sweeps may stop short of rounding; each
   sub-step's forces then move the speeds by at most about w_tol more than the pivoting's, so
   the island's speeds stay within steps w_tol of each plank's alone, and they do differ by more
   than rounding: the sweeps took the allowance. */
static void test_the_sweeps_stop_within_the_hosts_allowance(void)
{
    const double w_tol = 1e-7; /* m/s a sub-step: 8e-6 m/s over the 80 */
    const landing l = island_against_alone(PLANKS, steps, w_tol);
    printf("  %d contacts, w_tol %.0e m/s: speeds differ by %.2e m/s (bound %.0e), depths by "
           "%.2e m; %d solves by pivoting\n",
           CONTACTS, w_tol, l.worst_v, steps * w_tol, l.worst_depth, l.counts.lcp_solves);
    ENSURE(l.worst_v <= steps * w_tol);
    ENSURE(l.worst_v > 1e-12);
    ENSURE(l.worst_depth <= steps * w_tol * steps * h);
}

/* The planks' host step of 8 ms (80 sub-steps) through ipx_gonthier_step, its post-impact speeds
   (m/s, 3 k) into v_post, for the host's accuracy v_tol (m/s). */
static void host_step(double v_tol, double *v_post)
{
    double *W = planks_W(PLANKS), v[3 * CONTACTS], depth[CONTACTS];
    ipx_gonthier_state st[CONTACTS];
    ipx_gonthier_law law[CONTACTS];
    ipx_contact contact[CONTACTS];
    const ipx_params par = ipx_test_params("gonthier", "");
    start_legs(0, CONTACTS, &par, law, st, v, depth);
    for (int i = 0; i < CONTACTS; i++) contact[i] = leg_contact;
    const ipx_problem p = {.k = CONTACTS, .W = W, .v = v, .contact = contact, .v_tol = v_tol};
    ipx_result r;
    ENSURE(ipx_gonthier_step(&par, &p, depth, st, steps * h, NULL,
                             ipx_test_workspace(&par, CONTACTS), &r, NULL) == IPX_OK);
    ENSURE(r.counts.steps == steps);
    for (int a = 0; a < 3 * CONTACTS; a++) v_post[a] = r.v_post[a];
    free(W);
}

/* ipx_gonthier_step gives the sweeps the host's share: 1e-3 of v_tol over the step's sub-steps.
   Its answer stays within that share of the answer without an allowance. */
static void test_a_host_step_takes_a_share_of_v_tol(void)
{
    static double exact[3 * CONTACTS], allowed[3 * CONTACTS];
    const double v_tol = 0.01; /* m/s */
    host_step(0.0, exact);
    host_step(v_tol, allowed);
    double worst = 0.0;
    for (int a = 0; a < 3 * CONTACTS; a++) worst = fmax(worst, fabs(allowed[a] - exact[a]));
    printf("  v_tol %.2g m/s: speeds differ by %.2e m/s (share %.0e)\n", v_tol, worst,
           1e-3 * v_tol);
    ENSURE(worst <= 1e-3 * v_tol);
    ENSURE(worst > 1e-12);
}

int main(void)
{
    RUN(test_one_island_of_planks_is_each_plank_alone);
    RUN(test_rows_far_below_the_island_stay_with_the_sweeps);
    RUN(test_the_sweeps_stop_within_the_hosts_allowance);
    RUN(test_a_host_step_takes_a_share_of_v_tol);
    return ipx_test_exit();
}
