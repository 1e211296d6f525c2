/* Compliant contacts (model "gonthier"): every touching contact of an island is advanced over
   the host step with the force law, in sub-steps (ipx_gonthier_step), and the step's contact
   impulse is handed back like an impact's; the contact joints are disabled for the step, so
   ODE adds nothing of its own. The depth comes from the program's own collision at the start
   of each step (dContactGeom.depth), and inside the step it follows the contact velocity and
   the island's other forces (gravity, applied forces, free_motion), which ODE then applies over
   the same step: about half of their velocity change goes before ODE's step and the rest after
   it (after_share), so that ODE's positions follow the trajectory the contact was integrated
   along and a resting load stays on its springs at k delta^p = m g.
   A contact is found only at a step's start, up to v h deep, and its force must start from zero
   at first touch (starting at k (v h)^p, far above the impact's own peak when h is long, is
   energy out of nowhere): the island is first moved back to first touch (first_touch.c). A
   depth kept as an offset instead would stay for good: a body would rest that much too deep,
   and one that sank faster than match_distance a step would be found anew every step. A
   contact carried over is owed likewise what it is found deeper than the last step left it (a
   collider whose depths do not follow the bodies' turn, a jump onto another triangle).
   Between steps each contact's state (latched impact speed, bristle, dwell) lives in a cache,
   matched by body pair and the nearest point within match_distance plus what the bodies carry
   it in a step (find).
   Why not sub-step ODE itself: ODE clears every body's force accumulator after a step, so the
   program's own forces would act for one sub-step only, and no public call lists a world's
   bodies to re-apply them. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "impax/gonthier.h"
#include "internal.h"

static double dot(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* m/s: a bound on how fast a point fixed to body b at p moves, |v| + |w| |p - x| (0 for the
   world or a body that does not move). */
static double point_speed(dBodyID b, const dReal *p)
{
    if (!b) return 0.0;
    const dReal *x = dBodyGetPosition(b), *v = dBodyGetLinearVel(b), *w = dBodyGetAngularVel(b);
    const double r[3] = {p[0] - x[0], p[1] - x[1], p[2] - x[2]};
    const double vv[3] = {v[0], v[1], v[2]}, ww[3] = {w[0], w[1], w[2]};
    return sqrt(dot(vv, vv)) + sqrt(dot(ww, ww)) * sqrt(dot(r, r));
}

/* The entry of record r: same pair (either order), nearest point within reach and not yet
   taken this pre-step; -1 if none. *flip: the pair is in the other order. The reach is the
   match distance plus how far the contact point can have moved with the bodies over the last
   step, h times the faster body's point speed: a contact rolling or sliding at v moves by v h
   a step (4 cm at 4 m/s and 10 ms), and found "new" each step it would be moved back to first
   touch each step, its springs' energy dropped and the move's lift paid by nothing
   (docs/models/gonthier.md §5). */
static int find(const ipx_ode_context *ctx, const contact_record *r, int *flip)
{
    const dReal *p = r->contact.geom.pos;
    const double reach = ctx->params.value[IPX_GONTHIER_MATCH_DISTANCE] +
                         ctx->step_h * fmax(point_speed(r->body[0], p), point_speed(r->body[1], p));
    int best = -1;
    double best_d2 = reach * reach;
    for (int i = 0; i < ctx->cache.n; i++) {
        const compliant_entry *e = &ctx->cache.entry[i];
        const int same = e->body[0] == r->body[0] && e->body[1] == r->body[1];
        const int swapped = e->body[0] == r->body[1] && e->body[1] == r->body[0];
        if ((!same && !swapped) || e->seen == ctx->stats.steps) continue;
        const double d[3] = {p[0] - e->pos[0], p[1] - e->pos[1], p[2] - e->pos[2]};
        if (dot(d, d) <= best_d2) {
            best = i;
            best_d2 = dot(d, d);
            *flip = !same;
        }
    }
    return best;
}

/* find's entry of record r, marked taken this pre-step (so no other record finds it, and
   ipx_ode_compliant_prune keeps it); -1 if none. */
static int claim(ipx_ode_context *ctx, const contact_record *r, int *flip)
{
    const int slot = find(ctx, r, flip);
    if (slot >= 0) ctx->cache.entry[slot].seen = ctx->stats.steps;
    return slot;
}

/* The state of record r in its current tangent frame (the bristle projected onto it), the
   depth at which its spring starts (*rest, m) and the spring's depth the last step left it at
   (*paid, m: its energy there was paid for); a contact not in the cache starts fresh
   (*slot < 0, *rest and *paid 0). */
static ipx_gonthier_state take(ipx_ode_context *ctx, const contact_record *r, const ipx_contact *c,
                               const double t1[3], const double t2[3], int *slot, double *rest,
                               double *paid)
{
    int flip = 0;
    *slot = claim(ctx, r, &flip);
    *rest = 0.0;
    *paid = 0.0;
    if (*slot < 0) {
        ipx_gonthier_law law;
        ipx_gonthier_law_for(ctx->params.value, c, &law);
        return ipx_gonthier_fresh(&law);
    }
    const compliant_entry *e = &ctx->cache.entry[*slot];
    *rest = e->rest;
    *paid = e->paid;
    const double sign = flip ? -1.0 : 1.0;
    return (ipx_gonthier_state){.z = {sign * dot(e->z, t1), sign * dot(e->z, t2)},
                                .s_dw = e->s_dw,
                                .a = e->a,
                                .v_imp = e->v_imp};
}

/* Writes record r's state back (into its slot, or a new entry; skipped if memory is short: the
   contact then starts afresh next step, which is what losing it for a step would do), with the
   depth at which its spring starts, rest (m), and the spring's depth at the step's end, paid
   (m). */
static void keep(ipx_ode_context *ctx, const contact_record *r, int slot, const double t1[3],
                 const double t2[3], const ipx_gonthier_state *s, double rest, double paid)
{
    if (slot < 0) {
        if (ipx_ode_grow((void **)&ctx->cache.entry, &ctx->cache.cap, ctx->cache.n + 1,
                         sizeof *ctx->cache.entry) != 0)
            return;
        slot = ctx->cache.n++;
    }
    compliant_entry *e = &ctx->cache.entry[slot];
    e->body[0] = r->body[0];
    e->body[1] = r->body[1];
    for (int i = 0; i < 3; i++) {
        e->pos[i] = r->contact.geom.pos[i];
        e->z[i] = s->z[0] * t1[i] + s->z[1] * t2[i];
    }
    e->s_dw = s->s_dw;
    e->a = s->a;
    e->v_imp = s->v_imp;
    e->rest = rest;
    e->paid = paid;
    e->seen = ctx->stats.steps;
}

/* The velocity change ODE's step will give the island's bodies from their other forces:
   gravity (if on) and what the program applied (the force and torque accumulators, which ODE
   clears only in its step), du_free = h M^-1 F with the joints holding (ipx_constrained_project;
   ODE's gyroscopic torque and damping are left out), and its contact-space rate accel (3k,
   m/s^2). The contacts are integrated with it, so that a load settles on its springs instead of
   being knocked off each step by the whole step's gravity (docs/models/gonthier.md §5). */
static void free_motion(ipx_ode_context *ctx, double *accel)
{
    assembly *as = &ctx->as;
    const double h = ctx->step_h;
    dVector3 g;
    dWorldGetGravity(ctx->world, g);
    for (int i = 0; i < ctx->isl.n_body; i++) {
        dBodyID b = ctx->isl.body[i];
        double *du = as->du_free + 6 * i;
        memset(du, 0, 6 * sizeof(double));
        const ipx_body *m = &as->body[i];
        if (dBodyIsKinematic(b) || !(m->inv_mass > 0.0)) continue;
        const dReal *f = dBodyGetForce(b), *t = dBodyGetTorque(b);
        const int on = dBodyGetGravityMode(b);
        for (int a = 0; a < 3; a++) du[a] = h * ((on ? g[a] : 0.0) + m->inv_mass * f[a]);
        for (int a = 0; a < 3; a++)
            for (int c = 0; c < 3; c++) du[3 + a] += h * m->inv_inertia[a + 3 * c] * t[c];
    }
    ipx_constrained_project(&as->system, as->du_free, accel, as->work);
    for (int a = 0; a < IPX_ROWS_PER_CONTACT * as->problem.k; a++) accel[a] /= h;
}

/* J: what the island's contacts hold at depths depth, each no deeper than it was paid for (paid,
   m; ipx_gonthier_stored_energy); a contact not in the cache (slot < 0) holds nothing whatever
   its depth: it had no spring yet. */
static double held(const ipx_ode_context *ctx, const double *depth, const double *paid,
                   const ipx_gonthier_state *state, const int *slot)
{
    const assembly *as = &ctx->as;
    double E = 0.0;
    for (int c = 0; c < as->problem.k; c++) {
        if (slot[c] < 0) continue;
        ipx_gonthier_law law;
        ipx_gonthier_law_for(ctx->params.value, &as->param[c], &law);
        E += ipx_gonthier_stored_energy(&law, &state[c], fmin(depth[c], paid[c]));
    }
    return E;
}

/* The slots taken this pre-step, released for the next one (the step was not taken). */
static void release(ipx_ode_context *ctx, const int *slot, int k)
{
    for (int c = 0; c < k; c++)
        if (slot[c] >= 0) ctx->cache.entry[slot[c]].seen = ctx->stats.steps - 1;
}

/* The share of du_free handed over after ODE's step instead of before: ODE moves the bodies by
   h (u + du_free), the contact's sub-steps (the implicit midpoint rule's depths, the velocity
   growing linearly over each) moved them by h (u + du_free / 2) (plus the contact impulse's
   mean), so half of du_free goes after the step and ODE's positions follow the integrated
   trajectory exactly; a resting load then sits at k delta^p = m g to the digit. */
static const double after_share = 0.5;

int ipx_ode_compliant_solve(ipx_ode_context *ctx, double *impulse_mean, char *msg, size_t size)
{
    const island *is = &ctx->isl;
    assembly *as = &ctx->as;
    const int k = as->problem.k;
    double *depth = as->per_contact + 2 * (size_t)k, *target = depth + k;
    double(*t1)[3] = (double(*)[3])(target + k), (*t2)[3] = t1 + k;
    double *accel = as->per_contact + IPX_ODE_PC_ACCEL * (size_t)k;
    double *rest = as->per_contact + IPX_ODE_PC_REST * (size_t)k;
    double *paid = as->per_contact + IPX_ODE_PC_PAID * (size_t)k;
    ipx_gonthier_state *state = as->state;
    int *slot = as->slot, owed = 0, unpaid = 0;
    as->work_other = 0.0;
    as->moved = 0;
    free_motion(ctx, accel);
    for (int c = 0; c < k; c++) {
        const contact_record *r = &ctx->store.rec[is->contact[c]];
        ipx_ode_contact_tangents(&r->contact, r->body[0], r->body[1], t1[c], t2[c]);
        state[c] = take(ctx, r, &as->param[c], t1[c], t2[c], &slot[c], &rest[c], &paid[c]);
        const double found = r->contact.geom.depth;
        /* found shallower than the last step left it: the spring starts nearer the surface and
           keeps its depth (never above the surface: then it is the depth found) */
        if (found - rest[c] < paid[c]) rest[c] = fmax(0.0, found - paid[c]);
        depth[c] = found - rest[c]; /* the spring's, from where it starts */
        /* one that opened last step (paid 0) and is found again deep is owed nothing, as before:
           after a hop at long steps that depth is mostly ODE's flight error (its positions fall
           g h t / 2 behind an exact flight of t), which no approach pays, and its spring would
           start there for good (test_resting_ball_sits_at_the_static_hertz_depth, h = 40 ms) */
        if (slot[c] >= 0 && !(paid[c] > 0.0)) paid[c] = INFINITY;
        /* found deeper than paid for (a new contact: at all) is owed that much (first touch);
           a resting contact found where it was left differs from paid by the rounding of
           found - rest, which owed would send through first_touch's LCP every step */
        const double excess = depth[c] - paid[c];
        target[c] = excess > 4.0 * DBL_EPSILON * (fabs(found) + rest[c]) ? excess : 0.0;
        owed |= target[c] > 0.0;
    }
    /* the springs carried over, at the depths found but no deeper than the last step left them:
       moving back to first touch unloads them too, and that energy pays for the move's lift
       (the event's delta_stored counts it) */
    const double held_found = held(ctx, depth, paid, state, slot);
    if (owed && (unpaid = ipx_ode_first_touch(ctx, target, depth)) < 0) {
        release(ctx, slot, k);
        snprintf(msg, size,
                 "model gonthier: the island's new contacts cannot be moved back to first touch "
                 "(out of memory, a contact the joints hold rigid penetrates, or no LCP solver "
                 "answered)");
        return -1;
    }
    /* a contact still deeper than paid for, whether its lift nobody pays (unpaid: nothing moved)
       or a shifted move left it (first_touch.c), starts its spring that much deeper: the spring
       stores no energy that was not paid */
    if (owed)
        for (int c = 0; c < k; c++)
            if (depth[c] > paid[c]) {
                rest[c] += depth[c] - paid[c];
                depth[c] = paid[c];
            }
    const double held_moved = held(ctx, depth, paid, state, slot);
    if (ipx_gonthier_step(&ctx->params, &as->problem, depth, state, ctx->step_h, accel, ctx->ws,
                          &as->result, impulse_mean) != IPX_OK) {
        release(ctx, slot, k);
        snprintf(msg, size, "model gonthier: %s", as->result.message);
        return -1;
    }
    as->result.delta_stored += held_moved - held_found;
    as->moved = owed && !unpaid; /* the handback moves the bodies by as->dx */
    /* ipx_ode_solve adds the impulse's mean part */
    for (int a = 0; a < 6 * is->n_body; a++) as->u_post[a] -= after_share * as->du_free[a];
    for (int c = 0; c < k; c++) /* a contact opening beyond its spring's start takes it along */
        keep(ctx, &ctx->store.rec[is->contact[c]], slot[c], t1[c], t2[c], &state[c],
             fmax(0.0, rest[c] + fmin(0.0, depth[c])), fmax(0.0, depth[c]));
    return 0;
}

void ipx_ode_compliant_hold(ipx_ode_context *ctx)
{
    for (int c = 0; c < ctx->isl.n_contact; c++) {
        int flip = 0;
        claim(ctx, &ctx->store.rec[ctx->isl.contact[c]], &flip);
    }
}

void ipx_ode_compliant_prune(ipx_ode_context *ctx)
{
    int kept = 0;
    for (int i = 0; i < ctx->cache.n; i++)
        if (ctx->cache.entry[i].seen >= ctx->stats.steps - 1)
            ctx->cache.entry[kept++] = ctx->cache.entry[i];
    ctx->cache.n = kept;
}

/* After a move back to first touch that turns the bodies (as->dx's rotations), the angular
   velocities handed back turn with them: before ODE's step (u_post), after it (the deferred
   changes from entry first on, one per dynamic body) and the trace's end velocities (u_end).
   Written unturned onto a turned body, an angular velocity changes its kinetic energy
   w^T R I R^T w by either sign (tutorial3's moves: -1.3 J to +0.075 J). */
static void turn_with_bodies(ipx_ode_context *ctx, int first)
{
    assembly *as = &ctx->as;
    for (int i = 0, d = first; i < ctx->isl.n_body; i++) {
        if (dBodyIsKinematic(ctx->isl.body[i])) continue;
        const double *dtheta = as->dx + 6 * i + 3;
        ipx_ode_turn(dtheta, as->u_post + 6 * i + 3);
        ipx_ode_turn(dtheta, as->u_end + 6 * i + 3);
        ipx_ode_turn(dtheta, ctx->deferred[d++].du + 3);
    }
}

int ipx_ode_compliant_defer(ipx_ode_context *ctx, const double *impulse_mean, char *msg,
                            size_t size)
{
    assembly *as = &ctx->as;
    const int first = ctx->n_deferred;
    double *rest = as->rows_b;
    for (int a = 0; a < IPX_ROWS_PER_CONTACT * as->problem.k; a++)
        rest[a] = as->result.impulse[a] - impulse_mean[a];
    ipx_constrained_delta_u(&as->system, rest, as->du, as->work);
    for (int i = 0; i < ctx->isl.n_body; i++) {
        dBodyID b = ctx->isl.body[i];
        if (dBodyIsKinematic(b)) continue;
        if (ipx_ode_grow((void **)&ctx->deferred, &ctx->cap_deferred, ctx->n_deferred + 1,
                         sizeof *ctx->deferred) != 0) {
            snprintf(msg, size, "out of memory for the post-step velocity changes");
            return -1;
        }
        deferred_velocity *d = &ctx->deferred[ctx->n_deferred++];
        d->body = b;
        for (int a = 0; a < 6; a++)
            d->du[a] = as->du[6 * i + a] + after_share * as->du_free[6 * i + a];
    }
    for (int i = 0; i < ctx->isl.n_body; i++) { /* F . h (u_post + du_free), F h = M du_free */
        double *u = as->u_end + 6 * i;          /* first ODE's velocities over the step */
        for (int a = 0; a < 6; a++) u[a] = as->u_post[6 * i + a] + as->du_free[6 * i + a];
        if (ipx_ode_dynamic(ctx->isl.body[i]))
            as->work_other += ipx_ode_mass_dot(ctx->isl.body[i], as->du_free + 6 * i, u);
    }
    for (int a = 0; a < 6 * ctx->isl.n_body; a++) /* then what the post-step adds */
        as->u_end[a] += as->du[a] + after_share * as->du_free[a];
    if (as->moved) turn_with_bodies(ctx, first);
    return 0;
}

void ipx_ode_compliant_apply_deferred(ipx_ode_context *ctx)
{
    for (int i = 0; i < ctx->n_deferred; i++) {
        const deferred_velocity *d = &ctx->deferred[i];
        const dReal *v = dBodyGetLinearVel(d->body), *w = dBodyGetAngularVel(d->body);
        dBodySetLinearVel(d->body, v[0] + d->du[0], v[1] + d->du[1], v[2] + d->du[2]);
        dBodySetAngularVel(d->body, w[0] + d->du[3], w[1] + d->du[4], w[2] + d->du[5]);
    }
    ctx->n_deferred = 0;
}
