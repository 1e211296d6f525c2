/* The Routh model on random rigid-body problems (through the invariant checker) and on the 3-D
   rocking box with four bottom corners (docs/models/routh.md §8.1, "3-D version"). */
#include <stdio.h>

#include "problem_gen.h"
#include "routh_planar.h"

static ipx_scene scene; /* large: static storage */

static void test_random_problems_keep_the_promises(void)
{
    const int n = 10000;
    ipx_rng rng;
    ipx_rng_seed(&rng, 2024);
    ipx_gen_options opt = ipx_gen_default_options();
    ipx_params par = ipx_test_params("routh", "");
    ipx_check_options chk = ipx_check_default_options();
    chk.kinds = par.model->promises(par.value);
    ENSURE(chk.kinds & IPX_CHECK_ENERGY);
    ipx_workspace *ws = ipx_workspace_create(&par, 4);
    int failed = 0, broken = 0, fallbacks = 0;
    long long lcps = 0;
    for (int i = 0; i < n; i++) {
        ipx_gen_random(&scene, 1 + i % 4, &opt, &rng);
        char msg[IPX_MESSAGE_SIZE];
        ENSURE(ipx_params_set(&par, "seed", i, msg, sizeof msg) == IPX_OK);
        ipx_result r;
        if (ipx_solve(&par, &scene.problem, ws, &r) != IPX_OK) {
            if (failed++ == 0) printf("  first failure: %s\n", r.message);
            continue;
        }
        ipx_check_report rep;
        if (ipx_check(&scene.problem, &r, &chk, &rep) != 0) {
            char text[512];
            ipx_check_format(&rep, text, sizeof text);
            if (broken++ == 0) printf("  first broken promise (problem %d): %s", i, text);
        }
        fallbacks += r.counts.limits_hit != 0;
        lcps += r.counts.lcp_solves;
    }
    printf("  %d random problems: %d failed, %d broken, %d finished by the fallback, "
           "%.2f LCPs each\n",
           n, failed, broken, fallbacks, (double)lcps / n);
    ENSURE(failed == 0);
    ENSURE(broken == 0);
    ipx_workspace_destroy(ws);
}

/* docs/models/routh.md §8.1 3-D version: 1 x 0.2 x 2 m box (x, y, z), 1 kg, flat on the ground, falling at
   v0 = sqrt(2 g 0.01); one contact per bottom corner, mu 1. */
static void rocking_box_3d(ipx_scene *s, double v0)
{
    const double a = 1.0, b = 0.2, c = 2.0, m = 1.0;
    const double inertia[3] = {m * (b * b + c * c) / 12, m * (a * a + c * c) / 12,
                               m * (a * a + b * b) / 12};
    const double R[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, com[3] = {0, 0, c / 2};
    s->n_bodies = 1;
    s->bodies[0] = ipx_body_make(m, inertia, R, com);
    for (int i = 0; i < 6; i++) s->body_vel[i] = 0.0;
    s->body_vel[2] = -v0;
    for (int i = 0; i < 4; i++) {
        ipx_contact_frame *f = &s->frames[i];
        f->body1 = -1;
        f->body2 = 0;
        f->point[0] = (i & 1) ? a / 2 : -a / 2;
        f->point[1] = (i & 2) ? b / 2 : -b / 2;
        f->point[2] = 0.0;
        f->n[0] = f->n[1] = 0.0;
        f->n[2] = 1.0;
        ipx_frame_from_normal(f->n, f->t1, f->t2);
        s->contact[i] = (ipx_contact){.mu = 1.0};
    }
    ipx_scene_finish(s, 4);
}

static void test_rocking_box_3d_keeps_a_corner_closed_and_gains_no_energy(void)
{
    const int n = 5000;
    const double v0 = sqrt(2.0 * 9.81 * 0.01);
    rocking_box_3d(&scene, v0);
    ENSURE_NEAR(scene.v[IPX_N], -v0, 1e-15);
    ipx_params par = ipx_test_params("routh", "");
    ipx_routh_cloud cl = cloud_make(n, 4);
    ipx_routh_summary sum;
    ENSURE(run_set(&scene.problem, &par, 3, n, &cl, &sum) == IPX_OK);
    printf("  3-D box: %d kept, %d unterminated, %d failed, %d at rest, %.3f LCPs/sample\n",
           sum.kept, sum.unterminated, sum.failed, sum.at_rest, (double)sum.lcp_solves / n);
    ENSURE(sum.failed == 0); /* Thm 6: every step LCP is solvable and Lemke finds it */
    ENSURE(sum.kept > n / 2);
    int open = 0;
    double highest = 0.0;
    for (int j = 0; j < cl.count; j++) {
        const double *v = cl.v_post + 12 * j;
        double lo = HUGE_VAL;
        for (int i = 0; i < 4; i++) {
            lo = fmin(lo, v[3 * i + IPX_N]);
            highest = fmax(highest, v[3 * i + IPX_N]);
        }
        open += !(fabs(lo) <= 1e-9);
    }
    printf("  3-D box: highest corner lift %.5f m/s\n", highest);
    ENSURE(open == 0);
    ENSURE(highest <= 0.1004 + 5e-5); /* "about 0.1004" (docs/models/routh.md §8.1) */
    ENSURE(sum.dke_max <= 0.0);
    ENSURE(sum.at_rest > 0);
    ENSURE(cloud_violations(&scene.problem, &par, &cl) == 0);
    cloud_free(&cl);

    ipx_params ap = ipx_test_params("aplcp", "");
    ipx_workspace *ws = ipx_workspace_create(&ap, 4);
    ipx_result r;
    ENSURE(ipx_solve(&ap, &scene.problem, ws, &r) == IPX_OK);
    for (int i = 0; i < 12; i++) ENSURE_NEAR(r.v_post[i], 0.0, 1e-12); /* AP: rest */
    ipx_workspace_destroy(ws);
}

int main(void)
{
    RUN(test_random_problems_keep_the_promises);
    RUN(test_rocking_box_3d_keeps_a_corner_closed_and_gains_no_energy);
    return ipx_test_exit();
}
