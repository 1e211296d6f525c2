/// Inside the LD_PRELOAD shim (libimpax_preload.so): its configuration, the worlds it manages
/// and the trace. The interposed ODE functions are in shim.c.
#ifndef IMPAX_SHIM_H
#define IMPAX_SHIM_H

#include <stdio.h>

#include "impax/ode.h"
#include "impax/registry.h"
#include "trace.h"

/// What the environment asked for (read once, before main).
typedef struct shim_config {
    int passthrough;       /* IMPAX_MODEL=ode: every call goes straight to ODE */
    ipx_params params;     /* IMPAX_MODEL and IMPAX_PARAMS (not used when passthrough) */
    ipx_ode_config adapter; /* the adapter's keys of IMPAX_PARAMS (recovery, recovery_speed) */
    int seed_index;        /* index of the model's "seed" parameter, or -1 */
    unsigned long long seed; /* IMPAX_SEED, or the seed IMPAX_PARAMS gave */
    ipx_trace_file trace;  /* IMPAX_TRACE (fd -1 when unset): writes checked (trace.h) */
    int verbose;           /* IMPAX_VERBOSE=1 */
} shim_config;

/// Reads IMPAX_MODEL, IMPAX_PARAMS, IMPAX_SEED, IMPAX_TRACE and IMPAX_VERBOSE. Returns 0, or -1
/// with one line naming the bad item (and what is accepted) in message.
int shim_config_read(shim_config *c, char *message, size_t size);

/// One world the shim manages.
typedef struct shim_world {
    dWorldID world;
    ipx_ode_context *ctx;     /* NULL if it could not be set up: ODE steps the world alone */
    int index;                /* 0, 1, ... in order of first use: the seed's offset */
    double time_s;            /* simulated time, the sum of the steps' h: written and read (by
                                 the trace) only by the thread that steps the world */
    ipx_trace_file *trace;    /* IMPAX_TRACE, or NULL */
    struct shim_world *next;
} shim_world;

/// The entry of world, made (with its context, configured) on first use; NULL only if memory
/// is short. It lives until shim_world_forget.
shim_world *shim_world_get(shim_config *c, dWorldID world);
/// The context of world if there is one.
ipx_ode_context *shim_world_find(dWorldID world);
/// Before dWorldDestroy: keeps the world's counters for the summary and frees its context.
void shim_world_forget(dWorldID world);
/// At exit: the release of every context, the trace closed, the one-line summary (if verbose).
void shim_worlds_finish(shim_config *c);

#endif
