/// impax fit's use of NLopt, in one place for every fit that must be made the same way: impax
/// fit's own (fit.c) and the anchors' in MuJoCo and Bullet (bench/anchors).
#ifndef IMPAX_CLI_FIT_MINIMISE_H
#define IMPAX_CLI_FIT_MINIMISE_H

#include <nlopt.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Minimises objective(dim, u, NULL, data) over the unit box [0, 1]^dim (the parameters scaled
/// to their bounds) with algorithm (an nlopt_algorithm), starting at u with a first step of 0.1,
/// stopping when a step moves every coordinate by less than xtol or after max_evals
/// evaluations. u gets NLopt's final point. *running is the optimiser while it runs, so that
/// objective can nlopt_force_stop it. NLopt's result (NLOPT_OUT_OF_MEMORY when no optimiser
/// could be made).
nlopt_result cli_fit_minimise(int algorithm, unsigned dim, double *u, double xtol, int max_evals,
                              nlopt_func objective, void *data, nlopt_opt *running);

#ifdef __cplusplus
}
#endif
#endif
