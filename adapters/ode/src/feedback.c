/* Joint feedback (dJointSetFeedback): ODE reports in a joint's dJointFeedback the force and
   torque its rows applied to each body over the last step. In plain ODE an impact is part of
   that step, so a contact's feedback and that of the joints the impact loads include it; under
   impax the impact is applied before ODE's step, so each impact's share is added after the step:
   impulse / h, the step's mean force (docs/ode-adapter.md "Joint feedback"). A contact the
   pre-step disabled is not stepped by ODE, and its feedback is the impact's alone, unless the
   position recovery stepped a copy of it in its place (recovery.c), whose force ODE reports
   into the same feedback. The joints' share is their reaction to the contact impulses
   (joint_reactions). */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "impax/linalg.h"
#include "internal.h"

/* ODE's slot (f1 t1 = 0, f2 t2 = 1) for the joint's body s as dJointGetBody gives them: ODE
   keeps a lone body first (dJointAttach(j, 0, b) reports it as body 1). */
static int slot_of(dJointID j, int s)
{
    return !dJointGetBody(j, 0) && dJointGetBody(j, 1) ? 1 - s : s;
}

/* A new debt for joint j (or NULL when memory is short: that feedback is left as ODE gives it). */
static feedback_debt *new_debt(ipx_ode_context *ctx, dJointID j, int set)
{
    feedback_state *f = &ctx->feedback;
    if (ipx_ode_grow((void **)&f->debt, &f->cap, f->n + 1, sizeof *f->debt) != 0) return NULL;
    feedback_debt *d = &f->debt[f->n++];
    memset(d, 0, sizeof *d);
    d->joint = j;
    d->set = set;
    return d;
}

/* Adds the impulse rows (row[0..n), impulses x) bring to the joint's two bodies. */
static void add_rows(feedback_debt *d, const ipx_row *row, const double *x, int n)
{
    for (int r = 0; r < n; r++)
        for (int s = 0; s < 2; s++) {
            if (row[r].body[s] < 0) continue;
            const int slot = slot_of(d->joint, s);
            for (int a = 0; a < 6; a++) d->impulse[slot][a] += row[r].J[s][a] * x[r];
        }
}

/* The contacts' impulses into their joints' feedback (a twin of a problem contact that the
   pre-step disabled gets none: the impulse is its problem contact's). */
static void contact_debts(ipx_ode_context *ctx, const double *pi)
{
    const island *is = &ctx->isl;
    for (int k = 0; k < is->n_contact; k++) {
        const contact_record *r = &ctx->store.rec[is->contact[k]];
        if (!dJointGetFeedback(r->joint)) continue;
        feedback_debt *d = new_debt(ctx, r->joint, r->disabled_by_us);
        if (d)
            add_rows(d, ctx->as.contact_row + IPX_ROWS_PER_CONTACT * k,
                     pi + IPX_ROWS_PER_CONTACT * k, IPX_ROWS_PER_CONTACT);
    }
    for (int t = 0; t < is->n_twin; t++) {
        const contact_record *r = &ctx->store.rec[is->twin[t]];
        if (r->disabled_by_us && dJointGetFeedback(r->joint)) new_debt(ctx, r->joint, 1);
    }
}

/* 1 if a joint of the island reports its feedback. */
static int joint_feedback_asked(const island *is)
{
    for (int k = 0; k < is->n_joint; k++)
        if (dJointGetFeedback(is->joint[k])) return 1;
    return 0;
}

/* y += M^-1 x for body b's 6-vector x (world frame). */
static void add_inverse_mass(const ipx_body *b, const double x[6], double y[6])
{
    for (int i = 0; i < 3; i++) {
        y[i] += b->inv_mass * x[i];
        for (int c = 0; c < 3; c++) y[3 + i] += b->inv_inertia[i + 3 * c] * x[3 + c];
    }
}

/* Row r's product with the bodies' 6-vectors g (6 per island body). */
static double row_dot(const ipx_row *r, const double *g)
{
    double sum = 0.0;
    for (int s = 0; s < 2; s++)
        for (int a = 0; r->body[s] >= 0 && a < 6; a++) sum += r->J[s][a] * g[6 * r->body[s] + a];
    return sum;
}

/* The joints' reaction impulses Lambda (one per joint row, into *lambda) to the contact
   impulses pi, as ODE's own joint model gives them (its rows softened by the world's CFM,
   cfm / h on the diagonal): (J_b M^-1 J_b^T + cfm / h) Lambda = -J_b M^-1 J_c^T pi. With CFM 0
   this is the reaction the joint elimination applies (constrained.h; redundant rows share it
   by the minimum norm); where the joints are nearly redundant (a chain held at both ends, a
   statically indeterminate load) the CFM bounds it as it bounds ODE's own forces. 0, or -1 if
   memory is short or the solve fails. */
static int joint_reactions(ipx_ode_context *ctx, const double *pi, double **lambda)
{
    const island *is = &ctx->isl;
    const assembly *as = &ctx->as;
    feedback_state *f = &ctx->feedback;
    const int m = as->n_joint_row, nb = 6 * is->n_body;
    const size_t need = (size_t)m * (size_t)m + (size_t)m + (size_t)nb + 6 * (size_t)m * 2 +
                        ipx_lsq_work_doubles(m, m);
    if (m == 0 || need > INT_MAX ||
        ipx_ode_grow((void **)&f->work, &f->cap_work, (int)need, sizeof(double)) != 0 ||
        ipx_ode_grow((void **)&f->iwork, &f->cap_iwork, m, sizeof(int)) != 0)
        return -1;
    double *A = f->work, *b = A + (size_t)m * (size_t)m, *g = b + m, *y = g + nb,
           *work = y + 12 * (size_t)m;
    memset(g, 0, (size_t)nb * sizeof(double)); /* M^-1 J_c^T pi, per body */
    for (int c = 0; c < IPX_ROWS_PER_CONTACT * is->n_contact; c++)
        for (int s = 0; s < 2; s++) {
            const int body = as->contact_row[c].body[s];
            if (body < 0) continue;
            double x[6];
            for (int a = 0; a < 6; a++) x[a] = as->contact_row[c].J[s][a] * pi[c];
            add_inverse_mass(&as->body[body], x, g + 6 * body);
        }
    const double soft = dWorldGetCFM(ctx->world) / ctx->step_h;
    for (int q = 0; q < m; q++) {
        b[q] = -row_dot(&as->joint_row[q], g);
        double *yq = y + 12 * (size_t)q; /* M^-1 J_q^T, per end */
        memset(yq, 0, 12 * sizeof(double));
        for (int s = 0; s < 2; s++)
            if (as->joint_row[q].body[s] >= 0)
                add_inverse_mass(&as->body[as->joint_row[q].body[s]], as->joint_row[q].J[s],
                                 yq + 6 * s);
    }
    for (int q = 0; q < m; q++)
        for (int r = 0; r < m; r++) {
            const ipx_row *rr = &as->joint_row[r], *rq = &as->joint_row[q];
            double sum = r == q ? soft : 0.0;
            for (int s = 0; s < 2; s++)
                for (int t = 0; t < 2; t++)
                    if (rr->body[s] >= 0 && rr->body[s] == rq->body[t])
                        for (int a = 0; a < 6; a++)
                            sum += rr->J[s][a] * y[12 * (size_t)q + 6 * t + a];
            A[r + (size_t)m * q] = sum;
        }
    if (ipx_lsq_min_norm(m, m, A, b, 1e-13, work, f->iwork, NULL) != IPX_OK) return -1;
    *lambda = b;
    return 0;
}

/* The bilateral joints' reactions into their feedback. */
static void joint_debts(ipx_ode_context *ctx, const double *pi)
{
    const island *is = &ctx->isl;
    const assembly *as = &ctx->as;
    double *lambda;
    if (!joint_feedback_asked(is) || joint_reactions(ctx, pi, &lambda) != 0) return;
    for (int k = 0; k < is->n_joint; k++) {
        if (!dJointGetFeedback(is->joint[k])) continue;
        feedback_debt *d = new_debt(ctx, is->joint[k], 0);
        const int first = as->joint_first[k], n = as->joint_first[k + 1] - first;
        if (d) add_rows(d, as->joint_row + first, lambda + first, n);
    }
}

void ipx_ode_feedback_island(ipx_ode_context *ctx)
{
    const double *pi = ctx->as.result.impulse;
    contact_debts(ctx, pi);
    joint_debts(ctx, pi);
}

void ipx_ode_feedback_stepped(ipx_ode_context *ctx, dJointID contact)
{
    feedback_state *f = &ctx->feedback;
    for (int i = 0; i < f->n; i++)
        if (f->debt[i].joint == contact) f->debt[i].set = 0;
}

void ipx_ode_feedback_apply(ipx_ode_context *ctx)
{
    feedback_state *f = &ctx->feedback;
    const double h = ctx->step_h;
    for (int i = 0; i < f->n; i++) {
        const feedback_debt *d = &f->debt[i];
        dJointFeedback *fb = dJointGetFeedback(d->joint);
        if (!fb || !(h > 0.0)) continue;
        dReal *out[2][2] = {{fb->f1, fb->t1}, {fb->f2, fb->t2}};
        for (int slot = 0; slot < 2; slot++)
            for (int a = 0; a < 6; a++) {
                dReal *x = &out[slot][a / 3][a % 3];
                *x = (d->set ? 0.0 : *x) + d->impulse[slot][a] / h;
            }
    }
    f->n = 0;
}

void ipx_ode_feedback_free(feedback_state *f)
{
    free(f->debt);
    free(f->work);
    free(f->iwork);
}
