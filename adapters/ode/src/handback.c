/* Handing the impact back to ODE (docs/ode-host.md §4): post-impact velocities into the
   bodies, bodies enabled, and contacts that now separate disabled for this step so that ODE adds
   neither ERP push-out nor friction to them. Closed contacts stay: ODE carries the load. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "kinematics.h"

int ipx_ode_handback_bounded(ipx_ode_context *ctx, char *msg, size_t size)
{
    const ipx_problem *p = &ctx->as.problem;
    const double *v_post = ctx->as.result.v_post;
    const int n = IPX_ROWS_PER_CONTACT * p->k;
    double speed = 0.0, worst = 0.0;
    int at = 0;
    for (int i = 0; i < n; i++) {
        speed = fmax(speed, fabs(p->v[i]));
        const double dv = fabs(v_post[i] - p->v[i]);
        if (!(dv <= worst)) worst = dv, at = i; /* NaN counts as the worst */
    }
    const double scale =
        speed + ipx_ode_gravity_speed(ctx, ctx->step_h) + ctx->config.recovery_speed;
    const double ratio = worst / scale;
    if (ratio <= ctx->config.handback_bound) {
        if (ratio > ctx->stats.max_handback_ratio) ctx->stats.max_handback_ratio = ratio;
        return 0;
    }
    ctx->stats.handback_refused++;
    snprintf(msg, size,
             "handback refused: contact %d's velocity would change by %.3g m/s, %.3g times "
             "the problem's speed scale %.3g m/s (handback_bound %g): left to ODE",
             at / IPX_ROWS_PER_CONTACT, worst, ratio, scale, ctx->config.handback_bound);
    return -1;
}

static void write_bodies(ipx_ode_context *ctx)
{
    const island *is = &ctx->isl;
    assembly *as = &ctx->as;
    if (as->moved) { /* a compliant island back to first touch */
        for (int i = 0; i < is->n_body; i++)
            if (ipx_ode_dynamic(is->body[i]))
                ipx_ode_displace(is->body[i], as->dx + 6 * i, as->dx + 6 * i + 3);
        /* the move keeps the joints to first order only: the velocities are made consistent
           with them where the bodies now are */
        ipx_ode_reproject_joints(ctx, as->per_contact + IPX_ODE_PC_ACCEL * (size_t)as->problem.k);
    }
    for (int i = 0; i < is->n_body; i++) {
        dBodyID b = is->body[i];
        const double *u = as->u_post + 6 * i;
        if (dBodyIsKinematic(b) || memcmp(u, as->u + 6 * i, 6 * sizeof(double)) == 0) continue;
        dBodySetLinearVel(b, u[0], u[1], u[2]);
        dBodySetAngularVel(b, u[3], u[4], u[5]);
        dBodyEnable(b);
    }
    as->moved = 0;
}

int ipx_ode_disable_contact(ipx_ode_context *ctx, int rec)
{
    if (ipx_ode_grow((void **)&ctx->disabled, &ctx->cap_disabled, ctx->n_disabled + 1,
                     sizeof *ctx->disabled) != 0)
        return -1;
    contact_record *r = &ctx->store.rec[rec];
    dJointDisable(r->joint);
    r->disabled_by_us = 1;
    ctx->disabled[ctx->n_disabled++] = (disabled_contact){rec, r->joint};
    return 0;
}

/* Disables record rec (problem contact k, or a twin of it) if contact k separates, or always
   under a compliant model, whose force replaces ODE's contact. Left enabled when memory is
   short: ODE may then add push-out, which is its normal behaviour. */
static void disable_if_separating(ipx_ode_context *ctx, int k, int rec)
{
    if (!ctx->compliant &&
        ctx->as.result.v_post[IPX_ROWS_PER_CONTACT * k + IPX_N] <= ctx->separating)
        return;
    if (ipx_ode_disable_contact(ctx, rec) == 0) ctx->stats.contacts_disabled++;
}

static void disable_separating(ipx_ode_context *ctx)
{
    const island *is = &ctx->isl;
    for (int k = 0; k < is->n_contact; k++) disable_if_separating(ctx, k, is->contact[k]);
    for (int t = 0; t < is->n_twin; t++) disable_if_separating(ctx, is->twin_of[t], is->twin[t]);
}

void ipx_ode_handback(ipx_ode_context *ctx)
{
    write_bodies(ctx);
    if (ctx->config.disable_separating || ctx->compliant) disable_separating(ctx);
    ctx->stats.impact_events++;
    if (ctx->as.result.counts.limits_hit) ctx->stats.limits_hit_events++;
    ctx->stats.impact_contacts += ctx->isl.n_contact;
}

void ipx_ode_reenable(ipx_ode_context *ctx)
{
    for (int i = 0; i < ctx->n_disabled; i++) {
        const disabled_contact *d = &ctx->disabled[i];
        contact_record *r = &ctx->store.rec[d->rec];
        if (d->rec >= ctx->store.high_water || r->joint != d->joint || !r->disabled_by_us) continue;
        dJointEnable(r->joint);
        r->disabled_by_us = 0;
    }
    ctx->n_disabled = 0;
}
