/* PLUS: the plastic finish (deviation 4's last resort, deviation 12's bounded end): one
   frictionless, perfectly plastic round on every contact that can still be pushed, solved
   exactly as the linear complementarity problem of its normal rows,

       z >= 0,  w = W_nn z + v_n >= 0,  z^T w = 0,

   by Lemke's method (impax/lcp.h). W_nn is positive semi-definite and z = 0 is a feasible
   point of the projection it encodes (the body velocities projected, in the kinetic-energy
   metric, onto "no contact approaches"), so the LCP has a solution, which Lemke's method finds
   on a copositive-plus matrix. It ends the impact with no contact approaching, and it cannot
   create energy: with w = W z + v and z^T w = 0 the change is z.v + 1/2 z.W z = -1/2 z.W z <= 0.
   Its cost is bounded: at most ipx_lemke_default_max_pivots(k) pivots of O(k^2). Friction is
   given up for this increment only (it adds normal impulse, so every cone stays satisfied).
   Where Lemke's method fails on it in floating point (a false ray, its pivot limit or an
   inaccurate basis: the near-duplicate contacts of a pile; an 87-row finish in the 200-box bin
   ended in an inaccurate basis after 36 pivots), the LCP is what it encodes, the minimum of
   1/2 z^T W_nn z + v_n^T z over z >= 0, and MPRGP (impax/lcp_psd.h) solves that: z >= 0
   exactly, w >= -tol max|v_n| (finish_psd_tol). Every iterate of MPRGP from z = 0 lowers that
   quadratic, which is the change of kinetic energy, so its answer dissipates whatever its
   accuracy. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "impax/lcp.h"
#include "impax/lcp_psd.h"
#include "mathutil.h"
#include "numerics/nsgs.h"
#include "plus_finish.h"
#include "result_internal.h"

/* Relative accuracy of the MPRGP rescue (lcp_psd.h) asked exactly: that 87-row finish took 95
   products. */
#define FINISH_PSD_TOL 1e-12

/* MPRGP's relative accuracy for the finish of q = v_n: FINISH_PSD_TOL, or where the host gives
   its accuracy (v_tol > 0, types.h), no row of w = W z + q below -v_tol and none of z > 0 off
   by more, the promises the checker judges to v_tol (check.h: non-penetration,
   complementarity). Asked 1e-12 on ODE's feedback demo under dWorldStep (h 2 ms, v_tol 0.0196
   m/s), finishes of 59 and 70 rows ended at relative residuals of 1.4e-7 and 2.2e-11 after
   their 10 m + 100 iterations, and of the crash demo's wall under dWorldStep (v_tol 0.075
   m/s), finishes of 770 and 787 rows at 1.8e-5 and 4.0e-5: each island was left to ODE,
   although every one of them was within the host's accuracy. */
static double finish_psd_tol(const plus_ctx *c, int m, const double *q)
{
    const double qmax = ipx_max_abs(q, (size_t)m), v_tol = c->p->v_tol;
    return v_tol > 0.0 && qmax > 0.0 ? fmax(FINISH_PSD_TOL, v_tol / qmax) : FINISH_PSD_TOL;
}

/* Global row of the normal of contact k. */
static int normal_row(int k) { return IPX_ROWS_PER_CONTACT * k + IPX_N; }

/* Contacts the finish acts on: every contact whose normal row of W is not zero. */
static int finish_contacts(const plus_ctx *c, int *row)
{
    int m = 0;
    for (int k = 0; k < c->k; k++)
        if (!c->inert[k]) row[m++] = k;
    return m;
}

/* The finish's matrix as lcp_psd.h's operator: y = M x for the dense m x m M. */
typedef struct dense_matrix {
    int m;
    const double *M;
} dense_matrix;

static void apply_dense_matrix(void *user, const double *x, double *y)
{
    const dense_matrix *d = user;
    ipx_apply_dense(d->m, d->M, x, y);
}

/* LCP(M, q) of the finish by MPRGP, after Lemke's method failed with lemke; work: 10 m doubles
   (the diagonal, then MPRGP's). Returns lemke (message set) if MPRGP does not reach its
   accuracy either. */
static ipx_status rescue_psd(plus_ctx *c, int m, const double *M, const double *q, double *z,
                             double *w, double *work, ipx_status lemke)
{
    double *diag = work;
    for (int i = 0; i < m; i++) diag[i] = M[i + (size_t)m * i]; /* > 0: inert contacts left out */
    dense_matrix d = {m, M};
    const ipx_lcp_operator op = {m, apply_dense_matrix, &d, diag, 0.0};
    ipx_lcp_psd_options opt = ipx_lcp_psd_default_options();
    opt.tol = finish_psd_tol(c, m, q);
    ipx_lcp_psd_info info;
    const ipx_status st = ipx_lcp_psd(&op, q, z, w, &opt, work + m, &info);
    c->r->counts.lcp_solves++;
    if (st == IPX_OK) return IPX_OK;
    snprintf(c->r->message, sizeof c->r->message,
             "plus: the plastic finish (LCP of %d normal rows) failed: Lemke %s, MPRGP %s at "
             "residual %.3g",
             m, ipx_status_name(lemke), ipx_status_name(st), info.residual);
    return lemke;
}

ipx_status plus_plastic_finish(plus_ctx *c)
{
    const int n = c->n;
    const double *W = c->p->W;
    int *row = c->lsq_iwork + 2 * c->k; /* lsq_iwork has 4k ints: Lemke takes the first 2k */
    const int m = finish_contacts(c, row);
    /* scratch (sizes in plus_ctx.h): M in B (9k^2 >= m^2), q in rhs, z in x, w in g,
       Lemke's tableau in fac (16k^2 >= 2m^2 + 5m), then the rescue's work (10m) */
    double *M = c->B, *q = c->rhs, *z = c->x, *w = c->g;
    c->cache_has_b = 0; /* B is scratch here */
    for (int j = 0; j < m; j++) {
        const int cj = normal_row(row[j]);
        for (int i = 0; i < m; i++) M[i + (size_t)m * j] = W[normal_row(row[i]) + (size_t)n * cj];
        q[j] = c->v[cj];
    }
    int pivots = 0;
    ipx_status st = IPX_OK;
    if (m > 0)
        st = ipx_lemke(m, M, q, z, w, ipx_lemke_default_max_pivots(m), c->fac, c->lsq_iwork,
                       &pivots);
    c->r->counts.lcp_solves++;
    c->r->counts.pivots += pivots;
    if (ipx_lemke_rescuable(st)) st = rescue_psd(c, m, M, q, z, w, c->fac, st); /* its message */
    else if (st != IPX_OK)
        snprintf(c->r->message, sizeof c->r->message,
                 "plus: the plastic finish (LCP of %d normal rows) failed: %s", m,
                 ipx_status_name(st));
    if (st != IPX_OK) return IPX_ERR_NOT_CONVERGED;
    /* the finish as one more round of one interval: pi, W pi, classes and states for the
       record and the observer */
    memset(c->pi, 0, sizeof(double) * (size_t)n);
    for (int k = 0; k < c->k; k++) {
        c->cls[k] = c->inert[k] ? IPX_PLUS_OBSERVING : IPX_PLUS_COMPRESSING;
        c->slip[k] = IPX_PLUS_NO_FRICTION;
        c->normal_on[k] = PLUS_NORMAL_OFF;
    }
    for (int j = 0; j < m; j++) {
        c->pi[normal_row(row[j])] = z[j];
        c->normal_on[row[j]] = z[j] > 0.0 ? PLUS_NORMAL_ON : PLUS_NORMAL_OFF;
    }
    for (int i = 0; i < n; i++) {
        double s = 0.0;
        for (int j = 0; j < m; j++) s += W[i + (size_t)n * normal_row(row[j])] * z[j];
        c->wpi[i] = s;
    }
    return IPX_OK;
}
