/* Penetration recovery after impacts (ipx_ode_config.recovery; docs/ode-adapter.md "Penetration recovery").

   ODE removes penetration with a velocity: its contact rows target erp (depth - layer) / h
   (docs/ode-host.md §4.1). After an impact that velocity is energy the model never gave: a sphere
   dropped with e = 0 penetrates 4.3 mm in its impact step and leaves at 3.3 m/s. Every body of
   an island impax handed back therefore recovers its contacts' penetration itself until it is
   gone:
   - position (default): after ODE's step the bodies are moved out by the same fraction per
     step ODE would use (the contact's ERP), along the joint-consistent directions of the
     impact problem (at the positions the step left; the depth is the one captured before): the
     normal Delassus block W_nn of the island (joints eliminated) gives displacements
     M^-1 J^T lambda with lambda >= 0, W_nn lambda >= erp (depth - layer) and complementarity
     (a contact that needs no correction is not pulled, nor pushed deeper; recovery_project.c).
     No kinetic energy is added. During the step ODE carries the load through a copy of the
     contact whose depth is the surface layer (no push-out); the original is disabled for the
     step.
   - velocity: the copy's soft_erp is lowered so that its push-out is at most recovery_speed
     (Gazebo's max_vel, per contact): a bounded bounce, ODE's own mechanism.
   A contact's penetration counts as recovered once ODE's own push-out from it would be no faster
   than the velocity error ODE's resting contact leaves every step anyway (recovered_depth); a
   body leaves the recovering set at the first step in which none of its contacts penetrates
   further. Copies live in a joint group of the context that the post-step empties; the
   adapter's own ODE calls are invisible to the hooks (ipx_ode_internal), so an interposer that
   forwards them here is not re-entered. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "kinematics.h"

/* m beyond the surface layer: the least depth that counts as a penetration to recover (without
   gravity, the whole rule: ODE's push-out from it is below 2e-4 m/s at erp 0.2 and h = 1 ms). */
#define RECOVERED_DEPTH 1e-6

static int recovering(const recovery_state *rs, dBodyID b)
{
    return b && ipx_ode_map_get(&rs->index, b) >= 0;
}

static void rebuild_index(recovery_state *rs)
{
    ipx_ode_map_reset(&rs->index);
    for (int i = 0; i < rs->n_body; i++)
        if (ipx_ode_map_put(&rs->index, rs->body[i], i) != 0) {
            rs->n_body = i; /* out of memory: the rest recover through ODE's push-out */
            return;
        }
}

void ipx_ode_recovery_add_island(ipx_ode_context *ctx)
{
    recovery_state *rs = &ctx->recovery;
    if (ctx->config.recovery == IPX_ODE_RECOVERY_ODE || ctx->compliant) return;
    for (int i = 0; i < ctx->isl.n_body; i++) {
        dBodyID b = ctx->isl.body[i];
        if (!ipx_ode_dynamic(b) || recovering(rs, b)) continue;
        if (ipx_ode_grow((void **)&rs->body, &rs->cap_body, rs->n_body + 1, sizeof *rs->body) !=
                0 ||
            ipx_ode_map_put(&rs->index, b, rs->n_body) != 0)
            return;
        rs->body[rs->n_body++] = b;
    }
}

/* m: how far record r penetrates beyond the world's surface layer (what ODE pushes out). */
static double excess(const ipx_ode_context *ctx, const contact_record *r)
{
    return r->contact.geom.depth - dWorldGetContactSurfaceLayer(ctx->world);
}

/* The fraction of the penetration ODE would remove in one step at this contact. */
static double contact_erp(const ipx_ode_context *ctx, const dContact *c)
{
    return (c->surface.mode & dContactSoftERP) ? c->surface.soft_erp : dWorldGetERP(ctx->world);
}

/* m beyond the surface layer up to which a contact's penetration counts as recovered: where
   ODE's push-out erp excess / h is at most |g| h, the velocity error ODE's resting contact leaves
   in every step anyway (docs/ode-adapter.md "Impact or resting contact"; a free body it could lift by
   |g| h^2 / 2, 4.9 nm at h = 1 ms), and at least RECOVERED_DEPTH. Below it, what stays is the
   depth at which ODE holds a loaded contact (its CFM gives way under the load: about 5 um
   under a few boxes of a pile, 49 um is the rule's figure at erp 0.2 and h = 1 ms): projecting
   that out every step would replace ODE's resting contact for every body an impact ever
   touched (the 200-box bin kept 173 boxes recovering after its last impact). */
static double recovered_depth(const ipx_ode_context *ctx, const dContact *c)
{
    const double h = ctx->step_h;
    return fmax(RECOVERED_DEPTH, ipx_ode_gravity_speed(ctx, h) * h / contact_erp(ctx, c));
}

/* 1 if record r is a live, enabled contact of a recovering body that still penetrates. A
   contact between two bodies that a joint also links is left to ODE: moving them apart would
   fight the joint (programs usually skip such pairs, as ODE's demos do). */
static int needs_recovery(const ipx_ode_context *ctx, const contact_record *r)
{
    const recovery_state *rs = &ctx->recovery;
    return r->joint && r->attached && !r->dead && !r->disabled_by_us && dJointIsEnabled(r->joint) &&
           (recovering(rs, r->body[0]) || recovering(rs, r->body[1])) &&
           excess(ctx, r) > recovered_depth(ctx, &r->contact) &&
           !(r->body[0] && r->body[1] &&
             dAreConnectedExcluding(r->body[0], r->body[1], dJointTypeContact));
}

/* Lists this step's contacts to recover into rs->rec and marks their bodies still recovering. */
static int collect(ipx_ode_context *ctx)
{
    recovery_state *rs = &ctx->recovery;
    rs->n_rec = 0;
    if (ipx_ode_grow((void **)&rs->still, &rs->cap_still, rs->n_body, sizeof *rs->still) != 0)
        return -1;
    memset(rs->still, 0, sizeof *rs->still * (size_t)rs->n_body);
    for (int i = 0; i < ctx->store.high_water; i++) {
        const contact_record *r = &ctx->store.rec[i];
        if (!needs_recovery(ctx, r)) continue;
        if (ipx_ode_grow((void **)&rs->rec, &rs->cap_rec, rs->n_rec + 1, sizeof *rs->rec) != 0)
            return -1;
        rs->rec[rs->n_rec++] = i;
        for (int s = 0; s < 2; s++) {
            int b = r->body[s] ? ipx_ode_map_get(&rs->index, r->body[s]) : -1;
            if (b >= 0) rs->still[b] = 1;
        }
    }
    return 0;
}

double ipx_ode_recovery_target(const ipx_ode_context *ctx, const contact_record *r)
{
    return needs_recovery(ctx, r) ? contact_erp(ctx, &r->contact) * excess(ctx, r) : 0.0;
}

/* Replaces record rec for this step by a copy without push-out (position) or with it limited
   (velocity); the original is disabled until the post-step. */
static void replace(ipx_ode_context *ctx, int rec)
{
    recovery_state *rs = &ctx->recovery;
    contact_record *r = &ctx->store.rec[rec];
    dContact c = r->contact;
    if (ctx->config.recovery == IPX_ODE_RECOVERY_POSITION) {
        c.geom.depth = dWorldGetContactSurfaceLayer(ctx->world);
    } else {
        double limit = ctx->config.recovery_speed * ctx->step_h / excess(ctx, r);
        if (contact_erp(ctx, &c) <= limit) return; /* ODE's push-out is slow enough */
        c.surface.mode |= dContactSoftERP;
        c.surface.soft_erp = limit;
    }
    if (!rs->group && !(rs->group = dJointGroupCreate(0))) return;
    if (ipx_ode_disable_contact(ctx, rec) != 0) return;
    ipx_ode_internal++;
    dJointID copy = dJointCreateContact(ctx->world, rs->group, &c);
    dJointAttach(copy, r->body[0], r->body[1]);
    /* the program's feedback, if it asked for one, reports the copy's force (feedback.c) */
    dJointSetFeedback(copy, dJointGetFeedback(r->joint));
    ipx_ode_feedback_stepped(ctx, r->joint);
    ipx_ode_internal--;
    ctx->stats.recovered_contacts++;
}

/* Keeps the bodies with a contact still penetrating. */
static void drop_recovered(recovery_state *rs)
{
    int kept = 0;
    for (int i = 0; i < rs->n_body; i++)
        if (rs->still[i]) rs->body[kept++] = rs->body[i];
    rs->n_body = kept;
    rebuild_index(rs);
}

void ipx_ode_recover(ipx_ode_context *ctx)
{
    recovery_state *rs = &ctx->recovery;
    rs->n_rec = 0;
    if (!rs->n_body) return;
    if (ctx->config.recovery == IPX_ODE_RECOVERY_ODE || ctx->compliant || collect(ctx) != 0) {
        rs->n_body = 0; /* recovery off, or out of memory: ODE's push-out from now on */
        rs->n_rec = 0;  /* collect may have listed some before memory ran short */
        rebuild_index(rs);
        return;
    }
    for (int j = 0; j < rs->n_rec; j++) replace(ctx, rs->rec[j]);
    drop_recovered(rs);
}

void ipx_ode_recovery_remove_copies(ipx_ode_context *ctx)
{
    if (!ctx->recovery.group) return;
    ipx_ode_internal++;
    dJointGroupEmpty(ctx->recovery.group);
    ipx_ode_internal--;
}

void ipx_ode_recovery_forget_body(ipx_ode_context *ctx, dBodyID body)
{
    recovery_state *rs = &ctx->recovery;
    int i = ipx_ode_map_get(&rs->index, body);
    if (i < 0) return;
    rs->body[i] = rs->body[--rs->n_body];
    rebuild_index(rs);
}

void ipx_ode_recovery_free(ipx_ode_context *ctx)
{
    recovery_state *rs = &ctx->recovery;
    if (rs->group) {
        ipx_ode_internal++;
        dJointGroupDestroy(rs->group); /* empty: the post-step emptied it */
        ipx_ode_internal--;
    }
    free(rs->body);
    free(rs->still);
    free(rs->rec);
    free(rs->nrow);
    free(rs->lcp);
    free(rs->ilcp);
    ipx_ode_map_free(&rs->index);
    memset(rs, 0, sizeof *rs);
}
