/// System identification for `impax fit`: one set of contact/model parameters for all
/// recordings of a training set, found with NLopt's bounded derivative-free optimisers by
/// minimising the mean (over recordings) of the mean position error of their replays.
#ifndef IMPAX_CLI_FIT_H
#define IMPAX_CLI_FIT_H

#include <stddef.h>

#include "fit_folds.h"
#include "replay_pool.h"

#define CLI_FIT_MAX 8 /* parameters fitted at once */

/// What is fitted: names, bounds and start values.
typedef struct cli_fit_spec {
    int n;
    char name[CLI_FIT_MAX][32];
    double lo[CLI_FIT_MAX], hi[CLI_FIT_MAX]; /* bounds, lo < hi */
    double start[CLI_FIT_MAX];               /* in [lo, hi] */
} cli_fit_spec;

/// Parses "mu,e" or "mu=0.05:0.5,e" for model: each name is a contact key or the body key
/// (world.h) or one of the model's real-valued parameters; bounds default to its accepted range;
/// the start value is its value in base_params if given there, else the model's default (1 for
/// inertia_scale), else the middle of the bounds. 0, or -1 with a message naming the bad item (of text, or of a malformed base_params).
int cli_fit_spec_parse(cli_fit_spec *spec, const char *text, const char *model,
                       const char *base_params, char *message, size_t message_size);

/// The candidate x (spec->n values, printed with digits significant digits: 17 round-trips) on
/// top of base (key=value,...; x's keys replace base's).
void cli_fit_params(const cli_fit_spec *spec, const double *x, const char *base, int digits,
                    char *out, size_t out_size);

/// What one evaluation needs.
typedef struct cli_fit_problem {
    const ipx_scene *scene;
    const char *model;
    const char *base_params;
    const cli_recording *recs;
    cli_pool *pool; /* where the replays run (local processes or MPI ranks) */
    int max_evals;  /* objective evaluations per fit */
    int algorithm; /* an nlopt_algorithm: derivative-free, bounded (LN_BOBYQA, LN_NELDERMEAD, LN_SBPLX) */
    double xtol;       /* stop when a step moves every parameter by less than xtol x its range */
    int verbose;       /* print every evaluation on stderr */
    const char *stage; /* what the evaluations' lines call the fit under way ("fold 1 of 2") */
} cli_fit_problem;

/// Mean position error (m) and orientation error (deg) over a set of recordings.
typedef struct cli_fit_score {
    double pos_m, ori_deg;
    long events, fallbacks;
    int failed; /* replays that did not run to the end */
} cli_fit_score;

/// Replays recs[index[i]], i < n, under params and averages their errors. 0; 2 (bad model or
/// parameters), 1 (a failed simulation) or -1 (a worker that died), with a message.
int cli_fit_score_set(const cli_fit_problem *fp, const char *params, const int *index, int n,
                      cli_fit_score *score, char *message, size_t message_size);

/// Fits spec on recs[index[i]], i < n: x (spec->n) gets the best values found, score their
/// training score, *evals the evaluations used. 0, or as cli_fit_score_set (1 also when NLopt
/// fails), with a message.
int cli_fit_train(const cli_fit_problem *fp, const cli_fit_spec *spec, const int *index, int n,
                  double *x, cli_fit_score *score, int *evals, char *message, size_t message_size);

#endif
