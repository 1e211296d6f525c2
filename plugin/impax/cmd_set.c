#define _GNU_SOURCE /* getopt_long */
#include <getopt.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "impax/problem.h"
#include "impax/routh.h"
#include "impax/workspace.h"
#include "numfmt.h"
#include "outputs.h"
#include "plot.h"
#include "progress.h"
#include "set_sample.h"

static const char help[] =
    "usage: impax set WORLD [--samples N] [--seed S] [--params P] [--out FILE.csv] [--plot "
    "FILE.png]\n"
    "\n"
    "Simulates WORLD under the Routh model up to its first impact, then samples that impact's\n"
    "set of possible outcomes (Halm & Posa, Algorithm 2): N trajectories with random impulse-\n"
    "rate caps. Prints the range of each contact's post-impact velocity and energy change, and\n"
    "why samples were discarded (a failed step LCP, or max_steps reached). A progress bar\n"
    "follows runs longer than a second on a terminal.\n"
    "\n"
    "  --samples N    trajectories (default 1000)\n"
    "  --seed S       seed of the caps (default 0): same seed, same cloud\n"
    "  --params P     routh parameters key=value,... (default: the world's when its model is\n"
    "                 routh, else routh's defaults)\n"
    "  --out FILE     CSV, one row per kept sample: per contact vt1, vt2, vn (m/s) and pn (N s)\n"
    "                 after the impact, then delta_ke_J\n"
    "  --plot FILE    PNG of the cloud: post-impact normal velocities of the two contacts whose\n"
    "                 outcomes vary most apart (one contact: its normal against its\n"
    "                 sliding speed); none without it. Both files are checked before\n"
    "                 anything is simulated.\n"
    "\n"
    "Exit status: 0 ok, 1 world errors, no impact or a failed sampling, 2 bad usage (an output\n"
    "that cannot be written included).\n"
    "\n"
    "example:\n"
    "  impax set " CLI_WORLDS "/routh_rocking_block.world --samples 200 --plot block_set.png\n";

/* A deep copy of the first impact problem the simulation handed to its model. */
typedef struct captured {
    int k; /* 0 until captured */
    int out_of_memory;
    double *W, *v; /* (3k)^2, 3k */
    double *point; /* 3k, m, world frame: where the contacts are */
    ipx_contact *contact;
} captured;

static void capture_first(const ipx_ode_event *ev, void *user)
{
    captured *c = user;
    if (c->k || c->out_of_memory || !ev->ok || !ev->problem) return;
    const size_t rows = IPX_ROWS_PER_CONTACT * (size_t)ev->problem->k;
    c->W = malloc(rows * rows * sizeof *c->W);
    c->v = malloc(rows * sizeof *c->v);
    c->contact = malloc((size_t)ev->problem->k * sizeof *c->contact);
    c->point = malloc(3 * (size_t)ev->problem->k * sizeof *c->point);
    if (!c->W || !c->v || !c->contact || !c->point) {
        c->out_of_memory = 1;
        return;
    }
    c->k = ev->problem->k;
    ipx_problem_dense_W(ev->problem, c->W); /* a large island's W comes as blocks */
    memcpy(c->v, ev->problem->v, rows * sizeof *c->v);
    memcpy(c->contact, ev->problem->contact, (size_t)c->k * sizeof *c->contact);
    for (int i = 0; i < 3 * c->k; i++) c->point[i] = ev->point ? ev->point[i] : NAN;
}

/* Runs the world under routh until its first impact event. 0, or -1 with a message. */
static int find_first_impact(const ipx_scene *scene, const char *params, captured *out)
{
    char msg[256];
    ipx_sim *sim = ipx_sim_create(scene, "routh", params, msg, sizeof msg);
    if (!sim) {
        fprintf(stderr, "impax set: %s\n", msg);
        return -1;
    }
    ipx_ode_set_event_callback(ipx_sim_impax(sim), capture_first, out);
    double h = ipx_scene_step_size(scene);
    long n_steps = (long)ceil(ipx_scene_duration(scene) / h - 1e-9);
    int rc = 0;
    cli_progress bar;
    cli_progress_start(&bar, "routh", ipx_scene_duration(scene));
    for (long s = 0; s < n_steps && out->k == 0 && !out->out_of_memory; s++) {
        if (ipx_sim_step(sim, msg, sizeof msg) != 0) {
            cli_progress_finish(&bar);
            fprintf(stderr, "impax set: simulation failed at t = %.6f s: %s\n", ipx_sim_time(sim),
                    msg);
            rc = -1;
            break;
        }
        cli_progress_update(&bar, ipx_sim_time(sim));
    }
    if (rc == 0) cli_progress_finish(&bar);
    if (rc == 0 && out->out_of_memory) {
        fprintf(stderr, "impax set: out of memory for the first impact's problem\n");
        rc = -1;
    } else if (rc == 0 && out->k == 0) {
        fprintf(stderr, "impax set: no impact in the world's %.3f s\n", ipx_scene_duration(scene));
        rc = -1;
    } else if (rc == 0) {
        printf("first impact at t = %.6f s: %d contact(s)\n", ipx_sim_time(sim), out->k);
        char x[32], y[32], z[32];
        for (int i = 0; i < out->k; i++)
            printf("  contact %d at (%s, %s, %s) m\n", i,
                   cli_num(x, sizeof x, "%+.4f", out->point[3 * i]),
                   cli_num(y, sizeof y, "%+.4f", out->point[3 * i + 1]),
                   cli_num(z, sizeof z, "%+.4f", out->point[3 * i + 2]));
    }
    ipx_sim_destroy(sim);
    return rc;
}

/* The variances of contacts a's and b's post-impact normal velocities over the cloud, and the
   smaller eigenvalue of their 2 x 2 covariance: zero when the two move as one (the contacts of
   one edge, whose cloud is a diagonal line), positive when they vary apart. */
static double apart(const ipx_routh_cloud *cloud, int k, int a, int b, double *sum_var)
{
    const size_t rows = IPX_ROWS_PER_CONTACT * (size_t)k;
    double ma = 0, mb = 0, saa = 0, sbb = 0, sab = 0;
    for (int j = 0; j < cloud->count; j++) {
        ma += cloud->v_post[j * rows + IPX_ROWS_PER_CONTACT * a + IPX_N] / cloud->count;
        mb += cloud->v_post[j * rows + IPX_ROWS_PER_CONTACT * b + IPX_N] / cloud->count;
    }
    for (int j = 0; j < cloud->count; j++) {
        const double da = cloud->v_post[j * rows + IPX_ROWS_PER_CONTACT * a + IPX_N] - ma,
                     db = cloud->v_post[j * rows + IPX_ROWS_PER_CONTACT * b + IPX_N] - mb;
        saa += da * da, sbb += db * db, sab += da * db;
    }
    *sum_var = saa + sbb;
    const double half = 0.5 * (saa + sbb), gap = hypot(0.5 * (saa - sbb), sab);
    return half - gap;
}

/* The two contacts whose post-impact normal velocities vary most apart: the largest smaller
   eigenvalue of their covariance, so that the plot spreads the cloud in two dimensions (the
   rocking block's two segments, one per edge) rather than along a diagonal; between pairs equally
   apart (to round-off), the one that varies most. b = a if k = 1. */
static void distinct_pair(const ipx_routh_cloud *cloud, int k, int *a, int *b)
{
    *a = 0;
    *b = k > 1 ? 1 : 0;
    double best = -INFINITY, best_var = -INFINITY;
    for (int i = 0; i < k; i++)
        for (int j = i + 1; j < k; j++) {
            double var;
            const double minor = apart(cloud, k, i, j, &var);
            const double scale = 1e-9 * fmax(var, best_var);
            if (minor > best + scale || (minor >= best - scale && var > best_var)) {
                best = fmax(minor, best), best_var = var;
                *a = i, *b = j;
            }
        }
}

static int write_csv(const captured *c, const ipx_routh_cloud *cloud, const char *out_path)
{
    const int rows = IPX_ROWS_PER_CONTACT * c->k;
    FILE *f = fopen(out_path, "w");
    if (!f) {
        fprintf(stderr, "impax set: cannot write '%s'\n", out_path);
        return -1;
    }
    for (int i = 0; i < c->k; i++)
        fprintf(f, "c%d.vt1_m_s,c%d.vt2_m_s,c%d.vn_m_s,c%d.pn_N_s,", i, i, i, i);
    fprintf(f, "delta_ke_J\n");
    for (int j = 0; j < cloud->count; j++) {
        for (int i = 0; i < c->k; i++) {
            const double *v = cloud->v_post + (size_t)j * rows + IPX_ROWS_PER_CONTACT * i;
            fprintf(f, "%.17g,%.17g,%.17g,%.17g,", v[IPX_T1], v[IPX_T2], v[IPX_N],
                    cloud->impulse[(size_t)j * rows + IPX_ROWS_PER_CONTACT * i + IPX_N]);
        }
        fprintf(f, "%.17g\n", cloud->delta_ke[j]);
    }
    if (fclose(f) != 0) {
        fprintf(stderr, "impax set: error writing '%s'\n", out_path);
        return -1;
    }
    return 0;
}

static int write_plot(const captured *c, const ipx_routh_cloud *cloud, const char *plot_path)
{
    const int rows = IPX_ROWS_PER_CONTACT * c->k;
    double *x = malloc((size_t)cloud->count * sizeof *x),
           *y = malloc((size_t)cloud->count * sizeof *y);
    if (!x || !y) {
        free(x);
        free(y);
        fprintf(stderr, "impax set: out of memory for the plot\n");
        return -1;
    }
    int a, b;
    distinct_pair(cloud, c->k, &a, &b);
    for (int j = 0; j < cloud->count; j++) {
        const double *v = cloud->v_post + (size_t)j * rows;
        x[j] = v[IPX_ROWS_PER_CONTACT * a + IPX_N];
        y[j] = b != a ? v[IPX_ROWS_PER_CONTACT * b + IPX_N]
                      : hypot(v[IPX_ROWS_PER_CONTACT * a + IPX_T1],
                              v[IPX_ROWS_PER_CONTACT * a + IPX_T2]);
    }
    char xl[64], yl[64], msg[256];
    snprintf(xl, sizeof xl, "contact %d: v_n after (m/s)", a);
    if (b != a) snprintf(yl, sizeof yl, "contact %d: v_n after (m/s)", b);
    else snprintf(yl, sizeof yl, "contact %d: sliding speed after (m/s)", a);
    int rc = cli_plot_points(plot_path, "Routh outcome set of the first impact", xl, yl,
                             cloud->count, x, y, msg, sizeof msg);
    if (rc != 0) fprintf(stderr, "impax set: %s\n", msg);
    else if (b != a) printf("plot: %s (contact %d against contact %d)\n", plot_path, a, b);
    else printf("plot: %s (contact %d)\n", plot_path, a);
    free(x);
    free(y);
    return rc;
}

/* The counts, why samples were discarded, and the ranges per contact. */
static void print_summary(const captured *c, const ipx_params *params, const ipx_routh_summary *s)
{
    printf("%d samples: %d kept, %d at rest, %d unterminated, %d failed; %lld LCP solves\n",
           s->samples, s->kept, s->at_rest, s->unterminated, s->failed, s->lcp_solves);
    if (s->unterminated)
        printf("  %d sample(s) had not ended the impact after max_steps = %.0f impulse steps: "
               "discarded "
               "(a larger max_steps keeps them)\n",
               s->unterminated, params->value[ipx_param_index(params->model, "max_steps")]);
    if (s->failed)
        printf("  %d sample(s) failed, discarded; the first: %s\n", s->failed, s->message);
    char a[32], b[32], d[32], e[32], f[32];
    for (int i = 0; s->kept && i < c->k; i++)
        printf("  contact %d: v_n %s m/s before, [%s, %s] after; sliding [%s, %s] m/s\n", i,
               cli_num(a, sizeof a, "%+.4f", c->v[IPX_ROWS_PER_CONTACT * i + IPX_N]),
               cli_num(b, sizeof b, "%+.4f", s->vn_min[i]),
               cli_num(d, sizeof d, "%+.4f", s->vn_max[i]),
               cli_num(e, sizeof e, "%.4f", s->vt_min[i]),
               cli_num(f, sizeof f, "%.4f", s->vt_max[i]));
    if (s->kept)
        printf("  kinetic energy change [%s, %s] J\n", cli_num(a, sizeof a, "%.6g", s->dke_min),
               cli_num(b, sizeof b, "%.6g", s->dke_max));
}

/* Samples the set of c and writes the outputs. */
static int sample(const captured *c, const ipx_params *params, long samples, long seed,
                  const char *out_path, const char *plot_path)
{
    const size_t rows = IPX_ROWS_PER_CONTACT * (size_t)c->k;
    ipx_problem p = {.k = c->k, .W = c->W, .v = c->v, .contact = c->contact};
    ipx_routh_cloud cloud = {(int)samples, malloc((size_t)samples * rows * sizeof(double)),
                             malloc((size_t)samples * rows * sizeof(double)),
                             malloc((size_t)samples * sizeof(double)), 0};
    double *ranges = malloc(4 * (size_t)c->k * sizeof *ranges);
    ipx_workspace *ws = ipx_workspace_create(params, c->k);
    int rc = CLI_FAILED;
    if (cloud.v_post && cloud.impulse && cloud.delta_ke && ranges && ws) {
        ipx_rng rng;
        ipx_rng_seed(&rng, (uint64_t)seed);
        ipx_routh_summary s;
        ipx_status st = cli_set_sample(&p, params, &rng, (int)samples, ws, &cloud, &s, ranges);
        if (st != IPX_OK) {
            fprintf(stderr, "impax set: sampling failed: %s\n", s.message);
        } else {
            print_summary(c, params, &s);
            if (s.kept == 0) fprintf(stderr, "impax set: no sample ended the impact\n");
            else if ((!out_path || write_csv(c, &cloud, out_path) == 0) &&
                     (!plot_path || write_plot(c, &cloud, plot_path) == 0))
                rc = CLI_OK;
        }
    } else {
        fprintf(stderr, "impax set: out of memory for %ld samples\n", samples);
    }
    ipx_workspace_destroy(ws);
    free(ranges);
    free(cloud.v_post);
    free(cloud.impulse);
    free(cloud.delta_ke);
    return rc;
}

int cli_cmd_set(int argc, char **argv)
{
    static const struct option options[] = {{"samples", required_argument, NULL, 'n'},
                                            {"seed", required_argument, NULL, 's'},
                                            {"params", required_argument, NULL, 'p'},
                                            {"out", required_argument, NULL, 'o'},
                                            {"plot", required_argument, NULL, 'P'},
                                            {"help", no_argument, NULL, 'h'},
                                            {NULL, 0, NULL, 0}};
    long samples = 1000, seed = 0;
    const char *params_text = NULL, *out_path = NULL, *plot_path = NULL;
    int c;
    while ((c = getopt_long(argc, argv, "n:s:p:o:P:h", options, NULL)) != -1) {
        switch (c) {
        case 'n':
            if (cli_parse_int(optarg, "--samples", 1, 10000000, &samples) != 0) return CLI_USAGE;
            break;
        case 's':
            if (cli_parse_int(optarg, "--seed", 0, 2147483647L, &seed) != 0) return CLI_USAGE;
            break;
        case 'p': params_text = optarg; break;
        case 'o': out_path = optarg; break;
        case 'P': plot_path = optarg; break;
        case 'h': fputs(help, stdout); return CLI_OK;
        default: return cli_usage_error("set", "unknown option");
        }
    }
    if (optind != argc - 1) return cli_usage_error("set", "give exactly one world file");
    if ((out_path && cli_check_output("set", "--out", out_path) != 0) ||
        (plot_path && cli_check_output("set", "--plot", plot_path) != 0))
        return CLI_USAGE;
    ipx_scene *scene = cli_load_scene(argv[optind]);
    if (!scene) return CLI_FAILED;
    const char *world_model = ipx_scene_model(scene);
    if (!params_text)
        params_text =
            world_model && strcmp(world_model, "routh") == 0 ? ipx_scene_params(scene) : "";
    ipx_params params;
    char msg[256];
    if (ipx_params_init(&params, "routh", msg, sizeof msg) != IPX_OK ||
        ipx_params_parse(&params, params_text, msg, sizeof msg) != IPX_OK) {
        fprintf(stderr, "impax set: %s\n", msg);
        ipx_scene_free(scene);
        return CLI_USAGE;
    }
    captured *cap = calloc(1, sizeof *cap);
    int rc = CLI_FAILED;
    if (cap && find_first_impact(scene, params_text, cap) == 0)
        rc = sample(cap, &params, samples, seed, out_path, plot_path);
    if (cap) {
        free(cap->W);
        free(cap->v);
        free(cap->contact);
        free(cap->point);
    }
    free(cap);
    ipx_scene_free(scene);
    return rc;
}
