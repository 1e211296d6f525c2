/* bench_plus: microseconds per impact of the "plus" model, median over repeats of the mean time
   of a batch, for 1 contact (Example 1's brick vertex; and random single contacts), 4 contacts
   (Example 2's four-corner brick), 16 and 64 random contacts, and stacks and chains of 8 and 32
   spheres (issue [scale]: rounds, intervals and solves per impact). Two timings: ipx_solve as a
   host calls it (problem validation included) and the model alone (ipx_model_plus.solve).
   Then the min-norm solve itself, LAPACK's dgelsy (ipx_lsq_min_norm) against PLUS's small
   solver (ipx_plus_lsq), on square systems of full and half rank: the evidence for solving
   every size with ipx_plus_lsq (core/src/numerics/min_norm.c; `bench_plus lsq` prints this table alone).
   bench_plus_scale has the large-k figures.
   Targets (issue "The PLUS impact model"): <= 4 us for one contact and <= 25 us for the
   four-corner brick (Simbody's PLUS: about 19 us and 127 us).
   Usage: bench_plus [key=value,...]   (model parameters, default: the model's defaults)
          bench_plus quick               (the 1- and 4-contact rows alone)
          bench_plus lsq                 (the min-norm table alone) */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "impax/linalg.h"
#include "impax/plus.h"
#include "impax/rng.h"
#include "low_rank.h"
#include "problem_gen.h"
#include "stack_scenes.h"
#include "timing.h"

#define REPEATS 21
#define N_RANDOM 32 /* distinct random problems per size, solved in turn */

static ipx_scene scenes[N_RANDOM];

/* Example 1 (docs/models/plus.md §6.1): the brick vertex, mu 0.325, e_min 0.373, Table A1 COR settings. */
static void brick_vertex(ipx_scene *s)
{
    const double pi = 3.14159265358979323846;
    const double cx = cos(pi / 4), sx = sin(pi / 4), cy = cos(pi / 6), sy = sin(pi / 6);
    const double R[9] = {cy, sx * sy, -cx * sy, 0, cx, sx, sy, -sx * cy, cx * cy};
    const double inertia[3] = {2.0 / 12 * 1.0, 2.0 / 12 * 0.8, 2.0 / 12 * 0.52}, com[3] = {0, 0, 0};
    const double vertex[3] = {0.2, -0.3, -0.4}, vel[6] = {-5.0, 0.0, -5.74, 0, 0, 0};
    memset(s, 0, sizeof *s);
    s->n_bodies = 1;
    s->bodies[0] = ipx_body_make(2.0, inertia, R, com);
    ipx_contact_frame *f = &s->frames[0];
    *f = (ipx_contact_frame){
        .body1 = -1, .body2 = 0, .t1 = {1, 0, 0}, .t2 = {0, 1, 0}, .n = {0, 0, 1}};
    for (int a = 0; a < 3; a++)
        f->point[a] = R[a] * vertex[0] + R[a + 3] * vertex[1] + R[a + 6] * vertex[2];
    f->point[2] -= 0.1;
    memcpy(s->body_vel, vel, sizeof vel);
    s->contact[0] = (ipx_contact){.mu = 0.325, .e = 0.373, .v_capture = 0.01, .v_plastic = 0.1};
    ipx_scene_finish(s, 1);
}

/* Example 2 (docs/models/plus.md §6.2): the four-corner brick, (-2, 0, -8.84) m/s, mu 0.2, e_min 0.414. */
static void four_corners(ipx_scene *s)
{
    const double inertia[3] = {2.0 / 12 * 1.0, 2.0 / 12 * 0.8, 2.0 / 12 * 0.52}, com[3] = {0, 0, 0};
    const double R[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, vel[6] = {-2.0, 0.0, -8.84, 0, 0, 0};
    memset(s, 0, sizeof *s);
    s->n_bodies = 1;
    s->bodies[0] = ipx_body_make(2.0, inertia, R, com);
    for (int i = 0; i < 4; i++) {
        s->frames[i] = (ipx_contact_frame){.body1 = -1,
                                           .body2 = 0,
                                           .t1 = {1, 0, 0},
                                           .t2 = {0, 1, 0},
                                           .n = {0, 0, 1},
                                           .point = {i < 2 ? -0.2 : 0.2, i % 2 ? 0.3 : -0.3, -0.5}};
        s->contact[i] = (ipx_contact){.mu = 0.2, .e = 0.414, .v_capture = 0.01, .v_plastic = 0.1};
    }
    memcpy(s->body_vel, vel, sizeof vel);
    ipx_scene_finish(s, 4);
}

typedef struct timing {
    double us_solve, us_model;     /* median us per impact */
    double rounds, intervals, lsq; /* mean counts per impact */
    int failed;
} timing;

/* Median over REPEATS of the mean us per solve over n problems (batch times each). */
static timing time_set(const ipx_params *par, const ipx_scene *set, int n, int batch)
{
    timing t = {0};
    const int k = set[0].problem.k;
    double solve[REPEATS], model[REPEATS];
    ipx_workspace *ws = ipx_workspace_create(par, k);
    size_t slice = ipx_model_plus.workspace_bytes(k, par->value);
    ipx_result r;
    for (int rep = 0; rep < REPEATS; rep++) {
        double t0 = ipx_now_us();
        for (int b = 0; b < batch; b++)
            for (int i = 0; i < n; i++)
                t.failed += ipx_solve(par, &set[i].problem, ws, &r) != IPX_OK;
        solve[rep] = (ipx_now_us() - t0) / (batch * n);
        /* the model alone: a workspace with one fresh slice per solve (no validation, no reset) */
        ipx_workspace *many = ipx_workspace_create_bytes(slice * (size_t)(batch * n));
        t0 = ipx_now_us();
        for (int b = 0; b < batch; b++)
            for (int i = 0; i < n; i++) ipx_model_plus.solve(&set[i].problem, par->value, many, &r);
        model[rep] = (ipx_now_us() - t0) / (batch * n);
        ipx_workspace_destroy(many);
    }
    for (int i = 0; i < n; i++) {
        ipx_solve(par, &set[i].problem, ws, &r);
        t.rounds += r.counts.rounds / (double)n;
        t.intervals += r.counts.intervals / (double)n;
        t.lsq += r.counts.lsq_solves / (double)n;
    }
    ipx_workspace_destroy(ws);
    t.us_solve = ipx_median(solve, REPEATS);
    t.us_model = ipx_median(model, REPEATS);
    return t;
}

static void print_row(const char *what, int k, timing t, const char *target)
{
    printf("%-28s %3d %10.2f %10.2f %8.1f %9.1f %8.1f  %s%s\n", what, k, t.us_solve, t.us_model,
           t.rounds, t.intervals, t.lsq, target, t.failed ? "  (some solves failed)" : "");
}

static void random_set(int k, uint64_t seed)
{
    ipx_gen_options opt = ipx_gen_default_options();
    ipx_rng rng;
    ipx_rng_seed(&rng, seed);
    for (int i = 0; i < N_RANDOM; i++) ipx_gen_random(&scenes[i], k, &opt, &rng);
}

/* Median us per solve of an n x n system of rank r (random factors), by either solver. */
static double time_lsq(int n, int r, int small)
{
    enum { N = 384 };
    static double A[N * N], L[N * N], R[N * N], F[N * N], b[N], x[N];
    static double work[N * N + 64 * 4 * N];
    static int iwork[N];
    ipx_rng rng;
    ipx_rng_seed(&rng, (uint64_t)(n * 1000 + r));
    ipx_gen_low_rank(&rng, n, n, r, A, L, R);
    for (int i = 0; i < n; i++) b[i] = ipx_rng_normal(&rng);
    int batch = n <= 12 ? 2000 : n <= 48 ? 200 : 10;
    double samples[REPEATS];
    for (int rep = 0; rep < REPEATS; rep++) {
        double t0 = ipx_now_us();
        for (int it = 0; it < batch; it++) {
            memcpy(F, A, sizeof(double) * (size_t)(n * n));
            memcpy(x, b, sizeof(double) * (size_t)n);
            if (small) ipx_plus_lsq(n, n, F, x, 1e-11, work, iwork, NULL);
            else ipx_lsq_min_norm(n, n, F, x, 1e-11, work, iwork, NULL);
        }
        samples[rep] = (ipx_now_us() - t0) / batch;
    }
    return ipx_median(samples, REPEATS);
}

static void bench_lsq(void)
{
    static const int sizes[] = {3, 6, 12, 24, 48, 96, 128, 192, 384};
    printf("\nmin-norm solve of an n x n system, median us (copy of A included); PLUS uses "
           "ipx_plus_lsq\n");
    printf("%6s %12s %12s %14s %14s\n", "n", "dgelsy", "ipx_plus_lsq", "dgelsy r=n/2",
           "plus_lsq r=n/2");
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        int n = sizes[i], half = n / 2 > 0 ? n / 2 : 1;
        printf("%6d %12.2f %12.2f %14.2f %14.2f%s\n", n, time_lsq(n, n, 0), time_lsq(n, n, 1),
               time_lsq(n, half, 0), time_lsq(n, half, 1), "");
    }
}

/* Vertical stacks of n spheres dropped on the ground (e = 0.5, mu 0.5, slip and spin) and free
   chains struck at one end (e = 0.5), equal masses: the rounds of issue [scale]. */
static void bench_stacks(const ipx_params *par)
{
    for (int n = 8; n <= 32; n *= 4) {
        ipx_stack_options o = ipx_stack_default_options();
        o.struck = 0;
        ipx_scene_sphere_stack(&scenes[0], n, &o, NULL);
        print_row("sphere stack, dropped", n, time_set(par, scenes, 1, n <= 8 ? 50 : 2), "");
        o.struck = 1, o.ground = 0;
        ipx_scene_sphere_stack(&scenes[0], n + 1, &o, NULL);
        print_row("sphere chain, struck", n, time_set(par, scenes, 1, n <= 8 ? 50 : 2), "");
    }
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "lsq") == 0) { /* the min-norm table alone */
        bench_lsq();
        return 0;
    }
    /* `bench_plus quick`: the 1- and 4-contact rows alone (A/B runs of small changes) */
    const int quick = argc > 1 && strcmp(argv[1], "quick") == 0;
    ipx_params par;
    char msg[IPX_MESSAGE_SIZE];
    if (ipx_params_init(&par, "plus", msg, sizeof msg) != IPX_OK ||
        ipx_params_parse(&par, argc > 1 && !quick ? argv[1] : NULL, msg, sizeof msg) != IPX_OK) {
        fprintf(stderr, "bench_plus: %s\n", msg);
        return 2;
    }
    char text[1024];
    ipx_params_format(&par, text, sizeof text);
    printf("plus: %s\n", text);
    printf("median us per impact over %d repeats; counts are means per impact\n", REPEATS);
    printf("%-28s %3s %10s %10s %8s %9s %8s  %s\n", "case", "k", "ipx_solve", "model", "rounds",
           "intervals", "lsq", "target (Simbody PLUS)");
    brick_vertex(&scenes[0]);
    print_row("Example 1 brick vertex", 1, time_set(&par, scenes, 1, 2000), "<= 4 us (19 us)");
    four_corners(&scenes[0]);
    print_row("Example 2 four corners", 4, time_set(&par, scenes, 1, 500), "<= 25 us (127 us)");
    random_set(1, 11);
    print_row("random", 1, time_set(&par, scenes, N_RANDOM, 50), "");
    random_set(4, 44);
    print_row("random", 4, time_set(&par, scenes, N_RANDOM, 10), "");
    if (quick) return 0;
    random_set(16, 1616);
    print_row("random", 16, time_set(&par, scenes, N_RANDOM, 1), "");
    random_set(64, 6464);
    print_row("random", 64, time_set(&par, scenes, 8, 1), "");
    bench_stacks(&par);
    bench_lsq();
    return 0;
}
