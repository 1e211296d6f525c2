/* Moving a compliant island back to first touch (model "gonthier", compliant.c): a contact is
   found only at a step's start, up to v h deep, and its force must start from zero at first
   touch. The bodies are moved back along the joint-consistent, mass-weighted directions of the
   adapter's position recovery (recovery_project.c) until no newly found contact penetrates, and
   their approach is slowed by what the move costs against their other forces (gravity), or
   their motion by what the approach cannot pay, so that the late find adds no energy; where
   neither can pay, the move is not made (docs/models/gonthier.md §5). */
#include <limits.h>
#include <math.h>

#include "impax/lcp.h"
#include "impax/lcp_psd.h"
#include "internal.h"
#include "touch_lcp.h"

/* a^T M c for body b's 6-vectors (world frame): m a_v . c_v + a_w . (R I R^T) c_w. */
double ipx_ode_mass_dot(dBodyID b, const double a[6], const double c[6])
{
    dMass m;
    dBodyGetMass(b, &m);
    const dReal *R = dBodyGetRotation(b);
    double sum = 0.0, rc[3], irc[3];
    for (int i = 0; i < 3; i++) {
        sum += m.mass * a[i] * c[i];
        rc[i] = R[i] * c[3] + R[4 + i] * c[4] + R[8 + i] * c[5]; /* R^T c_w */
    }
    for (int i = 0; i < 3; i++)
        irc[i] = m.I[4 * i] * rc[0] + m.I[4 * i + 1] * rc[1] + m.I[4 * i + 2] * rc[2];
    for (int i = 0; i < 3; i++) /* a_w . R irc */
        sum += a[3 + i] * (R[4 * i] * irc[0] + R[4 * i + 1] * irc[1] + R[4 * i + 2] * irc[2]);
    return sum;
}

/* J: the island's kinetic energy at velocities u_post + beta dx (along = u_post . M dx,
   norm = dx . M dx), or -1 if a kinematic body in it moves: its velocity is the program's, and
   the problem's v then has a part that does not scale with the dynamic bodies' velocities. */
static double motion_energy(const ipx_ode_context *ctx, double beta, double along, double norm)
{
    const assembly *as = &ctx->as;
    double T = 0.0; /* J */
    for (int b = 0; b < ctx->isl.n_body; b++) {
        dBodyID body = ctx->isl.body[b];
        const double *u = as->u_post + 6 * b;
        if (ipx_ode_dynamic(body)) {
            T += 0.5 * ipx_ode_mass_dot(body, u, u);
            continue;
        }
        for (int a = 0; a < 6; a++)
            if (u[a] != 0.0) return -1.0;
    }
    return T + beta * along + 0.5 * beta * beta * norm;
}

/* When the approach along dx cannot pay for the lift (a body that hopped in ODE's own steps
   and comes down on a corner with little speed left along the move, a box rocking onto its
   other edge), the rest, unpaid (J, at most the kinetic energy T), comes out of the island's
   other motion: its velocities are scaled by s = sqrt(1 - unpaid / T), the least change of
   them in the kinetic-energy metric that takes unpaid out. Left as it was, the move made energy
   (docs/real-clients.md: boxstack's and cyl's largest gains). The scaling keeps the joints'
   rows (J u = 0 is linear) and the problem's v = J u - m (m the surface motions) goes to
   s J u - m. */
static void pay_from_motion(ipx_ode_context *ctx, double unpaid, double T)
{
    assembly *as = &ctx->as;
    const double s = sqrt(fmax(0.0, 1.0 - unpaid / T));
    for (int a = 0; a < 6 * ctx->isl.n_body; a++) as->u_post[a] *= s;
    for (int k = 0; k < as->problem.k; k++) {
        double m[IPX_ROWS_PER_CONTACT];
        ipx_ode_island_motion(ctx, k, m);
        for (int i = 0; i < IPX_ROWS_PER_CONTACT; i++) {
            double *v = &as->v[IPX_ROWS_PER_CONTACT * k + i];
            *v = s * (*v + m[i]) - m[i];
        }
    }
}

/* Moving the island back by as->dx (m, rad) against its other forces F (M du_free = F h)
   raises its potential energy by -F . dx, energy ODE's overshoot never had: an exact fall
   reaches first touch that much slower. So the approach along dx is slowed until the kinetic
   energy has dropped by as much (or the approach along dx has stopped, when ODE's step lost
   more than that), u += beta dx with beta in [0, beta*], beta* = -u.M dx / dx.M dx: a sphere
   late by d then touches at sqrt(v^2 - 2 g d), as it would have. Without this each late find
   would add m g d, and a body settling at long steps would hop for ever. What the approach
   cannot pay comes out of the island's other motion (pay_from_motion). The velocities change
   in the bodies' u_post and in the problem's v (by beta W lambda). 1 if the motion cannot pay
   the rest either (an island nearly at rest, or one a kinematic body moves): then nothing is
   changed and the move is not made (ipx_ode_first_touch). */
static int touch_speed(ipx_ode_context *ctx, const double *pi)
{
    assembly *as = &ctx->as;
    double raise = 0.0, along = 0.0, norm = 0.0; /* J, kg m^2/s, kg m^2 */
    for (int b = 0; b < ctx->isl.n_body; b++) {
        dBodyID body = ctx->isl.body[b];
        if (!ipx_ode_dynamic(body)) continue;
        const double *dx = as->dx + 6 * b;
        raise -= ipx_ode_mass_dot(body, as->du_free + 6 * b, dx) / ctx->step_h; /* -F . dx */
        along += ipx_ode_mass_dot(body, as->u_post + 6 * b, dx);
        norm += ipx_ode_mass_dot(body, dx, dx);
    }
    double beta = 0.0, unpaid = 0.0, T = 0.0; /* 1 (dx per m/s of approach), J, J */
    if (raise > 0.0 && norm > 0.0) {
        const double disc = along * along - 2.0 * norm * raise;
        beta = !(along < 0.0) ? 0.0 : disc > 0.0 ? (-along - sqrt(disc)) / norm : -along / norm;
        /* what the approach could not pay (beta went as far as the approach along dx) */
        unpaid = raise + beta * along + 0.5 * beta * beta * norm;
        if (unpaid > 0.0) {
            T = motion_energy(ctx, beta, along, norm);
            if (!(unpaid <= T)) return 1;
        }
    }
    as->work_other -= raise;
    if (beta > 0.0) { /* 0 when nothing approaches along dx: the velocities stay as they are */
        for (int a = 0; a < 6 * ctx->isl.n_body; a++) as->u_post[a] += beta * as->dx[a];
        const int rows = IPX_ROWS_PER_CONTACT * as->problem.k;
        for (int r = 0; r < rows; r++) {
            double wpi = 0.0;
            for (int c = 0; c < rows; c++) wpi += as->W[r + (size_t)rows * c] * pi[c];
            as->v[r] += beta * wpi;
        }
    }
    if (unpaid > 0.0) pay_from_motion(ctx, unpaid, T);
    return 0;
}

/* The body displacements (into as->dx, m and rad) that move the island back so that no newly
   found contact penetrates: at the positions given, contact i is owed the normal displacement
   target[i] (its depth if new, else 0), and the bodies move by du = P J_n^T lambda with
   lambda >= 0 solving the LCP w = W_nn lambda - target >= 0, lambda^T w = 0 (the projection of
   recovery_project.c), which pushes only where owed and pulls nowhere. W_nn is singular where
   the island has more contacts than freedoms (a wall of boxes, four corners each): touch_lcp.c
   solves it, as the recovery's projection does, by the dense Lemke below recovery_switch
   contacts and iteratively from there.
   depth[i] -= (W_nn lambda)_i: the depths at the new positions (a new contact's at most
   shift lambda_i > 0 after a shifted solve, or the iterative solve's accuracy (touch_lcp.h),
   which the caller starts its spring at). 1 if
   neither the approach nor the island's motion can pay the move's lift (touch_speed): nothing
   is moved or changed, and the caller starts the new contacts' springs at the depths found
   instead. -1 if memory is short, the LCP has no solution (a contact the joints hold rigid
   that is owed a displacement) or neither solver answers it. */
int ipx_ode_first_touch(ipx_ode_context *ctx, const double *target, double *depth)
{
    assembly *as = &ctx->as;
    compliant_cache *cc = &ctx->cache;
    const int k = as->problem.k, rows = IPX_ROWS_PER_CONTACT * k;
    const size_t kk = (size_t)k, lemke = ipx_lemke_psd_work_doubles(k),
                 psd = ipx_lcp_psd_work_doubles(k);
    if (kk * kk + 4 * kk + (lemke > psd ? lemke : psd) > (size_t)INT_MAX / 4 ||
        ipx_ode_grow((void **)&cc->lcp, &cc->cap_lcp, (int)(kk * kk + 4 * kk), sizeof(double)) != 0)
        return -1;
    double *M = cc->lcp;
    for (int i = 0; i < k; i++)
        for (int j = 0; j < k; j++)
            M[i + kk * j] = as->W[IPX_ROWS_PER_CONTACT * i + IPX_N +
                                  (size_t)rows * (IPX_ROWS_PER_CONTACT * j + IPX_N)];
    const size_t nnz = ipx_ode_touch_nonzero(k, M);
    const size_t need = kk * kk + 4 * kk + nnz + (lemke > psd ? lemke : psd);
    if (ipx_ode_grow((void **)&cc->lcp, &cc->cap_lcp, (int)need, sizeof(double)) != 0 ||
        ipx_ode_grow((void **)&cc->ilcp, &cc->cap_ilcp,
                     (int)(ipx_lemke_work_ints(k) + kk + 1 + nnz), sizeof(int)) != 0)
        return -1;
    M = cc->lcp; /* grown: moved */
    double *q = M + kk * kk, *lambda = q + kk, *w = lambda + kk, *diag = w + kk, *val = diag + kk;
    int *start = cc->ilcp + ipx_lemke_work_ints(k);
    for (int i = 0; i < k; i++) q[i] = -target[i];
    touch_lcp t = {k, M, q, lambda, w, diag, val, val + nnz, start, start + k + 1, cc->ilcp};
    if (!ipx_ode_touch_solve(&t, k < ctx->config.recovery_switch)) return -1;
    double *pi = as->rows_b; /* free until ipx_ode_compliant_defer */
    for (int a = 0; a < rows; a++) pi[a] = 0.0;
    for (int i = 0; i < k; i++) pi[IPX_ROWS_PER_CONTACT * i + IPX_N] = lambda[i];
    ipx_constrained_delta_u(&as->system, pi, as->dx, as->work); /* m, rad: kg m / kg */
    for (int a = 0; a < 6 * ctx->isl.n_body; a++)
        if (!isfinite(as->dx[a])) return -1;
    if (touch_speed(ctx, pi) != 0) return 1;
    for (int i = 0; i < k; i++) depth[i] -= w[i] + target[i]; /* (W_nn lambda)_i */
    return 0;
}
