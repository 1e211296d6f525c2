#include "anitescu_potra.h"
#include "impax/problem.h"
#include "mathutil.h"
#include "units.h"

void ipx_ap_layout_init(ipx_ap_layout *L, const ipx_problem *p, int nd, int *fric, double *scale)
{
    L->fric = fric;
    L->scale = scale;
    L->k = p->k;
    L->nd = nd;
    L->kf = 0;
    for (int i = 0; i < p->k; i++)
        if (p->contact[i].mu > 0.0) L->fric[L->kf++] = i;
    L->size = L->k + (nd + 1) * L->kf;
    L->mass_unit = ipx_problem_mass_unit(p);
    for (int i = 0; i < p->k; i++)
        L->scale[i] = ipx_contact_scale(L->mass_unit,
                                        ipx_problem_W_diag(p, IPX_ROWS_PER_CONTACT * i + IPX_N));
    for (int d = 0; d < nd; d++) {
        double angle = 2.0 * IPX_PI * d / nd;
        L->dir[2 * d] = cos(angle);
        L->dir[2 * d + 1] = sin(angle);
    }
}

double ipx_ap_cone_row_scale(const ipx_problem *p, int i)
{
    const double mu = p->contact[i].mu;
    return mu > 1.0 ? 1.0 / mu : 1.0;
}

int ipx_ap_max_size(int k, int nd) { return k + (nd + 1) * k; }

double ipx_ap_row_scale(const ipx_ap_layout *L, int i) { return L->scale[i] / L->mass_unit; }

/* W entry between row a of contact i and row b of contact j, in the layout's units
   (r_i W c_j: a pure number; every factor a power of two, so exact). */
static double w_at(const ipx_ap_layout *L, const ipx_problem *p, int i, int a, int j, int b)
{
    int n = IPX_ROWS_PER_CONTACT * p->k;
    return ipx_ap_row_scale(L, i) * L->scale[j] *
           p->W[(IPX_ROWS_PER_CONTACT * i + a) + (size_t)n * (IPX_ROWS_PER_CONTACT * j + b)];
}

/* W between direction d of contact i and row b of contact j: d^T [W_t1,b; W_t2,b]. */
static double wd_at(const ipx_ap_layout *L, const ipx_problem *p, int i, int d, int j, int b)
{
    return L->dir[2 * d] * w_at(L, p, i, IPX_T1, j, b) +
           L->dir[2 * d + 1] * w_at(L, p, i, IPX_T2, j, b);
}

void ipx_ap_fill(const ipx_ap_layout *L, const ipx_problem *p, const double *v, double *M, int ld,
                 int off, double *q)
{
    const int k = L->k, nd = L->nd, kf = L->kf;
    const int D0 = off + k, G0 = off + k + nd * kf; /* first lambda_D and first gamma index */
#define AT(r, c) M[(size_t)(r) + (size_t)ld * (size_t)(c)]
    for (int c = off; c < off + L->size; c++)
        for (int r = off; r < off + L->size; r++) AT(r, c) = 0.0;

    for (int i = 0; i < k; i++) {
        for (int j = 0; j < k; j++) AT(off + i, off + j) = w_at(L, p, i, IPX_N, j, IPX_N);
        for (int f = 0; f < kf; f++)
            for (int d = 0; d < nd; d++) {
                double g = wd_at(L, p, L->fric[f], d, i, IPX_N);
                AT(off + i, D0 + nd * f + d) = g; /* G_nD */
                AT(D0 + nd * f + d, off + i) = g; /* G_Dn */
            }
    }
    for (int f = 0; f < kf; f++) {
        int ci = L->fric[f];
        for (int d = 0; d < nd; d++) {
            int row = D0 + nd * f + d;
            for (int g = 0; g < kf; g++) {
                int cj = L->fric[g];
                for (int e = 0; e < nd; e++)
                    AT(row, D0 + nd * g + e) = L->dir[2 * e] * wd_at(L, p, ci, d, cj, IPX_T1) +
                                               L->dir[2 * e + 1] * wd_at(L, p, ci, d, cj, IPX_T2);
            }
            AT(row, G0 + f) = 1.0;                           /* E */
            AT(G0 + f, row) = -ipx_ap_cone_row_scale(p, ci); /* -E^T, divided by max(1, mu) */
        }
        /* mu lambda_n - E^T lambda_D >= 0, divided by max(1, mu) (anitescu_potra.h) */
        AT(G0 + f, off + ci) = p->contact[ci].mu * ipx_ap_cone_row_scale(p, ci);
    }
#undef AT
    ipx_ap_fill_q(L, v, q + off);
}

void ipx_ap_fill_q(const ipx_ap_layout *L, const double *v, double *q)
{
    for (int i = 0; i < L->k; i++)
        q[i] = ipx_ap_row_scale(L, i) * v[IPX_ROWS_PER_CONTACT * i + IPX_N];
    for (int f = 0; f < L->kf; f++) {
        const double *vc = v + IPX_ROWS_PER_CONTACT * L->fric[f],
                     c = ipx_ap_row_scale(L, L->fric[f]);
        for (int d = 0; d < L->nd; d++)
            q[L->k + L->nd * f + d] =
                c * (L->dir[2 * d] * vc[IPX_T1] + L->dir[2 * d + 1] * vc[IPX_T2]);
        q[L->k + L->nd * L->kf + f] = 0.0;
    }
}

void ipx_ap_impulse(const ipx_ap_layout *L, const double *z, double *pi)
{
    for (int i = 0; i < IPX_ROWS_PER_CONTACT * L->k; i++) pi[i] = 0.0;
    for (int i = 0; i < L->k; i++) pi[IPX_ROWS_PER_CONTACT * i + IPX_N] = L->scale[i] * z[i];
    for (int f = 0; f < L->kf; f++) {
        double *pc = pi + IPX_ROWS_PER_CONTACT * L->fric[f];
        const double s = L->scale[L->fric[f]];
        for (int d = 0; d < L->nd; d++) {
            double lam = s * z[L->k + L->nd * f + d];
            pc[IPX_T1] += lam * L->dir[2 * d];
            pc[IPX_T2] += lam * L->dir[2 * d + 1];
        }
    }
}
