/* The hooks through which the program's ODE calls (or the shim's) reach a context (ode.h
   "Hooks"): contacts created, attached and dropped go into and out of the contact store, a
   destroyed body's contacts and penetration recovery are forgotten, and a destroyed world
   detaches its context. Also ipx_ode_contact and ipx_ode_empty_group, which call ODE and the
   hooks in one go, for new code. */
#include <pthread.h>

#include "internal.h"

void ipx_ode_on_contact_created(ipx_ode_context *ctx, dJointID joint, dJointGroupID group,
                                const dContact *contact)
{
    if (!ctx || !joint || !contact || ipx_ode_internal) return;
    pthread_mutex_lock(&ctx->lock);
    if (ipx_ode_store_add(&ctx->store, joint, group, contact) < 0)
        ipx_ode_fallback(ctx, "out of memory while registering a contact: it is left to ODE");
    else ctx->stats.contacts_captured++;
    pthread_mutex_unlock(&ctx->lock);
}

typedef struct attachment {
    dJointID joint;
    dBodyID body1, body2;
} attachment;

static void attach(ipx_ode_context *ctx, const void *arg)
{
    const attachment *a = arg;
    int i = ipx_ode_store_find(&ctx->store, a->joint);
    if (i < 0) return;
    contact_record *c = &ctx->store.rec[i];
    c->body[0] = a->body1;
    c->body[1] = a->body2;
    c->attached = a->body1 || a->body2;
    c->dead = 0;
}

void ipx_ode_on_contact_attached(ipx_ode_context *ctx, dJointID joint, dBodyID body1, dBodyID body2)
{
    const attachment a = {joint, body1, body2};
    ipx_ode_for_each(ctx, attach, &a);
}

static void drop_group(ipx_ode_context *ctx, const void *arg)
{
    contact_store *r = &ctx->store;
    dJointGroupID group = (dJointGroupID)arg;
    for (int g = 0; g < r->n_groups; g++) {
        if (r->groups[g].group != group) continue;
        while (r->groups[g].head >= 0) ipx_ode_store_unlink(r, r->groups[g].head);
        return;
    }
}

void ipx_ode_on_group_emptied(ipx_ode_context *ctx, dJointGroupID group)
{
    ipx_ode_for_each(ctx, drop_group, group);
}

static void drop_joint(ipx_ode_context *ctx, const void *arg)
{
    int i = ipx_ode_store_find(&ctx->store, (dJointID)arg);
    /* dJointDestroy does nothing to a joint in a group: its record lives until the empty */
    if (i >= 0 && ctx->store.rec[i].group == 0) ipx_ode_store_unlink(&ctx->store, i);
}

void ipx_ode_on_joint_destroyed(ipx_ode_context *ctx, dJointID joint)
{
    ipx_ode_for_each(ctx, drop_joint, joint);
}

static void forget_body(ipx_ode_context *ctx, const void *arg)
{
    contact_store *r = &ctx->store;
    for (int i = 0; i < r->high_water; i++) {
        contact_record *c = &r->rec[i];
        if (c->joint && (c->body[0] == arg || c->body[1] == arg)) c->dead = 1;
    }
    ipx_ode_recovery_forget_body(ctx, (dBodyID)arg);
}

void ipx_ode_on_body_destroyed(ipx_ode_context *ctx, dBodyID body)
{
    ipx_ode_for_each(ctx, forget_body, body);
}

void ipx_ode_on_world_destroyed(ipx_ode_context *ctx)
{
    if (!ctx) return;
    ipx_ode_table_remove(ctx);
    pthread_mutex_lock(&ctx->lock);
    ipx_ode_store_clear(&ctx->store);
    ctx->n_disabled = 0;
    ctx->recovery.n_body = 0; /* the world's bodies are gone */
    ctx->world = NULL;
    pthread_mutex_unlock(&ctx->lock);
}

dJointID ipx_ode_contact(ipx_ode_context *ctx, dWorldID world, dJointGroupID group,
                         const dContact *contact, dBodyID body1, dBodyID body2)
{
    char msg[IPX_MESSAGE_SIZE];
    if (!ipx_ode_contact_valid(contact, msg, sizeof msg)) {
        if (ctx) ipx_ode_fallback(ctx, msg);
        return 0;
    }
    dJointID j = dJointCreateContact(world, group, contact);
    ipx_ode_on_contact_created(ctx, j, group, contact);
    dJointAttach(j, body1, body2);
    ipx_ode_on_contact_attached(ctx, j, body1, body2);
    return j;
}

void ipx_ode_empty_group(ipx_ode_context *ctx, dJointGroupID group)
{
    ipx_ode_on_group_emptied(ctx, group);
    dJointGroupEmpty(group);
}
