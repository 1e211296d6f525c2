/* Normal springs coupled through a shared body (ipx_gonthier_step): a body of mass m on N
   contacts of one normal, like a table on N legs, so that every entry of W's normal block is
   1/m. Elastic linear springs (p = 1, e = 1, no friction) in parallel make one oscillator of
   N k / m.
   - The sub-step is set by each contact's own spring on its own W_nn, 0.2 / sqrt(k / m): the
     same count for every N. Taken explicitly, the springs were stable only below
     0.2 / sqrt(w k) with w the Gershgorin row sum N / m, sqrt(N) times as many sub-steps (8
     times at N = 64).
   - The implicit midpoint rule conserves a linear spring's energy: the kinetic energy and the
     springs' never rise above the drop's m v^2 / 2 at any host step, and the body leaves at
     no more than v (at v to 1e-4 on one leg). What it loses is the last sub-step's, where the
     springs let go (the force may not pull): 2 % of v at N = 64, whose oscillator turns
     1.6 rad a sub-step (omega h = 0.2 sqrt(N)): the sub-step set by each contact alone is
     coarse for the coupled motion, but it stays stable and passive. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "ensure.h"
#include "impax/gonthier.h"
#include "model_test.h"

static const double mass = 1.0, k_spring = 1e4, v_drop = 1.0, host_h = 0.01; /* kg N/m m/s s */

typedef struct legs_drop {
    double v_out;      /* m/s, leaving (> 0) */
    double worst_rise; /* J, largest kinetic + stored energy above the drop's */
    int substeps;      /* of the first host step */
} legs_drop;

static legs_drop drop_on_legs(int n)
{
    const int rows = 3 * n;
    double *W = calloc((size_t)rows * rows, sizeof *W), *v = calloc((size_t)rows, sizeof *v);
    double *depth = calloc((size_t)n, sizeof *depth);
    ipx_contact *c = calloc((size_t)n, sizeof *c);
    ipx_gonthier_state *st = calloc((size_t)n, sizeof *st);
    for (int i = 0; i < n; i++) {
        c[i] = (ipx_contact){.mu = 0.0, .e = 1.0};
        v[3 * i + IPX_N] = -v_drop;
        for (int j = 0; j < n; j++)
            W[(3 * i + IPX_N) + (size_t)rows * (3 * j + IPX_N)] = 1.0 / mass;
        for (int a = 0; a < 2; a++) W[(3 * i + a) * (size_t)(rows + 1)] = 1.0 / mass;
    }
    const ipx_problem p = {.k = n, .W = W, .v = v, .contact = c};
    ipx_params par = ipx_test_params("gonthier", "k=1e4,p=1,e=1,substep=1");
    ipx_workspace *ws = ipx_workspace_create(&par, n);
    ipx_gonthier_law law;
    ipx_gonthier_law_for(par.value, &c[0], &law);
    for (int i = 0; i < n; i++) st[i] = ipx_gonthier_fresh(&law);
    const double energy = 0.5 * mass * v_drop * v_drop;
    legs_drop d = {0.0, 0.0, 0};
    for (int step = 0; step < 1000; step++) {
        ipx_result r;
        ENSURE(ipx_gonthier_step(&par, &p, depth, st, host_h, NULL, ws, &r, NULL) == IPX_OK);
        if (step == 0) d.substeps = r.counts.steps;
        for (int a = 0; a < rows; a++) v[a] = r.v_post[a];
        double stored = 0.0;
        for (int i = 0; i < n; i++) stored += ipx_gonthier_stored_energy(&law, &st[i], depth[i]);
        const double vn = v[IPX_N];
        d.worst_rise = fmax(d.worst_rise, 0.5 * mass * vn * vn + stored - energy);
        if (depth[0] <= 0.0 && vn > 0.0) break;
    }
    d.v_out = v[IPX_N];
    ipx_workspace_destroy(ws);
    free(W), free(v), free(depth), free(c), free(st);
    return d;
}

static void test_substeps_do_not_grow_with_the_contacts_a_body_shares(void)
{
    const int alone = (int)ceil(host_h / (0.2 / sqrt(k_spring / mass)) - 1e-9); /* 5 */
    for (int n = 1; n <= 64; n *= 4) {
        const legs_drop d = drop_on_legs(n);
        printf("  %2d legs: %d sub-steps a %.0f ms step (one contact alone: %d)\n", n, d.substeps,
               host_h * 1e3, alone);
        ENSURE(d.substeps == alone);
    }
}

static void test_energy_never_rises_and_the_body_leaves_at_its_speed(void)
{
    const double energy = 0.5 * mass * v_drop * v_drop;
    for (int n = 1; n <= 64; n *= 4) {
        const legs_drop d = drop_on_legs(n);
        printf("  %2d legs: leaves at %.6f m/s (v %.1f), largest rise %.2e J\n", n, d.v_out, v_drop,
               d.worst_rise);
        ENSURE(d.worst_rise <= 1e-12 * energy);
        ENSURE(d.v_out > 0.0 && d.v_out <= v_drop);
        if (n == 1) ENSURE(fabs(d.v_out / v_drop - 1.0) < 1e-4); /* as test_gonthier_host_steps */
    }
}

int main(void)
{
    RUN(test_substeps_do_not_grow_with_the_contacts_a_body_shares);
    RUN(test_energy_never_rises_and_the_body_leaves_at_its_speed);
    return ipx_test_exit();
}
