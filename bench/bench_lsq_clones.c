/* PLUS's dense min-norm solve (ipx_plus_lsq, core/src/numerics/dense_lsq.c) in the build the
   loader picked for this processor against the build for x86-64's baseline
   (tests/support/dense_lsq_baseline.c), which give the same bits (test_dense_lsq_clones).
   Median us per solve of an n x n system (copy of A included), full rank and rank 3n/4, both
   builds timed in turns in the same run, in processor time (clock: a loaded machine's
   preemptions do not count); the ratio is picked / baseline.
   Command: OPENBLAS_NUM_THREADS=1 build/bench/bench_lsq_clones [REPEATS] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dense_lsq_baseline.h"
#include "impax/impax.h"
#include "impax/plus.h"
#include "low_rank.h"
#include "timing.h"

enum { N = 192, MAX_REPEATS = 101 };

static double A[N * N], F[N * N], b[N], x[N], work[3 * N + LSQ_COD_SCRATCH(N)];
static int iwork[N];

/* A = L R of rank r (random factors), b random. */
static void make_system(int n, int r)
{
    static double L[N * N], R[N * N];
    ipx_rng rng;
    ipx_rng_seed(&rng, (uint64_t)(n * 1000 + r));
    ipx_gen_low_rank(&rng, n, n, r, A, L, R);
    for (int i = 0; i < n; i++) b[i] = ipx_rng_normal(&rng);
}

/* us per solve, one batch, by the picked build (baseline = 0) or the baseline one. */
static double one_batch(int n, int batch, int baseline)
{
    const clock_t t0 = clock();
    for (int it = 0; it < batch; it++) {
        memcpy(F, A, sizeof(double) * (size_t)(n * n));
        memcpy(x, b, sizeof(double) * (size_t)n);
        if (baseline) baseline_plus_lsq(n, n, F, x, 1e-11, work, iwork, NULL);
        else ipx_plus_lsq(n, n, F, x, 1e-11, work, iwork, NULL);
    }
    return 1e6 * (double)(clock() - t0) / CLOCKS_PER_SEC / batch;
}

int main(int argc, char **argv)
{
    static const int sizes[] = {3, 12, 24, 48, 96, 127, 128, 192};
    int repeats = argc > 1 ? atoi(argv[1]) : 21;
    if (repeats < 1 || repeats > MAX_REPEATS) {
        fprintf(stderr, "bench_lsq_clones: REPEATS must be 1 to %d, not '%s'\n", MAX_REPEATS,
                argv[1]);
        return 2;
    }
    printf("ipx_plus_lsq, median us per n x n solve over %d repeats: the build picked for this "
           "processor against x86-64's baseline\n",
           repeats);
    printf("%5s %5s %12s %12s %8s\n", "n", "rank", "picked", "baseline", "ratio");
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        for (int full = 1; full >= 0; full--) {
            const int n = sizes[i], r = full ? n : (3 * n + 3) / 4;
            const int batch = n <= 12 ? 20000 : n <= 48 ? 2000 : 100; /* >= 10 ms a batch */
            double picked[MAX_REPEATS], base[MAX_REPEATS];
            make_system(n, r);
            for (int rep = 0; rep < repeats; rep++) { /* in turns: the same load for both */
                picked[rep] = one_batch(n, batch, 0);
                base[rep] = one_batch(n, batch, 1);
            }
            const double tp = ipx_median(picked, repeats), tb = ipx_median(base, repeats);
            printf("%5d %5d %12.2f %12.2f %8.2f\n", n, r, tp, tb, tp / tb);
        }
    return 0;
}
