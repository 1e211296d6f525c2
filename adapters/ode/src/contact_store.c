/* The contact store: a copy of every captured dContact with its bodies, found by joint
   (hash with chaining) and by group (doubly linked lists). The hooks (hooks.c) keep it in step
   with ODE: group empties drop their records before ODE frees (and later reuses) the joints. */
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

void ipx_ode_store_unlink(contact_store *r, int i)
{
    contact_record *c = &r->rec[i];
    int *link = &r->bucket[bucket_of(r, c->joint)];
    while (*link != i) link = &r->rec[*link].next_hash;
    *link = c->next_hash;
    if (c->prev_group >= 0) r->rec[c->prev_group].next_group = c->next_group;
    else r->groups[c->group_slot].head = c->next_group;
    if (c->next_group >= 0) r->rec[c->next_group].prev_group = c->prev_group;
    c->joint = NULL;
    c->next_hash = r->free_head;
    r->free_head = i;
    r->live--;
}

int ipx_ode_store_add(contact_store *r, dJointID joint, dJointGroupID group,
                      const dContact *contact)
{
    int old = ipx_ode_store_find(r, joint);
    if (old >= 0) ipx_ode_store_unlink(r, old);
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
