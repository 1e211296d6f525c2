/* bench_anchors: the real cube tosses replayed in MuJoCo and Bullet, each fitted as `impax fit`
   fits impax's models (same optimiser, budget, folds, metric), for docs/validation.md "Beside
   MuJoCo and Bullet". Run with --help. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <getopt.h>
#include <math.h>
#include <nlopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "anchor_fit.h"
#include "fit_folds.h"
#include "recording_start.h"

static const char help[] =
    "usage: bench_anchors --data DIR|FILE [--sim S] [--all-params] [--inertia uniform|identified]\n"
    "                     [--folds K] [--seed S] [--max-evals N] [--xtol X] [--quiet]\n"
    "                     [--start recorded|fit[:N]] [--com X,Y,Z]\n"
    "       bench_anchors --data DIR|FILE --sim S --at NAME=VALUE,... [--inertia I] [--start S]\n"
    "                     [--com X,Y,Z]\n"
    "\n"
    "Replays recorded tosses of a cube (impax replay's CSV format, docs/command.md) in other\n"
    "simulators, in the scene of worlds/cube_toss.world, scored as impax replay scores them and\n"
    "fitted as impax fit fits a model: Subplex (NLopt LN_SBPLX) on the parameters scaled to\n"
    "[0, 1], 40 evaluations per parameter, xtol 1e-3, K folds dealt by impax fit's own shuffle;\n"
    "each fold fitted on the others and scored held out, then a fit on all recordings and the\n"
    "wall and processor time of one replay of them all at its values (medians of 3).\n"
    "\n"
    "  --data P        a recording or a directory of them (required)\n"
    "  --sim S         mujoco or bullet (default: every one built: %s)\n"
    "  --all-params    fit every parameter the simulator has (Bullet: rolling and spinning\n"
    "                  friction too; both: the cube's inertia_scale), not only its first ones\n"
    "  --inertia I     uniform (m edge^2/6, the default, as impax's fits) or identified\n"
    "                  (the data set's 0.797 m a^2, a the half width)\n"
    "  --folds K       2..20, or 1 for none (default 2); --seed S the shuffle (default 1)\n"
    "  --max-evals N   evaluations per fit (default 40 per fitted parameter)\n"
    "  --xtol X        as impax fit's (default 1e-3)\n"
    "  --quiet         do not print every evaluation on stderr\n"
    "  --start S       the state each replay starts from, as impax replay's --start:\n"
    "                  recorded (default) or fit[:N]\n"
    "  --com X,Y,Z     the centre of mass in the cube's frame, m (default: the world's,\n"
    "                  0,0,0.0053; bench/com_offset measures it)\n"
    "  --at P          no fit: replay every recording at these values (the parameters not\n"
    "                  named at the simulator's defaults), e.g. --sim bullet --at\n"
    "                  friction=0.2,restitution=0\n";

typedef struct options {
    const char *data, *sim, *at;
    int all_params, identified, folds, max_evals, quiet;
    int start_samples; /* --start: 0 recorded, else fit to at most this many samples */
    unsigned long seed;
    double xtol;
    int com_given;
    double com_m[3]; /* --com */
} options;

static int usage(const char *why)
{
    fprintf(stderr, "bench_anchors: %s (see --help)\n", why);
    return 2;
}

static int parse_long(const char *text, long lo, long hi, long *out)
{
    char *end;
    *out = strtol(text, &end, 10);
    return end != text && *end == '\0' && *out >= lo && *out <= hi ? 0 : -1;
}

static int parse_options(int argc, char **argv, options *o)
{
    static const struct option longopts[] = {{"data", required_argument, NULL, 'D'},
                                             {"sim", required_argument, NULL, 's'},
                                             {"all-params", no_argument, NULL, 'A'},
                                             {"inertia", required_argument, NULL, 'I'},
                                             {"folds", required_argument, NULL, 'k'},
                                             {"seed", required_argument, NULL, 'S'},
                                             {"max-evals", required_argument, NULL, 'e'},
                                             {"xtol", required_argument, NULL, 'x'},
                                             {"quiet", no_argument, NULL, 'q'},
                                             {"at", required_argument, NULL, 'a'},
                                             {"start", required_argument, NULL, 'T'},
                                             {"com", required_argument, NULL, 'C'},
                                             {"help", no_argument, NULL, 'h'},
                                             {NULL, 0, NULL, 0}};
    long v;
    char *end;
    for (int c; (c = getopt_long(argc, argv, "", longopts, NULL)) != -1;) {
        switch (c) {
        case 'D': o->data = optarg; break;
        case 's': o->sim = optarg; break;
        case 'A': o->all_params = 1; break;
        case 'a': o->at = optarg; break;
        case 'I':
            if (strcmp(optarg, "uniform") != 0 && strcmp(optarg, "identified") != 0)
                return usage("--inertia takes uniform or identified");
            o->identified = strcmp(optarg, "identified") == 0;
            break;
        case 'k':
            if (parse_long(optarg, 1, 20, &v) != 0) return usage("--folds takes 1..20");
            o->folds = (int)v;
            break;
        case 'S':
            if (parse_long(optarg, 0, 2147483647L, &v) != 0) return usage("--seed takes 0..2^31-1");
            o->seed = (unsigned long)v;
            break;
        case 'e':
            if (parse_long(optarg, 1, 100000, &v) != 0) return usage("--max-evals takes 1..100000");
            o->max_evals = (int)v;
            break;
        case 'x':
            o->xtol = strtod(optarg, &end);
            if (end == optarg || *end || !(o->xtol >= 1e-12 && o->xtol <= 0.5))
                return usage("--xtol takes a number in [1e-12, 0.5]");
            break;
        case 'q': o->quiet = 1; break;
        case 'T':
            if (cli_start_parse(optarg, &o->start_samples) != 0)
                return usage("--start takes " CLI_START_VALUES);
            break;
        case 'C': {
            int used = 0;
            if (sscanf(optarg, "%lf,%lf,%lf%n", &o->com_m[0], &o->com_m[1], &o->com_m[2], &used) !=
                    3 ||
                optarg[used] != '\0' ||
                !(fabs(o->com_m[0]) < 0.05 && fabs(o->com_m[1]) < 0.05 && fabs(o->com_m[2]) < 0.05))
                return usage("--com takes X,Y,Z in m, each within the cube (|.| < 0.05)");
            o->com_given = 1;
            break;
        }
        case 'h': {
            char names[64] = "";
            for (int i = 0; i < anchor_n_sims; i++)
                snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", i ? ", " : "",
                         anchor_sims[i]->name);
            printf(help, names);
            return -1;
        }
        default: return usage("unknown option");
        }
    }
    if (optind != argc) return usage("unexpected argument");
    if (!o->data) return usage("give the recordings with --data");
    if (o->at && !o->sim) return usage("--at goes with --sim");
    return 0;
}

/* "LABEL mu=0.3 timeconst=0.02, mean position error ... m (... % of ... m), orientation ..." */
static void print_values(const char *label, const anchor_fit_problem *fp, const double *values,
                         const anchor_error *e)
{
    printf("%s", label);
    for (int k = 0; k < fp->n_fitted; k++)
        printf(" %s=%.4g%s", fp->sim->params[k].name, values[k], k + 1 < fp->n_fitted ? "" : ",");
    printf(" mean position error %.4g m (%.1f %% of %.4g m), orientation %.2f deg\n", e->mean_pos_m,
           100 * e->mean_pos_m / fp->scene->length_m, fp->scene->length_m, e->mean_ori_deg);
}

/* impax fit's cross-validation (plugin/impax/cmd_fit.c): every recording scored once, by the
   fit on the folds that do not hold it. */
static int cross_validate(const anchor_fit_problem *fp, int n, int folds, unsigned long seed,
                          anchor_error *held_out, char *message, size_t message_size)
{
    int *fold_of = malloc((size_t)n * sizeof *fold_of), *train = malloc((size_t)n * sizeof *train),
        *test = malloc((size_t)n * sizeof *test);
    int rc = fold_of && train && test ? 0 : -1;
    if (rc) snprintf(message, message_size, "out of memory for the folds");
    memset(held_out, 0, sizeof *held_out);
    if (rc == 0) cli_fit_folds(n, folds, seed, fold_of);
    for (int f = 0; f < folds && rc == 0; f++) {
        int n_train, n_test;
        cli_fit_fold_split(fold_of, n, f, train, &n_train, test, &n_test);
        char stage[64], label[128];
        snprintf(stage, sizeof stage, "fold %d of %d", f + 1, folds);
        anchor_fit_problem fold_fp = *fp;
        fold_fp.stage = stage;
        double values[ANCHOR_MAX_PARAMS];
        anchor_error trained, scored;
        int evals;
        rc = anchor_fit_train(&fold_fp, train, n_train, values, &trained, &evals, message,
                              message_size);
        if (rc == 0)
            rc = anchor_fit_score(fp, values, test, n_test, &scored, message, message_size);
        if (rc != 0) break;
        snprintf(label, sizeof label, "fold %d of %d trained on %d (%d evaluations):", f + 1, folds,
                 n_train, evals);
        print_values(label, fp, values, &trained);
        snprintf(label, sizeof label, "  held out %d (first %s):", n_test, fp->recs[test[0]].path);
        print_values(label, fp, values, &scored);
        held_out->mean_pos_m += scored.mean_pos_m * n_test / n;
        held_out->mean_ori_deg += scored.mean_ori_deg * n_test / n;
    }
    free(fold_of);
    free(train);
    free(test);
    return rc;
}

static double seconds_since(clockid_t clock, const struct timespec *t0)
{
    struct timespec t;
    clock_gettime(clock, &t);
    return (double)(t.tv_sec - t0->tv_sec) + 1e-9 * (double)(t.tv_nsec - t0->tv_nsec);
}

static double median3(const double t[3])
{
    const double lo = t[0] < t[1] ? t[0] : t[1], hi = t[0] < t[1] ? t[1] : t[0];
    return t[2] < lo ? lo : t[2] > hi ? hi : t[2];
}

/* The wall and the processor time of one replay of every recording at values: the medians of 3
   (on a loaded machine the wall time grows, the processor time much less). */
static int time_replay(const anchor_fit_problem *fp, const double *values, const int *all, int n,
                       double *wall_s, double *cpu_s, char *message, size_t message_size)
{
    double wall[3], cpu[3];
    for (int r = 0; r < 3; r++) {
        struct timespec w0, c0;
        anchor_error e;
        clock_gettime(CLOCK_MONOTONIC, &w0);
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
        if (anchor_fit_score(fp, values, all, n, &e, message, message_size) != 0) return -1;
        wall[r] = seconds_since(CLOCK_MONOTONIC, &w0);
        cpu[r] = seconds_since(CLOCK_PROCESS_CPUTIME_ID, &c0);
    }
    *wall_s = median3(wall);
    *cpu_s = median3(cpu);
    return 0;
}

/* values from "name=value,...": each name one of sim's parameters; the others at their values
   when not fitted (the simulator's defaults). 0, or -1 with a message naming the bad item. */
static int parse_values(const anchor_sim *sim, const char *text, double *values, char *message,
                        size_t message_size)
{
    for (int k = 0; k < sim->n_params; k++) values[k] = sim->params[k].fixed;
    for (const char *item = text; *item;) {
        const size_t len = strcspn(item, ",");
        const char *eq = memchr(item, '=', len);
        int k = 0;
        while (eq && k < sim->n_params &&
               !(strlen(sim->params[k].name) == (size_t)(eq - item) &&
                 strncmp(sim->params[k].name, item, (size_t)(eq - item)) == 0))
            k++;
        char *end = NULL;
        if (eq && k < sim->n_params) values[k] = strtod(eq + 1, &end);
        if (!eq || k == sim->n_params || end == eq + 1 || end != item + len) {
            snprintf(message, message_size, "--at: '%.*s' is not NAME=VALUE with a parameter of %s",
                     (int)len, item, sim->display);
            return -1;
        }
        item += len + (item[len] == ',');
    }
    return 0;
}

/* --at: every recording replayed at the given values, no fit. */
static int replay_at(const anchor_sim *sim, const options *o, const anchor_scene *scene,
                     const cli_recording *recs, int n, const int *all)
{
    anchor_fit_problem fp = {.sim = sim, .scene = scene, .recs = recs, .n_fitted = sim->n_params};
    double values[ANCHOR_MAX_PARAMS], wall_s, cpu_s;
    anchor_error e;
    char message[512];
    if (parse_values(sim, o->at, values, message, sizeof message) != 0) return usage(message);
    if (anchor_fit_score(&fp, values, all, n, &e, message, sizeof message) != 0 ||
        time_replay(&fp, values, all, n, &wall_s, &cpu_s, message, sizeof message) != 0) {
        fprintf(stderr, "bench_anchors: %s: %s\n", sim->display, message);
        return 1;
    }
    char label[128];
    snprintf(label, sizeof label, "%s %s, %d recordings:", sim->display, sim->version(), n);
    print_values(label, &fp, values, &e);
    printf("one replay of all %d at these values: %.2f s wall, %.2f s processor (medians of 3)\n",
           n, wall_s, cpu_s);
    return 0;
}

static int run_sim(const anchor_sim *sim, const options *o, const anchor_scene *scene,
                   const cli_recording *recs, int n, const int *all)
{
    anchor_fit_problem fp = {.sim = sim,
                             .scene = scene,
                             .recs = recs,
                             .n_fitted = o->all_params ? sim->n_params : sim->n_default,
                             .algorithm = NLOPT_LN_SBPLX,
                             .xtol = o->xtol,
                             .verbose = !o->quiet};
    fp.max_evals = o->max_evals ? o->max_evals : 40 * fp.n_fitted;
    printf("%s %s on %d recordings, inertia %.6g kg m^2 (%s), centre of mass (%g, %g, %g) m, %d "
           "fold%s (seed %lu), %d evaluations per fit:\n ",
           sim->display, sim->version(), n, scene->inertia_kgm2,
           o->identified ? "identified" : "uniform", scene->com_m[0], scene->com_m[1],
           scene->com_m[2], o->folds, o->folds == 1 ? "" : "s", o->seed, fp.max_evals);
    for (int k = 0; k < fp.n_fitted; k++) {
        const anchor_param *p = &sim->params[k];
        printf(" %s in [%g, %g]%s%s from %g%s", p->name, p->lo, p->hi, p->unit[0] ? " " : "",
               p->unit, p->start, k + 1 < fp.n_fitted ? "," : "\n");
    }
    char message[512] = "";
    anchor_error held_out = {0}, fitted;
    double values[ANCHOR_MAX_PARAMS], wall_s = 0, cpu_s = 0;
    int evals = 0, rc = 0;
    if (o->folds > 1)
        rc = cross_validate(&fp, n, o->folds, o->seed, &held_out, message, sizeof message);
    char stage[64];
    snprintf(stage, sizeof stage, "all %d", n);
    fp.stage = stage;
    if (rc == 0)
        rc = anchor_fit_train(&fp, all, n, values, &fitted, &evals, message, sizeof message);
    if (rc == 0) rc = time_replay(&fp, values, all, n, &wall_s, &cpu_s, message, sizeof message);
    if (rc != 0) {
        fprintf(stderr, "bench_anchors: %s: %s\n", sim->display, message);
        return 1;
    }
    if (o->folds > 1)
        printf("held-out (%d folds): mean position error %.4g m (%.1f %% of %.4g m), orientation "
               "%.2f deg\n",
               o->folds, held_out.mean_pos_m, 100 * held_out.mean_pos_m / scene->length_m,
               scene->length_m, held_out.mean_ori_deg);
    char label[64];
    snprintf(label, sizeof label, "all %d (%d evaluations):", n, evals);
    print_values(label, &fp, values, &fitted);
    printf("one replay of all %d at these values: %.2f s wall, %.2f s processor (medians of 3)\n\n",
           n, wall_s, cpu_s);
    return 0;
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0); /* each fold's line as it comes, into a file too */
    options o = {.folds = 2, .seed = 1, .xtol = 1e-3};
    const int parsed = parse_options(argc, argv, &o);
    if (parsed) return parsed < 0 ? 0 : parsed;
    int chosen = -1;
    for (int i = 0; i < anchor_n_sims && o.sim; i++)
        if (strcmp(o.sim, anchor_sims[i]->name) == 0) chosen = i;
    if (o.sim && chosen < 0)
        return usage("--sim names a simulator this program was not built with");
    cli_recording *recs = NULL;
    int n = 0;
    char message[512];
    if (cli_recordings_load(o.data, &recs, &n, message, sizeof message) != 0) {
        fprintf(stderr, "bench_anchors: %s\n", message);
        cli_recordings_free(recs, n);
        return 1;
    }
    int rc = 0;
    int *all = malloc((size_t)n * sizeof *all);
    if (!all || n < o.folds) {
        fprintf(stderr, "bench_anchors: %d recordings cannot make %d folds\n", n, o.folds);
        rc = 1;
    }
    for (int i = 0; rc == 0 && i < n; i++) all[i] = i;
    anchor_scene scene = anchor_cube_toss_scene(o.identified);
    if (o.com_given) memcpy(scene.com_m, o.com_m, sizeof scene.com_m);
    if (rc == 0 && o.start_samples > 0) {
        const double g[3] = {0.0, 0.0, -scene.gravity_mps2};
        const cli_body_frame frame = anchor_body_frame(&scene);
        cli_recordings_fit_start(recs, n, o.start_samples, g, &frame, message, sizeof message);
        fprintf(stderr, "bench_anchors: %s\n", message);
    }
    for (int i = 0; i < anchor_n_sims && rc == 0; i++)
        if (chosen < 0 || chosen == i)
            rc = o.at ? replay_at(anchor_sims[i], &o, &scene, recs, n, all)
                      : run_sim(anchor_sims[i], &o, &scene, recs, n, all);
    free(all);
    cli_recordings_free(recs, n);
    return rc;
}
