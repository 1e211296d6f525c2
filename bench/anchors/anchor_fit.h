/// The anchors' fit: a simulator's parameters fitted to recordings as `impax fit` fits a model's
/// (plugin/impax/fit.c), through the same minimiser (plugin/impax/fit_minimise.h: NLopt over
/// the parameters scaled to [0, 1]), the best evaluation kept; the objective is the mean over
/// the recordings of their replays' mean position error.
#ifndef IMPAX_ANCHOR_FIT_H
#define IMPAX_ANCHOR_FIT_H

#include "anchor.h"

typedef struct anchor_fit_problem {
    const anchor_sim *sim;
    const anchor_scene *scene;
    const cli_recording *recs;
    int n_fitted;      /* the first n_fitted of sim->params are fitted, the rest fixed */
    int max_evals;     /* objective evaluations per fit */
    int algorithm;     /* an nlopt_algorithm (impax fit's default: NLOPT_LN_SBPLX) */
    double xtol;       /* as impax fit's --xtol */
    int verbose;       /* every evaluation on stderr */
    const char *stage; /* what the evaluation lines call the fit under way */
} anchor_fit_problem;

/// The mean over recs[index[i]], i < n, of their replays' errors at values (every one of
/// sim->params). 0, or -1 with a message.
int anchor_fit_score(const anchor_fit_problem *fp, const double *values, const int *index, int n,
                     anchor_error *mean, char *message, size_t message_size);

/// Fits on recs[index[i]], i < n: values (every one of sim->params) gets the best found, trained
/// its score, *evals the evaluations used. 0, or -1 with a message.
int anchor_fit_train(const anchor_fit_problem *fp, const int *index, int n, double *values,
                     anchor_error *trained, int *evals, char *message, size_t message_size);

#endif
