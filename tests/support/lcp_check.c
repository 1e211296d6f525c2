#include <math.h>
#include <stdlib.h>

#include "lcp_check.h"

double ipx_test_lcp_violation(int n, const double *M, const double *q, const double *z,
                              const double *w)
{
    double zmax = 1e-300, S = 1e-300, worst = 0.0;
    double *wr = malloc(sizeof(double) * (size_t)n);
    if (!wr) return INFINITY;
    for (int i = 0; i < n; i++) {
        double terms = fabs(q[i]);
        wr[i] = q[i];
        for (int j = 0; j < n; j++) {
            wr[i] += M[i + (size_t)n * j] * z[j];
            terms += fabs(M[i + (size_t)n * j] * z[j]);
        }
        S = fmax(S, terms);
        zmax = fmax(zmax, fabs(z[i]));
    }
    for (int i = 0; i < n; i++) {
        worst = fmax(worst, fmax(-z[i] / zmax, -wr[i] / S));
        worst = fmax(worst, fabs(z[i] * wr[i]) / (zmax * S));
        if (w) worst = fmax(worst, fabs(w[i] - wr[i]) / S);
    }
    free(wr);
    return worst;
}
