/// The friction read from recorded face slides (slide_friction.h) on slides built in closed form:
/// a box sliding flat on a face at a constant coefficient mu0 gives mu0 at every sample the
/// rules take (the parabola is exact there), and exactly those samples; one whose coefficient
/// rises with the speed, mu0 + c v (v(t) in closed form), gives that law at each sample's speed
/// and a line of slope c through the slide; a tilted, spinning or raised box, or one on another
/// face, is taken or left as the rules say; bad windows and short runs are refused; and
/// bench/slide_friction prints such slides' law. argv[1]: the worlds directory (the cube-toss
/// world's own box and plane); argv[2]: a scratch directory; argv[3]: the program, or "-".
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli_run.h"
#include "ensure.h"
#include "phase_errors.h"
#include "quat.h"
#include "slide_friction.h"
#include "toss_gen.h"
#include "world.h"

static const char *worlds_dir, *scratch, *program;
static const double G = 9.81, HALF = 0.05, RATE_HZ = 148.0, HEADING = 0.5236; /* 30 deg */

typedef struct slide {
    double mu0, c_s_per_m, v0_mps; /* mu(v) = mu0 + c v, starting speed */
    double q_base[4];              /* the box's orientation before its yaw (w x y z) */
    double lift_m, spin_radps;     /* centre above its rest height; recorded |w| */
} slide;

/* Distance slid and speed at time t (closed forms; the slide stops at T and stays). */
static void slid(const slide *s, double t, double *dist_m, double *speed_mps)
{
    const double mu0 = s->mu0, c = s->c_s_per_m, v0 = s->v0_mps;
    if (c == 0.0) {
        const double T = v0 / (mu0 * G), u = fmin(t, T);
        *dist_m = v0 * u - 0.5 * mu0 * G * u * u;
        *speed_mps = v0 - mu0 * G * u;
        return;
    }
    const double k = G * c, b = v0 + mu0 / c, T = log(b / (mu0 / c)) / k, u = fmin(t, T);
    *dist_m = b * (1.0 - exp(-k * u)) / k - mu0 * u / c;
    *speed_mps = b * exp(-k * u) - mu0 / c;
}

/* 0.6 s of samples of the slide along HEADING, the box yawed by 0.3 rad on top of q_base. */
static cli_recording make_slide(const slide *s)
{
    const int n = (int)(0.6 * RATE_HZ);
    cli_recording rec = {.n = n, .samples = calloc((size_t)n, sizeof(cli_sample))};
    const double yaw[4] = {cos(0.15), 0, 0, sin(0.15)};
    for (int k = 0; k < n && rec.samples; k++) {
        cli_sample *x = &rec.samples[k];
        double d, v;
        x->t_s = k / RATE_HZ;
        slid(s, x->t_s, &d, &v);
        x->x_m[0] = 0.2 + d * cos(HEADING);
        x->x_m[1] = -0.1 + d * sin(HEADING);
        x->x_m[2] = HALF + s->lift_m;
        x->v_mps[0] = v * cos(HEADING);
        x->v_mps[1] = v * sin(HEADING);
        cli_quat_product(yaw, s->q_base, x->q);
        x->w_body_radps[2] = s->spin_radps;
    }
    return rec;
}

static cli_phase_box unit_box(void)
{
    return (cli_phase_box){.half_m = {HALF, HALF, HALF}, .quat = {1, 0, 0, 0}, .normal = {0, 0, 1}};
}

static const double GRAVITY[3] = {0, 0, -9.81};

/* The samples the rules take, from the closed form: inside the recording with a whole window,
   at least speed_min_mps at the sample and end_speed_mps at the window's later end (the earlier
   end is faster). */
static int expected_count(const slide *s, int n, const slide_limits *lim)
{
    int count = 0;
    for (int k = lim->half_window; k + lim->half_window < n; k++) {
        double d, v, v_end;
        slid(s, k / RATE_HZ, &d, &v);
        slid(s, (k + lim->half_window) / RATE_HZ, &d, &v_end);
        count += v >= lim->speed_min_mps && v_end >= lim->end_speed_mps;
    }
    return count;
}

static int points_of(const slide *s, slide_point *pts, const slide_limits *lim)
{
    cli_recording rec = make_slide(s);
    const cli_phase_box box = unit_box();
    const int k = rec.samples ? slide_points(&rec, &box, GRAVITY, lim, pts) : -2;
    free(rec.samples);
    return k;
}

static const slide FLAT = {.mu0 = 0.2, .v0_mps = 0.8, .q_base = {1, 0, 0, 0}};

/* The slide's points against its closed form: exactly the samples the rules take, each at the
   law mu0 + c v of its speed within tol_mu and at its speed within tol_speed_mps, and a line of
   slope c within tol_slope through them. */
static void expect_law(const slide *s, double tol_mu, double tol_speed_mps, double tol_slope)
{
    const slide_limits lim = slide_default_limits();
    slide_point pts[100];
    const int k = points_of(s, pts, &lim);
    ENSURE(k == expected_count(s, (int)(0.6 * RATE_HZ), &lim));
    ENSURE(k > 40);
    double worst_mu = 0.0, worst_speed = 0.0;
    for (int i = 0; i < k; i++) {
        double d, v;
        slid(s, pts[i].sample / RATE_HZ, &d, &v);
        worst_mu = fmax(worst_mu, fabs(pts[i].mu_eff - (s->mu0 + s->c_s_per_m * v)));
        worst_speed = fmax(worst_speed, fabs(pts[i].speed_mps - v));
    }
    ENSURE_NEAR(worst_mu, 0.0, tol_mu);
    ENSURE_NEAR(worst_speed, 0.0, tol_speed_mps);
    double mu_ref, slope;
    ENSURE(slide_line(pts, k, &lim, 0.3, &mu_ref, &slope) == 0);
    ENSURE_NEAR(slope, s->c_s_per_m, tol_slope);
    ENSURE_NEAR(mu_ref, s->mu0 + 0.3 * s->c_s_per_m, tol_mu);
}

/* The parabola is exact on a constant deceleration: round-off alone. */
static void test_constant_friction_is_read_exactly(void) { expect_law(&FLAT, 1e-9, 1e-9, 1e-8); }

/* On the exponential slow-down of mu0 + c v the parabola is off by O(window^2): its speed by
   j (sum k^4 / sum k^2) h^2 / 6 = 7 j h^2 / 6, j the jerk g^2 c mu(v) <= 2.6 m/s^3 here, so by
   1.4e-4 m/s at most; its coefficient, from the curvature, by less. */
static void test_speed_dependent_friction_gives_its_law_and_slope(void)
{
    const slide s = {.mu0 = 0.18, .c_s_per_m = 0.1, .v0_mps = 0.9, .q_base = {1, 0, 0, 0}};
    expect_law(&s, 1e-5, 1.5e-4, 1e-4);
}

static void test_only_flat_slow_spinning_boxes_on_the_plane_count(void)
{
    const slide_limits lim = slide_default_limits();
    slide_point pts[100];
    const int n_flat = points_of(&FLAT, pts, &lim);
    slide s = FLAT; /* on another face: turned 90 deg about x, the same slide */
    s.q_base[0] = s.q_base[1] = sqrt(0.5);
    ENSURE(points_of(&s, pts, &lim) == n_flat);
    s = FLAT; /* tilted 1 deg about x: beyond 0.81 deg */
    s.q_base[0] = cos(0.5 * 0.01745);
    s.q_base[1] = sin(0.5 * 0.01745);
    ENSURE(points_of(&s, pts, &lim) == 0);
    s.q_base[0] = cos(0.5 * 0.0122); /* 0.7 deg: within it */
    s.q_base[1] = sin(0.5 * 0.0122);
    ENSURE(points_of(&s, pts, &lim) == n_flat);
    s = FLAT; /* 0.5 mm above its rest height, then 0.3 mm */
    s.lift_m = 5e-4;
    ENSURE(points_of(&s, pts, &lim) == 0);
    s.lift_m = 3e-4;
    ENSURE(points_of(&s, pts, &lim) == n_flat);
    s = FLAT; /* spinning at 1.5 rad/s, then 0.5 */
    s.spin_radps = 1.5;
    ENSURE(points_of(&s, pts, &lim) == 0);
    s.spin_radps = 0.5;
    ENSURE(points_of(&s, pts, &lim) == n_flat);
}

static void test_bad_windows_and_short_runs_are_refused(void)
{
    slide_limits lim = slide_default_limits();
    slide_point pts[100];
    lim.half_window = 0;
    ENSURE(points_of(&FLAT, pts, &lim) == -1);
    lim.half_window = SLIDE_MAX_HALF_WINDOW + 1;
    ENSURE(points_of(&FLAT, pts, &lim) == -1);
    lim = slide_default_limits();
    /* two runs, split by a gap in the samples: a level one of 12 points and a rising one of 20
       (mu 0.18 + 0.1 v); the longer is the slide */
    for (int i = 0; i < 32; i++) {
        const double v = 0.1 + 0.02 * (i < 12 ? i : i - 12);
        pts[i] = (slide_point){i < 12 ? i : i + 5, v, i < 12 ? 0.2 : 0.18 + 0.1 * v};
    }
    double mu_ref, slope;
    ENSURE(slide_line(pts, lim.min_run - 1, &lim, 0.3, &mu_ref, &slope) == -1);
    ENSURE(slide_line(pts, lim.min_run, &lim, 0.3, &mu_ref, &slope) == 0); /* the level run */
    ENSURE_NEAR(slope, 0.0, 1e-12);
    ENSURE_NEAR(mu_ref, 0.2, 1e-12);
    ENSURE(slide_line(pts, 32, &lim, 0.3, &mu_ref, &slope) == 0);
    ENSURE_NEAR(slope, 0.1, 1e-12);
    ENSURE_NEAR(mu_ref, 0.21, 1e-12);
    lim.min_speed_span_mps = 0.39; /* the rising run spans 0.38 m/s */
    ENSURE(slide_line(pts, 32, &lim, 0.3, &mu_ref, &slope) == -1);
}

/* The cube-toss world's box, plane and gravity. 0, or -1 (a failed check). */
static int world_box(cli_phase_box *box, double g[3])
{
    char path[1024], msg[512];
    snprintf(path, sizeof path, "%s/cube_toss.world", worlds_dir);
    ipx_scene *scene = ipx_scene_load(path, NULL, NULL);
    ENSURE(scene != NULL);
    if (!scene) return -1;
    const int rc = cli_phase_box_of_scene(scene, box, msg, sizeof msg);
    ENSURE(rc == 0);
    ipx_scene_replay_gravity(scene, g);
    ipx_scene_free(scene);
    return rc;
}

/* The cube-toss world's box and plane: a slide at its own rest height counts. */
static void test_the_cube_toss_world_box(void)
{
    cli_phase_box box;
    double g[3];
    if (world_box(&box, g) != 0) return;
    const slide_limits lim = slide_default_limits();
    cli_recording rec = make_slide(&FLAT);
    for (int k = 0; k < rec.n && rec.samples; k++) rec.samples[k].x_m[2] = box.half_m[2];
    slide_point pts[100];
    const int k = rec.samples ? slide_points(&rec, &box, g, &lim, pts) : -2;
    ENSURE(k == expected_count(&FLAT, rec.n, &lim));
    double worst = 0.0;
    for (int i = 0; i < k; i++) worst = fmax(worst, fabs(pts[i].mu_eff - FLAT.mu0 * G / -g[2]));
    ENSURE_NEAR(worst, 0.0, 1e-9);
    free(rec.samples);
}

/* bench/slide_friction on three slides of mu 0.18 + 0.1 v written as recordings: their law in
   its summary; exit 2 on bad usage, 1 on a missing recording. */
static void test_the_program(void)
{
    if (!program) return; /* the benches are not built */
    cli_phase_box box;
    double g[3];
    if (world_box(&box, g) != 0) return;
    char dir[1200], path[1300];
    snprintf(dir, sizeof dir, "%s/slides", scratch);
    mkdir(dir, 0777);
    for (int i = 0; i < 3; i++) {
        const slide s = {
            .mu0 = 0.18, .c_s_per_m = 0.1, .v0_mps = 0.6 + 0.2 * i, .q_base = {1, 0, 0, 0}};
        cli_recording rec = make_slide(&s);
        snprintf(path, sizeof path, "%s/slide_%d.csv", dir, i);
        FILE *f = fopen(path, "w");
        ENSURE(f != NULL && rec.samples != NULL);
        if (f && rec.samples) {
            fprintf(f, "t,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz\n");
            for (int k = 0; k < rec.n; k++) {
                rec.samples[k].x_m[2] = box.half_m[2];
                toss_write_row(f, &rec.samples[k]);
            }
        }
        if (f) fclose(f);
        free(rec.samples);
    }
    cli_result r = cli_exec(program, scratch, "%s/cube_toss.world --data %s", worlds_dir, dir);
    ENSURE(r.exit_status == 0);
    ENSURE(strstr(r.out, "3 recordings"));
    ENSURE(strstr(r.out, "slides with a line: 3\n"));
    ENSURE(strstr(r.out, "d mu_eff / d speed (s/m): median 0.100"));
    ENSURE(strstr(r.out, "mu_eff at 0.3 m/s: median 0.210"));
    cli_result_free(&r);
    r = cli_exec(program, scratch, "");
    ENSURE(r.exit_status == 2);
    cli_result_free(&r);
    r = cli_exec(program, scratch, "%s/cube_toss.world --data %s/none.csv", worlds_dir, dir);
    ENSURE(r.exit_status == 1 && strstr(r.err, "none.csv"));
    cli_result_free(&r);
}

int main(int argc, char **argv)
{
    worlds_dir = argc > 1 ? argv[1] : "worlds";
    scratch = argc > 2 ? argv[2] : ".";
    program = argc > 3 && strcmp(argv[3], "-") != 0 ? argv[3] : NULL;
    RUN(test_constant_friction_is_read_exactly);
    RUN(test_speed_dependent_friction_gives_its_law_and_slope);
    RUN(test_only_flat_slow_spinning_boxes_on_the_plane_count);
    RUN(test_bad_windows_and_short_runs_are_refused);
    RUN(test_the_cube_toss_world_box);
    RUN(test_the_program);
    return ipx_test_exit();
}
