/* bench_lcp: ipx_lemke against Siconos Numerics' lcp_lexicolemke on the same impact-style LCPs
   (the Anitescu-Potra form of tests/support/lcp_gen.h: G from random bodies, polygonal friction
   with 2 or 4 directions, q from random body velocities), n = 4 .. 128.

   Each timing sample is the mean time per solve over a batch (many solves of N_PROBLEMS
   problems); the table shows the median of REPEATS samples. Only the solver calls are timed:
   our work arrays and Siconos' problem and options structures are built beforehand (Siconos
   still allocates its own tableau inside every call, which is part of its cost). The clock is
   CLOCK_MONOTONIC (ipx_now_us in tests/support/timing.c). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <LCP_Solvers.h>
#include <LinearComplementarityProblem.h>
#include <NumericsMatrix.h>
#include <SolverOptions.h>
#include <lcp_cst.h>

#include "impax/impax.h"
#include "lcp_gen.h"
#include "timing.h"

#define N_MAX 128
#define N_PROBLEMS 8
#define REPEATS 21
#define SAMPLE_US 20000.0 /* aim for about this much time per sample */

static double M[N_PROBLEMS][N_MAX * N_MAX], q[N_PROBLEMS][N_MAX], z[N_MAX], w[N_MAX];

typedef struct bench_ctx {
    int n;
    double *dwork;
    int *iwork;
    LinearComplementarityProblem problem[N_PROBLEMS];
    SolverOptions *options;
} bench_ctx;

/* One batch: every problem solved `batch` times by solver 0 (ours) or 1 (Siconos). */
static void run_batch(bench_ctx *c, int which, int batch)
{
    const int max_pivots = ipx_lemke_default_max_pivots(c->n);
    for (int b = 0; b < batch; b++)
        for (int p = 0; p < N_PROBLEMS; p++) {
            if (which == 0) {
                ipx_lemke(c->n, M[p], q[p], z, w, max_pivots, c->dwork, c->iwork, NULL);
            } else {
                int info = 0;
                lcp_lexicolemke(&c->problem[p], z, w, &info, c->options);
            }
        }
}

/* Median over REPEATS of the mean microseconds per solve. */
static double time_solver(bench_ctx *c, int which)
{
    /* calibrate the batch so that one sample takes about SAMPLE_US */
    double t0 = ipx_now_us();
    run_batch(c, which, 1);
    double one = fmax(ipx_now_us() - t0, 0.1);
    int batch = (int)fmax(1.0, SAMPLE_US / one);
    double samples[REPEATS];
    for (int rep = 0; rep < REPEATS; rep++) {
        t0 = ipx_now_us();
        run_batch(c, which, batch);
        samples[rep] = (ipx_now_us() - t0) / (double)(batch * N_PROBLEMS);
    }
    return ipx_median(samples, REPEATS);
}

/* 1 if (zz, M zz + q) solves LCP p to a relative 1e-9 (scales from zref; see test_lcp.c). */
static int valid(int n, int p, const double *zz, const double *zref)
{
    double S = 1e-300, zmax = 1e-300, wr[N_MAX];
    for (int i = 0; i < n; i++) {
        double terms = fabs(q[p][i]);
        wr[i] = q[p][i];
        for (int j = 0; j < n; j++) {
            wr[i] += M[p][i + n * j] * zz[j];
            terms += fabs(M[p][i + n * j] * zref[j]);
        }
        S = fmax(S, terms);
        zmax = fmax(zmax, fabs(zref[i]));
    }
    for (int i = 0; i < n; i++)
        if (!(zz[i] >= -1e-9 * zmax && wr[i] >= -1e-9 * S &&
              fabs(zz[i] * wr[i]) <= 1e-9 * zmax * S))
            return 0;
    return 1;
}

int main(void)
{
    static const int sizes[] = {4, 8, 16, 32, 64, 128};
    bench_ctx c;
    c.dwork = malloc(sizeof(double) * ipx_lemke_work_doubles(N_MAX));
    c.iwork = malloc(sizeof(int) * ipx_lemke_work_ints(N_MAX));
    if (!c.dwork || !c.iwork) return 1;
    ipx_rng rng;
    ipx_rng_seed(&rng, 77);
    printf("Lexicographic Lemke on impact-style LCPs (Anitescu-Potra form, %d problems per size)\n"
           "median over %d samples of the mean time per solve; ratio = Siconos / impax;\n"
           "ok = the answer satisfies the LCP to 1e-9 relative (Siconos judged on our scales)\n\n",
           N_PROBLEMS, REPEATS);
    printf("%5s %12s %12s %7s %15s %11s %11s\n", "n", "impax [us]", "Siconos [us]", "ratio",
           "pivots (ours/S)", "impax ok", "Siconos ok");
    int status = 0;
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        const int n = sizes[s];
        c.n = n;
        c.options = solver_options_create(SICONOS_LCP_LEMKE);
        c.options->iparam[SICONOS_IPARAM_MAX_ITER] = ipx_lemke_default_max_pivots(n);
        int ours_ok = 0, theirs_ok = 0;
        long pivots = 0, siconos_pivots = 0;
        for (int p = 0; p < N_PROBLEMS; p++) {
            ipx_lcp_generate(IPX_LCP_IMPACT, n, &rng, M[p], q[p], NULL);
            c.problem[p].size = n;
            c.problem[p].M = NM_create_from_data(NM_DENSE, n, n, M[p]); /* no copy */
            c.problem[p].q = q[p];
            int piv = 0;
            double zo[N_MAX];
            ipx_status st = ipx_lemke(n, M[p], q[p], z, w, ipx_lemke_default_max_pivots(n), c.dwork,
                                      c.iwork, &piv);
            pivots += piv;
            ours_ok += st == IPX_OK && valid(n, p, z, z);
            memcpy(zo, z, sizeof(double) * n);
            int info = 0;
            lcp_lexicolemke(&c.problem[p], z, w, &info, c.options);
            theirs_ok += info == 0 && valid(n, p, z, zo);
            siconos_pivots += c.options->iparam[SICONOS_IPARAM_ITER_DONE];
        }
        const double ours = time_solver(&c, 0), theirs = time_solver(&c, 1);
        printf("%5d %12.2f %12.2f %7.2f %7.1f/%-7.1f %8d/%d %8d/%d\n", n, ours, theirs,
               theirs / ours, (double)pivots / N_PROBLEMS, (double)siconos_pivots / N_PROBLEMS,
               ours_ok, N_PROBLEMS, theirs_ok, N_PROBLEMS);
        fflush(stdout);
        if (ours_ok != N_PROBLEMS) status = 1;
        for (int p = 0; p < N_PROBLEMS; p++) NM_free_not_dense(c.problem[p].M);
        solver_options_delete(c.options);
    }
    free(c.dwork);
    free(c.iwork);
    return status;
}
