/* LCPs with a symmetric PSD operator by MPRGP (see impax/lcp_psd.h). Notation of Dostál &
   Schöberl 2005, on the scaled unknowns x = D^1/2 z, gradient g = D^-1/2 (M z + q):
     free gradient       phi_i  = g_i            where x_i > 0, else 0
     chopped gradient    beta_i = min(g_i, 0)    where x_i = 0, else 0
     reduced free grad.  phit_i = min(x_i / step, phi_i) where x_i > 0
   An iteration is a conjugate-gradient step while ||beta||^2 <= GAMMA^2 phit^T phi (the
   iterate is "proportional"), an expansion step when the conjugate-gradient step would cross a
   bound, and a proportioning step along beta otherwise. */
#include <float.h>
#include <math.h>
#include <string.h>

#include "impax/lcp_psd.h"
#include "mathutil.h"

/* Proportioning threshold Gamma (the paper's experiments: 1). */
#define GAMMA 1.0
/* Expansion step as a fraction of 2 / ||M||: the method converges for any step up to 2 / ||M||. */
#define STEP_FRACTION 1.9
/* Halvings of an expansion step that does not lower f before giving up (a norm far too small). */
#define MAX_HALVINGS 40
/* Power iterations of the norm estimate and the margin put on it (an estimate below the norm
   only costs halved expansion steps). */
#define POWER_ITERATIONS 5
#define POWER_MARGIN 1.25
/* A curvature p^T M p below this times ||M|| ||p||^2 counts as none. */
#define FLAT (64.0 * DBL_EPSILON)

typedef struct mprgp {
    const ipx_lcp_operator *op;
    int n;
    const double *q;
    double *x, *g, *p, *Ap, *t, *s, *sd, *xn, *gn; /* s = D^-1/2, sd = D^1/2 (or 1); t: apply's
                                                      scratch; xn, gn: trial */
    double step;   /* expansion step length (the paper's alpha bar) */
    double norm;   /* of the scaled matrix (bound or estimate) */
    double target; /* tol * max|q|, in units of w */
    ipx_lcp_psd_info info;
} mprgp;

ipx_lcp_psd_options ipx_lcp_psd_default_options(void)
{
    return (ipx_lcp_psd_options){.tol = 1e-9, .max_iter = 0, .warm = 0};
}

size_t ipx_lcp_psd_work_doubles(int n) { return n < 1 ? 0 : 9 * (size_t)n; }

/* out = D^-1/2 M D^-1/2 in (out must not be in or t). */
static void apply(mprgp *S, const double *in, double *out)
{
    for (int i = 0; i < S->n; i++) S->t[i] = S->s[i] * in[i];
    S->op->apply(S->op->user, S->t, out);
    for (int i = 0; i < S->n; i++) out[i] *= S->s[i];
    S->info.products++;
}

/* g = D^-1/2 (M z + q) at x; no product at x = 0. */
static void gradient(mprgp *S, const double *x, double *g)
{
    int zero = 1;
    for (int i = 0; i < S->n && zero; i++) zero = x[i] == 0.0;
    if (zero) memset(g, 0, (size_t)S->n * sizeof *g);
    else apply(S, x, g);
    for (int i = 0; i < S->n; i++) g[i] += S->s[i] * S->q[i];
}

/* f = 1/2 z^T M z + q^T z = 1/2 x^T (g + D^-1/2 q); *scale: the size of its terms (round-off). */
static double objective(const mprgp *S, const double *x, const double *g, double *scale)
{
    double f = 0.0, a = 0.0;
    for (int i = 0; i < S->n; i++) {
        const double qs = S->s[i] * S->q[i];
        f += x[i] * (g[i] + qs);
        a += fabs(x[i]) * (fabs(g[i]) + fabs(qs));
    }
    *scale = a;
    return 0.5 * f;
}

/* One pass over the iterate: the residual max_i r_i in units of w (see the header), whether it
   is proportional (||beta||^2 <= GAMMA^2 phit^T phi) and whether g is finite. */
typedef struct measure {
    double residual;
    int proportional, finite;
} measure;

static measure measure_iterate(const mprgp *S)
{
    double r = 0.0, beta2 = 0.0, phit_phi = 0.0, sum = 0.0;
    const double inv_step = 1.0 / S->step;
    for (int i = 0; i < S->n; i++) {
        const double g = S->g[i], w = g * S->sd[i];
        sum += g;
        if (S->x[i] > 0.0) {
            r = ipx_max(r, w > 0.0 ? w : -w);
            phit_phi += ipx_min(S->x[i] * inv_step, g) * g;
        } else if (g < 0.0) {
            r = ipx_max(r, -w);
            beta2 += g * g;
        }
    }
    return (measure){r, beta2 <= GAMMA * GAMMA * phit_phi, isfinite(sum)};
}

/* max_i r_i in units of w. */
static double residual(const mprgp *S) { return measure_iterate(S).residual; }

static void free_gradient(const mprgp *S, double *out)
{
    for (int i = 0; i < S->n; i++) out[i] = S->x[i] > 0.0 ? S->g[i] : 0.0;
}

/* The expansion step: to the bound along p (alpha_f, blocking unknown b), then a projected
   gradient step of S->step, halved while it does not lower f. */
static ipx_status expand(mprgp *S, double alpha_f, int b)
{
    const int n = S->n;
    for (int i = 0; i < n; i++) {
        S->x[i] = ipx_max(S->x[i] - alpha_f * S->p[i], 0.0);
        S->g[i] -= alpha_f * S->Ap[i];
    }
    if (b >= 0) S->x[b] = 0.0;
    S->info.expansions++;
    double scale0, scale1;
    const double f0 = objective(S, S->x, S->g, &scale0);
    for (int h = 0; h < MAX_HALVINGS; h++) {
        for (int i = 0; i < n; i++)
            S->xn[i] = S->x[i] > 0.0 ? ipx_max(S->x[i] - S->step * S->g[i], 0.0) : 0.0;
        gradient(S, S->xn, S->gn);
        const double f1 = objective(S, S->xn, S->gn, &scale1);
        if (!isfinite(f1)) return IPX_ERR_NUMERIC;
        if (f1 <= f0 + 1e-13 * (scale0 + scale1)) {
            double *tx = S->x, *tg = S->g;
            S->x = S->xn, S->g = S->gn, S->xn = tx, S->gn = tg;
            free_gradient(S, S->p);
            return IPX_OK;
        }
        S->step *= 0.5;
    }
    free_gradient(S, S->p);
    return IPX_ERR_NOT_CONVERGED;
}

/* A conjugate-gradient step along p, or the expansion step if it would cross a bound. */
static ipx_status cg_step(mprgp *S)
{
    const int n = S->n;
    apply(S, S->p, S->Ap);
    double pAp = 0.0, gp = 0.0, pp = 0.0, alpha_f = INFINITY;
    int b = -1;
    for (int i = 0; i < n; i++) {
        const double p = S->p[i];
        pAp += p * S->Ap[i];
        gp += S->g[i] * p;
        pp += p * p;
        if (p > 0.0 && S->x[i] < alpha_f * p) alpha_f = S->x[i] / p, b = i;
    }
    if (!isfinite(pAp)) return IPX_ERR_NUMERIC;
    if (!(pAp > FLAT * S->norm * pp)) {
        if (b >= 0) return expand(S, alpha_f, b);
        /* no curvature and no bound: a real descent proves f unbounded (infeasible LCP) */
        if (gp > FLAT * sqrt(ipx_norm2(S->g, n) * pp)) return IPX_ERR_LCP_RAY;
        free_gradient(S, S->p); /* round-off: restart the directions */
        return IPX_OK;
    }
    const double alpha = gp / pAp;
    if (alpha > alpha_f) return expand(S, alpha_f, b);
    double phiAp = 0.0;
    for (int i = 0; i < n; i++) {
        S->x[i] = ipx_max(S->x[i] - alpha * S->p[i], 0.0);
        S->g[i] -= alpha * S->Ap[i];
        if (S->x[i] > 0.0) phiAp += S->g[i] * S->Ap[i];
    }
    const double gamma = phiAp / pAp;
    for (int i = 0; i < n; i++) S->p[i] = (S->x[i] > 0.0 ? S->g[i] : 0.0) - gamma * S->p[i];
    return IPX_OK;
}

/* The proportioning step along the chopped gradient: releases unknowns from the bound. */
static ipx_status proportion(mprgp *S)
{
    const int n = S->n;
    for (int i = 0; i < n; i++) S->p[i] = S->x[i] > 0.0 ? 0.0 : ipx_min(S->g[i], 0.0);
    apply(S, S->p, S->Ap);
    const double dAd = ipx_dot(S->p, S->Ap, n), gd = ipx_dot(S->g, S->p, n),
                 dd = ipx_norm2(S->p, n);
    S->info.proportionings++;
    if (!isfinite(dAd)) return IPX_ERR_NUMERIC;
    if (!(dAd > FLAT * S->norm * dd)) return IPX_ERR_LCP_RAY; /* -beta raises only x >= 0 */
    const double alpha = gd / dAd;
    for (int i = 0; i < n; i++) {
        S->x[i] = ipx_max(S->x[i] - alpha * S->p[i], 0.0);
        S->g[i] -= alpha * S->Ap[i];
    }
    free_gradient(S, S->p);
    return IPX_OK;
}

/* ||D^-1/2 M D^-1/2|| by power iterations from a fixed vector, POWER_MARGIN above the estimate. */
static double estimate_norm(mprgp *S)
{
    double *v = S->xn, *y = S->gn, lam = 0.0;
    for (int i = 0; i < S->n; i++) v[i] = 1.0 + 0.5 * sin(1.0 + i);
    for (int it = 0; it < POWER_ITERATIONS; it++) {
        apply(S, v, y);
        const double ny = sqrt(ipx_norm2(y, S->n)), nv = sqrt(ipx_norm2(v, S->n));
        if (!(ny > 0.0) || !isfinite(ny)) break;
        lam = ny / nv;
        for (int i = 0; i < S->n; i++) v[i] = y[i] / ny;
    }
    return lam > 0.0 ? POWER_MARGIN * lam : 1.0;
}

static ipx_status check_input(const ipx_lcp_operator *op, const double *q, const double *z,
                              const double *w, const ipx_lcp_psd_options *o, const double *work)
{
    if (!op || op->n < 1 || !op->apply || !q || !z || !w || !work || !(o->tol > 0.0) ||
        o->max_iter < 0 || !ipx_all_finite(q, (size_t)op->n) || !isfinite(op->norm))
        return IPX_ERR_INPUT;
    for (int i = 0; op->diag && i < op->n; i++)
        if (!(op->diag[i] > 0.0) || !isfinite(op->diag[i])) return IPX_ERR_INPUT;
    return IPX_OK;
}

static mprgp setup(const ipx_lcp_operator *op, const double *q, const double *z, int warm,
                   double *work)
{
    const int n = op->n;
    mprgp S = {.op = op, .n = n, .q = q};
    double **buf[] = {&S.x, &S.g, &S.p, &S.Ap, &S.t, &S.s, &S.sd, &S.xn, &S.gn};
    for (size_t b = 0; b < sizeof buf / sizeof *buf; b++) *buf[b] = work + b * (size_t)n;
    for (int i = 0; i < n; i++) {
        S.sd[i] = op->diag ? sqrt(op->diag[i]) : 1.0;
        S.s[i] = 1.0 / S.sd[i];
        S.x[i] = warm && z[i] > 0.0 ? z[i] / S.s[i] : 0.0;
    }
    return S;
}

/* The iteration; S->x, S->g on return (g fresh on IPX_OK). */
static ipx_status iterate(mprgp *S, int max_iter)
{
    int fresh = 1;
    gradient(S, S->x, S->g);
    free_gradient(S, S->p);
    for (;;) {
        const measure m = measure_iterate(S);
        if (!m.finite) return IPX_ERR_NUMERIC;
        if (m.residual <= S->target) {
            if (fresh) return IPX_OK;
            gradient(S, S->x, S->g); /* the recurrences drift: confirm on a fresh gradient */
            free_gradient(S, S->p);
            fresh = 1;
            continue;
        }
        if (S->info.iterations >= max_iter) return IPX_ERR_NOT_CONVERGED;
        S->info.iterations++;
        fresh = 0;
        ipx_status st = m.proportional ? cg_step(S) : proportion(S);
        if (st != IPX_OK) return st;
    }
}

ipx_status ipx_lcp_psd(const ipx_lcp_operator *op, const double *q, double *z, double *w,
                       const ipx_lcp_psd_options *opt, double *work, ipx_lcp_psd_info *info)
{
    const ipx_lcp_psd_options o = opt ? *opt : ipx_lcp_psd_default_options();
    if (info) memset(info, 0, sizeof *info);
    ipx_status st = check_input(op, q, z, w, &o, work);
    if (st != IPX_OK) return st;
    const int n = op->n;
    double qmax = 0.0, qmin = 0.0;
    for (int i = 0; i < n; i++) qmax = fmax(qmax, fabs(q[i])), qmin = fmin(qmin, q[i]);
    if (qmin >= 0.0) { /* z = 0 solves it (and w = q is the only w) */
        memset(z, 0, (size_t)n * sizeof *z);
        memcpy(w, q, (size_t)n * sizeof *w);
        return IPX_OK;
    }
    mprgp S = setup(op, q, z, o.warm, work);
    S.target = o.tol * qmax;
    S.norm = op->norm > 0.0 ? op->norm : estimate_norm(&S);
    S.step = STEP_FRACTION / S.norm;
    st = iterate(&S, o.max_iter > 0 ? o.max_iter : 10 * n + 100);
    if (st != IPX_OK && st != IPX_ERR_NUMERIC)
        gradient(&S, S.x, S.g); /* w = M z + q as documented */
    if (st == IPX_ERR_NUMERIC || !ipx_all_finite(S.g, (size_t)n)) {
        memset(z, 0, (size_t)n * sizeof *z);
        memset(w, 0, (size_t)n * sizeof *w);
        st = IPX_ERR_NUMERIC;
    } else {
        for (int i = 0; i < n; i++) z[i] = S.s[i] * S.x[i], w[i] = S.g[i] * S.sd[i];
        S.info.residual = residual(&S) / qmax;
    }
    if (info) *info = S.info;
    return st;
}
