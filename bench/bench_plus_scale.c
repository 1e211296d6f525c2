/* bench_plus_scale: how PLUS's cost grows with the contact count k (issue [scale], PLUS linear
   algebra). Two kinds of problems:
     stack  a stack of k/4 boxes on the ground, 4 contacts per interface (the corners of the
            overlap of a box and the one below): W has rank <= 6 k/4 of 3k rows (every
            interface is redundant), every box with its own random velocity (the hard case);
     pile   ipx_gen_random: k contacts among k/2 + 1 random bodies (k <= 64);
     bin    a bin of boxes in layers, a few striking the settled pile (tests/support/pile_gen.h),
            any k: W block-sparse as in a real pile.
   Per k: median ms per impact (ipx_solve) over the problems, ms per min-norm solve, and the
   mean counts per impact (rounds, intervals, min-norm solves, Newton iterations); per kind the
   exponent of a least-squares fit of log(median ms) against log k over the k >= 64 measured.
   Usage: bench_plus_scale [kinds [k-list [problems]]]   e.g.  bench_plus_scale stack 8,16,32,64 3
          kinds: stack, pile, bin, both (stack and pile) or all (default both); k-list default
          8,16,32,64. BENCH_PARAMS: PLUS parameters ("key=value,..."). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "impax/impax.h"
#include "pile_gen.h"
#include "problem_gen.h"
#include "timing.h"

#define PI 3.14159265358979323846

/* A scene of any size (ipx_scene of tests/support holds 64 contacts). */
typedef struct big_scene {
    ipx_problem problem;
    int n_bodies;
    ipx_body *bodies;
    double *body_size, *body_vel, *W, *v;
    ipx_contact_frame *frames;
    ipx_contact *contact;
} big_scene;

static big_scene scene;
static ipx_scene small; /* pile: ipx_gen_random */
static ipx_pile bin;    /* bin: ipx_pile_make */

static void big_alloc(big_scene *s, int k)
{
    const size_t n = 3 * (size_t)k;
    s->bodies = calloc((size_t)k + 1, sizeof *s->bodies);
    s->body_size = calloc((size_t)k + 1, sizeof *s->body_size);
    s->body_vel = calloc(6 * ((size_t)k + 1), sizeof *s->body_vel);
    s->W = calloc(n * n, sizeof *s->W);
    s->v = calloc(n, sizeof *s->v);
    s->frames = calloc((size_t)k, sizeof *s->frames);
    s->contact = calloc((size_t)k, sizeof *s->contact);
}

static void big_free(big_scene *s)
{
    free(s->bodies), free(s->body_size), free(s->body_vel), free(s->W), free(s->v);
    free(s->frames), free(s->contact);
}

/* A box of half-extents h and mass m, yawed by `yaw` about z, centred at com. */
static ipx_body box(double m, const double h[3], double yaw, const double com[3])
{
    const double c = cos(yaw), s = sin(yaw);
    const double R[9] = {c, s, 0, -s, c, 0, 0, 0, 1};
    const double I[3] = {m / 3.0 * (h[1] * h[1] + h[2] * h[2]),
                         m / 3.0 * (h[0] * h[0] + h[2] * h[2]),
                         m / 3.0 * (h[0] * h[0] + h[1] * h[1])};
    return ipx_body_make(m, I, R, com);
}

/* k/4 boxes, each on the one below (the bottom one on the ground), touching at the 4 corners of
   the overlap of their faces (axis-aligned up to a small yaw noise that only moves the points).
   Velocities: down 0.1..5 m/s, horizontal slip 0..3 times that, spin up to speed / size. */
void stack4(big_scene *s, int k, ipx_rng *rng)
{
    const ipx_contact material = {.mu = ipx_rng_uniform(rng, 0.2, 1.0),
                                  .e = ipx_rng_uniform(rng, 0.0, 0.8),
                                  .v_capture = 0.01,
                                  .v_plastic = 0.0};
    double z = 0.0, below[2] = {1e9, 1e9};
    int n = 0;
    for (int i = 0; i < k; n++) {
        const double h[3] = {ipx_rng_uniform(rng, 0.1, 0.25), ipx_rng_uniform(rng, 0.1, 0.25),
                             ipx_rng_uniform(rng, 0.03, 0.1)};
        const double m = exp(ipx_rng_uniform(rng, log(0.5), log(5.0)));
        const double com[3] = {ipx_rng_uniform(rng, -0.02, 0.02), ipx_rng_uniform(rng, -0.02, 0.02),
                               z + h[2]};
        s->bodies[n] = box(m, h, 0.0, com);
        s->body_size[n] = fmax(h[0], fmax(h[1], h[2]));
        double *u = s->body_vel + 6 * n;
        const double down = ipx_rng_uniform(rng, 0.1, 5.0),
                     slip = down * ipx_rng_uniform(rng, 0.0, 3.0);
        const double dir = ipx_rng_uniform(rng, 0.0, 2.0 * PI), spin = down / s->body_size[n] * 0.2;
        u[0] = slip * cos(dir), u[1] = slip * sin(dir), u[2] = -down;
        for (int a = 3; a < 6; a++) u[a] = spin * ipx_rng_uniform(rng, -1.0, 1.0);
        const double ox = fmin(h[0], below[0]) * 0.95, oy = fmin(h[1], below[1]) * 0.95;
        for (int c = 0; c < 4 && i < k; c++, i++) {
            ipx_contact_frame *f = &s->frames[i];
            const double a = ipx_rng_uniform(rng, 0.0, 2.0 * PI);
            *f = (ipx_contact_frame){
                .body1 = n - 1,
                .body2 = n,
                .point = {com[0] + (c & 1 ? ox : -ox), com[1] + (c & 2 ? oy : -oy), z},
                .n = {0, 0, 1},
                .t1 = {cos(a), sin(a), 0},
                .t2 = {-sin(a), cos(a), 0}};
            s->contact[i] = material;
        }
        below[0] = h[0], below[1] = h[1];
        z += 2.0 * h[2];
    }
    s->n_bodies = n;
    ipx_bodies_assemble(n, s->bodies, k, s->frames, s->body_vel, s->W, s->v);
    s->problem = (ipx_problem){
        .k = k, .W = s->W, .v = s->v, .contact = s->contact, .flags = IPX_PROBLEM_W_ASSEMBLED};
}

static const ipx_problem *make(const char *kind, int k, ipx_rng *rng)
{
    if (strcmp(kind, "stack") == 0) {
        stack4(&scene, k, rng);
        return &scene.problem;
    }
    if (strcmp(kind, "bin") == 0) {
        ipx_pile_free(&bin);
        ipx_pile_options o = ipx_pile_default_options(IPX_PILE_BIN);
        if (ipx_pile_make(&bin, k, &o, rng) != 0) exit(2);
        return &bin.problem;
    }
    ipx_gen_options opt = ipx_gen_default_options();
    ipx_gen_random(&small, k, &opt, rng);
    return &small.problem;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Returns the median ms per impact. */
static double run(const char *kind, int k, int problems)
{
    ipx_params par;
    char msg[IPX_MESSAGE_SIZE];
    if (ipx_params_init(&par, "plus", msg, sizeof msg) != IPX_OK ||
        ipx_params_parse(&par, getenv("BENCH_PARAMS"), msg, sizeof msg) != IPX_OK) {
        fprintf(stderr, "BENCH_PARAMS: %s\n", msg);
        exit(2);
    }
    ipx_workspace *ws = ipx_workspace_create(&par, k);
    ipx_rng rng;
    ipx_rng_seed(&rng, 7000 + (uint64_t)k);
    double ms[64], rounds = 0, intervals = 0, lsq = 0, newton = 0;
    int failed = 0;
    for (int i = 0; i < problems; i++) {
        const ipx_problem *p = make(kind, k, &rng);
        if (i == 0) { /* W's sparsity: what a sparse factorisation could exploit */
            const size_t n = 3 * (size_t)k;
            size_t nz = 0;
            for (size_t e = 0; e < n * n; e++) nz += p->W[e] != 0.0;
            printf("  %s k=%d: W has %.1f %% non-zeros (%.1f per row)\n", kind, k,
                   100.0 * (double)nz / (double)(n * n), (double)nz / (double)n);
        }
        ipx_result r;
        double t0 = ipx_now_us();
        failed += ipx_solve(&par, p, ws, &r) != IPX_OK;
        ms[i] = (ipx_now_us() - t0) / 1000.0;
        rounds += r.counts.rounds, intervals += r.counts.intervals;
        lsq += r.counts.lsq_solves, newton += r.counts.newton_iters;
        printf("  %s k=%d #%d: %.2f ms, %d rounds, %d intervals, %d lsq, %d newton\n", kind, k, i,
               ms[i], r.counts.rounds, r.counts.intervals, r.counts.lsq_solves,
               r.counts.newton_iters);
        fflush(stdout);
    }
    qsort(ms, (size_t)problems, sizeof ms[0], cmp_double);
    double total = 0.0;
    for (int i = 0; i < problems; i++) total += ms[i];
    printf("%-6s k=%4d  median %10.2f ms  max %10.2f  per solve %7.3f ms  rounds %6.1f intervals "
           "%7.1f lsq %8.1f "
           "newton %7.1f%s\n",
           kind, k, ms[problems / 2], ms[problems - 1], lsq > 0 ? total / lsq : 0.0,
           rounds / problems, intervals / problems, lsq / problems, newton / problems,
           failed ? "  (failures)" : "");
    fflush(stdout);
    ipx_workspace_destroy(ws);
    return ms[problems / 2];
}

int main(int argc, char **argv)
{
    const char *kinds = argc > 1 ? argv[1] : "both";
    char ks[256] = "8,16,32,64";
    if (argc > 2) snprintf(ks, sizeof ks, "%s", argv[2]);
    int problems = argc > 3 ? atoi(argv[3]) : 5;
    if (problems < 1 || problems > 64) problems = 5;
    static const char *const names[3] = {"stack", "pile", "bin"};
    for (int pass = 0; pass < 3; pass++) {
        const char *kind = names[pass];
        const int wanted = strcmp(kinds, kind) == 0 || strcmp(kinds, "all") == 0 ||
                           (strcmp(kinds, "both") == 0 && pass < 2);
        if (!wanted) continue;
        char copy[256];
        snprintf(copy, sizeof copy, "%s", ks);
        double sx = 0, sy = 0, sxx = 0, sxy = 0;
        int fitted = 0;
        for (char *t = strtok(copy, ","); t; t = strtok(NULL, ",")) {
            int k = atoi(t);
            if (k < 1 || (pass == 1 && k > IPX_TEST_MAX_CONTACTS)) continue;
            big_alloc(&scene, k);
            double ms = run(kind, k, problems);
            big_free(&scene);
            if (k < 64 || !(ms > 0.0)) continue;
            double x = log((double)k), y = log(ms);
            sx += x, sy += y, sxx += x * x, sxy += x * y, fitted++;
        }
        if (fitted >= 2)
            printf("%-6s cost ~ k^%.2f from k = 64 on (%d sizes)\n", kind,
                   (fitted * sxy - sx * sy) / (fitted * sxx - sx * sx), fitted);
    }
    ipx_pile_free(&bin);
    return 0;
}
