/* `impax fit`'s optimisation: the replays' score, minimised by NLopt (fit_minimise.h). */
#include "fit.h"
#include "fit_minimise.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cli_fit_score_set(const cli_fit_problem *fp, const char *params, const int *index, int n,
                      cli_fit_score *score, char *message, size_t message_size)
{
    memset(score, 0, sizeof *score);
    cli_replay_outcome *out = calloc((size_t)(n > 0 ? n : 1), sizeof *out);
    if (!out) {
        snprintf(message, message_size, "out of memory for %d replays", n);
        return -1;
    }
    int rc = cli_replay_pool(fp->pool, fp->scene, fp->model, params, fp->recs, index, n, out,
                             message, message_size);
    for (int i = 0; i < n && rc == 0; i++) {
        if (out[i].rc != 0) {
            snprintf(message, message_size, "%s: %s", fp->recs[index[i]].path, out[i].message);
            rc = out[i].rc;
            break;
        }
        score->pos_m += out[i].error.mean_pos_m / n;
        score->ori_deg += out[i].error.mean_ori_deg / n;
        score->events += out[i].error.impact_events;
        score->fallbacks += out[i].error.fallbacks;
    }
    free(out);
    return rc;
}

typedef struct fit_run {
    const cli_fit_problem *fp;
    const cli_fit_spec *spec;
    const int *index;
    int n, evals;
    double best_f, best_x[CLI_FIT_MAX];
    cli_fit_score best_score;
    int failed;
    nlopt_opt opt;
    char *message;
    size_t message_size;
} fit_run;

/* One line a evaluation on stderr: "fold 1 of 2, evaluation 3 of at most 80: mu=0.3012
   e=0.4987: mean position error 0.001234 m", 4 significant digits (the full values go to the
   fit's own lines and --out). */
static void print_evaluation(const fit_run *run, const double *x, const cli_fit_score *score)
{
    fprintf(stderr, "  %s%sevaluation %d of at most %d:", run->fp->stage ? run->fp->stage : "",
            run->fp->stage ? ", " : "", run->evals, run->fp->max_evals);
    for (int k = 0; k < run->spec->n; k++) fprintf(stderr, " %s=%.4g", run->spec->name[k], x[k]);
    fprintf(stderr, ": mean position error %.4g m\n", score->pos_m);
}

static double objective(unsigned n, const double *u, double *grad, void *data)
{
    (void)grad; /* derivative-free algorithms only */
    fit_run *run = data;
    double x[CLI_FIT_MAX];
    for (unsigned k = 0; k < n; k++)
        x[k] = run->spec->lo[k] + u[k] * (run->spec->hi[k] - run->spec->lo[k]);
    char params[1024];
    cli_fit_params(run->spec, x, run->fp->base_params, 17, params, sizeof params);
    cli_fit_score score;
    run->evals++;
    run->failed = cli_fit_score_set(run->fp, params, run->index, run->n, &score, run->message,
                                    run->message_size);
    if (run->failed) {
        char why[512];
        snprintf(why, sizeof why, "%s", run->message);
        snprintf(run->message, run->message_size, "evaluation %d (%s): %s", run->evals, params,
                 why);
        nlopt_force_stop(run->opt);
        return HUGE_VAL;
    }
    if (run->fp->verbose) print_evaluation(run, x, &score);
    if (score.pos_m < run->best_f) {
        run->best_f = score.pos_m;
        memcpy(run->best_x, x, n * sizeof *x);
        run->best_score = score;
    }
    return score.pos_m;
}

int cli_fit_train(const cli_fit_problem *fp, const cli_fit_spec *spec, const int *index, int n,
                  double *x, cli_fit_score *score, int *evals, char *message, size_t message_size)
{
    const unsigned dim = (unsigned)spec->n;
    fit_run run = {.fp = fp,
                   .spec = spec,
                   .index = index,
                   .n = n,
                   .best_f = HUGE_VAL,
                   .message = message,
                   .message_size = message_size};
    double u[CLI_FIT_MAX];
    for (unsigned k = 0; k < dim; k++)
        u[k] = (spec->start[k] - spec->lo[k]) / (spec->hi[k] - spec->lo[k]);
    const nlopt_result res =
        cli_fit_minimise(fp->algorithm, dim, u, fp->xtol, fp->max_evals, objective, &run, &run.opt);
    *evals = run.evals;
    if (run.failed) return run.failed;
    if (res < 0 || !isfinite(run.best_f)) {
        snprintf(message, message_size, "NLopt stopped with code %d after %d evaluations", (int)res,
                 run.evals);
        return 1;
    }
    memcpy(x, run.best_x, dim * sizeof *x);
    *score = run.best_score;
    return 0;
}
