/// Inside the LD_PRELOAD shim (libimpax_preload.so): its configuration, the worlds it manages
/// and the trace. The interposed ODE functions are in shim.c.
#ifndef IMPAX_SHIM_H
#define IMPAX_SHIM_H

#include <stdio.h>

#include "impax/ode.h"
#include "impax/registry.h"

/// What the environment asked for (read once, before main).
typedef struct shim_config {
    int passthrough;       /* IMPAX_MODEL=ode: every call goes straight to ODE */
    ipx_params params;     /* IMPAX_MODEL and IMPAX_PARAMS (not used when passthrough) */
    int seed_index;        /* index of the model's "seed" parameter, or -1 */
    unsigned long long seed; /* IMPAX_SEED, or the seed IMPAX_PARAMS gave */
    FILE *trace;           /* IMPAX_TRACE opened for writing, or NULL */
    int verbose;           /* IMPAX_VERBOSE=1 */
} shim_config;

/// Reads IMPAX_MODEL, IMPAX_PARAMS, IMPAX_SEED, IMPAX_TRACE and IMPAX_VERBOSE. Returns 0, or -1
/// with one line naming the bad item (and what is accepted) in message.
int shim_config_read(shim_config *c, char *message, size_t size);

/// The context of world, made and configured on first use (NULL if that failed: ODE then
/// steps the world alone, and the failure is counted in the summary).
ipx_ode_context *shim_world_context(const shim_config *c, dWorldID world);
/// The context of world if there is one.
ipx_ode_context *shim_world_find(dWorldID world);
/// Adds h (s) to the world's simulated time (for the trace).
void shim_world_advance(dWorldID world, double h);
/// Before dWorldDestroy: keeps the world's counters for the summary and frees its context.
void shim_world_forget(dWorldID world);
/// At exit: the one-line summary (if verbose) and the release of every context.
void shim_worlds_finish(const shim_config *c);

/// One impact event as a JSON object on one line of c->trace (locked: worlds in threads).
void shim_trace_event(FILE *trace, int world_index, double time_s, const ipx_ode_event *ev);

#endif
