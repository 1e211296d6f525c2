/// The LD_PRELOAD shim's configuration, read from the environment once (shim_config.c).
#ifndef IMPAX_SHIM_CONFIG_H
#define IMPAX_SHIM_CONFIG_H

#include "impax/ode.h"
#include "impax/registry.h"
#include "trace.h"

/// What the environment asked for (read once, before main).
typedef struct shim_config {
    int passthrough;         /* IMPAX_MODEL=ode: every call goes straight to ODE */
    ipx_params params;       /* IMPAX_MODEL and IMPAX_PARAMS (not used when passthrough) */
    ipx_ode_config adapter;  /* the adapter's keys of IMPAX_PARAMS (recovery, recovery_speed) */
    int seed_index;          /* index of the model's "seed" parameter, or -1 */
    unsigned long long seed; /* IMPAX_SEED, or the seed IMPAX_PARAMS gave */
    ipx_trace_file trace;    /* IMPAX_TRACE (fd -1 when unset): writes checked (trace.h) */
    const char *capture;     /* IMPAX_CAPTURE: a directory for the problems models fail on, or
                                NULL */
    int verbose;             /* IMPAX_VERBOSE=1 */
    int stepped;             /* this process stepped a world (set once, under pthread_once):
                                only then a summary at exit */
} shim_config;

/// Reads IMPAX_MODEL, IMPAX_PARAMS, IMPAX_SEED, IMPAX_TRACE, IMPAX_CAPTURE and IMPAX_VERBOSE. Returns 0, or -1
/// with one line naming the bad item (and what is accepted) in message.
int shim_config_read(shim_config *c, char *message, size_t size);

#endif
