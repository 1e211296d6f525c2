#include "ap_dense.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PI 3.14159265358979323846

/* The rows of contact c that unknown a (an impulse unknown) combines: its contact and weights. */
static int impulse_row(const ipx_test_ap *a, int r, double w[3])
{
    w[0] = w[1] = w[2] = 0.0;
    if (r < a->k) {
        w[IPX_N] = 1.0;
        return r;
    }
    const int d = (r - a->k) % a->nd;
    w[0] = a->dir[d][0];
    w[1] = a->dir[d][1];
    return a->fric[(r - a->k) / a->nd];
}

int ipx_test_ap_make(ipx_test_ap *a, const ipx_problem *p, const double *shift, int nd)
{
    memset(a, 0, sizeof *a);
    const int k = p->k, n3 = 3 * k;
    a->k = k;
    a->nd = nd;
    for (int d = 0; d < nd; d++) {
        a->dir[d][0] = cos(2.0 * PI * d / nd);
        a->dir[d][1] = sin(2.0 * PI * d / nd);
    }
    a->fric = malloc(sizeof(int) * ((size_t)k + 1));
    if (!a->fric) return -1;
    for (int i = 0; i < k; i++)
        if (p->contact[i].mu > 0.0) a->fric[a->kf++] = i;
    a->nl = k + nd * a->kf;
    a->n = a->nl + a->kf;
    const size_t n = (size_t)a->n;
    a->M = calloc(n * n, sizeof(double));
    a->q = calloc(n, sizeof(double));
    if (!a->M || !a->q) {
        ipx_test_ap_free(a);
        return -1;
    }
    for (int c = 0; c < a->nl; c++) {
        double wc[3];
        const int cc = impulse_row(a, c, wc);
        for (int r = 0; r < a->nl; r++) {
            double wr[3];
            const int cr = impulse_row(a, r, wr);
            double g = 0.0;
            for (int x = 0; x < 3; x++)
                for (int y = 0; y < 3; y++)
                    g += wr[x] * p->W[(size_t)(3 * cr + x) + (size_t)n3 * (size_t)(3 * cc + y)] *
                         wc[y];
            a->M[r + n * (size_t)c] = g;
        }
    }
    for (int f = 0; f < a->kf; f++) {
        const size_t gamma = (size_t)(a->nl + f);
        for (int d = 0; d < nd; d++) {
            const size_t row = (size_t)(k + nd * f + d);
            a->M[row + n * gamma] = 1.0;
            a->M[gamma + n * row] = -1.0;
        }
        a->M[gamma + n * (size_t)a->fric[f]] = p->contact[a->fric[f]].mu;
    }
    for (int i = 0; i < k; i++) a->q[i] = p->v[3 * i + IPX_N] + (shift ? shift[i] : 0.0);
    for (int r = k; r < a->nl; r++) {
        double w[3];
        const int c = impulse_row(a, r, w);
        a->q[r] = w[0] * p->v[3 * c] + w[1] * p->v[3 * c + 1];
    }
    return 0;
}

void ipx_test_ap_free(ipx_test_ap *a)
{
    free(a->fric), free(a->M), free(a->q);
    memset(a, 0, sizeof *a);
}

/* The least multipliers lambda_d >= 0 of the directions whose combination is x: the two
   directions of x's sector (nd = 2: +-t1). */
static void multipliers(const ipx_test_ap *a, const double x[2], double *lam)
{
    const int nd = a->nd;
    for (int d = 0; d < nd; d++) lam[d] = 0.0;
    if (nd == 2) {
        lam[x[0] >= 0.0 ? 0 : 1] = fabs(x[0]);
        return;
    }
    if (x[0] == 0.0 && x[1] == 0.0) return;
    const double step = 2.0 * PI / nd;
    double ang = atan2(x[1], x[0]);
    if (ang < 0.0) ang += 2.0 * PI;
    int j = (int)(ang / step);
    if (j >= nd) j = nd - 1;
    const double a0 = j * step, a1 = (j + 1) * step, det = sin(step);
    const double ca = (x[0] * sin(a1) - x[1] * cos(a1)) / det,
                 cb = (cos(a0) * x[1] - sin(a0) * x[0]) / det;
    lam[j] = fmax(ca, 0.0);
    lam[(j + 1) % nd] = fmax(cb, 0.0);
}

void ipx_test_ap_z_of(const ipx_test_ap *a, const ipx_problem *p, const double *pi, double *z)
{
    const int k = a->k, n3 = 3 * k;
    for (int i = 0; i < k; i++) z[i] = pi[3 * i + IPX_N];
    for (int f = 0; f < a->kf; f++) {
        const int c = a->fric[f];
        multipliers(a, pi + 3 * c, z + k + a->nd * f);
        double vt[2];
        for (int x = 0; x < 2; x++) {
            const int r = 3 * c + x;
            vt[x] = p->v[r];
            for (int col = 0; col < n3; col++)
                vt[x] += p->W[(size_t)r + (size_t)n3 * (size_t)col] * pi[col];
        }
        double gamma = 0.0;
        for (int d = 0; d < a->nd; d++)
            gamma = fmax(gamma, -(a->dir[d][0] * vt[0] + a->dir[d][1] * vt[1]));
        z[a->nl + f] = gamma;
    }
}

void ipx_test_ap_impulse_of(const ipx_test_ap *a, const double *z, double *pi)
{
    memset(pi, 0, sizeof(double) * 3 * (size_t)a->k);
    for (int r = 0; r < a->nl; r++) {
        double w[3];
        const int c = impulse_row(a, r, w);
        for (int x = 0; x < 3; x++) pi[3 * c + x] += w[x] * z[r];
    }
}

/* Row r of w = q + M z. */
static double row_w(const ipx_test_ap *a, const double *z, size_t r)
{
    const size_t n = (size_t)a->n;
    double w = a->q[r];
    for (size_t c = 0; c < n; c++) w += a->M[r + n * c] * z[c];
    return w;
}

/* 1/kg: the mean of contact i's tangential diagonal of W, (W_t1t1 + W_t2t2) / 2. */
static double tangential_mean(const ipx_test_ap *a, const ipx_problem *p, int i)
{
    const size_t rows = 3 * (size_t)a->k;
    const double *Wt = p->W + 3 * (size_t)i * (rows + 1);
    return 0.5 * (Wt[0] + Wt[rows + 1]);
}

double ipx_test_ap_residual(const ipx_test_ap *a, const ipx_problem *p, const double *pi)
{
    const size_t n = (size_t)a->n;
    double *z = malloc(sizeof(double) * n);
    if (!z) return 1e300;
    ipx_test_ap_z_of(a, p, pi, z);
    double Z = 1e-300, V = 1e-300;
    for (int i = 0; i < a->nl; i++) Z = fmax(Z, fabs(z[i])), V = fmax(V, fabs(a->q[i]));
    for (int f = 0; f < a->kf; f++) V = fmax(V, z[a->nl + f]);
    double worst = 0.0;
    for (int i = 0; i < a->k;
         i++) { /* a frictionless contact takes no tangential impulse; nd = 2: none along t2 */
        const double t = p->contact[i].mu > 0.0 ? (a->nd == 2 ? fabs(pi[3 * i + 1]) : 0.0)
                                                : fmax(fabs(pi[3 * i]), fabs(pi[3 * i + 1]));
        worst = fmax(worst, t / Z);
    }
    for (size_t r = 0; r < n; r++) {
        const double w = row_w(a, z, r);
        const int impulse = r < (size_t)a->nl; /* z an impulse, w a velocity; else the other way */
        const double s = z[r] / (impulse ? Z : V), t = w / (impulse ? V : Z);
        worst = fmax(worst, fmax(fmax(-s, -t), fmin(s, t)));
    }
    free(z);
    return worst;
}

double ipx_test_ap_row_velocity(const ipx_test_ap *a, const ipx_problem *p, const double *pi,
                                double *work)
{
    const size_t n = (size_t)a->n;
    double *z = malloc(sizeof(double) * n);
    *work = 1e300;
    if (!z) return 1e300;
    ipx_test_ap_z_of(a, p, pi, z);
    double Z = 1e-300, worst = 0.0, most = 0.0;
    for (int i = 0; i < a->nl; i++) Z = fmax(Z, fabs(z[i]));
    for (int i = 0; i < a->k; i++)
        if (p->contact[i].mu == 0.0)
            worst =
                fmax(worst, fmax(fabs(pi[3 * i]), fabs(pi[3 * i + 1])) * tangential_mean(a, p, i));
    for (size_t r = 0; r < n; r++) {
        const double w = row_w(a, z, r);
        double zv = z[r] * a->M[r + n * r], wv = w; /* both in m/s */
        if (r >= (size_t)a->nl) { /* gamma (m/s) against the friction bound's impulse */
            zv = z[r];
            wv = w * tangential_mean(a, p, a->fric[r - (size_t)a->nl]);
        }
        worst = fmax(worst, fmax(fmax(-zv, -wv), fmin(zv, wv)));
        if (r < (size_t)a->nl) most = fmax(most, fmax(0.0, z[r]) * fmax(0.0, w));
    }
    free(z);
    *work = most / Z;
    return worst;
}

double ipx_test_ap_residual_of(const ipx_problem *p, const double *pi, const double *shift, int nd)
{
    ipx_test_ap a;
    if (ipx_test_ap_make(&a, p, shift, nd)) return 1e300;
    const double res = ipx_test_ap_residual(&a, p, pi);
    ipx_test_ap_free(&a);
    return res;
}

void ipx_test_ap_contact_order(const ipx_test_ap *a, int *order, int *start)
{
    int f = 0, r = 0;
    for (int i = 0; i < a->k; i++) {
        start[i] = r;
        order[r++] = i;
        if (f < a->kf && a->fric[f] == i) {
            for (int d = 0; d < a->nd; d++) order[r++] = a->k + a->nd * f + d;
            order[r++] = a->nl + f;
            f++;
        }
    }
    start[a->k] = r;
}
