#include <math.h>
#include <string.h>

#include "lcp_gen.h"

#define GEN_N_MAX 256
#define GEN_PI 3.14159265358979323846

const char *ipx_lcp_class_name(ipx_lcp_class cls)
{
    static const char *const names[IPX_LCP_N_CLASSES] = {"spd", "psd", "p-matrix", "monotone",
                                                         "impact"};
    return (unsigned)cls < IPX_LCP_N_CLASSES ? names[cls] : "?";
}

/* G (ld x ld block at the top left of the ld-leading-dimension array) = B B^T, B rows x r. */
static void gram(int rows, int r, const double *B, double *G, int ld)
{
    for (int j = 0; j < rows; j++)
        for (int i = 0; i < rows; i++) {
            double s = 0.0;
            for (int c = 0; c < r; c++) s += B[i + rows * c] * B[j + rows * c];
            G[i + (size_t)ld * j] = s;
        }
}

static void gaussian(double *x, int count, ipx_rng *rng)
{
    for (int i = 0; i < count; i++) x[i] = ipx_rng_normal(rng);
}

void ipx_lcp_planted_q(int n, const double *M, ipx_rng *rng, double *q, double *z_star)
{
    for (int i = 0; i < n; i++) {
        int active = ipx_rng_uniform(rng, 0.0, 1.0) < 0.5;
        z_star[i] = active ? ipx_rng_uniform(rng, 0.0, 2.0) : 0.0;
        q[i] = active ? 0.0 : ipx_rng_uniform(rng, 0.0, 2.0); /* w*_i */
    }
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) q[i] -= M[i + (size_t)n * j] * z_star[j];
}

/* The Anitescu-Potra impact LCP of k contacts among random bodies (see lcp_gen.h). */
static void impact(int n, ipx_rng *rng, double *M, double *q)
{
    static double J[GEN_N_MAX * 6 * GEN_N_MAX], Minv[6 * GEN_N_MAX], u[6 * GEN_N_MAX];
    const int nd = ipx_rng_uniform(rng, 0.0, 1.0) < 0.5 ? 2 : 4;
    const int kf = n / (nd + 2), k = n - (nd + 1) * kf; /* k contacts, the first kf with friction */
    const int nb = 1 + k / 2, m = 6 * nb, rows = k + nd * kf;
    double size[GEN_N_MAX];
    for (int b = 0; b < nb; b++) {
        double inv_mass = pow(10.0, ipx_rng_uniform(rng, -1.0, 1.0));
        size[b] = ipx_rng_uniform(rng, 0.05, 0.5);
        for (int a = 0; a < 3; a++) {
            Minv[6 * b + a] = inv_mass;
            Minv[6 * b + 3 + a] = 6.0 * inv_mass / (size[b] * size[b]); /* solid of that size */
        }
    }
    memset(J, 0, sizeof(double) * (size_t)rows * (size_t)m);
    for (int c = 0; c < k; c++) {
        /* normal and tangents: a random orthonormal frame */
        double nrm[3], t1[3], t2[3];
        gaussian(nrm, 3, rng);
        double len = sqrt(nrm[0] * nrm[0] + nrm[1] * nrm[1] + nrm[2] * nrm[2]);
        for (int a = 0; a < 3; a++) nrm[a] /= len;
        double e[3] = {fabs(nrm[0]) < 0.6 ? 1.0 : 0.0, fabs(nrm[0]) < 0.6 ? 0.0 : 1.0, 0.0};
        t1[0] = nrm[1] * e[2] - nrm[2] * e[1], t1[1] = nrm[2] * e[0] - nrm[0] * e[2],
        t1[2] = nrm[0] * e[1] - nrm[1] * e[0];
        len = sqrt(t1[0] * t1[0] + t1[1] * t1[1] + t1[2] * t1[2]);
        for (int a = 0; a < 3; a++) t1[a] /= len;
        t2[0] = nrm[1] * t1[2] - nrm[2] * t1[1], t2[1] = nrm[2] * t1[0] - nrm[0] * t1[2],
        t2[2] = nrm[0] * t1[1] - nrm[1] * t1[0];
        /* body A, and body B or the world (probability 0.3) */
        int body[2], nbod = 1;
        body[0] = (int)(ipx_rng_next(rng) % (uint64_t)nb);
        if (nb > 1 && ipx_rng_uniform(rng, 0.0, 1.0) >= 0.3) {
            body[1] = (body[0] + 1 + (int)(ipx_rng_next(rng) % (uint64_t)(nb - 1))) % nb;
            nbod = 2;
        }
        /* its rows: the normal, then nd directions d_j = cos(2 pi j/nd) t1 + sin(2 pi j/nd) t2 */
        int nrows = c < kf ? 1 + nd : 1;
        for (int s = 0; s < nbod; s++) {
            const int b = body[s];
            const double sign = s == 0 ? 1.0 : -1.0;
            double r[3];
            for (int a = 0; a < 3; a++) r[a] = size[b] * ipx_rng_uniform(rng, -1.0, 1.0);
            for (int d = 0; d < nrows; d++) {
                double dir[3];
                int row;
                if (d == 0) {
                    memcpy(dir, nrm, sizeof dir);
                    row = c;
                } else {
                    double ang = 2.0 * GEN_PI * (d - 1) / nd;
                    for (int a = 0; a < 3; a++) dir[a] = cos(ang) * t1[a] + sin(ang) * t2[a];
                    row = k + nd * c + (d - 1);
                }
                const double rx[3] = {r[1] * dir[2] - r[2] * dir[1], r[2] * dir[0] - r[0] * dir[2],
                                      r[0] * dir[1] - r[1] * dir[0]};
                for (int a = 0; a < 3; a++) {
                    J[row + (size_t)rows * (size_t)(6 * b + a)] += sign * dir[a];
                    J[row + (size_t)rows * (size_t)(6 * b + 3 + a)] += sign * rx[a];
                }
            }
        }
    }
    /* M: G = J Minv J^T in the top-left rows x rows block, E, mu and -E^T around it */
    memset(M, 0, sizeof(double) * (size_t)n * (size_t)n);
    for (int j = 0; j < rows; j++)
        for (int i = 0; i < rows; i++) {
            double s = 0.0;
            for (int a = 0; a < m; a++)
                s += J[i + (size_t)rows * a] * Minv[a] * J[j + (size_t)rows * a];
            M[i + (size_t)n * j] = s;
        }
    for (int f = 0; f < kf; f++) {
        const int g = rows + f;                                /* gamma_f's row and column */
        M[g + (size_t)n * f] = ipx_rng_uniform(rng, 0.1, 1.0); /* mu_f, column of lambda_n,f */
        for (int d = 0; d < nd; d++) {
            const int row = k + nd * f + d;
            M[row + (size_t)n * g] = 1.0;  /* E */
            M[g + (size_t)n * row] = -1.0; /* -E^T */
        }
    }
    /* q = [Jbar u; 0], with at least one contact approaching */
    gaussian(u, m, rng);
    for (int i = 0; i < n; i++) q[i] = 0.0;
    for (int a = 0; a < m; a++)
        for (int i = 0; i < rows; i++) q[i] += J[i + (size_t)rows * a] * u[a];
    double vmin = INFINITY;
    for (int c = 0; c < k; c++) vmin = fmin(vmin, q[c]);
    if (vmin > 0.0)
        for (int i = 0; i < rows; i++) q[i] = -q[i];
}

int ipx_lcp_generate(ipx_lcp_class cls, int n, ipx_rng *rng, double *M, double *q, double *z_star)
{
    static double B[GEN_N_MAX * GEN_N_MAX], C[GEN_N_MAX * GEN_N_MAX], zs[GEN_N_MAX];
    double *zp = z_star ? z_star : zs;
    switch (cls) {
    case IPX_LCP_SPD:
    case IPX_LCP_PSD: {
        const int r = cls == IPX_LCP_SPD ? n : n / 2 + 1;
        gaussian(B, n * r, rng);
        gram(n, r, B, M, n);
        if (cls == IPX_LCP_SPD)
            for (int i = 0; i < n; i++) M[i + (size_t)n * i] += 0.1;
        break;
    }
    case IPX_LCP_P_MATRIX: {
        gaussian(B, n * n, rng);
        gram(n, n, B, C, n); /* S */
        double d1[GEN_N_MAX], d2[GEN_N_MAX];
        for (int i = 0; i < n; i++) {
            C[i + (size_t)n * i] += 0.1;
            d1[i] = exp(ipx_rng_uniform(rng, -2.0, 2.0));
            d2[i] = exp(ipx_rng_uniform(rng, -2.0, 2.0));
        }
        gaussian(B, n * n, rng);
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++) { /* S + (B - B^T), scaled */
                double k = B[i + (size_t)n * j] - B[j + (size_t)n * i];
                M[i + (size_t)n * j] = d1[i] * (C[i + (size_t)n * j] + k) * d2[j];
            }
        break;
    }
    case IPX_LCP_MONOTONE: {
        const int n2 = n / 3, n1 = n - n2, r = n1 / 2 + 1;
        memset(M, 0, sizeof(double) * (size_t)n * (size_t)n);
        gaussian(B, n1 * r, rng);
        gram(n1, r, B, M, n);
        for (int i = 0; i < n2; i++)
            for (int j = 0; j < n1; j++) {
                double a = ipx_rng_normal(rng);
                M[(n1 + i) + (size_t)n * j] = a;  /* A */
                M[j + (size_t)n * (n1 + i)] = -a; /* -A^T */
            }
        break;
    }
    case IPX_LCP_IMPACT: impact(n, rng, M, q); return 0;
    default: return 0;
    }
    if ((cls == IPX_LCP_SPD || cls == IPX_LCP_P_MATRIX) && ipx_rng_uniform(rng, 0.0, 1.0) < 0.5) {
        gaussian(q, n, rng);
        return 0;
    }
    ipx_lcp_planted_q(n, M, rng, q, zp);
    return 1;
}
