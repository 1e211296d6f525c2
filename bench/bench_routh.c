/* Cost of the Routh model on the paper's planar examples (docs/models/routh.md §8.1-8.3): LCPs per sample,
   microseconds per sample and per impulse step (LCP solve plus its bookkeeping), median over
   repeats, next to the paper's figures (MATLAB + PATH, 2.4 GHz i5). Usage:
   bench_routh [samples per repeat] [repeats]. */
#include <stdio.h>
#include <stdlib.h>

#include "routh_planar.h"
#include "timing.h"

typedef struct example {
    const char *name;
    void (*build)(planar *s);
    const char *params;
    double paper_lcps;      /* LCPs per sample */
    double paper_us_sample; /* us per sample */
    double paper_us_lcp;    /* us per LCP */
} example;

static void rocking_block(planar *s) { planar_rocking_block(s, sqrt(2.0 * 9.81 * 0.01), 0.0); }

static const example examples[] = {
    {"rocking block (8.1)", rocking_block, "step=0.3,max_steps=10,friction_directions=2", 2.67,
     2100, 800},
    {"compass gait (8.2)", planar_compass_gait, "step=0.25,max_steps=5,friction_directions=2", 2.27,
     1900, 850},
    {"box-wall (8.3)", planar_box_wall, "step=2,max_steps=5,friction_directions=2", 1.97, 1600,
     810},
};

#define MAX_REPEATS 101

static void run(const example *ex, int samples, int repeats)
{
    static planar sys;
    ex->build(&sys);
    ipx_params par = ipx_test_params("routh", ex->params);
    ipx_workspace *ws = ipx_workspace_create(&par, sys.k);
    double us_sample[MAX_REPEATS], us_lcp[MAX_REPEATS], lcps[MAX_REPEATS];
    int kept = 0;
    for (int r = 0; r < repeats; r++) {
        ipx_rng rng;
        ipx_rng_seed(&rng, (uint64_t)r);
        ipx_routh_summary sum;
        double t0 = ipx_now_us();
        ipx_status st = ipx_routh_set(&sys.problem, par.value, &rng, samples, ws, NULL, &sum);
        double t = ipx_now_us() - t0;
        if (st != IPX_OK) printf("%s: %s\n", ex->name, sum.message);
        us_sample[r] = t / samples;
        us_lcp[r] = t / (double)sum.lcp_solves;
        lcps[r] = (double)sum.lcp_solves / samples;
        kept += sum.kept;
    }
    ipx_workspace_destroy(ws);
    printf("%-20s %4d %8.3f %8.2f %10.2f %9.2f %9.0f %8.0f %6.1f%%\n", ex->name, sys.k,
           ipx_median(lcps, repeats), ex->paper_lcps, ipx_median(us_sample, repeats),
           ipx_median(us_lcp, repeats), ex->paper_us_sample, ex->paper_us_lcp,
           100.0 * kept / ((double)samples * repeats));
}

/* One ipx_solve per sample through the registry with the default parameters (automatic step:
   one reference Anitescu-Potra LCP per call, then the impulse steps), as the shim calls it. */
static void run_registry(const example *ex, int samples, int repeats)
{
    static planar sys;
    ex->build(&sys);
    ipx_params par = ipx_test_params("routh", "friction_directions=2");
    ipx_workspace *ws = ipx_workspace_create(&par, sys.k);
    double us_call[MAX_REPEATS], lcps[MAX_REPEATS];
    for (int r = 0; r < repeats; r++) {
        long long solves = 0;
        double t0 = ipx_now_us();
        for (int j = 0; j < samples; j++) {
            ipx_result res;
            par.value[IPX_ROUTH_SEED] = (double)j;
            if (ipx_solve(&par, &sys.problem, ws, &res) != IPX_OK) printf("%s\n", res.message);
            solves += res.counts.lcp_solves;
        }
        us_call[r] = (ipx_now_us() - t0) / samples;
        lcps[r] = (double)solves / samples;
    }
    ipx_workspace_destroy(ws);
    printf("%-20s %8.3f %10.2f\n", ex->name, ipx_median(lcps, repeats),
           ipx_median(us_call, repeats));
}

int main(int argc, char **argv)
{
    int samples = argc > 1 ? atoi(argv[1]) : 20000;
    int repeats = argc > 2 ? atoi(argv[2]) : 9;
    if (samples < 1 || repeats < 1 || repeats > MAX_REPEATS) {
        fprintf(stderr, "usage: %s [samples >= 1] [repeats 1..%d]\n", argv[0], MAX_REPEATS);
        return 2;
    }
    printf("Routh model, %d samples x %d repeats (medians); LCP size (k+3)m with k = 2 "
           "directions\n",
           samples, repeats);
    printf("%-20s %4s %8s %8s %10s %9s %9s %8s %7s\n", "example", "m", "LCP/smp", "paper",
           "us/sample", "us/LCP", "paper", "paper", "kept");
    printf("%-20s %4s %8s %8s %10s %9s %9s %8s %7s\n", "", "", "", "", "", "", "us/smp", "us/LCP",
           "");
    for (size_t i = 0; i < sizeof examples / sizeof examples[0]; i++)
        run(&examples[i], samples, repeats);
    printf("\nregistry ipx_solve, default parameters (automatic step), one sample per call\n");
    printf("%-20s %8s %10s\n", "example", "LCP/call", "us/call");
    for (size_t i = 0; i < sizeof examples / sizeof examples[0]; i++)
        run_registry(&examples[i], samples, repeats);
    return 0;
}
