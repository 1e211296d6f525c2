/* bench_models: time of one ipx_solve (validation included) per model on random problems from
   random rigid bodies, k = 1 .. 64 contacts. Median over repeats of the mean time of a batch.
   Usage: bench_models [model ...]   (default: every registered model) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "problem_gen.h"
#include "timing.h"

#define N_PROBLEMS 32 /* distinct problems per k, solved in turn */
#define REPEATS 15

static ipx_scene scenes[N_PROBLEMS];

/* Median over the repeats of the mean µs per solve of a batch; *failed counts error statuses.
   Large k takes up to 0.2 s a solve, so it gets fewer problems and repeats. */
static double time_model(const ipx_params *par, int k, int *failed)
{
    ipx_workspace *ws = ipx_workspace_create(par, k);
    ipx_result r;
    int batch = k <= 8 ? 200 : k <= 16 ? 20 : 1; /* solves of each problem per repeat */
    int problems = k <= 16 ? N_PROBLEMS : 4, repeats = k <= 16 ? REPEATS : 5;
    double samples[REPEATS];
    *failed = 0;
    for (int rep = 0; rep < repeats; rep++) {
        double t0 = ipx_now_us();
        for (int b = 0; b < batch; b++)
            for (int i = 0; i < problems; i++)
                *failed += ipx_solve(par, &scenes[i].problem, ws, &r) != IPX_OK;
        samples[rep] = (ipx_now_us() - t0) / (batch * problems);
    }
    ipx_workspace_destroy(ws);
    return ipx_median(samples, repeats);
}

static void bench_model(const char *name)
{
    ipx_params par;
    char msg[IPX_MESSAGE_SIZE];
    if (ipx_params_init(&par, name, msg, sizeof msg) != IPX_OK) {
        fprintf(stderr, "bench_models: %s\n", msg);
        exit(2);
    }
    static const int ks[] = {1, 2, 4, 8, 16, 32, 64};
    printf("%-8s", name);
    for (size_t j = 0; j < sizeof ks / sizeof ks[0]; j++) {
        ipx_gen_options opt = ipx_gen_default_options();
        ipx_rng rng;
        ipx_rng_seed(&rng, 1000 + (uint64_t)ks[j]);
        for (int i = 0; i < N_PROBLEMS; i++) ipx_gen_random(&scenes[i], ks[j], &opt, &rng);
        int failed = 0;
        double us = time_model(&par, ks[j], &failed);
        printf(" %10.2f%s", us, failed ? "*" : " ");
        fflush(stdout);
    }
    printf("\n");
}

int main(int argc, char **argv)
{
    printf("median µs per impact solve (validation included), random problems; %d repeats (5 for k "
           ">= 32)\n",
           REPEATS);
    printf("%-8s %11s %11s %11s %11s %11s %11s %11s\n", "model", "k=1", "k=2", "k=4", "k=8", "k=16",
           "k=32", "k=64");
    if (argc > 1)
        for (int i = 1; i < argc; i++) bench_model(argv[i]);
    else /* the compliant model integrates each collision: bench_ode_gonthier times it */
        for (int i = 0; i < ipx_model_count(); i++)
            if (strcmp(ipx_model_at(i)->name, "gonthier") != 0) bench_model(ipx_model_at(i)->name);
    printf("(* = some solves returned an error; the time still counts them)\n");
    return 0;
}
