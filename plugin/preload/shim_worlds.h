/// The worlds the LD_PRELOAD shim manages, one adapter context each, and the trace they write
/// (shim_worlds.c).
#ifndef IMPAX_SHIM_WORLDS_H
#define IMPAX_SHIM_WORLDS_H

#include "impax/ode.h"
#include "shim_config.h"
#include "trace.h"

/// One world the shim manages.
typedef struct shim_world {
    dWorldID world;
    ipx_ode_context *ctx;      /* NULL if it could not be set up: ODE steps the world alone */
    int index;                 /* 0, 1, ... in order of first use: the seed's offset */
    double time_s;             /* simulated time, the sum of the steps' h: written and read (by
                                 the trace) only by the thread that steps the world */
    ipx_trace_file *trace;     /* IMPAX_TRACE, or NULL */
    const shim_config *config; /* the shim's: IMPAX_CAPTURE, the model's parameters */
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
