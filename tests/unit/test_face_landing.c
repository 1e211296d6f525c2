/* Face landings of the cube-toss cube (edge 0.1048 m, 0.37 kg; mu 0.18, bounce 0.125): the four
   coplanar corners of a face make the Anitescu-Potra LCP degenerate (the normal block of W has
   rank 3, so exact ties abound), and before the fix Lemke ended on false secondary rays on about
   1 % of such impacts in ODE (tests/adapter/test_ode_cube_tosses.c counts them over many tosses).
   Here:
   - a 12 x 12 LCP of three corners landing flat, on which the old Lemke ended on a ray, is
     solved and reaches the solution of the exact (rational) lexicographic path;
   - two captured face landings are solved by aplcp and routh with the dense Lemke alone (no
     iterative rescue), keeping their promises: no energy gain, v_n+ >= 0, and for aplcp
     velocity complementarity;
   - the exactly flat straight-down landing is plastic (closed form): total normal impulse m v0,
     no net tangential impulse, the cube at rest, all its kinetic energy dissipated; under aplcp,
     and under routh with equal caps (random caps sample one outcome of the set-valued impact,
     which for a flat landing includes tipping ones: not a closed form). How the impulse spreads
     over the four corners is not determined by either model: W's normal block has rank 3
     (impulses (1, -1, 1, -1) at the corners carry neither force nor moment); every spread gives
     the same velocities. Lemke returns a vertex of that set (aplcp: (0, m v0/2, 0, m v0/2)),
     not the four equal impulses of the minimum-norm answer, and the test does not ask for them. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ensure.h"
#include "impax/impax.h"
#include "lcp_check.h"
#include "model_test.h"

#include "face_landing_data.h"

#define MASS 0.37                                        /* kg */
#define HALF_EDGE 0.0524                                 /* m */
#define INERTIA_PER_MASS (0.797 * HALF_EDGE * HALF_EDGE) /* m^2, the data set's identified value */

/* The cube's contact problem: four contacts with the table (world = body1, normal +z). */
typedef struct landing {
    ipx_body body;
    ipx_contact_frame frame[4];
    ipx_contact contact[4];
    double vel[6];
    double W[144], v[12];
    ipx_problem problem;
} landing;

/* point: the four contact points (m), 3 doubles each */
static void make_landing(landing *l, const double com[3], const double R_rows[9],
                         const double vel[6], const double *point)
{
    const double inertia = INERTIA_PER_MASS * MASS, diag[3] = {inertia, inertia, inertia};
    double R[9]; /* column-major */
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++) R[r + 3 * c] = R_rows[3 * r + c];
    l->body = ipx_body_make(MASS, diag, R, com);
    const double up[3] = {0.0, 0.0, 1.0};
    for (int i = 0; i < 4; i++) {
        ipx_contact_frame *f = &l->frame[i];
        f->body1 = -1;
        f->body2 = 0;
        memcpy(f->point, point + 3 * i, sizeof f->point);
        memcpy(f->n, up, sizeof f->n);
        ipx_frame_from_normal(up, f->t1, f->t2);
        l->contact[i] = (ipx_contact){.mu = 0.18, .e = 0.125, .v_capture = 0.01, .v_plastic = 0.0};
    }
    memcpy(l->vel, vel, sizeof l->vel);
    ipx_bodies_assemble(1, &l->body, 4, l->frame, l->vel, l->W, l->v);
    l->problem = (ipx_problem){
        .k = 4, .W = l->W, .v = l->v, .contact = l->contact, .flags = IPX_PROBLEM_W_ASSEMBLED};
}

static void test_lemke_solves_three_flat_corners_on_the_exact_lexicographic_path(void)
{
    enum { n = face3_n };
    double z[n], w[n], dwork[1024];
    int iwork[2 * n], pivots = 0;
    ENSURE(ipx_lemke_work_doubles(n) <= sizeof dwork / sizeof dwork[0]);
    const ipx_status st = ipx_lemke(n, face3_M, face3_q, z, w, ipx_lemke_default_max_pivots(n),
                                    dwork, iwork, &pivots);
    double zmax = 0.0, dz = 0.0;
    for (int i = 0; i < n; i++) {
        zmax = fmax(zmax, fabs(face3_z_star[i]));
        dz = fmax(dz, fabs(z[i] - face3_z_star[i]));
    }
    const double viol = ipx_test_lcp_violation(n, face3_M, face3_q, z, w);
    printf("  %s after %d pivots (exact path: 9), violation %.2e, |z - z*| %.2e of max z* %.4g\n",
           ipx_status_name(st), pivots, viol, dz, zmax);
    ENSURE(st == IPX_OK);
    ENSURE(viol <= 1e-9);
    ENSURE(dz <= 1e-9 * zmax);
}

/* The model solves p with the dense Lemke alone and keeps its promises; v_n+ >= 0 is checked to
   the model's own noise floor eps_v (m/s). */
static void solved_without_rescue(const char *model, const char *name, const ipx_problem *p,
                                  unsigned rescue_bits, unsigned kinds, double eps_v)
{
    const ipx_params par = ipx_test_params(model, "");
    ipx_result r;
    const ipx_status st = ipx_test_solve(&par, p, &r);
    printf("  %-5s %-15s %s, %d LCP solves, %d pivots, limits 0x%x, dT %.3e J\n", model, name,
           ipx_status_name(st), r.counts.lcp_solves, r.counts.pivots, r.counts.limits_hit,
           r.delta_ke);
    ENSURE(st == IPX_OK);
    if (st != IPX_OK) return;
    ENSURE((r.counts.limits_hit & rescue_bits) == 0);
    ENSURE(r.delta_ke <= 0.0);
    ENSURE(ipx_test_check_kinds(p, &r, kinds, eps_v));
}

static void test_captured_face_landings_are_solved_by_the_dense_lemke(void)
{
    static landing l;
    const unsigned basic = IPX_CHECK_ENERGY | IPX_CHECK_NONPENETRATION | IPX_CHECK_UNILATERAL;
    for (size_t c = 0; c < sizeof face_landings / sizeof face_landings[0]; c++) {
        const face_landing *f = &face_landings[c];
        make_landing(&l, f->com, f->R, f->vel, &f->point[0][0]);
        solved_without_rescue("aplcp", f->name, &l.problem, IPX_APLCP_HIT_ITERATIVE_RESCUE,
                              basic | IPX_CHECK_COMPLEMENTARITY, 1e-12);
        /* routh ends the impact when no contact approaches faster than tol_v (1e-8) times the
           largest approach */
        solved_without_rescue("routh", f->name, &l.problem,
                              IPX_ROUTH_HIT_ITERATIVE_RESCUE | IPX_ROUTH_HIT_LCP_FAILURE, basic,
                              1e-9);
    }
}

/* The plastic closed form of a straight-down landing at v0 (m/s) on the whole face: total normal
   impulse m v0, no net tangential impulse, the cube at rest, dT = -m v0^2 / 2. */
static void lands_plastically(const landing *l, const char *model, const char *params,
                              unsigned rescue_bits, double v0, double yaw)
{
    const ipx_params par = ipx_test_params(model, params);
    ipx_result r;
    const ipx_status st = ipx_test_solve(&par, &l->problem, &r);
    ENSURE(st == IPX_OK);
    if (st != IPX_OK) return;
    double pn = 0.0, pt[2] = {0.0, 0.0}, after[6]; /* N s; pt: along world x and y */
    for (int i = 0; i < 4; i++) {
        const double *pi = &r.impulse[3 * i];
        pn += pi[IPX_N];
        for (int d = 0; d < 2; d++)
            pt[d] += pi[IPX_T1] * l->frame[i].t1[d] + pi[IPX_T2] * l->frame[i].t2[d];
    }
    memcpy(after, l->vel, sizeof after);
    ipx_bodies_apply_impulse(1, &l->body, 4, l->frame, r.impulse, after);
    double rest = 0.0;
    for (int d = 0; d < 6; d++) rest = fmax(rest, fabs(after[d]));
    const double *p = r.impulse;
    printf(
        "  yaw %4.1f %-5s normal %.6f %.6f %.6f %.6f (sum %.12f, m v0 %.12f), |u+| %.1e, dT %.9f\n",
        yaw, model, p[2], p[5], p[8], p[11], pn, MASS * v0, rest, r.delta_ke);
    ENSURE_NEAR(pn, MASS * v0, 1e-12);
    ENSURE_NEAR(pt[0], 0.0, 1e-12);
    ENSURE_NEAR(pt[1], 0.0, 1e-12);
    ENSURE(rest <= 1e-10);
    ENSURE_NEAR(r.delta_ke, -0.5 * MASS * v0 * v0, 1e-12);
    ENSURE((r.counts.limits_hit & rescue_bits) == 0);
}

static void test_flat_straight_down_landing_is_plastic(void)
{
    static landing l;
    const double v0 = 1.7; /* m/s, downward */
    const double cx[4] = {-1, 1, 1, -1}, cy[4] = {-1, -1, 1, 1};
    const double yaws[] = {0.0, 0.3, 1.1, -2.0};
    for (size_t y = 0; y < sizeof yaws / sizeof yaws[0]; y++) {
        const double c = cos(yaws[y]), s = sin(yaws[y]);
        const double R[9] = {c, -s, 0, s, c, 0, 0, 0, 1}, com[3] = {0.1, -0.2, HALF_EDGE};
        double point[4][3];
        for (int i = 0; i < 4; i++) {
            point[i][0] = com[0] + HALF_EDGE * (c * cx[i] - s * cy[i]);
            point[i][1] = com[1] + HALF_EDGE * (s * cx[i] + c * cy[i]);
            point[i][2] = 0.0;
        }
        const double vel[6] = {0, 0, -v0, 0, 0, 0};
        make_landing(&l, com, R, vel, &point[0][0]);
        lands_plastically(&l, "aplcp", "", IPX_APLCP_HIT_ITERATIVE_RESCUE, v0, yaws[y]);
        /* equal caps, ten impulse steps */
        lands_plastically(&l, "routh", "random_caps=0,step_relative=0.1",
                          IPX_ROUTH_HIT_ITERATIVE_RESCUE | IPX_ROUTH_HIT_LCP_FAILURE, v0, yaws[y]);
    }
}

int main(void)
{
    RUN(test_lemke_solves_three_flat_corners_on_the_exact_lexicographic_path);
    RUN(test_captured_face_landings_are_solved_by_the_dense_lemke);
    RUN(test_flat_straight_down_landing_is_plastic);
    return ipx_test_exit();
}
