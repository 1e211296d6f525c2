#include <siconos/numerics/LCP_Solvers.h>
#include <siconos/numerics/LinearComplementarityProblem.h>
#include <siconos/numerics/NumericsMatrix.h>
#include <siconos/numerics/SolverOptions.h>
#include <siconos/numerics/lcp_cst.h>
#include <stdlib.h>
#include <string.h>

#include "siconos_lcp.h"

int ipx_siconos_lexicolemke(int n, const double *M, const double *q, double *z, double *w)
{
    double *Mcopy = malloc(sizeof(double) * (size_t)n * (size_t)n);
    double *qcopy = malloc(sizeof(double) * (size_t)n);
    memcpy(Mcopy, M, sizeof(double) * (size_t)n * (size_t)n); /* Siconos stores column-major too */
    memcpy(qcopy, q, sizeof(double) * (size_t)n);
    LinearComplementarityProblem problem = {n, NM_create_from_data(NM_DENSE, n, n, Mcopy), qcopy};
    SolverOptions *options = solver_options_create(SICONOS_LCP_LEMKE);
    options->iparam[SICONOS_IPARAM_MAX_ITER] = 100 * n + 1000;
    int info = 0;
    memset(z, 0, sizeof(double) * (size_t)n);
    memset(w, 0, sizeof(double) * (size_t)n);
    lcp_lexicolemke(&problem, z, w, &info, options);
    solver_options_delete(options);
    NM_free_not_dense(problem.M); /* our copy of M is freed below */
    free(Mcopy);
    free(qcopy);
    return info;
}
