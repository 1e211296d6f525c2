/* Flickinger-Bowling energy (docs/models/bowling.md §3.4, 3.5): the kinetic energy of the impact subspace, the
   energetic COR (Stronge-type, one common normal COR found by a root search) and the e_* cap
   (every COR scaled by lambda, found by the same root search; fallback A or B when even
   lambda = 0 loses too little). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bowling_ctx.h"
#include "numerics/min_norm.h"

size_t ipx_bowling_ke_work_doubles(int n)
{
    return (size_t)n * (size_t)n + (size_t)n + ipx_min_norm_work_doubles(n);
}

/* 1/2 u^T W^+ u (J) of n rows, y = W^+ u left in y (minimum-norm solve of W y = u on cache
   lsq); A: n x n scratch. 0 if the solve fails (it returns why). */
static ipx_status half_quadratic(int n, const double *W, const double *u, double rcond, double *A,
                                 double *y, ipx_min_norm_cache *lsq, int *iwork, double *ke)
{
    memcpy(A, W, sizeof(double) * (size_t)n * (size_t)n);
    memcpy(y, u, sizeof(double) * (size_t)n);
    const ipx_status st = ipx_min_norm_solve(n, A, y, rcond, lsq, iwork, NULL);
    double t = 0.0;
    for (int i = 0; i < n; i++) t += u[i] * y[i];
    *ke = st == IPX_OK ? fmax(0.5 * t, 0.0) : 0.0; /* >= 0; round-off can make it slightly less */
    return st;
}

ipx_status ipx_bowling_impact_ke(int n, const double *W, const double *v, double rcond,
                                 double *work, int *iwork, double *ke)
{
    if (n < 1 || !W || !v || !work || !iwork || !ke) return IPX_ERR_INPUT;
    double *A = work, *y = work + (size_t)n * (size_t)n;
    ipx_min_norm_cache lsq; /* one solve: nothing the caller's work held before is read */
    ipx_min_norm_begin(&lsq, y + n);
    return half_quadratic(n, W, v, rcond, A, y, &lsq, iwork, ke);
}

/* T of n rows with matrix W and velocities u, with the context's scratch (W^+ u left in c->x). */
static ipx_status ke_of(bw_ctx *c, int n, const double *W, const double *u, const char *what,
                        double *ke)
{
    if (!bw_charge(c, (double)n * (double)n * (double)n)) return IPX_ERR_NOT_CONVERGED;
    c->counts->lsq_solves++;
    const ipx_status st =
        half_quadratic(n, W, u, c->param[IPX_BOWLING_RCOND], c->A1, c->x, &c->lsq, c->iwork, ke);
    if (st != IPX_OK) snprintf(c->message, IPX_MESSAGE_SIZE, "bowling: %s solve failed", what);
    return st;
}

/* T_par of the contact velocities u (W^+ u left in c->x). */
static ipx_status subspace_ke(bw_ctx *c, const double *u, double *ke)
{
    return ke_of(c, c->n, c->p->W, u, "T_par", ke);
}

/* T- of the cap [A]: cap_scope 0, the impact subspace of the impacting contacts (approach
   above v_capture: the contacts whose normal COR acts), 1/2 v_I^T W_II^+ v_I; cap_scope 1,
   that of every row, T_par. */
static ipx_status cap_ke(bw_ctx *c, double *ke)
{
    if (c->param[IPX_BOWLING_CAP_SCOPE] != 0.0) return subspace_ke(c, c->p->v, ke);
    int *rows = c->cap_rows, m = 0;
    for (int i = 0; i < c->k; i++)
        if (-c->p->v[c->r * i + IPX_N] > c->p->contact[i].v_capture)
            for (int j = 0; j < c->r; j++) rows[m++] = c->r * i + j;
    *ke = 0.0;
    if (m == 0) return IPX_OK;
    double *W = c->jac, *u = c->nwt; /* free outside the slip solves */
    for (int a = 0; a < m; a++) {
        u[a] = c->p->v[rows[a]];
        for (int b = 0; b < m; b++)
            W[a + (size_t)m * b] = c->p->W[rows[a] + (size_t)c->n * rows[b]];
    }
    return ke_of(c, m, W, u, "T-", ke);
}

/* A cheap scale of the contact-space kinetic energy (J) for the tolerances: 1/2 sum v_i^2 /
   W_ii over the rows that move. */
static double energy_scale(const bw_ctx *c)
{
    double e = 0.0;
    for (int i = 0; i < c->n; i++) {
        const double w = c->p->W[i + (size_t)c->n * i];
        if (w > 0.0) e += 0.5 * c->p->v[i] * c->p->v[i] / w;
    }
    return e;
}

/* The law for the CORs of cor: c->sol. */
static ipx_status law(bw_ctx *c, const bw_cor *cor)
{
    bw_targets(c, cor);
    return bw_resolve(c);
}

/* f(x) = dT of the law with x as lambda (which 0) or as the common normal COR (1), minus
   target. */
typedef struct bw_search {
    bw_cor cor;
    int which;
    double target, tol; /* J: f >= -tol ends the search on the feasible side f <= 0 */
} bw_search;

static ipx_status eval(bw_ctx *c, bw_search *s, double x, double *f)
{
    if (s->which == 0) s->cor.lambda = x;
    else s->cor.common_en = x;
    c->counts->steps++;
    ipx_status st = law(c, &s->cor);
    *f = c->sol.dT - s->target;
    return st;
}

/* Regula falsi with the Illinois rule on f(x_ok) <= 0 < f(x_bad). The feasible end is kept
   (its outcome in c->keep, then c->sol); returns its x. The outcome of x_ok must be c->sol. */
static ipx_status search(bw_ctx *c, bw_search *s, double x_ok, double f_ok, double x_bad,
                         double f_bad, double *x_out)
{
    bw_copy(c, &c->keep, &c->sol);
    double g_ok = f_ok, g_bad = f_bad; /* Illinois-weighted values for the interpolation */
    int side = 0, it = 0;
    const int max_it = (int)c->param[IPX_BOWLING_ROOT_ITERATIONS];
    for (; it < max_it && f_ok < -s->tol && fabs(x_bad - x_ok) > 1e-14; it++) {
        double x = x_ok - g_ok * (x_bad - x_ok) / (g_bad - g_ok);
        if (!(fabs(x - x_ok) > 0.0 && fabs(x - x_bad) > 0.0 && (x - x_ok) * (x - x_bad) < 0.0))
            x = 0.5 * (x_ok + x_bad); /* interpolation degenerate: bisect */
        double f;
        ipx_status st = eval(c, s, x, &f);
        if (st != IPX_OK && c->out_of_work) break; /* the bound: the feasible end is kept */
        if (st != IPX_OK) return st;
        if (f <= 0.0) {
            x_ok = x;
            f_ok = g_ok = f;
            bw_copy(c, &c->keep, &c->sol);
            if (side == -1) g_bad *= 0.5;
            side = -1;
        } else {
            x_bad = x;
            g_bad = f;
            if (side == 1) g_ok *= 0.5;
            side = 1;
        }
    }
    if (it == max_it) c->counts->limits_hit |= IPX_BOWLING_ROOT_LIMIT;
    bw_copy(c, &c->sol, &c->keep);
    *x_out = x_ok;
    return IPX_OK;
}

/* Energetic COR: compression (every COR 0) gives dT_c; one common normal COR reaches
   T+ = T_c + e_E^2 (T- - T_c), i.e. dT = (1 - e_E^2) dT_c. Ends with c->sol and cor. */
static ipx_status energetic(bw_ctx *c, bw_cor *cor, double escale)
{
    const double eE = c->param[IPX_BOWLING_E_ENERGETIC];
    const bw_cor compression = {0.0, -1.0};
    ipx_status st = law(c, &compression);
    if (st != IPX_OK) return st;
    bw_search s = {.cor = {1.0, 0.0}, .which = 1, .target = (1.0 - eE * eE) * c->sol.dT};
    s.tol = 1e3 * bw_tol_e(c, escale);
    double f0, f1, x = 1.0;
    if ((st = eval(c, &s, 1.0, &f1)) != IPX_OK) return st;
    if (f1 > s.tol) {
        if ((st = eval(c, &s, 0.0, &f0)) != IPX_OK) return st;
        if (f0 <= 0.0) {
            st = search(c, &s, 0.0, f0, 1.0, f1, &x);
        } else { /* even e = 0 loses too little (tangential or moment CORs) */
            c->counts->limits_hit |= IPX_BOWLING_ENERGETIC_UNREACHED;
            x = 0.0;
        }
    } else if (f1 < -s.tol) {
        c->counts->limits_hit |= IPX_BOWLING_ENERGETIC_UNREACHED; /* even e = 1 loses more */
    }
    cor->common_en = x;
    return st;
}

/* Fallback B: the impact subspace's v+ scaled by s so that dT = target, through the impulse
   pi - (1 - s) W^+ v+ (exact impulse-momentum in contact space; may pull or leave the cone). */
static ipx_status scale_velocity(bw_ctx *c, double target)
{
    double T_plus;
    bw_apply(c, c->sol.pi, c->vp);
    ipx_status st = subspace_ke(c, c->vp, &T_plus); /* leaves W^+ v+ in c->x */
    if (st != IPX_OK) return st;
    const double want = fmax(T_plus - (c->sol.dT - target), 0.0);
    const double s = T_plus > 0.0 ? sqrt(fmin(want / T_plus, 1.0)) : 1.0;
    for (int i = 0; i < c->n; i++) c->sol.pi[i] -= (1.0 - s) * c->x[i];
    c->sol.dT = bw_apply(c, c->sol.pi, c->vp);
    return IPX_OK;
}

/* The e_* cap (3.5): dT <= target, c->sol at lambda = 1 exceeds it. */
static ipx_status cap(bw_ctx *c, bw_cor cor, double target, double escale)
{
    bw_search s = {.cor = cor, .which = 0, .target = target};
    s.tol = 1e3 * bw_tol_e(c, escale);
    const double f1 = c->sol.dT - target;
    double f0, x;
    ipx_status st = eval(c, &s, 0.0, &f0);
    if (st != IPX_OK) return st;
    if (f0 <= bw_tol_e(c, escale)) return search(c, &s, 0.0, f0, 1.0, f1, &x);
    c->counts->limits_hit |= IPX_BOWLING_CAP_UNREACHED; /* A: keep lambda = 0 */
    if (c->param[IPX_BOWLING_CAP_FALLBACK] != 0.0) return scale_velocity(c, target);
    return IPX_OK;
}

/* With e_hat = 1 the cap's target is dT <= 0 whatever T- is, so T- is solved for only when
   e_hat < 1 and the host gave none: it is a dense minimum-norm solve over the impacting
   contacts' rows (m^3 work units; the 385 contacts of ODE's crash demo's wall, m = 1 155, made
   1.5e9 of the 2e9 of max_work). Without it the tolerances' scale is energy_scale alone. */
ipx_status bw_impact(bw_ctx *c, double ke_before)
{
    const double e_star = c->param[IPX_BOWLING_E_STAR];
    const double e_hat = c->param[IPX_BOWLING_CAP_READING] != 0.0 ? 1.0 - e_star : e_star;
    double T_minus = ke_before > 0.0 ? ke_before : 0.0;
    ipx_status st = ke_before > 0.0 || e_hat >= 1.0 ? IPX_OK : cap_ke(c, &T_minus);
    if (st != IPX_OK) return st;
    const double escale = fmax(T_minus, energy_scale(c));
    bw_cor cor = {1.0, -1.0};
    st = c->param[IPX_BOWLING_ENERGETIC] != 0.0 ? energetic(c, &cor, escale) : law(c, &cor);
    if (st != IPX_OK) return st;
    const double target = -(1.0 - e_hat) * T_minus; /* T+ <= e_hat T- */
    if (c->sol.dT > target + bw_tol_e(c, escale)) st = cap(c, cor, target, escale);
    if (st == IPX_OK && c->sol.rank_deficient) c->counts->limits_hit |= IPX_BOWLING_INDETERMINATE;
    return st;
}
