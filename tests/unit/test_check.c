/* The invariant checker catches a planted violation of each kind, with its size, and passes a
   clean result. Results are built by hand here (the checker must not depend on any model). */
#include <math.h>
#include <string.h>

#include "ensure.h"
#include "paper_scenes.h"
#include "tripping_box_data.h"

#define PI 3.14159265358979323846

static ipx_scene scene;

/* A hand-made result with impulse pi, v_post and delta_ke made consistent with it. */
/* The result of impulses pi, its arrays in this file's storage (one result at a time). */
static ipx_result result_from(const ipx_problem *p, const double *pi)
{
    static double impulse[IPX_TEST_MAX_ROWS], v_post[IPX_TEST_MAX_ROWS],
        last_step[IPX_TEST_MAX_ROWS];
    static int slip_state[IPX_TEST_MAX_CONTACTS];
    const int n = 3 * p->k;
    ipx_result r;
    memset(&r, 0, sizeof r);
    memset(last_step, 0, sizeof last_step);
    memset(slip_state, 0, sizeof slip_state);
    r.k = p->k;
    r.n_rows = n;
    r.impulse = impulse;
    r.v_post = v_post;
    r.last_step = last_step;
    r.slip_state = slip_state;
    double work = 0.0, quad = 0.0;
    for (int i = 0; i < n; i++) {
        double wpi = 0.0;
        for (int j = 0; j < n; j++) wpi += p->W[i + n * j] * pi[j];
        r.impulse[i] = pi[i];
        r.v_post[i] = p->v[i] + wpi;
        work += pi[i] * p->v[i];
        quad += pi[i] * wpi;
    }
    r.delta_ke = work + 0.5 * quad;
    return r;
}

static int count_kind(const ipx_check_report *rep, ipx_check_kind kind, int contact, double *size)
{
    int n = 0;
    for (int i = 0; i < rep->count && i < IPX_MAX_VIOLATIONS; i++)
        if (rep->list[i].kind == kind && rep->list[i].contact == contact) {
            n++;
            if (size) *size = rep->list[i].size;
        }
    return n;
}

/* Point mass falling at 2 m/s, frictionless unless set: pi_n = 2 stops it exactly. */
static void point_mass(double mu) { ipx_scene_point_mass(&scene, mu, 0.0, -2.0); }

static void test_clean_result_has_no_violation(void)
{
    point_mass(0.5);
    const double pi[3] = {0.0, 0.0, 2.0};
    ipx_result r = result_from(&scene.problem, pi);
    ipx_check_options opt = ipx_check_default_options();
    ipx_check_report rep;
    ENSURE(ipx_check(&scene.problem, &r, &opt, &rep) == 0);
}

static void test_energy_gain_is_caught_with_its_size(void)
{
    point_mass(0.0);
    const double pi[3] = {0.0, 0.0, 6.0}; /* leaves at 4 m/s: 8 J - 2 J = 6 J gained */
    ipx_result r = result_from(&scene.problem, pi);
    ipx_check_options opt = ipx_check_default_options();
    ipx_check_report rep;
    ENSURE(ipx_check(&scene.problem, &r, &opt, &rep) > 0);
    double size = 0.0;
    ENSURE(count_kind(&rep, IPX_CHECK_ENERGY, -1, &size) == 1);
    ENSURE_NEAR(size, 6.0, 1e-6);
    ENSURE(count_kind(&rep, IPX_CHECK_COMPLEMENTARITY, 0, &size) ==
           1); /* impulse on a leaving contact */
    ENSURE_NEAR(size, 6.0 * 4.0, 1e-6);
    ENSURE(count_kind(&rep, IPX_CHECK_CONSISTENCY, 0, NULL) == 0);
    /* the energy test alone, as ipx_solve runs it: the same 6 J, and none for pi_n = 2 */
    ENSURE_NEAR(ipx_check_energy_excess(&scene.problem, &r, &opt), 6.0, 1e-6);
    const double stop[3] = {0.0, 0.0, 2.0};
    r = result_from(&scene.problem, stop);
    ENSURE(ipx_check_energy_excess(&scene.problem, &r, &opt) <= 0.0);
}

/* jia's answer to the tripping box of PyODE's tutorial3.py before its fix (tripping_box_data.h):
   friction along the sliding and the box thrown off at 30.6 m/s. The gain pi.v + pi.W pi / 2 is
   497 889.78 J (evaluated apart, in numpy); the checker and its energy test alone catch it. */
static void test_tripping_box_thrown_off_is_caught(void)
{
    const tripping_box *b = &TRIPPING_BOX;
    ipx_contact c = {b->mu, b->e, 0.0, 0.0};
    const ipx_problem p = {.k = 1, .W = b->W, .v = b->v, .contact = &c};
    ipx_result r = result_from(&p, b->gaining_impulse);
    ipx_check_options opt = ipx_check_default_options();
    ipx_check_report rep;
    ENSURE(ipx_check(&p, &r, &opt, &rep) > 0);
    double size = 0.0;
    ENSURE(count_kind(&rep, IPX_CHECK_ENERGY, -1, &size) == 1);
    ENSURE_NEAR(size, 497889.78, 0.01);
    ENSURE(count_kind(&rep, IPX_CHECK_CONE, 0, NULL) == 0); /* inside the cone of mu 5000 */
    ENSURE_NEAR(ipx_check_energy_excess(&p, &r, &opt), 497889.78, 0.01);
}

static void test_penetrating_velocity_is_caught(void)
{
    point_mass(0.0);
    const double pi[3] = {0.0, 0.0, 1.5}; /* still approaching at 0.5 m/s */
    ipx_result r = result_from(&scene.problem, pi);
    ipx_check_options opt = ipx_check_default_options();
    ipx_check_report rep;
    ipx_check(&scene.problem, &r, &opt, &rep);
    double size = 0.0;
    ENSURE(count_kind(&rep, IPX_CHECK_NONPENETRATION, 0, &size) == 1);
    ENSURE_NEAR(size, 0.5, 1e-6);
    ENSURE(count_kind(&rep, IPX_CHECK_ENERGY, -1, NULL) == 0);
}

static void test_friction_outside_the_cone_is_caught(void)
{
    point_mass(0.5);
    const double pi[3] = {0.6, 0.8, 2.0}; /* |pi_t| = 1 = mu pi_n: on the cone, fine */
    ipx_result r = result_from(&scene.problem, pi);
    ipx_check_options opt = ipx_check_default_options();
    opt.kinds = IPX_CHECK_CONE;
    ipx_check_report rep;
    ENSURE(ipx_check(&scene.problem, &r, &opt, &rep) == 0);
    const double outside[3] = {0.9, 1.2, 2.0}; /* |pi_t| = 1.5 */
    r = result_from(&scene.problem, outside);
    ipx_check(&scene.problem, &r, &opt, &rep);
    double size = 0.0;
    ENSURE(count_kind(&rep, IPX_CHECK_CONE, 0, &size) == 1);
    ENSURE_NEAR(size, 0.5, 1e-6);
}

static void test_pulling_impulse_is_caught(void)
{
    ipx_scene_point_mass(&scene, 0.0, 0.0, +1.0); /* separating */
    const double pi[3] = {0.0, 0.0, -0.25};
    ipx_result r = result_from(&scene.problem, pi);
    ipx_check_options opt = ipx_check_default_options();
    ipx_check_report rep;
    ipx_check(&scene.problem, &r, &opt, &rep);
    double size = 0.0;
    ENSURE(count_kind(&rep, IPX_CHECK_UNILATERAL, 0, &size) == 1);
    ENSURE_NEAR(size, 0.25, 1e-6);
}

static void test_inconsistent_or_non_finite_result_is_caught(void)
{
    point_mass(0.0);
    const double pi[3] = {0.0, 0.0, 2.0};
    ipx_result r = result_from(&scene.problem, pi);
    r.v_post[IPX_T1] += 1e-3;
    r.delta_ke -= 0.5;
    ipx_check_options opt = ipx_check_default_options();
    ipx_check_report rep;
    ipx_check(&scene.problem, &r, &opt, &rep);
    double size = 0.0;
    /* a reported size is the excess over the tolerance, which is 1e-12 + 1e-9 * scale here */
    ENSURE(count_kind(&rep, IPX_CHECK_CONSISTENCY, 0, &size) == 1);
    ENSURE_NEAR(size, 1e-3, 1e-8);
    ENSURE(count_kind(&rep, IPX_CHECK_CONSISTENCY, -1, &size) == 1);
    ENSURE_NEAR(size, 0.5, 1e-8);

    r = result_from(&scene.problem, pi);
    r.impulse[IPX_N] = NAN;
    ENSURE(ipx_check(&scene.problem, &r, &opt, &rep) > 0);
    ENSURE(count_kind(&rep, IPX_CHECK_ENERGY, -1, NULL) == 1);
}

/* A unit point mass on the ground, W = I, rows [t1 t2 n]: slip vx along t1, approach 2 m/s. */
static const double unit_W[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
static const ipx_contact half_mu = {.mu = 0.5, .e = 0.0, .v_capture = 0.0, .v_plastic = 0.0};

static int direction_violations(double vx, const double pi[3], ipx_slip_state state, double *size)
{
    const double v[3] = {vx, 0.0, -2.0};
    const ipx_problem p = {.k = 1, .W = unit_W, .v = v, .contact = &half_mu};
    ipx_result r = result_from(&p, pi);
    r.slip_state[0] = state;
    memcpy(r.last_step, pi, sizeof(double) * 3); /* one interval: it is the whole impact */
    ipx_check_options opt = ipx_check_default_options();
    ipx_check_report rep;
    ipx_check(&p, &r, &opt, &rep);
    return count_kind(&rep, IPX_CHECK_FRICTION_DIRECTION, 0, size);
}

static void test_friction_along_the_slip_is_caught_with_its_angle(void)
{
    /* impending: pi_n = 2 stops the approach, friction mu pi_n = 1 on the cone */
    double size = 0.0;
    const double against[3] = {-1.0, 0.0, 2.0}, along[3] = {1.0, 0.0, 2.0},
                 across[3] = {0.0, 1.0, 2.0};
    ENSURE(direction_violations(3.0, against, IPX_SLIP_IMPENDING, NULL) == 0); /* end slip 2 */
    ENSURE(direction_violations(3.0, along, IPX_SLIP_IMPENDING, &size) == 1);  /* end slip 4 */
    ENSURE_NEAR(size, PI - 1e-6, 1e-12);
    ENSURE(direction_violations(3.0, across, IPX_SLIP_SLIDING, &size) == 1); /* start slip (3, 0) */
    ENSURE_NEAR(size, 0.5 * PI - 1e-6, 1e-12);
    /* no check where no law applies, or no slip is left to oppose */
    ENSURE(direction_violations(3.0, along, IPX_SLIP_STICKING, NULL) == 0);
    ENSURE(direction_violations(3.0, along, IPX_SLIP_NONE, NULL) == 0);
    ENSURE(direction_violations(1.0, against, IPX_SLIP_IMPENDING, NULL) == 0); /* end slip 0 */
}

static void test_impending_and_sliding_oppose_different_slips(void)
{
    /* slip 0.5 reversed to -0.5 by friction -1: against the start slip (sliding, (2.9a)), along
       the end slip (impending, (2.9b)) */
    const double pi[3] = {-1.0, 0.0, 2.0};
    double size = 0.0;
    ENSURE(direction_violations(0.5, pi, IPX_SLIP_SLIDING, NULL) == 0);
    ENSURE(direction_violations(0.5, pi, IPX_SLIP_IMPENDING, &size) == 1);
    ENSURE_NEAR(size, PI - 1e-6, 1e-12);
}

static void test_a_fired_safety_net_is_reported(void)
{
    point_mass(0.5);
    const double pi[3] = {0.0, 0.0, 2.0};
    ipx_result r = result_from(&scene.problem, pi);
    ipx_check_options opt = ipx_check_default_options();
    ipx_check_report rep;
    r.nets = IPX_NET_ENERGY_CAP;
    ENSURE(ipx_check(&scene.problem, &r, &opt, &rep) == 1);
    ENSURE(count_kind(&rep, IPX_CHECK_SAFETY_NET, -1, NULL) == 1);
    opt.kinds &= ~(unsigned)IPX_CHECK_SAFETY_NET;
    ENSURE(ipx_check(&scene.problem, &r, &opt, &rep) == 0);
}

static void test_report_lists_every_violation_in_words(void)
{
    point_mass(0.1);
    const double pi[3] = {3.0, 0.0, 6.0};
    ipx_result r = result_from(&scene.problem, pi);
    ipx_check_options opt = ipx_check_default_options();
    ipx_check_report rep;
    int n = ipx_check(&scene.problem, &r, &opt, &rep);
    ENSURE(n == 3); /* energy, cone, complementarity */
    char text[1024];
    ipx_check_format(&rep, text, sizeof text);
    ENSURE(strstr(text, "energy gain exceeded by") != NULL);
    ENSURE(strstr(text, "friction cone at contact 0 exceeded by 2.4") != NULL);
    ENSURE(strstr(text, "complementarity at contact 0") != NULL);
}

int main(void)
{
    RUN(test_clean_result_has_no_violation);
    RUN(test_energy_gain_is_caught_with_its_size);
    RUN(test_tripping_box_thrown_off_is_caught);
    RUN(test_penetrating_velocity_is_caught);
    RUN(test_friction_outside_the_cone_is_caught);
    RUN(test_pulling_impulse_is_caught);
    RUN(test_inconsistent_or_non_finite_result_is_caught);
    RUN(test_friction_along_the_slip_is_caught_with_its_angle);
    RUN(test_impending_and_sliding_oppose_different_slips);
    RUN(test_a_fired_safety_net_is_reported);
    RUN(test_report_lists_every_violation_in_words);
    return ipx_test_exit();
}
