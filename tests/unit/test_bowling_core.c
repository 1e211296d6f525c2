/* The Flickinger-Bowling model on problems with closed-form answers: the spec's point-mass
   drop (4, item 5: the e_* cap binds at e_n = 0.75, v+ = 0.7071 v-, and not at 0.5 or 0.25),
   the two readings of e_*, Coulomb stick and slip with mu_s / mu_d, the tangential COR, the
   energetic COR, redundant contacts, the maximum-dissipation choice and the LCP fallback. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ensure.h"
#include "impax/bowling.h"
#include "model_test.h"

/* A point of mass m (kg) on the ground: W = I/m, pre-impact velocity (vt1, vt2, vn). */
typedef struct point {
    double W[9], v[3];
    ipx_contact contact;
    ipx_problem problem;
} point;

static void point_make(point *p, double m, const double v[3], double mu, double e)
{
    memset(p, 0, sizeof *p);
    for (int a = 0; a < 3; a++) p->W[4 * a] = 1.0 / m;
    memcpy(p->v, v, sizeof p->v);
    p->contact = (ipx_contact){.mu = mu, .e = e, .v_capture = 0.0, .v_plastic = 0.0};
    p->problem = (ipx_problem){.k = 1, .W = p->W, .v = p->v, .contact = &p->contact};
}

static ipx_result solve(const char *params, const ipx_problem *prob)
{
    ipx_params par = ipx_test_params("bowling", params);
    ipx_result r;
    ENSURE(ipx_test_solve(&par, prob, &r) == IPX_OK);
    return r;
}

static void test_point_drop_cap_binds_at_e_075_and_gives_0_7071(void)
{
    const double e[3] = {0.75, 0.5, 0.25}, expect[3] = {sqrt(0.5), 0.5, 0.25};
    for (int i = 0; i < 3; i++) {
        point p;
        point_make(&p, 2.0, (double[3]){0.0, 0.0, -3.0}, 0.0, e[i]);
        ipx_result r = solve("e_star=0.5", &p.problem);
        const double ratio = r.v_post[IPX_N] / 3.0;
        printf("  e_n = %.2f: v+ / |v-| = %.6f (KE ratio %.4f), cap %s\n", e[i], ratio,
               ratio * ratio, r.counts.limits_hit & IPX_BOWLING_CAP_UNREACHED ? "unreached" : "ok");
        ENSURE_NEAR(ratio, expect[i], 1e-6);
        ENSURE(r.counts.limits_hit == 0);
    }
}

static void test_the_two_readings_of_e_star(void)
{
    point p;
    point_make(&p, 1.0, (double[3]){0.0, 0.0, -1.0}, 0.0, 0.75);
    /* T+ <= e_* T-: 0.3 caps 0.5625 to 0.3; T+ <= (1 - e_*) T-: 0.7 does not cap it */
    ENSURE_NEAR(solve("e_star=0.3", &p.problem).v_post[IPX_N], sqrt(0.3), 1e-6);
    ENSURE_NEAR(solve("e_star=0.3,cap_reading=1", &p.problem).v_post[IPX_N], 0.75, 1e-12);
    ENSURE_NEAR(solve("e_star=0.5,cap_reading=1", &p.problem).v_post[IPX_N], sqrt(0.5), 1e-6);
}

static void test_sliding_point_slips_with_mu_d_and_sticks_inside_mu_s(void)
{
    point p;
    /* stick needs |pi_t| = 2 m against pi_n = m (e = 0): 2 > mu_s = 0.5, so it slips with
       mu_d = 0.25: v_t+ = 2 - 0.25 * 1 */
    point_make(&p, 1.0, (double[3]){2.0, 0.0, -1.0}, 0.5, 0.0);
    ipx_result r = solve("mu_dynamic_ratio=0.5", &p.problem);
    ENSURE_NEAR(r.v_post[IPX_T1], 1.75, 1e-12);
    ENSURE_NEAR(r.impulse[IPX_T1], -0.25, 1e-12);
    ENSURE_NEAR(r.v_post[IPX_N], 0.0, 1e-12);
    /* 0.3 / 1 < mu_s: sticks */
    point_make(&p, 1.0, (double[3]){0.0, 0.3, -1.0}, 0.5, 0.0);
    r = solve("mu_dynamic_ratio=0.5", &p.problem);
    ENSURE_NEAR(r.v_post[IPX_T2], 0.0, 1e-12);
    ENSURE_NEAR(r.impulse[IPX_T2], -0.3, 1e-12);
}

static void test_slip_direction_opposes_the_slip_it_leaves(void)
{
    point p;
    point_make(&p, 1.0, (double[3]){3.0, 4.0, -1.0}, 0.4, 0.0);
    ipx_result r = solve("mu_dynamic_ratio=1", &p.problem);
    /* pi_t = -0.4 (3, 4) / 5, v_t+ = (3, 4) (1 - 0.4 / 5) */
    ENSURE_NEAR(r.impulse[IPX_T1], -0.24, 1e-12);
    ENSURE_NEAR(r.impulse[IPX_T2], -0.32, 1e-12);
    ENSURE_NEAR(r.v_post[IPX_T1], 3.0 * 0.92, 1e-12);
    ENSURE_NEAR(r.v_post[IPX_T2], 4.0 * 0.92, 1e-12);
}

static void test_tangential_cor_reverses_keeps_or_stops_the_slip(void)
{
    point p;
    point_make(&p, 1.0, (double[3]){0.3, 0.0, -1.0}, 1.0, 0.0);
    ENSURE_NEAR(solve("e_t=0.5", &p.problem).v_post[IPX_T1], -0.15, 1e-12);
    ENSURE_NEAR(solve("e_t=-1", &p.problem).v_post[IPX_T1], 0.3, 1e-12);
    ENSURE_NEAR(solve("e_t=0", &p.problem).v_post[IPX_T1], 0.0, 1e-12);
    /* reversal beyond the cone: it slips, friction against the velocity relative to the
       target (slip_reference 0) */
    point_make(&p, 1.0, (double[3]){2.0, 0.0, -1.0}, 0.5, 0.0);
    ipx_result r = solve("e_t=1,mu_dynamic_ratio=1", &p.problem);
    ENSURE_NEAR(r.impulse[IPX_T1], -0.5, 1e-12);
}

static void test_energetic_cor_releases_e_squared_of_the_compression_loss(void)
{
    point p;
    point_make(&p, 1.0, (double[3]){0.0, 0.0, -2.0}, 0.0, 0.9);
    ipx_result r = solve("energetic=1,e_energetic=0.6", &p.problem);
    ENSURE_NEAR(r.v_post[IPX_N], 1.2, 1e-6); /* T_c = 0: T+ = e_E^2 T- */
    /* sliding: T_c keeps the slide that survives compression; T+ = T_c + e_E^2 (T- - T_c) */
    point_make(&p, 1.0, (double[3]){3.0, 0.0, -2.0}, 0.1, 0.0);
    ipx_result c = solve("e_star=1", &p.problem); /* compression: every COR 0 */
    const double T_minus = 0.5 * (9.0 + 4.0), T_c = T_minus + c.delta_ke, eE = 0.5;
    r = solve("energetic=1,e_energetic=0.5", &p.problem);
    ENSURE_NEAR(T_minus + r.delta_ke, T_c + eE * eE * (T_minus - T_c), 1e-6);
    ENSURE(r.v_post[IPX_N] > 0.0);
}

static void test_redundant_contacts_share_the_impulse_and_are_reported(void)
{
    /* the same point twice: W = [[I, I], [I, I]] / m; the min-norm split is equal */
    double W[36] = {0}, v[6] = {0, 0, -1, 0, 0, -1};
    for (int a = 0; a < 6; a++)
        for (int b = 0; b < 6; b++) W[a + 6 * b] = (a % 3 == b % 3) ? 1.0 : 0.0;
    ipx_contact ct[2] = {{.mu = 0.5, .e = 0.5}, {.mu = 0.5, .e = 0.5}};
    ipx_problem prob = {.k = 2, .W = W, .v = v, .contact = ct};
    ipx_result r = solve("", &prob);
    ENSURE_NEAR(r.impulse[IPX_N], 0.75, 1e-9);
    ENSURE_NEAR(r.impulse[3 + IPX_N], 0.75, 1e-9);
    ENSURE_NEAR(r.v_post[IPX_N], 0.5, 1e-9);
    ENSURE((r.counts.limits_hit & IPX_BOWLING_INDETERMINATE) != 0);
}

/* When the loop finds no admissible set within its guard (here one iteration: the sticking
   start leaves the cone), the polygonal LCP with mu_d decides; with lcp_fallback off the solve
   fails. A sliding point along t1 (a polygon direction): pi_t = -mu_d pi_n exactly. */
static void test_no_admissible_set_falls_back_to_the_lcp(void)
{
    point p;
    point_make(&p, 1.0, (double[3]){2.0, 0.0, -1.0}, 0.5, 0.0);
    const char *guard = "mu_dynamic_ratio=0.5,enumerate_max=0,loop_seed=0,max_iterations=1";
    ipx_result r = solve(guard, &p.problem);
    ENSURE(r.counts.limits_hit == (IPX_BOWLING_ITERATIONS | IPX_BOWLING_LCP_USED));
    ENSURE(r.counts.lcp_solves == 1);
    ENSURE_NEAR(r.impulse[IPX_N], 1.0, 1e-12);
    ENSURE_NEAR(r.impulse[IPX_T1], -0.25, 1e-12);
    char text[128];
    snprintf(text, sizeof text, "%s,lcp_fallback=0", guard);
    ipx_params par = ipx_test_params("bowling", text);
    ipx_workspace *ws = ipx_workspace_create(&par, 1);
    ENSURE(ipx_solve(&par, &p.problem, ws, &r) == IPX_ERR_NOT_CONVERGED);
    printf("  %s\n", r.message);
    ipx_workspace_destroy(ws);
}

int main(void)
{
    RUN(test_point_drop_cap_binds_at_e_075_and_gives_0_7071);
    RUN(test_the_two_readings_of_e_star);
    RUN(test_sliding_point_slips_with_mu_d_and_sticks_inside_mu_s);
    RUN(test_slip_direction_opposes_the_slip_it_leaves);
    RUN(test_tangential_cor_reverses_keeps_or_stops_the_slip);
    RUN(test_energetic_cor_releases_e_squared_of_the_compression_loss);
    RUN(test_redundant_contacts_share_the_impulse_and_are_reported);
    RUN(test_no_admissible_set_falls_back_to_the_lcp);
    return ipx_test_exit();
}
