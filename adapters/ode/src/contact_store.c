/* The contact store: a copy of every captured dContact with its bodies, found by joint
   (hash with chaining) and by group (doubly linked lists), and the hooks that keep it in step
   with ODE. Group empties drop their records before ODE frees (and later reuses) the joints. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static int bucket_of(const contact_store *r, const void *joint)
{
    uint64_t h = (uint64_t)(uintptr_t)joint * 0x9e3779b97f4a7c15ULL;
    return (int)(h >> 40) & (r->n_buckets - 1);
}

void ipx_ode_store_free(contact_store *r)
{
    free(r->rec);
    free(r->bucket);
    free(r->groups);
    *r = (contact_store){0};
}

void ipx_ode_store_clear(contact_store *r)
{
    for (int b = 0; b < r->n_buckets; b++) r->bucket[b] = -1;
    r->high_water = r->live = r->n_groups = 0;
    r->free_head = -1;
}

int ipx_ode_store_find(const contact_store *r, dJointID joint)
{
    if (r->n_buckets == 0) return -1;
    for (int i = r->bucket[bucket_of(r, joint)]; i >= 0; i = r->rec[i].next_hash)
        if (r->rec[i].joint == joint) return i;
    return -1;
}

/* Keeps the load at most one record per bucket. */
static int rehash(contact_store *r)
{
    int n = r->n_buckets ? 2 * r->n_buckets : 256;
    int *bucket = malloc((size_t)n * sizeof *bucket);
    if (!bucket) return -1;
    free(r->bucket);
    r->bucket = bucket;
    r->n_buckets = n;
    for (int b = 0; b < n; b++) bucket[b] = -1;
    for (int i = 0; i < r->high_water; i++) {
        if (!r->rec[i].joint) continue;
        int b = bucket_of(r, r->rec[i].joint);
        r->rec[i].next_hash = bucket[b];
        bucket[b] = i;
    }
    return 0;
}

static int group_slot(contact_store *r, dJointGroupID group)
{
    for (int g = 0; g < r->n_groups; g++)
        if (r->groups[g].group == group) return g;
    if (ipx_ode_grow((void **)&r->groups, &r->cap_groups, r->n_groups + 1, sizeof *r->groups) != 0)
        return -1;
    r->groups[r->n_groups] = (group_entry){group, -1};
    return r->n_groups++;
}

static int new_slot(contact_store *r)
{
    if (r->free_head >= 0) {
        int i = r->free_head;
        r->free_head = r->rec[i].next_hash;
        return i;
    }
    if (ipx_ode_grow((void **)&r->rec, &r->cap, r->high_water + 1, sizeof *r->rec) != 0) return -1;
    return r->high_water++;
}

static void unlink_record(contact_store *r, int i)
{
    contact_record *c = &r->rec[i];
    int *link = &r->bucket[bucket_of(r, c->joint)];
    while (*link != i) link = &r->rec[*link].next_hash;
    *link = c->next_hash;
    if (c->prev_group >= 0)
        r->rec[c->prev_group].next_group = c->next_group;
    else
        r->groups[c->group_slot].head = c->next_group;
    if (c->next_group >= 0) r->rec[c->next_group].prev_group = c->prev_group;
    c->joint = NULL;
    c->next_hash = r->free_head;
    r->free_head = i;
    r->live--;
}

/* Adds (or, for a joint address ODE reused without our seeing the empty, replaces) a record. */
static int add_record(contact_store *r, dJointID joint, dJointGroupID group, const dContact *contact)
{
    int old = ipx_ode_store_find(r, joint);
    if (old >= 0) unlink_record(r, old);
    if (r->live + 1 > r->n_buckets && rehash(r) != 0) return -1;
    int g = group_slot(r, group), i = g < 0 ? -1 : new_slot(r);
    if (i < 0) return -1;
    contact_record *c = &r->rec[i];
    memset(c, 0, sizeof *c);
    c->joint = joint;
    c->group = group;
    c->contact = *contact;
    c->group_slot = g;
    c->prev_group = -1;
    c->next_group = r->groups[g].head;
    if (c->next_group >= 0) r->rec[c->next_group].prev_group = i;
    r->groups[g].head = i;
    int b = bucket_of(r, joint);
    c->next_hash = r->bucket[b];
    r->bucket[b] = i;
    r->live++;
    return i;
}

/* ---- hooks --------------------------------------------------------------------------------- */

void ipx_ode_on_contact_created(ipx_ode_context *ctx, dJointID joint, dJointGroupID group,
                                const dContact *contact)
{
    if (!ctx || !joint || !contact || ipx_ode_internal) return;
    pthread_mutex_lock(&ctx->lock);
    if (add_record(&ctx->store, joint, group, contact) < 0)
        ipx_ode_fallback(ctx, "out of memory while registering a contact: it is left to ODE");
    else
        ctx->stats.contacts_captured++;
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
        while (r->groups[g].head >= 0) unlink_record(r, r->groups[g].head);
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
    if (i >= 0 && ctx->store.rec[i].group == 0) unlink_record(&ctx->store, i);
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
