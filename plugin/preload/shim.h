/// Inside the LD_PRELOAD shim (libimpax_preload.so): its configuration, the worlds it manages
/// and the trace. The interposed ODE functions are in shim.c.
#ifndef IMPAX_SHIM_H
#define IMPAX_SHIM_H

#include <stdio.h>

#include "impax/ode.h"
#include "impax/registry.h"

/// The IMPAX_TRACE file. Every event is formatted whole and then written with write(2), so a
/// failed write is seen at once; the first failure is said once on stderr and stops the trace
/// (the summary reports it), and a line cut by it is removed from a regular file.
typedef struct shim_trace {
    int fd;                /* -1: no trace */
    const char *path;      /* IMPAX_TRACE (the environment's string) */
    long written;          /* events written whole */
    int error;             /* errno of the first failed write or close (0: none): no more events */
} shim_trace;

/// Opens path for the trace without waiting: a FIFO that has no reader yet would block the
/// program before main, so it is refused (ENXIO), as is anything but a regular file, a FIFO or
/// a character device (/dev/stderr). Returns 0, or -1 with one line naming it in message.
int shim_trace_open(shim_trace *t, const char *path, char *message, size_t size);
/// One impact event as a JSON object on one line (callers serialise: worlds in threads).
void shim_trace_event(shim_trace *t, int world_index, double time_s, const ipx_ode_event *ev);
/// Closes the trace (a failed close is a failed write too).
void shim_trace_close(shim_trace *t);
/// For the summary: "" if the trace is fine (or absent), else why it stopped.
void shim_trace_status(const shim_trace *t, char *buf, size_t size);

/// What the environment asked for (read once, before main).
typedef struct shim_config {
    int passthrough;       /* IMPAX_MODEL=ode: every call goes straight to ODE */
    ipx_params params;     /* IMPAX_MODEL and IMPAX_PARAMS (not used when passthrough) */
    ipx_ode_config adapter; /* the adapter's keys of IMPAX_PARAMS (recovery, recovery_speed) */
    int seed_index;        /* index of the model's "seed" parameter, or -1 */
    unsigned long long seed; /* IMPAX_SEED, or the seed IMPAX_PARAMS gave */
    shim_trace trace;      /* IMPAX_TRACE (fd -1 when unset) */
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
    shim_trace *trace;        /* IMPAX_TRACE, or NULL */
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
