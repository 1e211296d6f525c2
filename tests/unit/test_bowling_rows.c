/* The Flickinger-Bowling model beyond the point contact: the moment COR on the angular rows of
   a patch contact (ipx_bowling_solve with 4 and 6 rows per contact), its Coulomb-like limits,
   the host's total kinetic energy for the e_* cap, and the impact-force minimisation (18)-(19)
   against its closed form and its optimality conditions. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ensure.h"
#include "impax/bowling.h"
#include "model_test.h"

/* One patch contact of a body with decoupled rows: W = diag(1/m, 1/m, 1/m, 1/I, ...). */
typedef struct patch {
    double W[36], v[6];
    ipx_contact contact;
    ipx_problem problem;
    ipx_bowling_host host;
} patch;

static void patch_make(patch *p, int rows, const double *v, const double *w_diag, double mu,
                       double e)
{
    memset(p, 0, sizeof *p);
    for (int a = 0; a < rows; a++) p->W[a + rows * a] = w_diag[a];
    memcpy(p->v, v, sizeof(double) * (size_t)rows);
    p->contact = (ipx_contact){.mu = mu, .e = e};
    p->problem = (ipx_problem){.k = 1, .W = p->W, .v = p->v, .contact = &p->contact};
    p->host = (ipx_bowling_host){.rows_per_contact = rows};
}

static ipx_result solve_patch(const char *params, const patch *p)
{
    ipx_params par = ipx_test_params("bowling", params);
    ipx_workspace *ws = ipx_test_workspace(&par, 1); /* kept: the result's arrays live there */
    ipx_result r;
    ENSURE(ipx_bowling_solve(&par, &p->problem, &p->host, ws, &r) == IPX_OK);
    return r;
}

/* A 2 kg disc (I = 0.01 kg m^2 about the normal) lands spinning at 4 rad/s: the torsion row
   follows w+ = -e_m w-, the normal row -e v_n-, and the tangential rows stay at rest. */
static void test_moment_cor_sets_the_spin_after_the_impact(void)
{
    const double w_diag[4] = {0.5, 0.5, 0.5, 100.0}, e_m[3] = {0.0, 0.5, -1.0};
    for (int i = 0; i < 3; i++) {
        patch p;
        patch_make(&p, 4, (double[4]){0.0, 0.0, -2.0, 4.0}, w_diag, 0.5, 0.5);
        char params[64];
        snprintf(params, sizeof params, "e_m=%g", e_m[i]);
        ipx_result r = solve_patch(params, &p);
        printf("  e_m = %4.1f: spin %.6f rad/s, v_n+ %.6f m/s, torsion impulse %.6f N m s\n",
               e_m[i], r.v_post[3], r.v_post[IPX_N], r.impulse[3]);
        ENSURE_NEAR(r.v_post[3], -e_m[i] * 4.0, 1e-9);
        ENSURE_NEAR(r.v_post[IPX_N], 1.0, 1e-9);
        ENSURE_NEAR(r.v_post[IPX_T1], 0.0, 1e-9);
        ENSURE_NEAR(r.impulse[3], (r.v_post[3] - 4.0) / 100.0, 1e-12); /* I dw = torsion impulse */
    }
}

/* With moment_limits the torsion impulse is at most mu_s r pi_n; past it the spin slips with
   mu_d r pi_n against it. pi_n = m (1 + e) |v_n| = 3 N s here. */
static void test_torsion_limit_caps_the_moment_impulse(void)
{
    const double w_diag[4] = {0.5, 0.5, 0.5, 100.0}, pi_n = 2.0 * 1.5 * 1.0;
    patch p;
    /* stopping 4 rad/s needs 0.04 N m s; mu_s r pi_n = 0.5 0.05 3 = 0.075: it sticks */
    patch_make(&p, 4, (double[4]){0.0, 0.0, -1.0, 4.0}, w_diag, 0.5, 0.5);
    ipx_result r = solve_patch("moment_limits=1,torsion_radius=0.05", &p);
    ENSURE_NEAR(r.impulse[IPX_N], pi_n, 1e-9);
    ENSURE_NEAR(r.v_post[3], 0.0, 1e-9);
    /* 10 rad/s needs 0.1 > 0.075: slips with mu_d r pi_n = 0.5 0.5 0.05 3 = 0.0375 */
    patch_make(&p, 4, (double[4]){0.0, 0.0, -1.0, 10.0}, w_diag, 0.5, 0.5);
    r = solve_patch("moment_limits=1,torsion_radius=0.05,mu_dynamic_ratio=0.5", &p);
    printf("  slipping spin: impulse %.6f N m s (limit %.6f), spin %.6f rad/s\n", r.impulse[3],
           0.0375, r.v_post[3]);
    ENSURE_NEAR(r.impulse[3], -0.0375, 1e-9);
    ENSURE_NEAR(r.v_post[3], 10.0 - 3.75, 1e-7);
}

/* Six rows: the rolling rows take the moment COR too, and a zero-radius rolling limit keeps
   them free (no moment), as a point contact must (docs/models/bowling.md §3.4). */
static void test_rolling_rows_follow_e_m_or_stay_free(void)
{
    const double w_diag[6] = {0.5, 0.5, 0.5, 100.0, 50.0, 50.0};
    const double v[6] = {0.0, 0.0, -1.0, 0.0, 3.0, -2.0};
    patch p;
    patch_make(&p, 6, v, w_diag, 0.5, 0.0);
    ipx_result r = solve_patch("e_m=0.5", &p);
    ENSURE_NEAR(r.v_post[4], -1.5, 1e-9);
    ENSURE_NEAR(r.v_post[5], 1.0, 1e-9);
    r = solve_patch("e_m=0.5,moment_limits=1,roll_radius=0", &p);
    ENSURE_NEAR(r.impulse[4], 0.0, 1e-12);
    ENSURE_NEAR(r.impulse[5], 0.0, 1e-12);
    ENSURE_NEAR(r.v_post[4], 3.0, 1e-9);
}

/* The host's total T- for the cap: a 1 kg point at 1 m/s down carries 0.5 J of impact-subspace
   energy; a host whose body also has 1.5 J elsewhere (T- = 2 J) asks for T+ <= 1 J of the total,
   i.e. a loss of 1 J: more than the 0.5 J there is, so the cap is unreachable, flagged, and the
   fallback A keeps the inelastic outcome. With T- = 0.6 J the loss must be 0.3 J: v+ =
   sqrt(1 - 0.6) = 0.632 m/s instead of e = 0.9. */
static void test_host_kinetic_energy_sets_the_cap(void)
{
    const double w_diag[3] = {1.0, 1.0, 1.0};
    patch p;
    patch_make(&p, 3, (double[3]){0.0, 0.0, -1.0}, w_diag, 0.0, 0.9);
    p.host.ke_before = 2.0;
    ipx_result r = solve_patch("e_star=0.5", &p);
    ENSURE(r.counts.limits_hit & IPX_BOWLING_CAP_UNREACHED);
    ENSURE_NEAR(r.v_post[IPX_N], 0.0, 1e-9);
    p.host.ke_before = 0.6;
    r = solve_patch("e_star=0.5", &p);
    ENSURE_NEAR(r.delta_ke, -0.3, 1e-7);
    ENSURE_NEAR(r.v_post[IPX_N], sqrt(0.4), 1e-6);
}

static void test_bad_host_data_is_refused_by_name(void)
{
    patch p;
    patch_make(&p, 4, (double[4]){0.0, 0.0, -1.0, 0.0}, (double[4]){1, 1, 1, 1}, 0.5, 0.5);
    ipx_params par = ipx_test_params("bowling", "");
    ipx_workspace *ws = ipx_workspace_create(&par, 1);
    ipx_result r;
    p.host.rows_per_contact = 5;
    ENSURE(ipx_bowling_solve(&par, &p.problem, &p.host, ws, &r) == IPX_ERR_INPUT);
    ENSURE(strstr(r.message, "rows_per_contact") != NULL);
    p.host.rows_per_contact = 4;
    p.host.ke_before = NAN;
    ENSURE(ipx_bowling_solve(&par, &p.problem, &p.host, ws, &r) == IPX_ERR_INPUT);
    ENSURE(strstr(r.message, "ke_before") != NULL);
    p.host.ke_before = 0.0;
    p.v[3] = INFINITY;
    ENSURE(ipx_bowling_solve(&par, &p.problem, &p.host, ws, &r) == IPX_ERR_INPUT);
    ENSURE(strstr(r.message, "row 3") != NULL);
    ipx_workspace_destroy(ws);
}

static double quad(int p, const double *W, const double *F)
{
    double s = 0.0;
    for (int a = 0; a < p; a++)
        for (int b = 0; b < p; b++) s += F[a] * W[a + p * b] * F[b];
    return s;
}

/* (18)-(19) with no bound active: F = dT W^-1 c / (c^T W^-1 c), and thetadot* = W F + r. */
static void test_impact_forces_closed_form(void)
{
    const double W[9] = {2.0, 0.5, 0.0, 0.5, 1.0, 0.2, 0.0, 0.2, 3.0};
    const double c[3] = {0.3, 0.1, 1.0}, r[3] = {0.5, -1.0, 0.25};
    const int normal[3] = {0, 0, 1};
    /* dT > 0 here, so that the unconstrained optimum has f_n > 0 (the bound is inactive) */
    ipx_bowling_force_problem fp = {.p = 3, .W = W, .c = c, .r = r, .normal = normal, .dT = 2.0};
    ipx_params par = ipx_test_params("bowling", "");
    double work[21], F[3], accel[3];
    ipx_bowling_forces out = {.F = F, .accel = accel};
    ENSURE(ipx_bowling_force_work_doubles(3) <= sizeof work / sizeof work[0]);
    ENSURE(ipx_bowling_impact_forces(&fp, par.value, work, &out) == IPX_OK);
    /* F = lambda W^-1 c  <=>  W F = lambda c; and c^T F = dT fixes lambda */
    double WF[3], lambda = 0.0;
    for (int a = 0; a < 3; a++) {
        WF[a] = 0.0;
        for (int b = 0; b < 3; b++) WF[a] += W[a + 3 * b] * out.F[b];
        ENSURE_NEAR(out.accel[a], WF[a] + r[a], 1e-12);
    }
    lambda = WF[2] / c[2];
    for (int a = 0; a < 3; a++) ENSURE_NEAR(WF[a], lambda * c[a], 1e-12);
    ENSURE_NEAR(c[0] * out.F[0] + c[1] * out.F[1] + c[2] * out.F[2], 2.0, 1e-12);
    ENSURE(out.F[2] > 0.0);
    ENSURE(out.held == 0 && out.zero == 0);
    ENSURE(ipx_bowling_impact_forces(&fp, ipx_test_params("bowling", "force_law=0").value, work,
                                     &out) == IPX_OK);
    ENSURE(out.zero == 1 && out.F[0] == 0.0 && out.accel[1] == r[1]);
}

/* With the bound active: f_n = 0 is held, c^T F = dT holds, and no feasible direction
   (c^T d = 0, f_n staying >= 0) lowers F^T W F. */
static void test_impact_forces_hold_the_normal_bound_optimally(void)
{
    const double W[9] = {2.0, 0.5, 0.0, 0.5, 1.0, 0.2, 0.0, 0.2, 3.0};
    const double c[3] = {0.3, 0.1, 1.0}, r[3] = {0.0, 0.0, 0.0};
    const int normal[3] = {0, 0, 1};
    ipx_bowling_force_problem fp = {.p = 3, .W = W, .c = c, .r = r, .normal = normal, .dT = -2.0};
    double work[21], F[3], accel[3];
    ipx_bowling_forces out = {.F = F, .accel = accel};
    ENSURE(ipx_bowling_force_work_doubles(3) <= sizeof work / sizeof work[0]);
    ENSURE(ipx_bowling_impact_forces(&fp, ipx_test_params("bowling", "").value, work, &out) ==
           IPX_OK);
    printf("  held %d: F = (%.6f, %.6f, %.6f)\n", out.held, out.F[0], out.F[1], out.F[2]);
    ENSURE(out.held == 1 && out.zero == 0);
    ENSURE_NEAR(out.F[2], 0.0, 1e-15);
    ENSURE_NEAR(c[0] * out.F[0] + c[1] * out.F[1] + c[2] * out.F[2], -2.0, 1e-12);
    const double best = quad(3, W, out.F);
    int tried = 0;
    for (int k = 0; k < 64; k++) {
        const double t = 2.0 * 3.14159265358979323846 * k / 64.0;
        double d[3] = {cos(t), sin(t), 0.0}; /* project onto c^T d = 0 with d_n >= 0 */
        d[2] = fmax(0.0, -(c[0] * d[0] + c[1] * d[1]) / c[2]);
        if (fabs(c[0] * d[0] + c[1] * d[1] + c[2] * d[2]) > 1e-12) continue;
        double F[3];
        for (int a = 0; a < 3; a++) F[a] = out.F[a] + 1e-3 * d[a];
        ENSURE(quad(3, W, F) >= best - 1e-12);
        tried++;
    }
    ENSURE(tried >= 16); /* about half the circle keeps d_n >= 0 */
}

int main(void)
{
    RUN(test_moment_cor_sets_the_spin_after_the_impact);
    RUN(test_torsion_limit_caps_the_moment_impulse);
    RUN(test_rolling_rows_follow_e_m_or_stay_free);
    RUN(test_host_kinetic_energy_sets_the_cap);
    RUN(test_bad_host_data_is_refused_by_name);
    RUN(test_impact_forces_closed_form);
    RUN(test_impact_forces_hold_the_normal_bound_optimally);
    return ipx_test_exit();
}
