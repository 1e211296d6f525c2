/// The anchors (bench/anchors) against closed forms, in every simulator built: an exact
/// ballistic, spinning free flight replays with the error of a semi-implicit Euler step in
/// closed form (MuJoCo's and Bullet's integrators both update the velocity, then the position
/// with it: the centre ends ½ g h t below the parabola) and the orientation exact (both turn by
/// the exact exponential of a constant body rate; the cube's isotropic inertia keeps it
/// constant), whether the centre of mass is the tracked centre or 5.3 mm off it (the scene's, as
/// worlds/cube_toss.world has it); a cube set flat on the table at rest stays there, at the half
/// edge within the simulator's contact penetration; a world replays a recording the same after
/// another one; and the fit, given recordings the simulator made itself, finds their friction
/// again, and their inertia reaches the simulator (1.5 times it moves them by millimetres).
/// A simulator given the angular velocity in the wrong frame, the quaternion in the wrong order,
/// the wrong step, gravity or cube, or that compared at the wrong samples, would be off by
/// orders of magnitude.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nlopt.h>

#include "anchor_fit.h"
#include "ensure.h"
#include "free_flight.h"
#include "recording_start.h"

static const double PI = 3.14159265358979323846;

/* Each simulator's world at the start values of its fit. */
static void *start_world(const anchor_sim *sim, const anchor_scene *scene)
{
    double values[ANCHOR_MAX_PARAMS];
    for (int k = 0; k < sim->n_params; k++) values[k] = sim->params[k].start;
    char msg[512] = "";
    void *world = sim->create(scene, values, msg, sizeof msg);
    if (!world) printf("  %s: %s\n", sim->display, msg);
    ENSURE(world != NULL);
    return world;
}

/* Free flight 6 m above the table (2.3 m at the end), exact (free_flight.h). */
static void flight_sample(double g, double t, cli_sample *s)
{
    s->t_s = t;
    ipx_free_flight(6.0, g, t, s->x_m, s->q, s->v_mps, s->w_body_radps);
}

/* The flight replayed: the error is the integrator's own (semi-implicit Euler: g h t / 2 below
   the parabola), with the centre of mass at the cube's centre and 5.3 mm off it (the scene's
   own: the recording tracks the cube's centre, R com from the centre of mass on the parabola).
   Bullet moves the centre of mass, and keeps the closed form. MuJoCo moves its free joint's
   origin, the cube's centre, whose acceleration has a part w x (w x R com) that turns with the
   body: its Euler steps lag that part by at most h T |w|^2 |com| / 2 in position and
   h T |w|^3 |com| / 2 in velocity over the flight's T = 1 s. */
static void test_free_flight_error_is_semi_implicit_eulers(void)
{
    for (int off = 0; off < 2; off++) {
        anchor_scene scene = anchor_cube_toss_scene(0);
        if (!off) memset(scene.com_m, 0, sizeof scene.com_m);
        ENSURE(!off || scene.com_m[2] == 0.0053);
        const cli_body_frame frame = anchor_body_frame(&scene);
        const double g = scene.gravity_mps2, h = scene.step_s;
        enum { N = 149 }; /* 1 s at 148 Hz */
        cli_sample samples[N], states[N];
        cli_recording rec = {.path = "flight", .n = N, .samples = samples};
        for (int k = 0; k < N; k++) {
            cli_sample body;
            flight_sample(g, k / 148.0, &body);
            cli_body_frame_to_tracked(&frame, &body, &samples[k]);
        }
        double sum_pos_m = 0;
        for (int k = 1; k < N; k++)
            sum_pos_m += ipx_free_flight_euler_error_m(g, h, 10.0 * k, k / 148.0);
        const double expect_m = sum_pos_m / (N - 1);
        for (int s = 0; s < anchor_n_sims; s++) {
            void *world = start_world(anchor_sims[s], &scene);
            if (!world) continue;
            anchor_error err;
            char msg[512] = "";
            ENSURE(anchor_replay(anchor_sims[s], world, h, &rec, &err, states, msg, sizeof msg) ==
                   0);
            printf("  %s, centre of mass %g m off: mean position error %.9g m (closed form %.9g), "
                   "orientation %.3g deg\n",
                   anchor_sims[s]->display, scene.com_m[2], err.mean_pos_m, expect_m,
                   err.mean_ori_deg);
            ENSURE(err.samples == N - 1);
            const int origin = strcmp(anchor_sims[s]->name, "mujoco") == 0;
            const double w2 = 29.0, com = scene.com_m[2]; /* |w|^2 of free_flight.h */
            /* otherwise R com turns the orientation's round-off (1e-8 rad) into 1e-10 m */
            const double pos_tol = !off ? 1e-12 : origin ? 0.5 * h * w2 * com : 1e-9;
            const double vel_tol = !off ? 1e-12 : origin ? 0.5 * h * w2 * sqrt(w2) * com : 1e-9;
            ENSURE_NEAR(err.mean_pos_m, expect_m, pos_tol);
            ENSURE(expect_m > 1e-3); /* the integrator's error is there to be seen: g h t / 2 */
            ENSURE_NEAR(err.mean_ori_deg, 0.0, 1e-6);
            for (int i = 0; i < 3; i++) {
                ENSURE_NEAR(states[N - 1].v_mps[i], samples[N - 1].v_mps[i], vel_tol);
                ENSURE_NEAR(states[N - 1].w_body_radps[i], samples[N - 1].w_body_radps[i], 1e-9);
            }
            ENSURE_NEAR(states[N - 1].t_s, samples[N - 1].t_s, 0);
            anchor_sims[s]->destroy(world);
        }
    }
}

/* The same flight with its first velocity recorded as a backward difference, g dt / 2 late:
   replayed from it the error grows by that lag times the time; from the start fitted to the
   flight (recording_start.h, as --start fit) it is the integrator's own again. */
static void test_a_fitted_start_is_the_one_replayed(void)
{
    anchor_scene scene = anchor_cube_toss_scene(0);
    memset(scene.com_m, 0, sizeof scene.com_m); /* the flight's centre is its centre of mass */
    const double g = scene.gravity_mps2, h = scene.step_s, gravity[3] = {0, 0, -g};
    enum { N = 149 };
    cli_sample samples[N], before;
    cli_recording rec = {.path = "flight", .n = N, .samples = samples};
    for (int k = 0; k < N; k++) flight_sample(g, k / 148.0, &samples[k]);
    flight_sample(g, -1 / 148.0, &before);
    for (int i = 0; i < 3; i++) samples[0].v_mps[i] = (samples[0].x_m[i] - before.x_m[i]) * 148.0;
    double sum_pos_m = 0;
    for (int k = 1; k < N; k++)
        sum_pos_m += ipx_free_flight_euler_error_m(g, h, 10.0 * k, k / 148.0);
    for (int s = 0; s < anchor_n_sims; s++) {
        void *world = start_world(anchor_sims[s], &scene);
        if (!world) continue;
        anchor_error recorded, fitted;
        char msg[512] = "";
        rec.start_window = 0;
        ENSURE(anchor_replay(anchor_sims[s], world, h, &rec, &recorded, NULL, msg, sizeof msg) ==
               0);
        ENSURE(cli_recording_fit_start(&rec, 20, gravity, NULL) == 20);
        ENSURE(anchor_replay(anchor_sims[s], world, h, &rec, &fitted, NULL, msg, sizeof msg) == 0);
        printf("  %s: from the recorded start %.6g m, from the fitted one %.9g m (closed form "
               "%.9g)\n",
               anchor_sims[s]->display, recorded.mean_pos_m, fitted.mean_pos_m,
               sum_pos_m / (N - 1));
        ENSURE_NEAR(fitted.mean_pos_m, sum_pos_m / (N - 1), 1e-9);
        ENSURE(recorded.mean_pos_m > 2 * fitted.mean_pos_m); /* 0.033 m/s late for 0.5 s */
        anchor_sims[s]->destroy(world);
    }
}

/* The cube flat on the table, its centre at the half edge, turned 30 deg about z, at rest. */
static void resting_sample(const anchor_scene *scene, double t, cli_sample *s)
{
    static const double z_axis[3] = {0, 0, 1};
    memset(s, 0, sizeof *s);
    s->t_s = t;
    s->x_m[0] = 0.3;
    s->x_m[1] = -0.1;
    s->x_m[2] = 0.5 * scene->edge_m;
    ipx_quat_about(z_axis, PI / 6, s->q);
}

/* 2 s at rest. The soft contact of MuJoCo and the penetration recovery of Bullet hold a resting
   cube a little inside the table: MuJoCo's default solref and solimp (d >= 0.9, timeconst
   0.02 s) at about g timeconst^2 (1 - d) / d = 0.4 mm, Bullet at a small fraction of its
   contact threshold; Bullet's resting contact creeps sideways a few tens of micrometres. 1 mm
   (1 % of the edge) bounds both; a wrong cube size, table height or contact is off by
   centimetres. */
static void test_cube_at_rest_stays_at_rest_on_its_face(void)
{
    const anchor_scene scene = anchor_cube_toss_scene(0);
    enum { N = 297 };
    cli_sample samples[N], states[N];
    cli_recording rec = {.path = "rest", .n = N, .samples = samples};
    for (int k = 0; k < N; k++) resting_sample(&scene, k / 148.0, &samples[k]);
    const double half_m = 0.5 * scene.edge_m, penetration_m = 1e-3;
    for (int s = 0; s < anchor_n_sims; s++) {
        void *world = start_world(anchor_sims[s], &scene);
        if (!world) continue;
        anchor_error err;
        char msg[512] = "";
        ENSURE(anchor_replay(anchor_sims[s], world, scene.step_s, &rec, &err, states, msg,
                             sizeof msg) == 0);
        const cli_sample *end = &states[N - 1];
        const double speed_mps =
            sqrt(end->v_mps[0] * end->v_mps[0] + end->v_mps[1] * end->v_mps[1] +
                 end->v_mps[2] * end->v_mps[2]);
        printf("  %s: z at the end %.9g m (half edge %.9g m), speed %.3g m/s, mean position "
               "error %.3g m, orientation %.3g deg\n",
               anchor_sims[s]->display, end->x_m[2], half_m, speed_mps, err.mean_pos_m,
               err.mean_ori_deg);
        ENSURE(end->x_m[2] <= half_m + 1e-9 && end->x_m[2] >= half_m - penetration_m);
        ENSURE_NEAR(end->x_m[0], samples[0].x_m[0], penetration_m);
        ENSURE_NEAR(end->x_m[1], samples[0].x_m[1], penetration_m);
        ENSURE(speed_mps < 1e-3);        /* at rest to the recording's resolution: 7 um a sample */
        ENSURE(err.mean_ori_deg < 1e-3); /* still flat, still turned 30 deg */
        anchor_sims[s]->destroy(world);
    }
}

/* A toss that lands on an edge, then the flight, then the toss again: the same numbers. */
static void test_a_replay_forgets_the_one_before(void)
{
    const anchor_scene scene = anchor_cube_toss_scene(0);
    enum { N = 149 };
    cli_sample toss[N], flight[N];
    for (int k = 0; k < N; k++) {
        flight_sample(scene.gravity_mps2, k / 148.0, &flight[k]);
        toss[k] = flight[k];
        toss[k].x_m[2] -= 5.8; /* 0.2 m up, rising at 1.2 m/s: it lands at about 0.45 s */
    }
    const cli_recording a = {.path = "toss", .n = N, .samples = toss},
                        b = {.path = "flight", .n = N, .samples = flight};
    for (int s = 0; s < anchor_n_sims; s++) {
        void *world = start_world(anchor_sims[s], &scene);
        if (!world) continue;
        anchor_error first, between, again;
        char msg[512] = "";
        ENSURE(anchor_replay(anchor_sims[s], world, scene.step_s, &a, &first, NULL, msg,
                             sizeof msg) == 0);
        ENSURE(anchor_replay(anchor_sims[s], world, scene.step_s, &b, &between, NULL, msg,
                             sizeof msg) == 0);
        ENSURE(anchor_replay(anchor_sims[s], world, scene.step_s, &a, &again, NULL, msg,
                             sizeof msg) == 0);
        printf("  %s: the landing toss's mean position error %.9g m, then %.9g m\n",
               anchor_sims[s]->display, first.mean_pos_m, again.mean_pos_m);
        ENSURE(first.mean_pos_m > 1e-2); /* the table changed the motion */
        ENSURE_NEAR(again.mean_pos_m, first.mean_pos_m, 0);
        ENSURE_NEAR(again.mean_ori_deg, first.mean_ori_deg, 0);
        anchor_sims[s]->destroy(world);
    }
}

/* Recordings made by the simulator itself at true values (four tosses landing on an edge or a
   corner, 1 s each) are fitted back from the fit's start: the same replay at the true values has
   zero error, so the fit must find an error far below its start's, at nearly the true friction.
   The box is the nominal cube's, on which these tosses were chosen: on the data's smaller box
   Subplex from the middle stops in Bullet's other valley of restitution (0.24 against 0.3, 9 %
   of the start's error; docs/validation.md "Beside MuJoCo and Bullet" has the valleys). */
static void test_fit_recovers_the_values_it_recorded(void)
{
    anchor_scene scene = anchor_cube_toss_scene(0);
    scene.edge_m = scene.length_m;
    /* the cube's centre of mass at its centre: this is a test of the fit, and with the scene's
       5.3 mm Subplex stops Bullet's fit in a valley of these four tosses (restitution 0.14
       against 0.3, 9 mm of error left) */
    memset(scene.com_m, 0, sizeof scene.com_m);
    enum { N = 149, TOSSES = 4 };
    static cli_sample samples[TOSSES][N];
    cli_recording recs[TOSSES];
    const int all[TOSSES] = {0, 1, 2, 3};
    const double truth[2][ANCHOR_MAX_PARAMS] = {{0.3, 0.01, 0.8, 1.0}, {0.3, 0.3, 0, 0, 1.0}};
    for (int s = 0; s < anchor_n_sims; s++) {
        const anchor_sim *sim = anchor_sims[s];
        const double *values = truth[strcmp(sim->name, "mujoco") != 0];
        char msg[512] = "";
        void *world = sim->create(&scene, values, msg, sizeof msg);
        ENSURE(world != NULL);
        if (!world) continue;
        for (int r = 0; r < TOSSES; r++) {
            cli_sample start[N]; /* times and a first state: 0.15 to 0.3 m up, spun */
            for (int k = 0; k < N; k++) {
                flight_sample(scene.gravity_mps2, k / 148.0, &start[k]);
                start[k].x_m[2] -= 5.85 - 0.05 * r;
                start[k].w_body_radps[r % 3] *= -1.5;
            }
            recs[r] = (cli_recording){.path = "own", .n = N, .samples = samples[r]};
            const cli_recording skeleton = {.path = "own", .n = N, .samples = start};
            anchor_error e;
            ENSURE(anchor_replay(sim, world, scene.step_s, &skeleton, &e, samples[r], msg,
                                 sizeof msg) == 0);
            samples[r][0] = start[0]; /* as given, not as read back (rounded): a replay of it
                                         starts where the recording did, bit for bit */
        }
        sim->destroy(world);
        const anchor_fit_problem fp = {.sim = sim,
                                       .scene = &scene,
                                       .recs = recs,
                                       .n_fitted = sim->n_default,
                                       .max_evals = 40 * sim->n_default,
                                       .algorithm = NLOPT_LN_SBPLX,
                                       .xtol = 1e-3};
        double start_values[ANCHOR_MAX_PARAMS], fitted[ANCHOR_MAX_PARAMS];
        for (int k = 0; k < sim->n_params; k++)
            start_values[k] = k < sim->n_default ? sim->params[k].start : sim->params[k].fixed;
        anchor_error at_start, at_truth, trained;
        int evals;
        ENSURE(anchor_fit_score(&fp, start_values, all, TOSSES, &at_start, msg, sizeof msg) == 0);
        ENSURE(anchor_fit_score(&fp, values, all, TOSSES, &at_truth, msg, sizeof msg) == 0);
        ENSURE(anchor_fit_train(&fp, all, TOSSES, fitted, &trained, &evals, msg, sizeof msg) == 0);
        printf("  %s: error at the start %.3g m, at the truth %.3g m, fitted %.3g m after %d "
               "evaluations:",
               sim->display, at_start.mean_pos_m, at_truth.mean_pos_m, trained.mean_pos_m, evals);
        for (int k = 0; k < sim->n_default; k++)
            printf(" %s=%.4g (%.4g)", sim->params[k].name, fitted[k], values[k]);
        printf("\n");
        ENSURE_NEAR(at_truth.mean_pos_m, 0.0, 1e-12);
        /* the cube's inertia reaches the simulator: its own tosses, at 1.5 times it */
        double heavier[ANCHOR_MAX_PARAMS];
        anchor_error at_heavier;
        for (int k = 0; k < sim->n_params; k++)
            heavier[k] = strcmp(sim->params[k].name, "inertia_scale") == 0 ? 1.5 : values[k];
        ENSURE(anchor_fit_score(&fp, heavier, all, TOSSES, &at_heavier, msg, sizeof msg) == 0);
        printf("  %s: its own tosses replayed at 1.5 times the inertia: %.3g m\n", sim->display,
               at_heavier.mean_pos_m);
        ENSURE(at_heavier.mean_pos_m > 1e-3);
        ENSURE(trained.mean_pos_m < 0.05 * at_start.mean_pos_m);
        ENSURE_NEAR(fitted[0], values[0], 0.03);
    }
}

/* The uniform cube is worlds/cube_toss.world's (its box, inertia and reference length); the
   identified one is 0.797 m a^2, a the nominal half edge. */
static void test_scene_is_the_worlds(void)
{
    const anchor_scene uniform = anchor_cube_toss_scene(0), identified = anchor_cube_toss_scene(1);
    ENSURE_NEAR(uniform.edge_m, 0.1025, 0.0);
    ENSURE_NEAR(uniform.length_m, 0.1048, 0.0);
    ENSURE_NEAR(uniform.inertia_kgm2, 0.00067728746666666667, 1e-18);
    ENSURE_NEAR(identified.inertia_kgm2 / uniform.inertia_kgm2, 0.797 / (4.0 / 6.0), 1e-12);
    ENSURE_NEAR(uniform.step_s * 1480, 1.0, 1e-15);
    ENSURE(anchor_n_sims > 0);
}

int main(void)
{
    RUN(test_scene_is_the_worlds);
    RUN(test_free_flight_error_is_semi_implicit_eulers);
    RUN(test_a_fitted_start_is_the_one_replayed);
    RUN(test_cube_at_rest_stays_at_rest_on_its_face);
    RUN(test_a_replay_forgets_the_one_before);
    RUN(test_fit_recovers_the_values_it_recorded);
    return ipx_test_exit();
}
