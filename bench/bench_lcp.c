/* bench_lcp: our lexicographic Lemke against Siconos Numerics' lcp_lexicolemke on the same
   problems: symmetric PSD LCPs of rank n/2 with a planted solution (the frictionless impact
   LCP's structure), n = 4 .. 128. Median over repeats of the mean µs per solve. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "impax/impax.h"
#include "siconos_lcp.h"
#include "timing.h"

#define N_MAX 128
#define N_PROBLEMS 8
#define REPEATS 11

static double M[N_PROBLEMS][N_MAX * N_MAX], q[N_PROBLEMS][N_MAX], z[N_MAX], w[N_MAX];

static void make_problem(int n, double *Mp, double *qp, ipx_rng *rng)
{
    int r = n / 2 + 1;
    double *B = malloc(sizeof(double) * (size_t)n * (size_t)r), zs[N_MAX];
    for (int i = 0; i < n * r; i++) B[i] = ipx_rng_normal(rng);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double s = 0.0;
            for (int c = 0; c < r; c++) s += B[i + n * c] * B[j + n * c];
            Mp[i + n * j] = s;
        }
    free(B);
    for (int i = 0; i < n; i++) {
        int active = ipx_rng_uniform(rng, 0, 1) < 0.5;
        zs[i] = active ? ipx_rng_uniform(rng, 0, 1) : 0.0;
        qp[i] = active ? 0.0 : ipx_rng_uniform(rng, 0, 1);
    }
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) qp[i] -= Mp[i + n * j] * zs[j];
}

/* Median µs per solve; which = 0 ours, 1 Siconos. */
static double time_solver(int n, int which, double *dwork, int *iwork)
{
    int batch = n <= 16 ? 200 : n <= 64 ? 10 : 2;
    double samples[REPEATS];
    for (int rep = 0; rep < REPEATS; rep++) {
        double t0 = ipx_now_us();
        for (int b = 0; b < batch; b++)
            for (int p = 0; p < N_PROBLEMS; p++) {
                if (which == 0)
                    ipx_lemke(n, M[p], q[p], z, w, ipx_lemke_default_max_pivots(n), dwork, iwork, NULL);
                else
                    ipx_siconos_lexicolemke(n, M[p], q[p], z, w);
            }
        samples[rep] = (ipx_now_us() - t0) / (batch * N_PROBLEMS);
    }
    return ipx_median(samples, REPEATS);
}

int main(void)
{
    static const int sizes[] = {4, 8, 16, 32, 64, 128};
    double *dwork = malloc(sizeof(double) * ipx_lemke_work_doubles(N_MAX));
    int *iwork = malloc(sizeof(int) * ipx_lemke_work_ints(N_MAX));
    ipx_rng rng;
    ipx_rng_seed(&rng, 77);
    printf("Lemke on symmetric PSD LCPs (rank n/2, planted solution); median µs per solve, %d repeats\n", REPEATS);
    printf("%6s %12s %12s %10s\n", "n", "impax", "Siconos", "Siconos/impax");
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        int n = sizes[s];
        for (int p = 0; p < N_PROBLEMS; p++) make_problem(n, M[p], q[p], &rng);
        double ours = time_solver(n, 0, dwork, iwork), theirs = time_solver(n, 1, dwork, iwork);
        printf("%6d %12.2f %12.2f %10.2f\n", n, ours, theirs, theirs / ours);
    }
    free(dwork);
    free(iwork);
    return 0;
}
