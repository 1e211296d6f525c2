#define _GNU_SOURCE /* getopt_long */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "fit.h"
#include "job_pool.h"
#include "outputs.h"
#include "recording_start.h"
#include "text_table.h"
#include <nlopt.h>

static const char help[] =
    "usage: impax fit WORLD --data DIR|FILE... --model M --fit KEYS [--folds K] [--params P]\n"
    "                 [--seed S] [--jobs N] [--algorithm A] [--max-evals N] [--xtol X]\n"
    "                 [--out FILE] [--quiet] [--start recorded|fit[:N]]\n"
    "\n"
    "Identifies contact parameters from recorded trajectories: one parameter set for all of\n"
    "them, minimising the mean (over trajectories) of the mean position error of their replays\n"
    "(see impax replay) with one of NLopt's bounded derivative-free optimisers. K-fold\n"
    "cross-validation first: for each fold, fit on the others and score the fold held out;\n"
    "then the fit on all trajectories, printed in the forms --params and world files\n"
    "(<impax:params>) accept. Trajectories are replayed in parallel: on local processes, or\n"
    "under `mpirun -n N impax fit ...` on the MPI ranks (rank 0 runs the optimiser).\n"
    "\n"
    "  --data P       a recording (CSV, docs/command.md) or a directory of them; repeatable\n"
    "  --model M      ode (ODE's own contact handling) or an impax model\n"
    "  --fit KEYS     names to fit, comma-separated: contact keys mu, e, bounce_vel, rolling,\n"
    "                 spinning and the replay body's inertia_scale (every model) or the\n"
    "                 model's real-valued parameters; KEY=LO:HI narrows the bounds (default:\n"
    "                 the accepted range); e.g. mu=0:1,e,inertia_scale=0.5:2\n"
    "  --params P     the other parameters, key=value,...; a fitted key's value there is its\n"
    "                 start value (else the model's default, else the middle of its bounds)\n"
    "                 (default: the world's <impax:params> when the model is the world's)\n"
    "  --folds K      cross-validation folds, 2..20, or 1 for none (default 2)\n"
    "  --seed S       shuffle of the trajectories into folds (default 1): the same seed gives\n"
    "                 the same folds for every model, so their held-out errors compare\n"
    "  --jobs N       processes replaying at once (default: processors online; under mpirun\n"
    "                 the ranks replay and --jobs is not used)\n"
    "  --algorithm A  sbplx (default: Rowan's Subplex, Nelder-Mead on subspaces), neldermead\n"
    "                 or bobyqa (Powell's quadratic models: fast on smooth objectives, but a\n"
    "                 replay's error has kinks where an impact changes, and bobyqa stalls there)\n"
    "  --max-evals N  objective evaluations per fit (default 40 per fitted parameter)\n"
    "  --xtol X       stop when a step moves every parameter by less than X of its bounds'\n"
    "                 width (default 1e-3)\n"
    "  --out FILE     write the fitted key=value,... (all trajectories) to FILE\n"
    "  --quiet        do not print every evaluation on stderr\n"
    "  --start S      the state every replay starts from, as impax replay's --start: recorded\n"
    "                 (default) or fit[:N]\n"
    "\n"
    "Exit status: 0 ok, 1 world or data errors or a failed simulation, 2 bad usage (an --out\n"
    "that cannot be written included).\n"
    "\n"
    "example, with recordings of a tossed cube in the directory tosses (impax replay --help):\n"
    "  impax fit " CLI_WORLDS
    "/cube_toss.world --data tosses --model plus --fit mu,e --out fitted.txt\n";

typedef struct fit_cli {
    const char *model, *params, *fit, *out_path;
    const char *data[64];
    int n_data, folds, jobs, max_evals, quiet, algorithm;
    int start_samples; /* --start: 0 recorded, else fit to at most this many samples */
    unsigned long seed;
    double xtol;
} fit_cli;

static int parse_options(int argc, char **argv, fit_cli *o)
{
    static const struct option options[] = {{"data", required_argument, NULL, 'D'},
                                            {"model", required_argument, NULL, 'm'},
                                            {"fit", required_argument, NULL, 'f'},
                                            {"params", required_argument, NULL, 'p'},
                                            {"folds", required_argument, NULL, 'k'},
                                            {"seed", required_argument, NULL, 's'},
                                            {"jobs", required_argument, NULL, 'j'},
                                            {"max-evals", required_argument, NULL, 'e'},
                                            {"xtol", required_argument, NULL, 'x'},
                                            {"out", required_argument, NULL, 'o'},
                                            {"quiet", no_argument, NULL, 'q'},
                                            {"help", no_argument, NULL, 'h'},
                                            {"algorithm", required_argument, NULL, 'a'},
                                            {"start", required_argument, NULL, 'S'},
                                            {NULL, 0, NULL, 0}};
    long v;
    int c;
    while ((c = getopt_long(argc, argv, "D:m:f:p:k:s:j:e:x:o:qha:", options, NULL)) != -1) {
        switch (c) {
        case 'D':
            if (o->n_data == (int)(sizeof o->data / sizeof o->data[0]))
                return cli_usage_error("fit", "too many --data options (give directories)");
            o->data[o->n_data++] = optarg;
            break;
        case 'm': o->model = optarg; break;
        case 'f': o->fit = optarg; break;
        case 'p': o->params = optarg; break;
        case 'k':
            if (cli_parse_int(optarg, "--folds", 1, 20, &v) != 0) return CLI_USAGE;
            o->folds = (int)v;
            break;
        case 's':
            if (cli_parse_int(optarg, "--seed", 0, 2147483647L, &v) != 0) return CLI_USAGE;
            o->seed = (unsigned long)v;
            break;
        case 'j':
            if (cli_parse_int(optarg, "--jobs", 1, 1024, &v) != 0) return CLI_USAGE;
            o->jobs = (int)v;
            break;
        case 'e':
            if (cli_parse_int(optarg, "--max-evals", 1, 100000, &v) != 0) return CLI_USAGE;
            o->max_evals = (int)v;
            break;
        case 'x':
            if (cli_parse_real(optarg, "--xtol", 1e-12, 0.5, &o->xtol) != 0) return CLI_USAGE;
            break;
        case 'o': o->out_path = optarg; break;
        case 'a':
            if (strcmp(optarg, "bobyqa") == 0) o->algorithm = NLOPT_LN_BOBYQA;
            else if (strcmp(optarg, "neldermead") == 0) o->algorithm = NLOPT_LN_NELDERMEAD;
            else if (strcmp(optarg, "sbplx") == 0) o->algorithm = NLOPT_LN_SBPLX;
            else return cli_usage_error("fit", "--algorithm takes bobyqa, neldermead or sbplx");
            break;
        case 'q': o->quiet = 1; break;
        case 'S':
            if (cli_start_parse(optarg, &o->start_samples) != 0)
                return cli_usage_error("fit", "--start takes " CLI_START_VALUES);
            break;
        case 'h': fputs(help, stdout); return -1;
        default: return cli_usage_error("fit", "unknown option");
        }
    }
    if (optind != argc - 1) return cli_usage_error("fit", "give exactly one world file");
    if (o->n_data == 0) return cli_usage_error("fit", "give the recordings with --data");
    if (!o->model) return cli_usage_error("fit", "give the model with --model");
    if (!o->fit) return cli_usage_error("fit", "give the parameters to fit with --fit");
    return CLI_OK;
}

/* "LABEL mu=0.3 e=0.5, mean position error ...", wrapped at 100 columns. */
static void print_values(const char *label, const cli_fit_spec *spec, const double *x,
                         const cli_fit_score *s, double length_m)
{
    char text[1024];
    size_t used = 0;
    for (int k = 0; k < spec->n && used < sizeof text; k++)
        used += (size_t)snprintf(text + used, sizeof text - used, "%s=%.4g%s", spec->name[k], x[k],
                                 k + 1 < spec->n ? " " : ",");
    if (used < sizeof text)
        used += (size_t)snprintf(
            text + used, sizeof text - used,
            " mean position error %.4g m (%.1f %% of %.4g m), orientation %.2f deg", s->pos_m,
            100 * s->pos_m / length_m, length_m, s->ori_deg);
    if (s->fallbacks && used < sizeof text)
        snprintf(text + used, sizeof text - used, ", %ld of %ld impact events fell back to ODE",
                 s->fallbacks, s->events);
    const int col = printf("%s ", label);
    cli_print_wrapped(stdout, col, text, "    ", 100);
}

/* K-fold cross-validation: fit on the other folds, score the held-out one; the held-out score
   of every trajectory once, averaged. */
static int cross_validate(const cli_fit_problem *fp, const cli_fit_spec *spec, int n, int folds,
                          unsigned long seed, double length_m, cli_fit_score *held_out)
{
    int *fold_of = malloc((size_t)n * sizeof *fold_of), *train = malloc((size_t)n * sizeof *train),
        *test = malloc((size_t)n * sizeof *test);
    int rc = fold_of && train && test ? 0 : -1;
    char message[512] = "out of memory for the folds";
    memset(held_out, 0, sizeof *held_out);
    if (rc == 0) cli_fit_folds(n, folds, seed, fold_of);
    for (int f = 0; f < folds && rc == 0; f++) {
        int n_train, n_test;
        cli_fit_fold_split(fold_of, n, f, train, &n_train, test, &n_test);
        double x[CLI_FIT_MAX];
        cli_fit_score trained, scored;
        int evals;
        char params[1024], label[128];
        char stage[64];
        snprintf(stage, sizeof stage, "fold %d of %d", f + 1, folds);
        cli_fit_problem fold_fp = *fp;
        fold_fp.stage = stage;
        rc = cli_fit_train(&fold_fp, spec, train, n_train, x, &trained, &evals, message,
                           sizeof message);
        if (rc == 0) {
            cli_fit_params(spec, x, fp->base_params, 17, params, sizeof params);
            rc = cli_fit_score_set(fp, params, test, n_test, &scored, message, sizeof message);
        }
        if (rc != 0) break;
        snprintf(label, sizeof label, "fold %d of %d trained on %d (%d evaluations):", f + 1, folds,
                 n_train, evals);
        print_values(label, spec, x, &trained, length_m);
        snprintf(label, sizeof label, "  held out %d:", n_test);
        print_values(label, spec, x, &scored, length_m);
        held_out->pos_m += scored.pos_m * n_test / n;
        held_out->ori_deg += scored.ori_deg * n_test / n;
        held_out->events += scored.events;
        held_out->fallbacks += scored.fallbacks;
    }
    if (rc != 0) fprintf(stderr, "impax fit: %s\n", message);
    free(fold_of);
    free(train);
    free(test);
    return rc;
}

static int write_params(const char *path, const char *params)
{
    FILE *f = fopen(path, "w");
    if (!f || fprintf(f, "%s\n", params) < 0 || fclose(f) != 0) {
        fprintf(stderr, "impax fit: cannot write '%s'\n", path);
        return -1;
    }
    return 0;
}

static int run_fit(const fit_cli *o, const char *world, const ipx_scene *scene,
                   const cli_recording *recs, int n, cli_pool *pool)
{
    const char *scene_model = ipx_scene_model(scene);
    const char *base = o->params                                           ? o->params
                       : scene_model && strcmp(scene_model, o->model) == 0 ? ipx_scene_params(scene)
                                                                           : "";
    cli_fit_spec spec;
    char message[512];
    if (cli_fit_spec_parse(&spec, o->fit, o->model, base, message, sizeof message) != 0)
        return cli_usage_error("fit", message);
    cli_fit_problem fp = {.scene = scene,
                          .model = o->model,
                          .base_params = base,
                          .recs = recs,
                          .pool = pool,
                          .algorithm = o->algorithm,
                          .max_evals = o->max_evals ? o->max_evals : 40 * spec.n,
                          .xtol = o->xtol,
                          .verbose = !o->quiet};
    const double length_m = ipx_scene_replay_length(scene);
    int *all = malloc((size_t)n * sizeof *all);
    if (!all) return CLI_FAILED;
    for (int i = 0; i < n; i++) all[i] = i;
    const time_t t0 = time(NULL);
    printf("fit %s on %d recordings of %s, %d fold%s (seed %lu), %d %s worker%s:\n", o->model, n,
           world, o->folds, o->folds == 1 ? "" : "s", o->seed, cli_pool_workers(pool),
           cli_pool_transport(pool), cli_pool_workers(pool) == 1 ? "" : "s");
    char line[2048];
    size_t used = 0;
    for (int k = 0; k < spec.n && used < sizeof line; k++)
        used += (size_t)snprintf(line + used, sizeof line - used, "%s in [%g, %g] from %g%s",
                                 spec.name[k], spec.lo[k], spec.hi[k], spec.start[k],
                                 k + 1 < spec.n ? ", " : "");
    printf("  ");
    cli_print_wrapped(stdout, 2, line, "    ", 100);
    cli_fit_score start, held_out, fitted;
    char params[1024];
    cli_fit_params(&spec, spec.start, base, 17, params, sizeof params);
    int rc = cli_fit_score_set(&fp, params, all, n, &start, message, sizeof message);
    if (rc == 0) {
        print_values("start values:", &spec, spec.start, &start, length_m);
        if (o->folds > 1)
            rc = cross_validate(&fp, &spec, n, o->folds, o->seed, length_m, &held_out);
    } else {
        fprintf(stderr, "impax fit: %s\n", message);
    }
    double x[CLI_FIT_MAX];
    int evals = 0;
    char stage[64];
    snprintf(stage, sizeof stage, "all %d", n);
    fp.stage = o->folds > 1 ? stage : NULL;
    if (rc == 0 &&
        (rc = cli_fit_train(&fp, &spec, all, n, x, &fitted, &evals, message, sizeof message)) != 0)
        fprintf(stderr, "impax fit: %s\n", message);
    if (rc == 0) {
        if (o->folds > 1) {
            snprintf(line, sizeof line,
                     "held-out (%d folds): mean position error %.4g m (%.1f %% of %.4g m), "
                     "orientation %.2f deg, fallbacks %ld of %ld impact events",
                     o->folds, held_out.pos_m, 100 * held_out.pos_m / length_m, length_m,
                     held_out.ori_deg, held_out.fallbacks, held_out.events);
            cli_print_wrapped(stdout, 0, line, "    ", 100);
        }
        char label[128];
        snprintf(label, sizeof label, "all %d (%d evaluations):", n, evals);
        print_values(label, &spec, x, &fitted, length_m);
        cli_fit_params(&spec, x, base, 4, params, sizeof params);
        printf("--params %s\n<impax:params>%s</impax:params>\n", params, params);
        printf("fit took %.0f s\n", difftime(time(NULL), t0));
        if (o->out_path && write_params(o->out_path, params) != 0) rc = -1;
    }
    free(all);
    return rc == 0 ? CLI_OK : rc == 2 ? CLI_USAGE : CLI_FAILED;
}

/* The world and the recordings, in every process (an MPI worker replays them too); the master
   prints what is wrong, the others keep it in message. */
static int load_inputs(const fit_cli *o, const char *world, int master, ipx_scene **scene,
                       cli_recording **recs, int *n, char *message, size_t message_size)
{
    message[0] = '\0';
    *scene = master ? cli_load_scene(world) : cli_load_scene_quiet(world, message, message_size);
    if (!*scene) return CLI_FAILED;
    for (int i = 0; i < o->n_data; i++)
        if (cli_recordings_load(o->data[i], recs, n, message, message_size) != 0) {
            if (master) fprintf(stderr, "%s\n", message);
            return CLI_FAILED;
        }
    if (o->start_samples > 0) { /* every process fits the same starts from the same data */
        char summary[256];
        cli_replay_fit_starts(*scene, *recs, *n, o->start_samples, summary, sizeof summary);
        if (master) fprintf(stderr, "impax fit: %s\n", summary);
    }
    if (*n < o->folds) {
        snprintf(message, message_size, "impax fit: %d recordings cannot make %d folds", *n,
                 o->folds);
        if (master) fprintf(stderr, "%s\n", message);
        return CLI_FAILED;
    }
    return CLI_OK;
}

int cli_cmd_fit(int argc, char **argv)
{
    fit_cli o = {.algorithm = NLOPT_LN_SBPLX,
                 .folds = 2,
                 .seed = 1,
                 .xtol = 1e-3,
                 .jobs = cli_pool_default_jobs()};
    const int parsed = parse_options(argc, argv, &o);
    if (parsed != CLI_OK) return parsed < 0 ? CLI_OK : parsed;
    char message[512];
    int rc;
    cli_pool *pool = cli_pool_open("fit", o.jobs, &rc);
    if (!pool) return rc;
    const int master = cli_pool_is_master(pool);
    ipx_scene *scene = NULL;
    cli_recording *recs = NULL;
    int n = 0;
    /* the output is checked before anything runs, as every command's (docs/command.md) */
    if (master && o.out_path && cli_check_output("fit", "--out", o.out_path) != 0) rc = CLI_USAGE;
    else rc = load_inputs(&o, argv[optind], master, &scene, &recs, &n, message, sizeof message);
    if (!cli_pool_agree(pool, rc == CLI_OK, message)) rc = rc != CLI_OK ? rc : CLI_FAILED;
    else if (master) rc = run_fit(&o, argv[optind], scene, recs, n, pool);
    else if (cli_replay_serve(pool, scene, recs, n) != 0) rc = CLI_FAILED;
    cli_pool_close(pool);
    cli_recordings_free(recs, n);
    ipx_scene_free(scene);
    return rc;
}
