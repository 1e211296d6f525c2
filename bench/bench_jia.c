/* bench_jia: microseconds per impact of the "jia" model (ipx_solve, validation included) on the
   paper's ball V1 and on random single contacts, for its integrators and step settings.
   Median over repeats of the mean time of a batch; steps = mean integration steps per impact.
   Usage: bench_jia */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "impax/jia.h"
#include "problem_gen.h"
#include "timing.h"

#define N_RANDOM 64 /* distinct random problems, solved in turn */
#define REPEATS 15

static ipx_scene scenes[N_RANDOM];
static ipx_scene ball; /* V1: V0 = (-1, 0, -5) m/s, w0 = (0, 2, 0) rad/s, mu 0.4, e 0.5 */

static void make_ball(void)
{
    const double inertia[3] = {0.4, 0.4, 0.4}, R[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1},
                 com[3] = {0, 0, 1};
    const double vel[6] = {-1, 0, -5, 0, 2, 0};
    ball.n_bodies = 1;
    ball.bodies[0] = ipx_body_make(1.0, inertia, R, com);
    ball.frames[0] = (ipx_contact_frame){
        .body1 = -1, .body2 = 0, .t1 = {1, 0, 0}, .t2 = {0, 1, 0}, .n = {0, 0, 1}};
    memcpy(ball.body_vel, vel, sizeof vel);
    ball.contact[0] = (ipx_contact){0.4, 0.5, 0.0, 0.0};
    ipx_scene_finish(&ball, 1);
}

/* Median over REPEATS of the mean us per solve over the n problems (batch times each);
   *steps = mean integration steps per solve; *failed counts failed solves. */
static double time_case(const ipx_params *par, const ipx_scene *set, int n, int batch,
                        double *steps, int *failed)
{
    ipx_workspace *ws = ipx_workspace_create(par, 1);
    ipx_result r;
    double samples[REPEATS];
    long total_steps = 0;
    *failed = 0;
    for (int rep = 0; rep < REPEATS; rep++) {
        double t0 = ipx_now_us();
        for (int b = 0; b < batch; b++)
            for (int i = 0; i < n; i++) {
                *failed += ipx_solve(par, &set[i].problem, ws, &r) != IPX_OK;
                total_steps += r.counts.steps;
            }
        samples[rep] = (ipx_now_us() - t0) / (batch * n);
    }
    ipx_workspace_destroy(ws);
    *steps = (double)total_steps / (REPEATS * batch * n);
    return ipx_median(samples, REPEATS);
}

typedef struct bench_case {
    const char *problems; /* "V1" or "random" */
    const char *params;
    int batch;
} bench_case;

int main(void)
{
    static const bench_case cases[] = {
        {"V1", "", 200},
        {"V1", "compat=1", 200},
        {"V1", "steps=16", 200},
        {"V1", "steps=64", 200},
        {"V1", "compat=1,delta=5e-5", 1},
        {"random", "", 10},
        {"random", "compat=1", 10},
        {"random", "steps=16", 10},
        {"random", "steps=64", 10},
    };
    ipx_rng rng;
    ipx_rng_seed(&rng, 2024);
    ipx_gen_options opt = ipx_gen_default_options();
    for (int i = 0; i < N_RANDOM; i++) ipx_gen_random(&scenes[i], 1, &opt, &rng);
    make_ball();
    printf("%-8s %-22s %12s %10s %7s\n", "problem", "parameters", "us/impact", "steps", "failed");
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        ipx_params par;
        char msg[IPX_MESSAGE_SIZE];
        if (ipx_params_init(&par, "jia", msg, sizeof msg) != IPX_OK ||
            ipx_params_parse(&par, cases[c].params, msg, sizeof msg) != IPX_OK) {
            fprintf(stderr, "bench_jia: %s\n", msg);
            return 2;
        }
        const int random = strcmp(cases[c].problems, "random") == 0;
        double steps;
        int failed;
        const ipx_scene *set = random ? scenes : &ball;
        double us = time_case(&par, set, random ? N_RANDOM : 1, cases[c].batch, &steps, &failed);
        printf("%-8s %-22s %12.2f %10.1f %7d\n", cases[c].problems,
               cases[c].params[0] ? cases[c].params : "(defaults)", us, steps, failed);
    }
    return 0;
}
