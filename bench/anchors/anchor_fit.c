/* The anchors' fit (anchor_fit.h), through impax fit's own minimiser (fit_minimise.h). */
#include "anchor_fit.h"
#include "fit_minimise.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

int anchor_fit_score(const anchor_fit_problem *fp, const double *values, const int *index, int n,
                     anchor_error *mean, char *message, size_t message_size)
{
    memset(mean, 0, sizeof *mean);
    void *world = fp->sim->create(fp->scene, values, message, message_size);
    if (!world) return -1;
    int rc = 0;
    for (int i = 0; i < n; i++) {
        anchor_error e;
        rc = anchor_replay(fp->sim, world, fp->scene->step_s, &fp->recs[index[i]], &e, NULL,
                           message, message_size);
        if (rc != 0) break;
        mean->mean_pos_m += e.mean_pos_m / n;
        mean->mean_ori_deg += e.mean_ori_deg / n;
        mean->final_pos_m += e.final_pos_m / n;
        mean->samples += e.samples;
    }
    fp->sim->destroy(world);
    return rc;
}

typedef struct fit_run {
    const anchor_fit_problem *fp;
    const int *index;
    int n, evals, failed;
    double best_f, best[ANCHOR_MAX_PARAMS];
    anchor_error best_error;
    nlopt_opt opt;
    char *message;
    size_t message_size;
} fit_run;

static void print_evaluation(const fit_run *run, const double *values, double pos_m)
{
    const anchor_fit_problem *fp = run->fp;
    fprintf(stderr, "  %s%sevaluation %d of at most %d:", fp->stage ? fp->stage : "",
            fp->stage ? ", " : "", run->evals, fp->max_evals);
    for (int k = 0; k < fp->n_fitted; k++)
        fprintf(stderr, " %s=%.4g", fp->sim->params[k].name, values[k]);
    fprintf(stderr, ": mean position error %.4g m\n", pos_m);
}

static double objective(unsigned n, const double *u, double *grad, void *data)
{
    (void)grad; /* derivative-free algorithms only */
    fit_run *run = data;
    const anchor_sim *sim = run->fp->sim;
    double values[ANCHOR_MAX_PARAMS];
    for (int k = 0; k < sim->n_params; k++)
        values[k] = k < (int)n ? sim->params[k].lo + u[k] * (sim->params[k].hi - sim->params[k].lo)
                               : sim->params[k].fixed;
    anchor_error e;
    run->evals++;
    if (anchor_fit_score(run->fp, values, run->index, run->n, &e, run->message,
                         run->message_size) != 0) {
        run->failed = 1;
        nlopt_force_stop(run->opt);
        return HUGE_VAL;
    }
    if (run->fp->verbose) print_evaluation(run, values, e.mean_pos_m);
    if (e.mean_pos_m < run->best_f) {
        run->best_f = e.mean_pos_m;
        memcpy(run->best, values, sizeof values);
        run->best_error = e;
    }
    return e.mean_pos_m;
}

int anchor_fit_train(const anchor_fit_problem *fp, const int *index, int n, double *values,
                     anchor_error *trained, int *evals, char *message, size_t message_size)
{
    const unsigned dim = (unsigned)fp->n_fitted;
    fit_run run = {.fp = fp,
                   .index = index,
                   .n = n,
                   .best_f = HUGE_VAL,
                   .message = message,
                   .message_size = message_size};
    double u[ANCHOR_MAX_PARAMS];
    for (unsigned k = 0; k < dim; k++) {
        const anchor_param *p = &fp->sim->params[k];
        u[k] = (p->start - p->lo) / (p->hi - p->lo);
    }
    const nlopt_result res =
        cli_fit_minimise(fp->algorithm, dim, u, fp->xtol, fp->max_evals, objective, &run, &run.opt);
    *evals = run.evals;
    if (run.failed) return -1;
    if (res < 0 || !isfinite(run.best_f)) {
        snprintf(message, message_size, "NLopt stopped with code %d after %d evaluations", (int)res,
                 run.evals);
        return -1;
    }
    memcpy(values, run.best, sizeof run.best);
    *trained = run.best_error;
    return 0;
}
