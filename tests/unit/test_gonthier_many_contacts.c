/* An island of many contacts (ipx_gonthier_advance): 40 planks, each landing tilted on its own
   four legs, as one island of 160 contacts and each plank alone. Nothing couples two planks
   (W is block diagonal), so the island's answer is each plank's alone. The island's normal
   forces come from the sweeps over its sparse rows (160 rows), each plank's from pivoting on
   its dense 4 x 4 problem: the two must agree to rounding, with legs that leave and are held
   at zero while the others still push, and a block W_nn of rank 2 (four legs, two degrees of
   freedom in the plane of the landing). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "ensure.h"
#include "impax/gonthier.h"
#include "model_test.h"

enum { PLANKS = 40, LEGS = 4, CONTACTS = PLANKS * LEGS };

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

/* Advances planks first .. first + n - 1 as one island: their velocities and depths into v, depth
   (3 n LEGS and n LEGS). */
static void land(int first, int n, double *v, double *depth)
{
    const int k = n * LEGS;
    double *W = planks_W(n), *impulse = calloc(3 * (size_t)k, sizeof *impulse);
    double *work = calloc(ipx_gonthier_advance_work_doubles(k), sizeof *work);
    ipx_gonthier_state *st = calloc((size_t)k, sizeof *st);
    ipx_gonthier_law *law = calloc((size_t)k, sizeof *law);
    ipx_params par = ipx_test_params("gonthier", "");
    const ipx_contact c = {.mu = 0.0, .e = 0.5};
    for (int i = 0; i < k; i++) {
        ipx_gonthier_law_for(par.value, &c, &law[i]);
        st[i] = ipx_gonthier_fresh(&law[i]);
        depth[i] = 0.0;
        for (int a = 0; a < 3; a++) v[3 * i + a] = 0.0;
        v[3 * i + IPX_N] = leg_speed(first + i / LEGS, i % LEGS);
    }
    ipx_gonthier_island is = {.k = k,
                              .W = W,
                              .v = v,
                              .delta = depth,
                              .state = st,
                              .law = law,
                              .impulse = impulse,
                              .work = work};
    ipx_gonthier_advance(&is, h, steps);
    free(W);
    free(impulse);
    free(work);
    free(st);
    free(law);
}

static void test_one_island_of_planks_is_each_plank_alone(void)
{
    double *v = malloc(3 * CONTACTS * sizeof *v), *depth = malloc(CONTACTS * sizeof *depth);
    land(0, PLANKS, v, depth);
    double worst_v = 0.0, worst_depth = 0.0, depth_scale = 0.0; /* m/s, m, m */
    int pressed = 0, apart = 0;
    for (int b = 0; b < PLANKS; b++) {
        double v1[3 * LEGS], d1[LEGS];
        land(b, 1, v1, d1);
        for (int i = 0; i < LEGS; i++) {
            const int ci = b * LEGS + i;
            worst_v = fmax(worst_v, fabs(v[3 * ci + IPX_N] - v1[3 * i + IPX_N]));
            worst_depth = fmax(worst_depth, fabs(depth[ci] - d1[i]));
            depth_scale = fmax(depth_scale, fabs(d1[i]));
            pressed += d1[i] > 0.0;
            apart += d1[i] <= 0.0;
        }
    }
    printf("  %d contacts: normal speeds differ by %.2e m/s, depths by %.2e m (of up to %.2e m); "
           "%d legs pressed, %d apart at the end\n",
           CONTACTS, worst_v, worst_depth, depth_scale, pressed, apart);
    ENSURE(pressed > 0 && apart > 0); /* some legs left while others pushed */
    ENSURE(worst_v <= 1e-12);         /* speeds of order 1 m/s */
    ENSURE(worst_depth <= 1e-12 * depth_scale);
    free(v);
    free(depth);
}

int main(void)
{
    RUN(test_one_island_of_planks_is_each_plank_alone);
    return ipx_test_exit();
}
