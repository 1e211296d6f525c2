/* The Routh model on the paper's planar examples (docs/models/routh.md §8.1-8.3), against the spec's closed
   forms and derived outcomes, with the Anitescu-Potra baseline beside it. */
#include <stdio.h>

#include "routh_planar.h"

static planar sys;

static ipx_status solve_once(const ipx_params *par, const ipx_problem *p, ipx_result *r)
{
    ipx_workspace *ws = ipx_test_workspace(par, p->k); /* kept: r's arrays live there */
    return ipx_solve(par, p, ws, r);
}

static void report(const char *name, const ipx_routh_summary *s)
{
    printf("  %s: %d samples, %d kept, %d unterminated, %d failed, %d at rest, %.3f LCPs/sample\n",
           name, s->samples, s->kept, s->unterminated, s->failed, s->at_rest,
           (double)s->lcp_solves / s->samples);
    if (s->failed) printf("  first failure: %s\n", s->message);
}

static void test_rocking_block_samples_lie_on_the_two_pivot_segments(void)
{
    const double v0 = sqrt(2.0 * 9.81 * 0.01),
                 lift = 0.09302; /* A-then-B lift, docs/models/routh.md §8.1 */
    const int n = 20000;
    planar_rocking_block(&sys, v0, 0.0);
    ipx_params par = ipx_test_params("routh", "step=0.3,max_steps=10,friction_directions=2");
    ipx_routh_cloud cl = cloud_make(n, 2);
    ipx_routh_summary sum;
    ENSURE(run_set(&sys.problem, &par, 81, n, &cl, &sum) == IPX_OK);
    report("rocking block", &sum);
    ENSURE(sum.failed == 0); /* Thm 6: every step LCP is solvable and Lemke finds it */
    ENSURE(sum.kept == cl.count && sum.kept > n / 2);
    int not_closed = 0, slipping = 0, off_segment = 0;
    double highest = 0.0;
    for (int j = 0; j < cl.count; j++) {
        const double *v = cl.v_post + 6 * j;
        double u[3];
        planar_velocity_after(&sys, cl.impulse + 6 * j, u);
        not_closed += !(fabs(fmin(v[IPX_N], v[3 + IPX_N])) <= 1e-9);
        slipping += !(fabs(v[IPX_T1]) <= 1e-9 && fabs(v[3 + IPX_T1]) <= 1e-9);
        /* c v+_AthenB = c v0 [0.21, 0.105, -0.21] or its mirror: |xdot| = |thetadot| = 2 |ydot| */
        off_segment +=
            !(fabs(fabs(u[0]) - fabs(u[2])) <= 1e-9 && fabs(u[1] - 0.5 * fabs(u[0])) <= 1e-9);
        highest = fmax(highest, fmax(v[IPX_N], v[3 + IPX_N]));
    }
    ENSURE(not_closed == 0);
    ENSURE(slipping == 0);
    ENSURE(off_segment == 0);
    ENSURE(highest <= lift + 1e-6);
    ENSURE(highest >= 0.98 * lift);
    ENSURE(sum.at_rest > 0);
    ENSURE(sum.dke_max <= 0.0);
    ENSURE(cloud_violations(&sys.problem, &par, &cl) == 0);
    cloud_free(&cl);
}

static void test_rocking_block_ap_lcp_gives_rest(void)
{
    planar_rocking_block(&sys, sqrt(2.0 * 9.81 * 0.01), 0.0);
    ipx_params par = ipx_test_params("aplcp", "friction_directions=2");
    ipx_result r;
    ENSURE(solve_once(&par, &sys.problem, &r) == IPX_OK);
    double u[3];
    planar_velocity_after(&sys, r.impulse, u);
    for (int a = 0; a < 3; a++) ENSURE_NEAR(u[a], 0.0, 1e-12);
}

/* KE+, Jn_B v+, Jt_B v+ of the three AP outcomes of the compass gait (docs/models/routh.md §8.2). */
static const double compass_ap[3][3] = {
    {0.0, 0.0, 0.0}, {0.045388, 0.09956, 0.19802}, {0.027998, 0.0, 0.12849}};

static void test_compass_gait_ap_lcp_finds_one_of_its_three_outcomes(void)
{
    planar_compass_gait(&sys);
    ENSURE_NEAR(sys.v[IPX_N], -0.48907, 1e-5);
    ENSURE_NEAR(planar_ke(&sys, sys.u0), 0.075423, 1e-6);
    ipx_params par = ipx_test_params("aplcp", "friction_directions=2");
    ipx_result r;
    ENSURE(solve_once(&par, &sys.problem, &r) == IPX_OK);
    double ke = planar_ke(&sys, sys.u0) + r.delta_ke;
    int matches = 0;
    for (int o = 0; o < 3; o++)
        matches += fabs(ke - compass_ap[o][0]) <= 1e-6 &&
                   fabs(r.v_post[3 + IPX_N] - compass_ap[o][1]) <= 1e-5 &&
                   fabs(r.v_post[3 + IPX_T1] - compass_ap[o][2]) <= 1e-5;
    ENSURE(matches == 1);
    printf("  compass gait AP: KE+ = %.6f, Jn_B v+ = %.5f, Jt_B v+ = %.5f\n", ke,
           r.v_post[3 + IPX_N], r.v_post[3 + IPX_T1]);
}

static void test_compass_gait_samples_stay_inside_the_sequential_extremes(void)
{
    const int n = 20000;
    planar_compass_gait(&sys);
    const double ke0 = planar_ke(&sys, sys.u0);
    ipx_params par = ipx_test_params("routh", "step=0.25,max_steps=5,friction_directions=2");
    ipx_routh_cloud cl = cloud_make(n, 2);
    ipx_routh_summary sum;
    ENSURE(run_set(&sys.problem, &par, 82, n, &cl, &sum) == IPX_OK);
    report("compass gait", &sum);
    ENSURE(sum.failed == 0); /* Thm 6: every step LCP is solvable and Lemke finds it */
    ENSURE(sum.kept > n / 2);
    /* (ii), the sequential outcome, bounds B's lift and slip and the energy left */
    ENSURE(sum.vn_min[1] >= -1e-9 && sum.vn_max[1] <= compass_ap[1][1] + 1e-5);
    ENSURE(sum.vt_max[1] <= compass_ap[1][2] + 1e-5);
    ENSURE(ke0 + sum.dke_max <= compass_ap[1][0] + 1e-6);
    ENSURE(ke0 + sum.dke_min >= -1e-12);
    ENSURE(sum.vn_min[0] >= -1e-9);
    /* signs of the spec's ranges: A sticks or slides backward, B sticks or slides forward */
    int wrong_way = 0;
    for (int j = 0; j < cl.count; j++) {
        const double *v = cl.v_post + 6 * j;
        wrong_way += !(v[IPX_T1] <= 1e-9 && v[3 + IPX_T1] >= -1e-9);
    }
    ENSURE(wrong_way == 0);
    printf("  compass gait ranges: Jn_A [%.5f, %.5f], |Jt_A| [%.5f, %.5f], Jn_B [%.5f, %.5f], "
           "|Jt_B| [%.5f, %.5f], KE+ [%.6f, %.6f]\n",
           sum.vn_min[0], sum.vn_max[0], sum.vt_min[0], sum.vt_max[0], sum.vn_min[1], sum.vn_max[1],
           sum.vt_min[1], sum.vt_max[1], ke0 + sum.dke_min, ke0 + sum.dke_max);
    ENSURE(cloud_violations(&sys.problem, &par, &cl) == 0);
    cloud_free(&cl);
}

static void test_box_wall_ap_lcp_stops_the_box(void)
{
    planar_box_wall(&sys);
    ENSURE_NEAR(sys.v[IPX_T1], 1.0, 1e-15);
    ENSURE_NEAR(sys.v[3 + IPX_N], -1.0, 1e-15);
    ipx_params par = ipx_test_params("aplcp", "friction_directions=2");
    ipx_result r;
    ENSURE(solve_once(&par, &sys.problem, &r) == IPX_OK);
    double u[3];
    planar_velocity_after(&sys, r.impulse, u);
    for (int a = 0; a < 3; a++) ENSURE_NEAR(u[a], 0.0, 1e-12);
}

static void test_box_wall_samples_stay_inside_the_derived_extremes(void)
{
    const int n = 20000;
    planar_box_wall(&sys);
    const double ke0 = planar_ke(&sys, sys.u0);
    ipx_params par = ipx_test_params("routh", "step=2,max_steps=5,friction_directions=2");
    ipx_routh_cloud cl = cloud_make(n, 2);
    ipx_routh_summary sum;
    ENSURE(run_set(&sys.problem, &par, 83, n, &cl, &sum) == IPX_OK);
    report("box-wall", &sum);
    printf("  box-wall ranges: Jn_A [%.5f, %.5f], |Jt_A| [%.5f, %.5f], Jn_B [%.5f, %.5f], "
           "|Jt_B| [%.5f, %.5f], KE+ [%.6f, %.6f]\n",
           sum.vn_min[0], sum.vn_max[0], sum.vt_min[0], sum.vt_max[0], sum.vn_min[1], sum.vn_max[1],
           sum.vt_min[1], sum.vt_max[1], ke0 + sum.dke_min, ke0 + sum.dke_max);
    ENSURE(sum.failed == 0); /* Thm 6: every step LCP is solvable and Lemke finds it */
    ENSURE(sum.kept > n / 2);
    ENSURE(sum.at_rest > 0);
    ENSURE(ke0 + sum.dke_max <= ke0);
    /* B-then-A (8.3): B leaves at 0.10564 sliding 0.07254, A slides at 0.30576 */
    ENSURE(sum.vn_min[1] >= -1e-9 && sum.vn_max[1] <= 0.10564 + 1e-5);
    ENSURE(sum.vt_max[1] <= 0.07254 + 1e-5);
    int lifted = 0, backward = 0, clockwise = 0, faster = 0;
    for (int j = 0; j < cl.count; j++) {
        const double *v = cl.v_post + 6 * j;
        double u[3];
        planar_velocity_after(&sys, cl.impulse + 6 * j, u);
        lifted += !(fabs(v[IPX_N]) <= 1e-9); /* A never lifts */
        backward += !(v[IPX_T1] >= -1e-9);   /* A slides toward the wall or stops */
        clockwise += !(u[2] >= -1e-12);      /* both impacts add counter-clockwise spin */
        faster += v[IPX_T1] > 0.30576;       /* A can slide faster than sequentially */
    }
    ENSURE(lifted == 0);
    ENSURE(backward == 0);
    ENSURE(clockwise == 0);
    ENSURE(faster > 0);
    ENSURE(cloud_violations(&sys.problem, &par, &cl) == 0);
    cloud_free(&cl);
}

int main(void)
{
    RUN(test_rocking_block_samples_lie_on_the_two_pivot_segments);
    RUN(test_rocking_block_ap_lcp_gives_rest);
    RUN(test_compass_gait_ap_lcp_finds_one_of_its_three_outcomes);
    RUN(test_compass_gait_samples_stay_inside_the_sequential_extremes);
    RUN(test_box_wall_ap_lcp_stops_the_box);
    RUN(test_box_wall_samples_stay_inside_the_derived_extremes);
    return ipx_test_exit();
}
