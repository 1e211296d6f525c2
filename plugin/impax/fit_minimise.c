/* impax fit's use of NLopt (fit_minimise.h). */
#include "fit_minimise.h"

#include <stdlib.h>

nlopt_result cli_fit_minimise(int algorithm, unsigned dim, double *u, double xtol, int max_evals,
                              nlopt_func objective, void *data, nlopt_opt *running)
{
    nlopt_opt opt = nlopt_create((nlopt_algorithm)algorithm, dim);
    double *bounds = malloc(2 * (size_t)(dim ? dim : 1) * sizeof *bounds);
    if (!opt || !bounds) {
        nlopt_destroy(opt);
        free(bounds);
        return NLOPT_OUT_OF_MEMORY;
    }
    for (unsigned k = 0; k < dim; k++) {
        bounds[k] = 0;
        bounds[dim + k] = 1;
    }
    nlopt_set_lower_bounds(opt, bounds);
    nlopt_set_upper_bounds(opt, bounds + dim);
    nlopt_set_min_objective(opt, objective, data);
    nlopt_set_xtol_abs1(opt, xtol);
    nlopt_set_maxeval(opt, max_evals);
    nlopt_set_initial_step1(opt, 0.1);
    *running = opt;
    double f;
    const nlopt_result res = nlopt_optimize(opt, u, &f);
    *running = NULL;
    nlopt_destroy(opt);
    free(bounds);
    return res;
}
