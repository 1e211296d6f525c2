/* low_rank.h: random matrices of a chosen rank. */
#include "low_rank.h"

void ipx_gen_low_rank(ipx_rng *rng, int m, int n, int r, double *A, double *L, double *R)
{
    for (int i = 0; i < m * r; i++) L[i] = ipx_rng_normal(rng);
    for (int i = 0; i < r * n; i++) R[i] = ipx_rng_normal(rng);
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++) {
            double s = 0.0;
            for (int l = 0; l < r; l++) s += L[i + m * l] * R[l + r * j];
            A[i + m * j] = s;
        }
}
