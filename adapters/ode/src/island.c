/* Gathering the island around an impacting contact (classify.c finds them): the bodies, joints
   and contacts an impulse there can reach in the same instant. */
#include <stdio.h>

#include "internal.h"

typedef struct gather_state {
    ipx_ode_context *ctx;
    int failed;
    char *msg;
    size_t size;
} gather_state;

static void fail(gather_state *g, const char *text)
{
    if (!g->failed) snprintf(g->msg, g->size, "%s", text);
    g->failed = 1;
}

static void add_body(gather_state *g, dBodyID b)
{
    island *is = &g->ctx->isl;
    if (!b || ipx_ode_map_get(&is->body_index, b) >= 0) return;
    int cap = is->cap_body;
    if (ipx_ode_grow((void **)&is->body, &cap, is->n_body + 1, sizeof *is->body) != 0 ||
        ipx_ode_grow((void **)&is->body_list, &is->cap_body, is->n_body + 1,
                     sizeof *is->body_list) != 0 ||
        ipx_ode_map_put(&is->body_index, b, is->n_body) != 0) {
        fail(g, "out of memory while gathering an island");
        return;
    }
    is->body_list[is->n_body] = -1;
    is->body[is->n_body++] = b;
}

/* Same bodies, point (within 1 nm), normal and surface. ODE's colliders can report one point
   twice (a convex vertex on two faces); the copy only adds dependent rows (a singular W, an
   arbitrary split of the impulse), so it stays out of the problem and follows its twin. */
static int same_contact(const contact_record *a, const contact_record *b)
{
    const dContactGeom *ga = &a->contact.geom, *gb = &b->contact.geom;
    const dSurfaceParameters *sa = &a->contact.surface, *sb = &b->contact.surface;
    double dp = 0.0, nn = 0.0;
    for (int i = 0; i < 3; i++) {
        dp += (ga->pos[i] - gb->pos[i]) * (ga->pos[i] - gb->pos[i]);
        nn += ga->normal[i] * gb->normal[i];
    }
    return a->body[0] == b->body[0] && a->body[1] == b->body[1] && dp <= 1e-18 &&
           nn >= 1.0 - 1e-12 && sa->mode == sb->mode && sa->mu == sb->mu &&
           sa->bounce == sb->bounce && sa->bounce_vel == sb->bounce_vel;
}

/* The body a contact's twins are listed under (body_list, contact_next): twins have the same
   bodies, and walking one body's list keeps a pile's gathering linear where the island's whole
   list made it quadratic. */
static dBodyID list_body(const contact_record *r) { return r->body[0] ? r->body[0] : r->body[1]; }

/* 1 if rec went in as a twin of a contact already in the problem. */
static int add_twin(island *is, const contact_store *store, int rec)
{
    const contact_record *r = &store->rec[rec];
    const int b = ipx_ode_map_get(&is->body_index, list_body(r));
    for (int k = b < 0 ? -1 : is->body_list[b]; k >= 0; k = is->contact_next[k])
        if (same_contact(&store->rec[is->contact[k]], r)) {
            int cap = is->cap_twin;
            if (ipx_ode_grow((void **)&is->twin, &cap, is->n_twin + 1, sizeof *is->twin) != 0 ||
                ipx_ode_grow((void **)&is->twin_of, &is->cap_twin, is->n_twin + 1,
                             sizeof *is->twin_of) != 0)
                return 0; /* memory is short: then it joins the problem as it is */
            is->twin[is->n_twin] = rec;
            is->twin_of[is->n_twin++] = k;
            return 1;
        }
    return 0;
}

static void add_contact(gather_state *g, int rec)
{
    island *is = &g->ctx->isl;
    contact_record *r = &g->ctx->store.rec[rec];
    r->island_stamp = g->ctx->epoch;
    if (add_twin(is, &g->ctx->store, rec)) return;
    int cap = is->cap_contact;
    if (ipx_ode_grow((void **)&is->contact, &cap, is->n_contact + 1, sizeof *is->contact) != 0 ||
        ipx_ode_grow((void **)&is->contact_next, &is->cap_contact, is->n_contact + 1,
                     sizeof *is->contact_next) != 0) {
        fail(g, "out of memory while gathering an island");
        return;
    }
    add_body(g, r->body[0]);
    add_body(g, r->body[1]);
    if (g->failed) return;
    const int k = is->n_contact++, b = ipx_ode_map_get(&is->body_index, list_body(r));
    is->contact[k] = rec;
    is->contact_next[k] = is->body_list[b];
    is->body_list[b] = k;
}

static void add_joint(gather_state *g, dJointID j)
{
    island *is = &g->ctx->isl;
    if (ipx_ode_grow((void **)&is->joint, &is->cap_joint, is->n_joint + 1, sizeof *is->joint) !=
        0) {
        fail(g, "out of memory while gathering an island");
        return;
    }
    is->joint[is->n_joint++] = j;
    add_body(g, dJointGetBody(j, 0));
    add_body(g, dJointGetBody(j, 1));
}

/* One joint met at a body of the island: contacts join the problem, bilateral joints give
   rows, motors and the null joint carry no impulse and do not link bodies here. */
static void visit_joint(gather_state *g, dJointID j)
{
    island *is = &g->ctx->isl;
    if (ipx_ode_map_get(&is->joint_seen, j) >= 0) return;
    if (ipx_ode_map_put(&is->joint_seen, j, 1) != 0) {
        fail(g, "out of memory while gathering an island");
        return;
    }
    if (!dJointIsEnabled(j)) return;
    int type = dJointGetType(j);
    if (type == dJointTypeAMotor || type == dJointTypeLMotor || type == dJointTypeNull) return;
    if (type != dJointTypeContact) {
        add_joint(g, j);
        return;
    }
    int rec = ipx_ode_store_find(&g->ctx->store, j);
    if (rec < 0) {
        char text[160];
        snprintf(text, sizeof text,
                 "contact joint %p was not captured (no ipx_ode_on_contact_created): "
                 "its dContact cannot be read",
                 (void *)j);
        fail(g, text);
        return;
    }
    if (g->ctx->store.rec[rec].attached && !g->ctx->store.rec[rec].dead) add_contact(g, rec);
}

int ipx_ode_gather(ipx_ode_context *ctx, int seed, char *msg, size_t size)
{
    island *is = &ctx->isl;
    is->n_body = is->n_joint = is->n_contact = is->n_twin = 0;
    ipx_ode_map_reset(&is->body_index);
    ipx_ode_map_reset(&is->joint_seen);
    gather_state g = {ctx, 0, msg, size};
    if (ipx_ode_map_put(&is->joint_seen, ctx->store.rec[seed].joint, 1) != 0) {
        fail(&g, "out of memory while gathering an island");
        return -1;
    }
    add_contact(&g, seed);
    /* breadth first over the body list; the world and kinematic bodies end the search */
    for (int k = 0; k < is->n_body; k++) {
        dBodyID b = is->body[k];
        if (!ipx_ode_dynamic(b)) continue;
        int n = dBodyGetNumJoints(b);
        for (int i = 0; i < n; i++) visit_joint(&g, dBodyGetJoint(b, i));
    }
    return g.failed ? -1 : 0;
}
