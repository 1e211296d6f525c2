/* One host step: classify the captured contacts, solve each island with an impacting contact,
   hand the velocities back (or leave the island to ODE after a failure), report each event, then
   run ODE's own stepper. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "blas_threads.h"
#include "classify.h"
#include "internal.h"
#include "kinematics.h"

static double now_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The event's geometry (after the speeds and the compliant rows in per_contact): each problem
   contact's point and normal, and with impulses their world-frame sum on the first dynamic body. */
static void event_geometry(const ipx_ode_context *ctx, const double *impulse, ipx_ode_event *ev)
{
    const assembly *as = &ctx->as;
    const int k = as->problem.k;
    double *point = as->per_contact + 10 * (size_t)k, *normal = point + 3 * (size_t)k,
           *world = normal + 3 * (size_t)k;
    for (int c = 0; c < k; c++) {
        const contact_record *r = &ctx->store.rec[ctx->isl.contact[c]];
        double t1[3], t2[3];
        ipx_ode_contact_tangents(&r->contact, r->body[0], r->body[1], t1, t2);
        /* the rows act + on body1 and - on body2; with the world as body1, body2 is the first dynamic one */
        const double sign = r->body[0] ? 1.0 : -1.0;
        for (int i = 0; i < 3; i++) {
            point[3 * c + i] = r->contact.geom.pos[i];
            normal[3 * c + i] = r->contact.geom.normal[i];
            if (impulse)
                world[3 * c + i] = sign * (impulse[3 * c] * t1[i] + impulse[3 * c + 1] * t2[i] +
                                           impulse[3 * c + 2] * r->contact.geom.normal[i]);
        }
    }
    ev->point = point;
    ev->normal = normal;
    ev->impulse_world = impulse ? world : NULL;
}

/* J: the work the contacts' surface motions (ipx_ode_surface_motion) do through the impulse pi
   (3k, N s): the models answer for the velocities relative to them, pi . (v - m) + pi.W pi / 2
   (no gain), so the bodies' kinetic energy changes by that and pi . m more. A conveyor's belt
   speeds up a box that lands on it; a platform rising under a ball throws it higher. */
static double motion_work(const ipx_ode_context *ctx, const double *pi)
{
    double work = 0.0;
    for (int k = 0; k < ctx->as.problem.k; k++) {
        double m[IPX_ROWS_PER_CONTACT];
        if (!ipx_ode_island_motion(ctx, k, m)) continue;
        for (int i = 0; i < IPX_ROWS_PER_CONTACT; i++)
            work += pi[IPX_ROWS_PER_CONTACT * k + i] * m[i];
    }
    return work;
}

/* assembled: the island's problem was built (a failed solve still reports it); ke_before (J):
   the island's kinetic energy read before the handback, which may turn its bodies (a move back
   to first touch): read after it, the old angular velocities would be weighed with the new
   orientations' inertia; frame: the frame it was taken in (event_energy.c). */
static void report(ipx_ode_context *ctx, int assembled, int ok, const char *status,
                   double ke_before, const ipx_ode_frame *frame)
{
    if (!ctx->event_fn) return;
    const assembly *as = &ctx->as;
    double *vn_before = as->per_contact, *vn_after = as->per_contact + as->problem.k;
    ipx_ode_event ev;
    memset(&ev, 0, sizeof ev);
    ev.step = ctx->stats.steps - 1;
    ev.model = ipx_ode_model_name(ctx);
    ev.ok = ok;
    ev.status = status;
    ev.n_bodies = ctx->isl.n_body;
    ev.energy_frame = frame->kind;
    if (assembled) {
        ev.k = as->problem.k;
        for (int c = 0; c < ev.k; c++) vn_before[c] = as->v[IPX_ROWS_PER_CONTACT * c + IPX_N];
        ev.ke_before = ev.ke_after = ke_before;
        ev.vn_before = vn_before;
        ev.problem = &as->problem;
    }
    if (ok) {
        for (int c = 0; c < ev.k; c++)
            vn_after[c] = as->result.v_post[IPX_ROWS_PER_CONTACT * c + IPX_N];
        /* a compliant step: the end of the host step (ipx_ode_event); an impact: at once */
        ev.ke_after = ipx_ode_island_energy(ctx, ctx->compliant ? as->u_end : as->u_post, frame);
        ev.delta_stored = as->result.delta_stored;
        ev.work_other =
            motion_work(ctx, as->result.impulse) +
            (ctx->compliant ? as->work_other - ipx_ode_frame_momentum_work(ctx, as->du_free, frame)
                            : 0.0);
        ev.vn_after = vn_after;
        ev.impulse = as->result.impulse;
        ev.counts = as->result.counts;
    }
    if (assembled) event_geometry(ctx, ev.impulse, &ev);
    ctx->event_fn(&ev, ctx->event_user);
}

/* J: the island's kinetic energy at its velocities before the impact, in the frame it is
   taken in (event_energy.c; into *frame), for report(); 0 in the world frame where the island
   was not assembled or no event callback listens: only the event reports it. */
static double energy_before(const ipx_ode_context *ctx, int assembled, ipx_ode_frame *frame)
{
    *frame = (ipx_ode_frame){.kind = IPX_ODE_FRAME_WORLD};
    if (!assembled || !ctx->event_fn) return 0.0;
    ipx_ode_event_frame(ctx, ctx->as.u, ctx->compliant, frame);
    return ipx_ode_island_energy(ctx, ctx->as.u, frame);
}

/* 1 if every body of the gathered island is a dynamic body that is disabled (by the program or
   ODE's auto-disable). ODE's step skips such an island: its island building starts from enabled
   bodies and wakes only what an enabled joint ties to one (docs/ode-host.md §3.3), so none of the
   island's contacts acts this step and its bodies keep their velocities. A kinematic body counts
   as awake: ODE's search goes on through it, the gathering here stops at it. (The island's
   bodies never include the world, and its seed contact has a dynamic body.) */
static int island_asleep(const ipx_ode_context *ctx)
{
    for (int i = 0; i < ctx->isl.n_body; i++)
        if (!ipx_ode_dynamic(ctx->isl.body[i]) || dBodyIsEnabled(ctx->isl.body[i])) return 0;
    return 1;
}

/* Solves and hands back the island around impacting record seed. 1 if handed back. */
static int resolve_island(ipx_ode_context *ctx, int seed)
{
    char msg[IPX_MESSAGE_SIZE] = "";
    ctx->isl.n_body = 0;
    const int deferred = ctx->n_deferred; /* a compliant solve queues post-step changes */
    const int gathered = ipx_ode_gather(ctx, seed, msg, sizeof msg) == 0;
    if (gathered && island_asleep(ctx)) { /* left as ODE leaves it: not an event */
        if (ctx->compliant) ipx_ode_compliant_hold(ctx);
        ctx->stats.sleeping_islands++;
        return 0;
    }
    const int assembled = gathered && ipx_ode_assemble(ctx, msg, sizeof msg) == 0;
    if (!assembled || ipx_ode_solve(ctx, msg, sizeof msg) != 0 ||
        ipx_ode_handback_bounded(ctx, msg, sizeof msg) != 0) {
        ctx->n_deferred = deferred;
        ctx->as.moved = 0; /* nor moved back to first touch */
        ipx_ode_fallback(ctx, msg);
        ipx_ode_frame frame;
        report(ctx, assembled, 0, msg, energy_before(ctx, assembled, &frame), &frame);
        return 0;
    }
    ipx_ode_frame frame;
    const double ke_before = energy_before(ctx, 1, &frame);
    ctx->stats.ignored_restitution =
        fmax(ctx->stats.ignored_restitution,
             ipx_params_ignored_restitution(&ctx->params, &ctx->as.problem));
    ipx_ode_handback(ctx);
    ipx_ode_feedback_island(ctx);
    ipx_ode_recovery_add_island(ctx);
    report(ctx, 1, 1, "ok", ke_before, &frame);
    return 1;
}

/* The pre-step under the context's lock. */
static int pre_step_locked(ipx_ode_context *ctx, dReal h)
{
    if (!ctx->world) return 0;
    ctx->stats.steps++;
    ctx->feedback.n = 0; /* a pre-step without its post-step leaves nothing owed */
    if (ctx->passthrough) return 0;
    const double start = now_seconds();
    ctx->step_h = h;
    ctx->threshold = ipx_ode_impact_threshold(ctx, h); /* the speed test (gravity_steps alone) */
    const double gravity_speed = ipx_ode_gravity_speed(ctx, h);
    ctx->separating = ctx->config.separating_speed + gravity_speed;
    int events = 0;
    if (ipx_ode_classify(ctx) > 0 && ipx_ode_classify_resting(ctx, gravity_speed) > 0) {
        ctx->epoch++;
        ipx_ode_blas_pin(); /* the islands' dense calls run on this thread only */
        for (int i = 0; i < ctx->store.high_water; i++) {
            const contact_record *r = &ctx->store.rec[i];
            if (r->joint && r->impacting && r->island_stamp != ctx->epoch)
                events += resolve_island(ctx, i);
        }
        ipx_ode_blas_unpin();
    }
    ipx_ode_recover(ctx);
    if (ctx->compliant) ipx_ode_compliant_prune(ctx);
    ctx->stats.seconds += now_seconds() - start;
    return events;
}

int ipx_ode_pre_step(ipx_ode_context *ctx, dReal h)
{
    if (!ctx) return 0;
    pthread_mutex_lock(&ctx->lock);
    int events = pre_step_locked(ctx, h);
    pthread_mutex_unlock(&ctx->lock);
    return events;
}

void ipx_ode_post_step(ipx_ode_context *ctx)
{
    if (!ctx) return;
    pthread_mutex_lock(&ctx->lock);
    ipx_ode_feedback_apply(ctx);
    ipx_ode_recovery_remove_copies(ctx);
    ipx_ode_reenable(ctx);
    const int project =
        ctx->config.recovery == IPX_ODE_RECOVERY_POSITION && ctx->recovery.n_rec > 0;
    const double start = project ? now_seconds() : 0.0;
    if (project) ipx_ode_blas_pin();
    ipx_ode_recovery_project(ctx);
    if (project) ipx_ode_blas_unpin();
    if (project) {
        const double spent = now_seconds() - start;
        ctx->stats.recovery_seconds += spent;
        ctx->stats.seconds += spent;
    }
    ipx_ode_compliant_apply_deferred(ctx);
    pthread_mutex_unlock(&ctx->lock);
}

int ipx_ode_step(ipx_ode_context *ctx, dReal h)
{
    ipx_ode_pre_step(ctx, h);
    int r = dWorldStep(ctx->world, h);
    ipx_ode_post_step(ctx);
    return r;
}

int ipx_ode_quick_step(ipx_ode_context *ctx, dReal h)
{
    ipx_ode_pre_step(ctx, h);
    int r = dWorldQuickStep(ctx->world, h);
    ipx_ode_post_step(ctx);
    return r;
}

int ipx_ode_world_step(dWorldID world, dReal stepsize)
{
    ipx_ode_context *ctx = ipx_ode_context_for(world);
    return ctx ? ipx_ode_step(ctx, stepsize) : dWorldStep(world, stepsize);
}

int ipx_ode_world_quick_step(dWorldID world, dReal stepsize)
{
    ipx_ode_context *ctx = ipx_ode_context_for(world);
    return ctx ? ipx_ode_quick_step(ctx, stepsize) : dWorldQuickStep(world, stepsize);
}

void ipx_ode_set_event_callback(ipx_ode_context *ctx, ipx_ode_event_fn fn, void *user)
{
    ctx->event_fn = fn;
    ctx->event_user = user;
}
