/// Replays a list of recordings on several processes: what `impax fit` evaluates for every
/// candidate parameter set, and what `impax replay` runs per model. Simulations share nothing,
/// so each worker (a fork of this process) takes every jobs-th recording and sends its errors
/// back through a pipe; the results are the same as a serial loop's, in the same order.
#ifndef IMPAX_CLI_REPLAY_POOL_H
#define IMPAX_CLI_REPLAY_POOL_H

#include <stddef.h>

#include "replay.h"

/// One recording's outcome: cli_replay's return code (0 ok, 1 the simulation failed, 2 bad
/// model or parameters), its errors, and its message when rc != 0.
typedef struct cli_replay_outcome {
    int rc;
    cli_replay_error error;
    char message[256];
} cli_replay_outcome;

/// Processors online (at least 1): the default number of jobs.
int cli_replay_default_jobs(void);

/// Replays recs[index[i]] for i < n under model/params on up to jobs processes (1: in this
/// process) into out[i]. 0 when every worker reported (each outcome has its own rc); -1 with a
/// message if a worker could not be started or died without reporting.
int cli_replay_pool(const ipx_scene *scene, const char *model, const char *params,
                    const cli_recording *recs, const int *index, int n, int jobs,
                    cli_replay_outcome *out, char *message, size_t message_size);

#endif
