/* Position recovery's projection (recovery.c decides which bodies and contacts recover;
   docs/ode-adapter.md "Penetration recovery"): after ODE's step, each island with a contact to
   recover is gathered and projected. At the positions ODE's step left, the island's bodies
   move by  du = P J_n^T lambda  (P the joint-consistent inverse mass, constrained.h; J_n the
   normal rows of its contacts), where lambda solves the LCP
       w = W_nn lambda - t >= 0,   lambda >= 0,   lambda^T w = 0,   W_nn = J_n P J_n^T,
   t_i the normal displacement contact i is owed (its ERP fraction of the penetration), 0 for a
   contact with nothing to recover: every contact moves out by at least its target, none is
   pulled, and only contacts at their target push (so none is pushed deeper, nor further than
   the others need). du is unique even where lambda is not (redundant contacts).
   Islands below recovery_switch contacts form W_nn (O(k^2)) and solve it with the dense Lemke
   (O(k^3)); larger ones, and those the dense Lemke fails on, never form it: ipx_lcp_psd
   applies W_nn through the bodies (ipx_constrained_apply, O(k) per product) to within
   RECOVERY_ACCURACY of every target (or RECOVERY_TOL of the largest, if that is more). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "impax/lcp.h"
#include "impax/lcp_psd.h"
#include "internal.h"
#include "touch_lcp.h"

/* The iterative path's accuracy (lcp_psd.h: every contact ends within this of its target, none
   deeper than that beyond it): 1 nm (a thousandth of what recovery.c counts as recovered), or
   RECOVERY_TOL of the largest target if that is more (1 nm at a 1 mm target). Tighter costs
   much: the targets of a face's four corners are consistent (a rigid face), so most contacts end
   exactly at their target with or without an impulse (a degenerate LCP), and the last digits
   take the iteration hundreds of active-set changes (a 2 x 2 x 2 block of boxes, 128 contacts:
   30 iterations to 1e-4 of the largest target, 2 300 to 1e-6, 34 000 to 1e-10). */
#define RECOVERY_ACCURACY 1e-9
#define RECOVERY_TOL 1e-6

/* rs->lcp holding `doubles` and rs->ilcp `ints`; NULL if memory is short. */
static double *lcp_space(recovery_state *rs, size_t doubles, size_t ints)
{
    if (doubles > rs->cap_lcp) {
        double *p = realloc(rs->lcp, doubles * sizeof *p);
        if (!p) return NULL;
        rs->lcp = p;
        rs->cap_lcp = doubles;
    }
    if (ints > rs->cap_ilcp) {
        int *p = realloc(rs->ilcp, ints * sizeof *p);
        if (!p) return NULL;
        rs->ilcp = p;
        rs->cap_ilcp = ints;
    }
    return rs->lcp;
}

/* The island's bodies and rows with only the normal contact rows (rs->normal), factorised. */
static int normal_system(ipx_ode_context *ctx)
{
    char msg[IPX_MESSAGE_SIZE];
    recovery_state *rs = &ctx->recovery;
    assembly *as = &ctx->as;
    const int k = ctx->isl.n_contact;
    if (ipx_ode_assemble_rows(ctx, msg, sizeof msg) != 0 ||
        ipx_ode_grow((void **)&rs->nrow, &rs->cap_nrow, k, sizeof *rs->nrow) != 0)
        return -1;
    for (int i = 0; i < k; i++) rs->nrow[i] = as->contact_row[IPX_ROWS_PER_CONTACT * i + IPX_N];
    rs->normal =
        (ipx_constrained){ctx->isl.n_body, as->body, as->n_joint_row, as->joint_row, k, rs->nrow};
    if (ipx_ode_reserve_work(
            as, ipx_constrained_work_doubles(ctx->isl.n_body, as->n_joint_row, k)) != 0)
        return -1;
    return ipx_constrained_factor(&rs->normal, as->work, NULL, msg, sizeof msg) == IPX_OK ? 0 : -1;
}

/* Below recovery_switch: W_nn formed, the dense Lemke. */
static int solve_dense(ipx_ode_context *ctx, const double *q, double *z, double *w)
{
    recovery_state *rs = &ctx->recovery;
    const int k = rs->normal.n_contact_rows;
    double *M = w + k, *work = M + (size_t)k * k;
    ipx_constrained_delassus(&rs->normal, ctx->as.work, M);
    return ipx_lemke(k, M, q, z, w, ipx_lemke_default_max_pivots(k), work, rs->ilcp, NULL) == IPX_OK
               ? 0
               : -1;
}

/* W_nn x through the bodies. */
typedef struct normal_operator {
    const ipx_constrained *system;
    double *work, *du;
} normal_operator;

static void apply_normal(void *user, const double *x, double *y)
{
    normal_operator *op = user;
    ipx_constrained_apply(op->system, x, y, op->du, op->work);
}

/* From recovery_switch on: ipx_lcp_psd on W_nn applied through the bodies. A contact the joints
   hold rigid (W_nn's diagonal 0) cannot move: owed a displacement, the LCP has no solution
   (as the dense Lemke's ray says), else it stays out of the problem (ipx_ode_projection_tol). */
static int solve_iterative(ipx_ode_context *ctx, const double *q, double *z, double *w)
{
    recovery_state *rs = &ctx->recovery;
    const int k = rs->normal.n_contact_rows;
    double *diag = w + k, *du = diag + k, *work = du + 6 * (size_t)ctx->isl.n_body;
    ipx_constrained_diagonal(&rs->normal, ctx->as.work, diag);
    const double tol = ipx_ode_projection_tol(k, q, diag, RECOVERY_TOL, RECOVERY_ACCURACY);
    if (!(tol > 0.0)) return -1;
    normal_operator user = {&rs->normal, ctx->as.work, du};
    ipx_lcp_operator op = {k, apply_normal, &user, diag, 0.0};
    ipx_lcp_psd_options opt = ipx_lcp_psd_default_options();
    opt.tol = tol;
    ctx->stats.recovery_iterative++;
    return ipx_lcp_psd(&op, q, z, w, &opt, work, NULL) == IPX_OK ? 0 : -1;
}

/* Projects the island gathered in ctx->isl. 0, or -1 if the island keeps its penetration for
   this step. */
static int project_island(ipx_ode_context *ctx)
{
    recovery_state *rs = &ctx->recovery;
    const island *is = &ctx->isl;
    assembly *as = &ctx->as;
    const int k = is->n_contact, dense = k < ctx->config.recovery_switch;
    const size_t kk = (size_t)k;
    const size_t iterative_doubles = 4 * kk + 6 * (size_t)is->n_body + ipx_lcp_psd_work_doubles(k);
    const size_t doubles = dense ? kk * (kk + 3) + ipx_lemke_work_doubles(k) : 0;
    double *q = lcp_space(rs, doubles > iterative_doubles ? doubles : iterative_doubles,
                          dense ? ipx_lemke_work_ints(k) : 0);
    if (!q || normal_system(ctx) != 0) return -1;
    double *z = q + k, *w = z + k;
    for (int i = 0; i < k; i++)
        q[i] = -ipx_ode_recovery_target(ctx, &ctx->store.rec[is->contact[i]]);
    ctx->stats.recovery_islands++;
    /* the dense Lemke fails on some degenerate problems (rays, inaccurate bases): the iterative
       solver answers those */
    if ((!dense || solve_dense(ctx, q, z, w) != 0) && solve_iterative(ctx, q, z, w) != 0) return -1;
    ipx_constrained_delta_u(&rs->normal, z, as->du, as->work); /* m, rad: kg m / kg */
    for (int i = 0; i < 6 * is->n_body; i++)
        if (!isfinite(as->du[i])) return -1;
    for (int b = 0; b < is->n_body; b++)
        if (ipx_ode_dynamic(is->body[b]))
            ipx_ode_displace(is->body[b], as->du + 6 * b, as->du + 6 * b + 3);
    return 0;
}

/* Position mode: projects every island with a contact to recover. An island that cannot be
   projected (too many contacts, a failed LCP) keeps its penetration for this step and the
   failure is counted; the next step tries again. */
static void project(ipx_ode_context *ctx)
{
    recovery_state *rs = &ctx->recovery;
    char msg[IPX_MESSAGE_SIZE];
    ctx->epoch++;
    for (int j = 0; j < rs->n_rec; j++) {
        if (ctx->store.rec[rs->rec[j]].island_stamp == ctx->epoch) continue;
        if (ipx_ode_gather(ctx, rs->rec[j], msg, sizeof msg) == 0 && project_island(ctx) == 0)
            continue;
        ctx->stats.recovery_failures++;
    }
}

void ipx_ode_recovery_project(ipx_ode_context *ctx)
{
    if (ctx->config.recovery == IPX_ODE_RECOVERY_POSITION && ctx->recovery.n_rec > 0) project(ctx);
    ctx->recovery.n_rec = 0;
}
