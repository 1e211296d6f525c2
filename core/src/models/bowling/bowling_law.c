/* The Flickinger-Bowling row laws (docs/models/bowling.md §3.3, 3.4): the targets of every row, the square linear
   system of one candidate active set, solved for its impulse (I1, I2), and the test of a
   candidate against every condition of the law. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bowling_ctx.h"
#include "numerics/min_norm.h"
#include "result_internal.h"

/* Normal (Newton-type): v_n+ = -e v_n- when the approach beats v_capture, else 0 (persistent
   contact, or one pushed into S by the others). Tangential and moment CORs: v+ = -e_t v-,
   w+ = -e_m w-. Every COR is scaled by lambda (3.5). */
void bw_targets(bw_ctx *c, const bw_cor *cor)
{
    const double e_t = cor->lambda * c->param[IPX_BOWLING_E_T];
    const double e_m = cor->lambda * c->param[IPX_BOWLING_E_M];
    for (int i = 0; i < c->k; i++) {
        const ipx_contact *ct = &c->p->contact[i];
        const double *v = c->p->v + c->r * i;
        double *b = c->b + c->r * i;
        const double approach = -v[IPX_N];
        const double e = cor->common_en >= 0.0 ? cor->common_en : ct->e;
        b[IPX_N] = approach > ct->v_capture ? cor->lambda * e * approach : 0.0;
        b[IPX_T1] = -e_t * v[IPX_T1];
        b[IPX_T2] = -e_t * v[IPX_T2];
        for (int j = 3; j < c->r; j++) b[j] = -e_m * v[j];
    }
}

double bw_apply(const bw_ctx *c, const double *pi, double *vp)
{
    return ipx_velocity_after(c->n, c->p->W, c->p->v, pi, vp);
}

ipx_status bw_lsq(bw_ctx *c, int m, double *A, double *x, int *rank_out)
{
    const double rcond = c->param[IPX_BOWLING_RCOND];
    if (!bw_charge(c, (double)m * (double)m * (double)m)) return IPX_ERR_NOT_CONVERGED;
    c->counts->lsq_solves++;
    ipx_status st = ipx_min_norm_solve(m, A, x, rcond, &c->lsq, c->iwork, rank_out);
    if (st != IPX_OK)
        snprintf(c->message, IPX_MESSAGE_SIZE, "bowling: min-norm solve of %d unknowns failed", m);
    return st;
}

/* Unknowns: the normal row and the sticking groups' rows of every contact in S. A slipping
   group's rows follow its normal impulse, pi_g = -c_d pi_n s, so they fold into the normal
   unknown's column. Returns the number of unknowns. */
static int unknowns(bw_ctx *c)
{
    int m = 0;
    for (int i = 0; i < c->k; i++) {
        if (!c->cur.active[i]) continue;
        c->unk[m++] = c->r * i + IPX_N;
        for (int g = 0; g < c->groups; g++)
            if (!c->cur.slip[i][g])
                for (int j = 0; j < bw_group_dim(g); j++)
                    c->unk[m++] = c->r * i + bw_group_row(g, j);
    }
    return m;
}

/* Column u of the system: the change of every equation row per unit of unknown u. */
static void column(bw_ctx *c, int m, int u, double *col)
{
    const int n = c->n, row = c->unk[u], i = row / c->r;
    const double *W = c->p->W;
    for (int e = 0; e < m; e++) col[e] = W[c->unk[e] + (size_t)n * row];
    if (row % c->r != IPX_N) return;
    for (int g = 0; g < c->groups; g++) {
        const double cd = bw_slip_limit(c, i, g);
        if (!c->cur.slip[i][g] || cd == 0.0) continue;
        for (int j = 0; j < bw_group_dim(g); j++) {
            const double coef = -cd * c->cur.dir[i][g][j];
            const double *Wg = W + (size_t)n * (size_t)(c->r * i + bw_group_row(g, j));
            for (int e = 0; e < m; e++) col[e] += coef * Wg[c->unk[e]];
        }
    }
}

/* pi from the unknowns x: the rows of the unknowns, the slipping groups from their normals. */
static void scatter(bw_ctx *c, int m)
{
    memset(c->pi, 0, sizeof(double) * (size_t)c->n);
    for (int u = 0; u < m; u++) c->pi[c->unk[u]] = c->x[u];
    for (int i = 0; i < c->k; i++) {
        if (!c->cur.active[i]) continue;
        const double pn = c->pi[c->r * i + IPX_N];
        for (int g = 0; g < c->groups; g++) {
            if (!c->cur.slip[i][g]) continue;
            const double cd = bw_slip_limit(c, i, g);
            for (int j = 0; j < bw_group_dim(g); j++)
                c->pi[c->r * i + bw_group_row(g, j)] = -cd * pn * c->cur.dir[i][g][j];
        }
    }
}

/* rhs - A0 x into x's correction slot: the largest residual (m/s). */
static double residual(const bw_ctx *c, int m, double *res)
{
    double worst = 0.0;
    for (int e = 0; e < m; e++) {
        double s = c->rhs[e];
        for (int u = 0; u < m; u++) s -= c->A0[e + (size_t)m * u] * c->x[u];
        res[e] = s;
        worst = fmax(worst, fabs(s));
    }
    return worst;
}

ipx_status bw_solve_candidate(bw_ctx *c)
{
    const int m = unknowns(c);
    /* the velocity update and the columns (its solve is charged in bw_lsq) */
    if (!bw_charge(c, (double)c->n * (double)c->n + 3.0 * (double)m * (double)m))
        return IPX_ERR_NOT_CONVERGED;
    c->counts->rounds++;
    c->rank_deficient = 0;
    if (m > 0) {
        for (int u = 0; u < m; u++) column(c, m, u, c->A0 + (size_t)m * u);
        for (int e = 0; e < m; e++) c->rhs[e] = c->b[c->unk[e]] - c->p->v[c->unk[e]];
        memcpy(c->A1, c->A0, sizeof(double) * (size_t)m * (size_t)m);
        memcpy(c->x, c->rhs, sizeof(double) * (size_t)m);
        int rank = m;
        ipx_status st = bw_lsq(c, m, c->A1, c->x, &rank);
        if (st != IPX_OK) return st;
        c->rank_deficient = rank < m;
        /* one step of iterative refinement when round-off left a visible residual (the
           correction is the min-norm solution of the residual system, so a rank-deficient
           system stays at its min-norm least-squares solution) */
        double *res = c->vp; /* free until scatter */
        if (residual(c, m, res) > 1e-3 * c->param[IPX_BOWLING_TOL] * (c->vscale + 1e-300)) {
            memcpy(c->A1, c->A0, sizeof(double) * (size_t)m * (size_t)m);
            st = bw_lsq(c, m, c->A1, res, NULL);
            if (st != IPX_OK) return st;
            for (int u = 0; u < m; u++) c->x[u] += res[u];
        }
    }
    scatter(c, m);
    c->dT = bw_apply(c, c->pi, c->vp);
    for (int i = 0; i < c->n; i++)
        if (!isfinite(c->pi[i]) || !isfinite(c->vp[i])) {
            snprintf(c->message, IPX_MESSAGE_SIZE, "bowling: non-finite impulse at contact %d",
                     i / c->r);
            return IPX_ERR_NUMERIC;
        }
    return IPX_OK;
}

/* Every condition of the law (3.3): no pulling, no approach anywhere, the targets of S met,
   sticking groups inside their cones. (Slip directions are checked by the fixed point.) */
int bw_admissible(const bw_ctx *c)
{
    const double tol_v = bw_tol_v(c), tol_p = bw_tol_p(c), tol_t = 1e3 * tol_v;
    for (int i = 0; i < c->k; i++) {
        const double *vp = c->vp + c->r * i, *b = c->b + c->r * i, *pi = c->pi + c->r * i;
        if (vp[IPX_N] < -tol_v) return 0;
        if (!c->cur.active[i]) continue;
        if (pi[IPX_N] < -tol_p || fabs(vp[IPX_N] - b[IPX_N]) > tol_t) return 0;
        for (int g = 0; g < c->groups; g++) {
            if (c->cur.slip[i][g]) continue;
            for (int j = 0; j < bw_group_dim(g); j++) {
                const int row = bw_group_row(g, j);
                if (fabs(vp[row] - b[row]) > tol_t) return 0;
            }
            if (bw_group_norm(pi, g) > bw_stick_limit(c, i, g) * fmax(pi[IPX_N], 0.0) + tol_p)
                return 0;
        }
    }
    return 1;
}
