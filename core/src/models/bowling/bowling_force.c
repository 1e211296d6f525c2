/* Flickinger-Bowling impact forces (docs/models/bowling.md §3.6, paper (17)-(19)): with the corrected velocities
   known, the impact force that sets the post-impact accelerations is the least "impact
   energy" F^T W F subject to the work-energy constraint c^T F = dT, c = J_p q ((17), (18)),
   and f_pn >= 0. The map thetadot_p* -> F_p of (19) is a bijection, so the minimisation runs
   over F_p and thetadot_p* = W F_p + r is recovered afterwards. Without held rows the answer is
   F = dT W^-1 c / (c^T W^-1 c); with them, a primal active set on the normal rows (hold the
   most negative f_pn, release the held row with the most negative KKT multiplier
   mu_j = 2 (W F)_j - nu c_j, nu = 2 dT / (c_R^T W_RR^-1 c_R)). */
#include <math.h>
#include <string.h>

#include "bowling_ctx.h"
#include "impax/linalg.h"

/* work: A (p x p), y (p), W F (p), the free rows' indices (p ints) and the held flags (p
   bytes), each of the last two in p doubles' room */
size_t ipx_bowling_force_work_doubles(int p) { return (size_t)p * (size_t)p + 4 * (size_t)p; }

/* F on the free rows (held[i] = 0) for dT; 0 if the reduced problem is infeasible or its W
   is not positive definite. WF = W F. */
static int reduced_solve(const ipx_bowling_force_problem *fp, const unsigned char *held,
                         double *work, int *idx, double *F, double *WF)
{
    const int p = fp->p;
    double *A = work, *y = work + (size_t)p * (size_t)p;
    int m = 0;
    for (int i = 0; i < p; i++)
        if (!held[i]) idx[m++] = i;
    if (m == 0) return 0;
    for (int a = 0; a < m; a++) {
        y[a] = fp->c[idx[a]];
        for (int b = 0; b < m; b++) A[a + (size_t)m * b] = fp->W[idx[a] + (size_t)p * idx[b]];
    }
    if (ipx_cholesky_factor(m, A) != IPX_OK || ipx_cholesky_solve(m, A, 1, y) != IPX_OK) return 0;
    double d = 0.0, cc = 0.0;
    for (int a = 0; a < m; a++) {
        d += fp->c[idx[a]] * y[a];
        cc += fp->c[idx[a]] * fp->c[idx[a]];
    }
    if (!(d > 1e-14 * cc) || cc == 0.0) return 0; /* c vanishes on the free rows */
    memset(F, 0, sizeof(double) * (size_t)p);
    for (int a = 0; a < m; a++) F[idx[a]] = fp->dT * y[a] / d;
    for (int i = 0; i < p; i++) {
        WF[i] = 0.0;
        for (int j = 0; j < p; j++) WF[i] += fp->W[i + (size_t)p * j] * F[j];
    }
    return 1;
}

/* One repair of the active set: 1 if something changed. */
static int repair(const ipx_bowling_force_problem *fp, unsigned char *held, const double *F,
                  const double *WF, double tol)
{
    int worst = -1;
    double size = tol;
    for (int i = 0; i < fp->p; i++) /* a pulling normal force: hold it at 0 */
        if (fp->normal[i] && !held[i] && -F[i] > size) {
            size = -F[i];
            worst = i;
        }
    if (worst >= 0) {
        held[worst] = 1;
        return 1;
    }
    double nu = 0.0, cF = 0.0; /* nu from the free rows: 2 W F = nu c there */
    for (int i = 0; i < fp->p; i++)
        if (!held[i] && fabs(fp->c[i]) > cF) {
            cF = fabs(fp->c[i]);
            nu = 2.0 * WF[i] / fp->c[i];
        }
    double mtol = tol * (2.0 * fabs(nu) * cF + 1e-300);
    for (int i = 0; i < fp->p; i++) { /* a held row whose multiplier is negative: release */
        const double mu = 2.0 * WF[i] - nu * fp->c[i];
        if (held[i] && -mu > mtol) {
            mtol = -mu;
            worst = i;
        }
    }
    if (worst >= 0) held[worst] = 0;
    return worst >= 0;
}

ipx_status ipx_bowling_impact_forces(const ipx_bowling_force_problem *fp, const double *param,
                                     double *work, ipx_bowling_forces *out)
{
    if (!fp || !param || !work || !out || !out->F || !out->accel || fp->p < 1 || !fp->W || !fp->c ||
        !fp->r || !fp->normal || !isfinite(fp->dT))
        return IPX_ERR_INPUT;
    const size_t p = (size_t)fp->p;
    double *WF = work + p * p + p;
    int *idx = (int *)(WF + p);
    unsigned char *held = (unsigned char *)(WF + 2 * p);
    memset(WF, 0, p * sizeof *WF);
    memset(held, 0, p);
    out->held = out->iterations = 0;
    out->zero = 1;
    int solved = 0;
    if (param[IPX_BOWLING_FORCE_LAW] != 0.0) {
        const double tol = 1e3 * param[IPX_BOWLING_TOL];
        for (size_t it = 0; it < 3 * p + 3; it++) {
            out->iterations++;
            solved = reduced_solve(fp, held, work, idx, out->F, WF);
            if (!solved) break;
            double fscale = 0.0;
            for (size_t i = 0; i < p; i++) fscale = fmax(fscale, fabs(out->F[i]));
            if (!repair(fp, held, out->F, WF, tol * fscale)) break;
            solved = 0; /* the repaired set is solved on the next pass */
        }
    }
    if (!solved) { /* F_p = 0: thetadot_p* = r */
        memset(out->F, 0, p * sizeof *out->F);
        memset(WF, 0, p * sizeof *WF);
    }
    out->zero = !solved;
    for (size_t i = 0; i < p; i++) {
        out->held += solved && held[i];
        out->accel[i] = WF[i] + fp->r[i]; /* (19): thetadot_p* = W F_p + r */
    }
    return IPX_OK;
}
