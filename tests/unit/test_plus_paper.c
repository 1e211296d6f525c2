/* PLUS against the paper's examples (docs/models/plus.md §6): Example 1 (single brick vertex: interval
   counts of Fig. 10, the closed-form mu = 0.325 outcome, sliding/rolling phases of Figs 8-9),
   Example 2 (four corners in unison: symmetry) and Example 3 (Newton's cradle: the rounds of
   Table 2, and the all-participate contrast of Fig. 14 row C). */
#include <math.h>
#include <string.h>

#include "ensure.h"
#include "impax/plus.h"
#include "model_test.h"
#include "paper_scenes.h"

static ipx_scene scene; /* large: static storage */

#define PI 3.14159265358979323846

/* Example 1 brick (Table A1): 2 kg, 0.4 x 0.6 x 0.8 m, inertia m/12 (b^2 + c^2) (printed rounded:
   diag(0.167, 0.133, 0.0867); the exact values reproduce the spec's A),
   R = Rx(pi/4) Ry(pi/6); the sphere (r = 0.1 m) at body vertex (0.2, -0.3, -0.4) touches the
   ground; pre-impact velocity (-5, 0, -5.74) m/s, no spin. */
static void brick_vertex(double mu, double e_min)
{
    const double cx = cos(PI / 4), sx = sin(PI / 4), cy = cos(PI / 6), sy = sin(PI / 6);
    /* column-major Rx Ry */
    const double R[9] = {cy, sx * sy, -cx * sy, 0, cx, sx, sy, -sx * cy, cx * cy};
    const double inertia[3] = {2.0 / 12 * 1.0, 2.0 / 12 * 0.8, 2.0 / 12 * 0.52};
    const double com[3] = {0, 0, 0}, vertex[3] = {0.2, -0.3, -0.4};
    memset(&scene, 0, sizeof scene);
    scene.n_bodies = 1;
    scene.bodies[0] = ipx_body_make(2.0, inertia, R, com);
    ipx_contact_frame *f = &scene.frames[0];
    *f = (ipx_contact_frame){
        .body1 = -1, .body2 = 0, .t1 = {1, 0, 0}, .t2 = {0, 1, 0}, .n = {0, 0, 1}};
    for (int a = 0; a < 3; a++)
        f->point[a] = R[a] * vertex[0] + R[a + 3] * vertex[1] + R[a + 6] * vertex[2];
    f->point[2] -= 0.1;
    const double vel[6] = {-5.0, 0.0, -5.74, 0.0, 0.0, 0.0};
    memcpy(scene.body_vel, vel, sizeof vel);
    scene.contact[0] = (ipx_contact){.mu = mu, .e = e_min, .v_capture = 0.01, .v_plastic = 0.1};
    ipx_scene_finish(&scene, 1);
}

/* Per round: intervals, sliding and rolling intervals (of contact 0), impulse where rolling
   first starts, velocity and impulse at the end of the round. */
typedef struct phase_log {
    int intervals[4], sliding[4], rolling[4], impending[4], rounds;
    double roll_start[3]; /* N*s: impulse before the first rolling interval */
    int roll_round;       /* round of the first rolling interval, 0 = never */
    double end_impulse[4][3], end_v[4][3];
} phase_log;

static void log_phases(const ipx_plus_interval *iv, void *user)
{
    phase_log *L = user;
    int r = iv->round < 4 ? iv->round : 3;
    L->rounds = iv->round;
    L->intervals[r]++;
    L->sliding[r] += iv->slip[0] == IPX_PLUS_SLIDING;
    L->impending[r] += iv->slip[0] == IPX_PLUS_IMPENDING;
    if (iv->slip[0] == IPX_PLUS_ROLLING) {
        L->rolling[r]++;
        if (!L->roll_round) {
            L->roll_round = iv->round;
            for (int a = 0; a < 3; a++) L->roll_start[a] = iv->impulse[a] - iv->step[a];
        }
    }
    for (int a = 0; a < 3; a++) {
        L->end_impulse[r][a] = iv->impulse[a];
        L->end_v[r][a] = iv->v[a];
    }
}

/* Paper settings of Example 1 (Table A1) with alpha_min as in the spec's prototype. */
static ipx_params example1_params(double theta_max)
{
    char text[160];
    snprintf(text, sizeof text, "theta_max=%.17g,v_transition=0.1,alpha_min=1e-6", theta_max);
    return ipx_test_params("plus", text);
}

static ipx_status trace(const ipx_params *par, phase_log *L, ipx_result *r)
{
    memset(L, 0, sizeof *L);
    ipx_workspace *ws = ipx_test_workspace(par, scene.problem.k); /* kept: r's arrays live there */
    return ipx_plus_trace(&scene.problem, par->value, ws, log_phases, L, r);
}

static void test_example1_delassus_matches_spec(void)
{
    brick_vertex(0.325, 0.373);
    static const double A[9] = {3.901011, 0.560302,  -0.052761, 0.560302, 3.359728,
                                0.447676, -0.052761, 0.447676,  0.576077};
    for (int i = 0; i < 9; i++) ENSURE_NEAR(scene.W[i], A[i], 5e-6);
}

static void test_example1_interval_counts_116_11_8(void)
{
    static const double theta[3] = {0.01, 0.15, 0.25};
    static const int expected[3] = {116, 11, 8};
    brick_vertex(0.325, 0.373);
    for (int i = 0; i < 3; i++) {
        ipx_params par = example1_params(theta[i]);
        ipx_result r;
        phase_log L;
        ENSURE(trace(&par, &L, &r) == IPX_OK);
        ENSURE(r.counts.intervals == expected[i]);
        if (r.counts.intervals != expected[i])
            fprintf(stderr, "  theta_max %g: %d intervals (%d + %d), expected %d\n", theta[i],
                    r.counts.intervals, L.intervals[1], L.intervals[2], expected[i]);
        /* all but the last compression interval slide; one rolling interval ends each phase */
        ENSURE(r.counts.rounds == 2);
        ENSURE(L.rolling[1] == 1 && L.sliding[1] == L.intervals[1] - 1);
        ENSURE(L.rolling[2] == 1 && L.intervals[2] == 1);
        ENSURE(r.counts.limits_hit == 0);
    }
}

static void test_example1_mu_0325_closed_form(void)
{
    /* rolls to v = 0 in compression: pi_comp = -A^-1 v0; expansion rolls with A_xy pi_e = 0,
       pi_e,z = 0.373 pi_comp,z (docs/models/plus.md §6.1) */
    static const double theta[3] = {0.01, 0.15, 0.25};
    static const double pi_total[3] = {1.843137, -2.417538, 15.836339};
    brick_vertex(0.325, 0.373);
    for (int i = 0; i < 3; i++) {
        ipx_params par = example1_params(theta[i]);
        ipx_result r;
        ENSURE(ipx_test_solve(&par, &scene.problem, &r) == IPX_OK);
        for (int a = 0; a < 3; a++) ENSURE_NEAR(r.impulse[a], pi_total[a], 1e-6);
        ENSURE_NEAR(r.v_post[IPX_T1], 0.0, 1e-9);
        ENSURE_NEAR(r.v_post[IPX_T2], 0.0, 1e-9);
        ENSURE_NEAR(r.v_post[IPX_N], 2.203432, 1e-6);
        /* kinetic energy 57.948 J -> 25.337 J */
        ENSURE_NEAR(r.delta_ke, 25.337 - 57.948, 1e-3);
    }
}

static void test_example1_mu_0325_rolls_in_compression_at_spec_impulse(void)
{
    brick_vertex(0.325, 0.373);
    ipx_params par = example1_params(0.01);
    ipx_result r;
    phase_log L;
    ENSURE(trace(&par, &L, &r) == IPX_OK);
    ENSURE(L.roll_round == 1);
    static const double start[3] = {1.5394, -1.0712, 6.2318}; /* docs/models/plus.md §6.1 [D] */
    for (int a = 0; a < 3; a++) ENSURE_NEAR(L.roll_start[a], start[a], 1e-4);
    /* compression ends at pi_comp = -A^-1 v0 */
    static const double comp[3] = {1.699163, -1.820265, 11.534114};
    for (int a = 0; a < 3; a++) ENSURE_NEAR(L.end_impulse[1][a], comp[a], 1e-6);
}

static void test_example1_mu_0125_slides_throughout(void)
{
    brick_vertex(0.125, 0.392);
    static const double theta[3] = {0.01, 0.15, 0.25};
    for (int i = 0; i < 3; i++) {
        ipx_params par = example1_params(theta[i]);
        ipx_result r;
        phase_log L;
        ENSURE(trace(&par, &L, &r) == IPX_OK);
        ENSURE(r.counts.rounds == 2);
        ENSURE(L.roll_round == 0);
        ENSURE(L.sliding[1] == L.intervals[1] && L.sliding[2] == L.intervals[2]);
        /* sliding friction is on the cone: |pi_t| = mu pi_n over the whole impact would need a
           fixed direction; the slip turns, so |pi_t| < mu pi_n, but only slightly */
        double pt = hypot(r.impulse[0], r.impulse[1]);
        ENSURE(pt <= 0.125 * r.impulse[2] + 1e-9);
        ENSURE(hypot(r.v_post[0], r.v_post[1]) > 0.1);
    }
}

static void test_example1_mu_0225_rolls_in_expansion(void)
{
    brick_vertex(0.225, 0.387);
    ipx_params par = example1_params(0.01);
    ipx_result r;
    phase_log L;
    ENSURE(trace(&par, &L, &r) == IPX_OK);
    ENSURE(r.counts.rounds == 2);
    ENSURE(L.roll_round == 2);
    ENSURE(L.sliding[1] == L.intervals[1]);
    /* docs/models/plus.md §6.1 [D]: compression ends at pi = (1.6466, -1.6752, 11.4166), v_t = (-0.1176,
       0.4052); rolling starts at pi_z ~ 13.08; the contact ends at rest tangentially */
    static const double comp[3] = {1.6466, -1.6752, 11.4166};
    for (int a = 0; a < 3; a++) ENSURE_NEAR(L.end_impulse[1][a], comp[a], 2e-4);
    ENSURE_NEAR(L.end_v[1][0], -0.1176, 2e-4);
    ENSURE_NEAR(L.end_v[1][1], 0.4052, 2e-4);
    ENSURE_NEAR(L.roll_start[2], 13.08, 0.01);
    ENSURE_NEAR(r.v_post[0], 0.0, 1e-9);
    ENSURE_NEAR(r.v_post[1], 0.0, 1e-9);
}

static void test_example1_prototype_table_mu_0125_and_0225(void)
{
    /* docs/models/plus.md §6.1 prototype table [D]: intervals and outcomes, printed to 4 decimals */
    static const struct {
        double mu, e_min, theta;
        int intervals, compression;
        double v[3], pi[3];
    } rows[6] = {
        {0.125, 0.392, 0.01, 120, 104, {-1.3990, 3.4645, 2.1713}, {1.2874, -1.1480, 14.7432}},
        {0.125, 0.392, 0.15, 10, 8, {-1.2669, 3.6368, 2.1658}, {1.3129, -1.0945, 14.6943}},
        {0.125, 0.392, 0.25, 6, 5, {-1.2366, 3.7210, 2.1606}, {1.3161, -1.0658, 14.6632}},
        {0.225, 0.387, 0.01, 131, 129, {0, 0, 2.2027}, {1.8431, -2.4173, 15.8348}},
        {0.225, 0.387, 0.15, 12, 10, {0, 0, 2.1809}, {1.8417, -2.4114, 15.7923}},
        {0.225, 0.387, 0.25, 10, 6, {0, 0, 2.1632}, {1.8405, -2.4066, 15.7578}},
    };
    for (int i = 0; i < 6; i++) {
        brick_vertex(rows[i].mu, rows[i].e_min);
        ipx_params par = example1_params(rows[i].theta);
        ipx_result r;
        phase_log L;
        ENSURE(trace(&par, &L, &r) == IPX_OK);
        ENSURE(r.counts.intervals == rows[i].intervals);
        ENSURE(L.intervals[1] == rows[i].compression);
        for (int a = 0; a < 3; a++) {
            ENSURE_NEAR(r.v_post[a], rows[i].v[a], 1e-4);
            ENSURE_NEAR(r.impulse[a], rows[i].pi[a], 1e-4);
        }
        ENSURE(r.delta_ke < 0.0);
    }
}

/* Example 2 (Fig. 11): the same brick, axis-aligned on its 0.4 x 0.6 face, the four lower
   spheres at (+-0.2, +-0.3, -0.5) m from the centre of mass; all four points at (-2, 0, -8.84)
   m/s; mu 0.2, e_min 0.414, Table A1 COR and transition settings. Contact i: x sign, y sign. */
static const double corner_sign[4][2] = {{-1, -1}, {-1, 1}, {1, -1}, {1, 1}};

static void brick_four_corners(void)
{
    const double inertia[3] = {2.0 / 12 * 1.0, 2.0 / 12 * 0.8, 2.0 / 12 * 0.52}, com[3] = {0, 0, 0};
    const double R[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    memset(&scene, 0, sizeof scene);
    scene.n_bodies = 1;
    scene.bodies[0] = ipx_body_make(2.0, inertia, R, com);
    for (int i = 0; i < 4; i++) {
        const double point[3] = {0.2 * corner_sign[i][0], 0.3 * corner_sign[i][1], -0.5};
        scene.frames[i] = (ipx_contact_frame){.body1 = -1,
                                              .body2 = 0,
                                              .t1 = {1, 0, 0},
                                              .t2 = {0, 1, 0},
                                              .n = {0, 0, 1},
                                              .point = {point[0], point[1], point[2]}};
        scene.contact[i] =
            (ipx_contact){.mu = 0.2, .e = 0.414, .v_capture = 0.01, .v_plastic = 0.1};
    }
    const double vel[6] = {-2.0, 0.0, -8.84, 0.0, 0.0, 0.0};
    memcpy(scene.body_vel, vel, sizeof vel);
    ipx_scene_finish(&scene, 4);
}

typedef struct corner_log {
    int n;
    double alpha[8];
    int round[8];
    ipx_plus_slip slip[8][4];
} corner_log;

static void log_corners(const ipx_plus_interval *iv, void *user)
{
    corner_log *L = user;
    if (L->n >= 8) return;
    L->alpha[L->n] = iv->alpha;
    L->round[L->n] = iv->round;
    for (int i = 0; i < 4; i++) L->slip[L->n][i] = iv->slip[i];
    L->n++;
}

static void test_example2_four_corners_symmetric(void)
{
    brick_four_corners();
    ipx_params par = example1_params(0.01);
    ipx_result r;
    ENSURE(ipx_test_solve(&par, &scene.problem, &r) == IPX_OK);
    const double *pi = r.impulse;
    /* mirror pairs in y carry equal impulses; nothing along y */
    for (int a = 0; a < 3; a++) {
        ENSURE_NEAR(pi[0 * 3 + a], pi[1 * 3 + a], 1e-9);
        ENSURE_NEAR(pi[2 * 3 + a], pi[3 * 3 + a], 1e-9);
    }
    for (int i = 0; i < 4; i++) ENSURE_NEAR(pi[3 * i + IPX_T2], 0.0, 1e-9);
    /* no spurious spin: only pitch about y, no y motion */
    double u[6];
    memcpy(u, scene.body_vel, sizeof u);
    ipx_bodies_apply_impulse(1, scene.bodies, 4, scene.frames, pi, u);
    ENSURE_NEAR(u[1], 0.0, 1e-9);
    ENSURE_NEAR(u[3], 0.0, 1e-9);
    ENSURE_NEAR(u[5], 0.0, 1e-9);
}

static void test_example2_matches_spec_prototype(void)
{
    /* docs/models/plus.md §6.2 [D]: 2 rounds, 3 intervals (compression: all sliding, alpha 1; expansion: all
       sliding to alpha = 0.31696, then rear (x = -0.2) rolling, front impending); per point
       pi_n 9.37482 rear / 3.12494 front, pi_x 1.76971 / 0.62499 = mu pi_n; final v_t = 0,
       v_n 3.81764 / 3.50188; body (0.39470, 0, 3.65976) m/s, w = (0, 0.78940, 0) rad/s;
       kinetic energy 82.146 J -> 13.591 J. */
    brick_four_corners();
    ipx_params par = example1_params(0.01);
    ipx_result r;
    corner_log L = {0};
    ipx_workspace *ws = ipx_test_workspace(&par, 4); /* kept: r lives there */
    ENSURE(ipx_plus_trace(&scene.problem, par.value, ws, log_corners, &L, &r) == IPX_OK);
    ENSURE(r.counts.rounds == 2 && r.counts.intervals == 3 && L.n == 3);
    ENSURE(L.round[0] == 1 && L.alpha[0] == 1.0);
    ENSURE(L.round[1] == 2);
    ENSURE_NEAR(L.alpha[1], 0.31696, 1e-5);
    ENSURE(L.round[2] == 2 && L.alpha[2] == 1.0);
    for (int i = 0; i < 4; i++) {
        int rear = corner_sign[i][0] < 0;
        ENSURE(L.slip[0][i] == IPX_PLUS_SLIDING && L.slip[1][i] == IPX_PLUS_SLIDING);
        ENSURE(L.slip[2][i] == (rear ? IPX_PLUS_ROLLING : IPX_PLUS_IMPENDING));
        ENSURE_NEAR(r.impulse[3 * i + IPX_N], rear ? 9.37482 : 3.12494, 1e-5);
        ENSURE_NEAR(r.impulse[3 * i + IPX_T1], rear ? 1.76971 : 0.62499, 1e-5);
        ENSURE_NEAR(r.v_post[3 * i + IPX_T1], 0.0, 1e-9);
        ENSURE_NEAR(r.v_post[3 * i + IPX_N], rear ? 3.81764 : 3.50188, 1e-5);
    }
    double u[6];
    memcpy(u, scene.body_vel, sizeof u);
    ipx_bodies_apply_impulse(1, scene.bodies, 4, scene.frames, r.impulse, u);
    ENSURE_NEAR(u[0], 0.39470, 1e-5);
    ENSURE_NEAR(u[2], 3.65976, 1e-5);
    ENSURE_NEAR(u[4], 0.78940, 1e-5);
    ENSURE_NEAR(r.delta_ke, 13.591 - 82.146, 1e-3);
}

/* Example 3 (Fig. 14, Table 2): 5 frictionless 1 kg balls, COR 1; the striker at 2 m/s. */
typedef struct round_log {
    int rounds, intervals;
    ipx_plus_class cls[8][4];
} round_log;

static void log_rounds(const ipx_plus_interval *iv, void *user)
{
    round_log *L = user;
    L->intervals++;
    L->rounds = iv->round;
    if (iv->round <= 8)
        for (int i = 0; i < iv->k && i < 4; i++) L->cls[iv->round - 1][i] = iv->cls[i];
}

static void ball_velocities(const double *pi, double u[5])
{
    double vel[6 * 5];
    memcpy(vel, scene.body_vel, sizeof vel);
    ipx_bodies_apply_impulse(5, scene.bodies, 4, scene.frames, pi, vel);
    for (int b = 0; b < 5; b++) u[b] = vel[6 * b];
}

static void test_example3_cradle_rounds_match_table2(void)
{
    ipx_scene_cradle(&scene, 5, 2.0, 1.0);
    ipx_params par = ipx_test_params("plus", "");
    ipx_result r;
    round_log L = {0};
    ipx_workspace *ws = ipx_workspace_create(&par, 4);
    ENSURE(ipx_plus_trace(&scene.problem, par.value, ws, log_rounds, &L, &r) == IPX_OK);
    ipx_workspace_destroy(ws);
    static const char table2[4][6] = {"CEOOO", "OCEOO", "OOCEO", "OOOCE"}; /* contact x round */
    ENSURE(r.counts.rounds == 5 && L.rounds == 5 && L.intervals == 5);
    for (int i = 0; i < 4; i++)
        for (int round = 0; round < 5; round++) {
            ipx_plus_class want = table2[i][round] == 'C'   ? IPX_PLUS_COMPRESSING
                                  : table2[i][round] == 'E' ? IPX_PLUS_EXPANDING
                                                            : IPX_PLUS_OBSERVING;
            ENSURE(L.cls[round][i] == want);
        }
}

static void test_cradle_only_the_far_ball_leaves_at_2mps(void)
{
    ipx_scene_cradle(&scene, 5, 2.0, 1.0);
    ipx_params par = ipx_test_params("plus", "");
    ipx_result r;
    ENSURE(ipx_test_solve(&par, &scene.problem, &r) == IPX_OK);
    double u[5];
    ball_velocities(r.impulse, u);
    for (int b = 0; b < 4; b++) ENSURE_NEAR(u[b], 0.0, 1e-12);
    ENSURE_NEAR(u[4], -2.0, 1e-12);
    /* every compression and expansion impulse is 1 N*s; energy (2 J) conserved */
    for (int i = 0; i < 4; i++) ENSURE_NEAR(r.impulse[3 * i + IPX_N], 2.0, 1e-12);
    ENSURE_NEAR(r.delta_ke, 0.0, 1e-12);
}

static void test_cradle_all_participating_is_row_c(void)
{
    /* Fig. 14 row C: the four resting balls act as one 4 kg ball: compression 1.6/1.2/0.8/0.4,
       striker rebounds at +1.2 m/s (-1.2 along its travel), the others leave at -0.8 m/s */
    ipx_scene_cradle(&scene, 5, 2.0, 1.0);
    ipx_params par = ipx_test_params("plus", "all_participate=1");
    ipx_result r;
    ENSURE(ipx_test_solve(&par, &scene.problem, &r) == IPX_OK);
    double u[5];
    ball_velocities(r.impulse, u);
    ENSURE_NEAR(u[0], 1.2, 1e-12);
    for (int b = 1; b < 5; b++) ENSURE_NEAR(u[b], -0.8, 1e-12);
    static const double comp[4] = {1.6, 1.2, 0.8, 0.4};
    for (int i = 0; i < 4; i++) ENSURE_NEAR(r.impulse[3 * i + IPX_N], 2.0 * comp[i], 1e-12);
    ENSURE(r.counts.rounds == 2);
    ENSURE_NEAR(r.delta_ke, 0.0, 1e-12);
}

int main(void)
{
    RUN(test_example1_delassus_matches_spec);
    RUN(test_example1_interval_counts_116_11_8);
    RUN(test_example1_mu_0325_closed_form);
    RUN(test_example1_mu_0325_rolls_in_compression_at_spec_impulse);
    RUN(test_example1_mu_0125_slides_throughout);
    RUN(test_example1_mu_0225_rolls_in_expansion);
    RUN(test_example1_prototype_table_mu_0125_and_0225);
    RUN(test_example2_four_corners_symmetric);
    RUN(test_example2_matches_spec_prototype);
    RUN(test_example3_cradle_rounds_match_table2);
    RUN(test_cradle_only_the_far_ball_leaves_at_2mps);
    RUN(test_cradle_all_participating_is_row_c);
    return ipx_test_exit();
}
