/* The Flickinger-Bowling model's polygonal LCP (the model document's "else LCP/PGS" of 3.3): the
   Anitescu-Potra LCP on the [t1, t2, n] rows with the law's targets (v+ - b >= 0
   complementary to the impulse) and the dynamic friction coefficient; if Lemke fails on that,
   the same LCP without targets (inelastic). Its solution seeds the active-set loop of large
   problems (loop_seed 1) and is the outcome when no admissible set is found (lcp_fallback).
   Angular rows take no impulse in it. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bowling_ctx.h"
#include "impax/lcp.h"

void bw_gather3(bw_ctx *c)
{
    const int n3 = 3 * c->k;
    for (int a = 0; a < n3; a++) {
        const int ra = c->r * (a / 3) + a % 3;
        c->v3[a] = c->p->v[ra];
        for (int b = 0; b < n3; b++)
            c->W3[a + (size_t)n3 * b] =
                c->p->W[ra + (size_t)c->n * (size_t)(c->r * (b / 3) + b % 3)];
    }
}

/* One Lemke solve of the AP LCP of p3 with contact velocities q_v (3k); z into c->z. Its
   tableau (size rows of 2 size + 2) and each pivot, which may change all of it, are charged
   size (2 size + 2) work units; Lemke gets no more pivots than the units left pay for, so a
   dense LCP too large for the bound ends with its pivot limit instead of running on (ODE's
   crash demo: 7 000 rows, 1e8 units a pivot, a default cap of 351 000 pivots). */
static ipx_status solve_lcp(bw_ctx *c, const ipx_problem *p3, const double *q_v)
{
    const int size = c->lcp.layout.size;
    const double per_pivot = (double)size * (2.0 * size + 2.0);
    const double afford = floor((c->max_work - c->work) / per_pivot) - 1.0; /* - the tableau */
    int max_pivots = ipx_lemke_default_max_pivots(size);
    if (afford < 1.0 || !bw_charge(c, per_pivot)) {
        c->out_of_work = 1;
        return IPX_ERR_NOT_CONVERGED;
    }
    if (afford < max_pivots) max_pivots = (int)afford;
    ipx_ap_fill(&c->lcp.layout, p3, q_v, c->M, size, 0, c->q);
    int pivots = 0;
    ipx_status st =
        ipx_lemke(size, c->M, c->q, c->z, c->w, max_pivots, c->lcp_work, c->lcp_iwork, &pivots);
    bw_charge(c, per_pivot * pivots);
    if (st == IPX_ERR_LCP_PIVOTS && max_pivots < ipx_lemke_default_max_pivots(size))
        c->out_of_work = 1; /* cut by the bound, not by Lemke's own cap */
    c->counts->lcp_solves++;
    c->counts->pivots += pivots;
    return st;
}

ipx_status bw_lcp_solve(bw_ctx *c)
{
    bw_gather3(c);
    ipx_contact *dyn = c->dyn;
    for (int i = 0; i < c->k; i++) {
        dyn[i] = c->p->contact[i];
        dyn[i].mu = bw_slip_limit(c, i, 0);
    }
    const ipx_problem p3 = {.k = c->k, .W = c->W3, .v = c->v3, .contact = dyn};
    const int nd = (int)c->param[IPX_BOWLING_LCP_DIRECTIONS];
    ipx_ap_layout_init(&c->lcp.layout, &p3, nd + (nd & 1), c->ap_fric, c->ap_scale);
    double *rel = c->rel3; /* v - b on the [t1, t2, n] rows: the targets shift q */
    for (int a = 0; a < 3 * c->k; a++) rel[a] = c->v3[a] - c->b[c->r * (a / 3) + a % 3];
    c->lcp.used = IPX_BOWLING_LCP_USED;
    ipx_status st = solve_lcp(c, &p3, rel);
    if (st != IPX_OK) {
        c->lcp.used |= IPX_BOWLING_INELASTIC_USED;
        st = solve_lcp(c, &p3, c->v3);
    }
    c->lcp.tried = 1;
    c->lcp.status = st;
    c->lcp.solved = st == IPX_OK;
    return st;
}

ipx_status bw_lcp_fail(bw_ctx *c)
{
    snprintf(c->message, IPX_MESSAGE_SIZE, "bowling: the polygonal LCP failed (%s)",
             ipx_status_name(c->lcp.status));
    return c->lcp.status;
}

/* Active set from the LCP: contacts with a normal impulse; a friction contact slides where its
   slip variable gamma is positive, against its friction impulse. Angular groups stick. */
void bw_lcp_seed(bw_ctx *c)
{
    const ipx_ap_layout *L = &c->lcp.layout;
    double pn_max = 0.0; /* N*s: lambda_n,i = c_i z_i (anitescu_potra.h) */
    for (int i = 0; i < c->k; i++) pn_max = fmax(pn_max, L->scale[i] * c->z[i]);
    const double tol = c->param[IPX_BOWLING_TOL] * pn_max;
    bw_state_clear(c);
    for (int i = 0; i < c->k; i++) {
        c->cur.active[i] = L->scale[i] * c->z[i] > tol;
        for (int g = 1; g < c->groups; g++) c->cur.slip[i][g] = bw_stick_limit(c, i, g) == 0.0;
        c->cur.slip[i][0] = bw_stick_limit(c, i, 0) == 0.0;
    }
    for (int f = 0; f < L->kf; f++) {
        const int i = L->fric[f];
        double ft[2] = {0.0, 0.0};
        for (int d = 0; d < L->nd; d++) {
            ft[0] += c->z[L->k + L->nd * f + d] * L->dir[2 * d];
            ft[1] += c->z[L->k + L->nd * f + d] * L->dir[2 * d + 1];
        }
        const double norm = hypot(ft[0], ft[1]);
        if (c->z[L->k + L->nd * L->kf + f] <= 0.0 || norm == 0.0) continue;
        c->cur.slip[i][0] = 1;
        c->cur.dir[i][0][0] = -ft[0] / norm;
        c->cur.dir[i][0][1] = -ft[1] / norm;
    }
}

void bw_lcp_outcome(bw_ctx *c)
{
    double *pi3 = c->rel3; /* free once the LCP is solved */
    ipx_ap_impulse(&c->lcp.layout, c->z, pi3);
    memset(c->pi, 0, sizeof(double) * (size_t)c->n);
    for (int a = 0; a < 3 * c->k; a++) c->pi[c->r * (a / 3) + a % 3] = pi3[a];
    c->dT = bw_apply(c, c->pi, c->vp);
    c->rank_deficient = 0;
    c->counts->limits_hit |= c->lcp.used;
    bw_take(c, &c->sol);
}
