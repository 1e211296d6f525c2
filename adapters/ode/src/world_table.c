/* The process-wide world -> context table and its lock (for interposers that only see a
   dWorldID): entering and leaving it, finding a world's context, and running a hook on one
   context or on every one; and the flag that marks the adapter's own ODE calls, which the
   hooks ignore and an interposer passes straight to ODE.

   Lock order (docs/ode-adapter.md "Threads and locks"): an interposer's own lock (the shim's
   world list), then table_lock, then a context's lock, then the leaves (the shim's trace lock,
   messages.c, blas_threads.c), which take no other lock. ipx_ode_for_each takes the contexts'
   locks under table_lock, so nothing may take table_lock, or an interposer's lock, while it
   holds a context's lock: the adapter's own ODE calls under a context's lock (recovery.c's
   copies) are marked with ipx_ode_internal, and an interposer that sees ipx_ode_own_call()
   forwards them to ODE without its lock. */
#include <pthread.h>

#include "internal.h"

_Thread_local int ipx_ode_internal;

int ipx_ode_own_call(void) { return ipx_ode_internal != 0; }

static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;
static ipx_ode_context *table_head;

void ipx_ode_table_insert(ipx_ode_context *ctx)
{
    pthread_mutex_lock(&table_lock);
    ctx->next = table_head;
    table_head = ctx;
    pthread_mutex_unlock(&table_lock);
}

void ipx_ode_table_remove(ipx_ode_context *ctx)
{
    pthread_mutex_lock(&table_lock);
    for (ipx_ode_context **link = &table_head; *link; link = &(*link)->next)
        if (*link == ctx) {
            *link = ctx->next;
            break;
        }
    ctx->next = NULL;
    pthread_mutex_unlock(&table_lock);
}

ipx_ode_context *ipx_ode_context_for(dWorldID world)
{
    ipx_ode_context *found = NULL;
    pthread_mutex_lock(&table_lock);
    for (ipx_ode_context *c = table_head; c && !found; c = c->next)
        if (c->world == world) found = c;
    pthread_mutex_unlock(&table_lock);
    return found;
}

void ipx_ode_for_each(ipx_ode_context *ctx, void (*fn)(ipx_ode_context *, const void *),
                      const void *arg)
{
    if (ipx_ode_internal) return; /* the adapter's own ODE call, forwarded by an interposer */
    if (ctx) {
        pthread_mutex_lock(&ctx->lock);
        fn(ctx, arg);
        pthread_mutex_unlock(&ctx->lock);
        return;
    }
    pthread_mutex_lock(&table_lock);
    for (ipx_ode_context *c = table_head; c; c = c->next) {
        pthread_mutex_lock(&c->lock);
        fn(c, arg);
        pthread_mutex_unlock(&c->lock);
    }
    pthread_mutex_unlock(&table_lock);
}
