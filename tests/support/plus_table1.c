/* PLUS's Table 1 systems for the solver tests (plus_table1.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "plus_table1.h"

int ipx_test_table1(int k, const double *W, const double *v, const int *st, const double *phi,
                    double mu, double *B, double *w, int *pos, int *col)
{
    const int n = 3 * k;
    int m = 0;
    for (int i = 0; i < n; i++) pos[i] = -1;
    for (int c = 0; c < k; c++) {
        if (!st[c]) continue;
        if (st[c] != T1_FRICTIONLESS)
            pos[3 * c] = m, col[m++] = 3 * c, pos[3 * c + 1] = m, col[m++] = 3 * c + 1;
        pos[3 * c + 2] = m, col[m++] = 3 * c + 2;
    }
    memset(B, 0, sizeof(double) * (size_t)m * (size_t)m);
    for (int c = 0; c < k; c++) {
        if (!st[c]) continue;
        for (int t = 0; t < 3; t++) {
            const int i = 3 * c + t, r = pos[i];
            if (r < 0) continue;
            const int velocity = t == 2 ? st[c] != T1_EXPANDING : st[c] == T1_ROLLING;
            if (velocity) {
                for (int j = 0; j < m; j++) B[r + (size_t)m * j] = W[i + (size_t)n * col[j]];
                w[r] = -v[i];
            } else if (t == 2) { /* expanding: pi_n = remaining expansion impulse */
                B[r + (size_t)m * r] = 1.0;
                w[r] = 0.3;
            } else { /* pi_t + mu s_t pi_n = 0 */
                B[r + (size_t)m * r] = 1.0;
                B[r + (size_t)m * pos[3 * c + 2]] = mu * (t == 0 ? cos(phi[c]) : sin(phi[c]));
                w[r] = 0.0;
            }
        }
    }
    return m;
}

ipx_test_table1_arrays ipx_test_table1_alloc(int k)
{
    const size_t kk = (size_t)k, n = 3 * kk;
    return (ipx_test_table1_arrays){.st = malloc(sizeof(int) * kk),
                                    .pos = malloc(sizeof(int) * n),
                                    .col = malloc(sizeof(int) * n),
                                    .phi = malloc(sizeof(double) * kk),
                                    .B = malloc(sizeof(double) * n * n),
                                    .w = malloc(sizeof(double) * n)};
}

void ipx_test_table1_free(ipx_test_table1_arrays *a)
{
    free(a->st), free(a->pos), free(a->col), free(a->phi), free(a->B), free(a->w);
}
