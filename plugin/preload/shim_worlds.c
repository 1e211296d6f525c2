/* The worlds the shim manages: one adapter context per dWorldID, made on first use and
   configured from the environment, the simulated time of each (for the trace), and the
   counters of destroyed worlds (for the summary at exit). One mutex guards the list, so that
   two threads meeting a new world at once make one context; the contexts have their own locks
   and the steps of different worlds do not wait for each other beyond the lookup. The list's
   lock comes first in the lock order (adapters/ode/src/world_table.c): under it the adapter
   takes its table's lock and a context's lock (making, configuring and releasing contexts),
   so the shim never takes it for the adapter's own ODE calls, which run under a context's lock
   (shim.c). trace_lock is a leaf, taken under a context's lock by the event callback; it also
   serialises the captures (IMPAX_CAPTURE). */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "impax/problem_file.h"
#include "shim_worlds.h"
#include "trace.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t trace_lock = PTHREAD_MUTEX_INITIALIZER;
static shim_world *worlds;
static int worlds_made;
static struct {
    long events, limits_hit, fallbacks, steps, failed_setups;
    double seconds, ignored_restitution;
} total;

static shim_world *find_locked(dWorldID world)
{
    for (shim_world *w = worlds; w; w = w->next)
        if (w->world == world) return w;
    return NULL;
}

/* The model's parameters in world w: the shim's, with the seed (IMPAX_SEED) offset by the
   world's index so that worlds made in one run draw apart. */
static ipx_params world_params(const shim_config *c, const shim_world *w)
{
    ipx_params p = c->params;
    if (c->seed_index >= 0)
        p.value[c->seed_index] = (double)(c->seed ^ (unsigned long long)w->index);
    return p;
}

/* Problems captured by this process (under trace_lock), and whether a failed write stopped
   the capture. */
static long captured;
static int capture_stopped;

/* One file of the problem the model failed on, DIR/impax-PID-N.ipxp (impax/problem_file.h),
   and beside it DIR/impax-PID-N.txt: the model, its parameters, the world, step and time, and
   why the event was left to ODE. Called under trace_lock. */
static void capture(const shim_world *w, const ipx_ode_event *ev)
{
    const shim_config *c = w->config;
    char path[4096], params[2048];
    const long n = captured++;
    const int len =
        snprintf(path, sizeof path, "%s/impax-%ld-%ld.ipxp", c->capture, (long)getpid(), n);
    if (len < 0 || (size_t)len >= sizeof path) return;
    FILE *f = fopen(path, "wb");
    int ok = f && ipx_problem_write(f, ev->problem) == 0;
    ok = (f && fclose(f) == 0) && ok;
    if (ok) {
        memcpy(path + len - 4, "txt", 4); /* .ipxp -> .txt */
        const ipx_params p = world_params(c, w);
        ipx_params_format(&p, params, sizeof params);
        f = fopen(path, "w");
        ok = f && fprintf(f,
                          "model %s\nparams %s\nworld %d\nstep %ld\ntime_s %.9g\nk %d\nv_tol "
                          "%.9g\nstatus %s\n",
                          ev->model, params, w->index, ev->step, w->time_s, ev->problem->k,
                          ev->problem->v_tol, ev->status) > 0;
        ok = (f && fclose(f) == 0) && ok;
    }
    if (!ok) {
        fprintf(stderr, "impax: IMPAX_CAPTURE='%s': writing %s failed (%s): capture stopped\n",
                c->capture, path, strerror(errno));
        capture_stopped = 1;
    }
}

static void on_event(const ipx_ode_event *ev, void *user)
{
    const shim_world *w = user;
    pthread_mutex_lock(&trace_lock); /* worlds in threads */
    if (w->trace) ipx_trace_write(w->trace, w->index, w->time_s, ev);
    if (w->config->capture && !capture_stopped && !ev->ok && ev->problem) capture(w, ev);
    pthread_mutex_unlock(&trace_lock);
}

static void add_stats(const ipx_ode_context *ctx)
{
    const ipx_ode_stats s = ipx_ode_get_stats(ctx);
    total.events += s.impact_events;
    total.limits_hit += s.limits_hit_events;
    total.fallbacks += s.fallbacks;
    total.steps += s.steps;
    total.seconds += s.seconds;
    if (s.ignored_restitution > total.ignored_restitution)
        total.ignored_restitution = s.ignored_restitution;
}

/* A configured context for w (NULL, and counted, if memory is short). */
static ipx_ode_context *make_context(shim_config *c, shim_world *w)
{
    ipx_ode_context *ctx = ipx_ode_create(w->world);
    if (!ctx) return NULL;
    const ipx_params p = world_params(c, w);
    char text[2048], msg[256];
    ipx_params_format(&p, text, sizeof text);
    if (ipx_ode_configure(ctx, p.model->name, text, msg, sizeof msg) != 0 ||
        ipx_ode_set_config(ctx, &c->adapter, msg, sizeof msg) != 0) {
        /* cannot happen for values shim_config_read accepted; said rather than hidden */
        fprintf(stderr, "impax: world %d: %s (ODE steps it alone)\n", w->index, msg);
        ipx_ode_destroy(ctx);
        return NULL;
    }
    w->trace = c->trace.fd >= 0 ? &c->trace : NULL;
    w->config = c;
    if (w->trace) {
        pthread_mutex_lock(&trace_lock);
        ipx_trace_begin(w->trace); /* the first world of this process empties the file */
        pthread_mutex_unlock(&trace_lock);
    }
    if (w->trace || c->capture) ipx_ode_set_event_callback(ctx, on_event, w);
    return ctx;
}

shim_world *shim_world_get(shim_config *c, dWorldID world)
{
    if (!world) return NULL;
    pthread_mutex_lock(&lock);
    shim_world *w = find_locked(world);
    if (!w && (w = calloc(1, sizeof *w)) != NULL) {
        w->world = world;
        w->index = worlds_made++;
        w->ctx = make_context(c, w);
        total.failed_setups += !w->ctx;
        w->next = worlds;
        worlds = w;
    }
    pthread_mutex_unlock(&lock);
    return w;
}

ipx_ode_context *shim_world_find(dWorldID world)
{
    pthread_mutex_lock(&lock);
    const shim_world *w = find_locked(world);
    ipx_ode_context *ctx = w ? w->ctx : NULL;
    pthread_mutex_unlock(&lock);
    return ctx;
}

static void release(shim_world *w)
{
    if (w->ctx) {
        add_stats(w->ctx);
        ipx_ode_on_world_destroyed(w->ctx);
        ipx_ode_destroy(w->ctx);
    }
    free(w);
}

void shim_world_forget(dWorldID world)
{
    pthread_mutex_lock(&lock);
    for (shim_world **p = &worlds; *p; p = &(*p)->next) {
        if ((*p)->world != world) continue;
        shim_world *w = *p;
        *p = w->next;
        release(w);
        break;
    }
    pthread_mutex_unlock(&lock);
}

void shim_worlds_finish(shim_config *c)
{
    pthread_mutex_lock(&lock);
    int n_worlds = worlds_made;
    while (worlds) {
        shim_world *w = worlds;
        worlds = w->next;
        release(w);
    }
    pthread_mutex_unlock(&lock);
    pthread_mutex_lock(&trace_lock);
    ipx_trace_close(&c->trace);
    pthread_mutex_unlock(&trace_lock);
    /* a wrapper's own processes (xvfb-run, a shell) load the shim too: only a process that
       stepped a world has something to say */
    if (!c->verbose || !c->stepped) return;
    char trace[160];
    ipx_trace_status(&c->trace, trace, sizeof trace);
    if (c->passthrough) {
        fprintf(stderr, "impax: model ode: pass-through, ODE handled every contact\n");
        return;
    }
    fprintf(stderr,
            "impax: model %s: %ld impact events, %ld left to ODE (fallbacks), %ld with "
            "limits_hit set, %.6f s in impax, %d world%s, %ld steps%s%s",
            c->params.model->name, total.events, total.fallbacks, total.limits_hit, total.seconds,
            n_worlds, n_worlds == 1 ? "" : "s", total.steps,
            total.failed_setups ? " (some worlds could not be set up: ODE stepped them alone)" : "",
            trace);
    if (c->capture)
        fprintf(stderr, "; %ld problem%s captured in %s", captured, captured == 1 ? "" : "s",
                c->capture);
    fputc('\n', stderr);
    if (total.ignored_restitution > 0.0) /* the program asked for bounces the model left aside */
        fprintf(stderr,
                "impax: %s is inelastic unless %s=1: the program's restitution (bounce up to %g "
                "above bounce_vel) was ignored\n",
                c->params.model->name, c->params.model->restitution_flag,
                total.ignored_restitution);
}
