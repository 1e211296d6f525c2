/// Replays a list of recordings on a job pool (job_pool.h): what `impax fit` evaluates for
/// every candidate parameter set, on local processes or on the ranks of mpirun. Simulations
/// share nothing: each job replays one recording in a fresh simulation, so the outcomes are the
/// same as a serial loop's whatever the transport and the number of workers.
#ifndef IMPAX_CLI_REPLAY_POOL_H
#define IMPAX_CLI_REPLAY_POOL_H

#include <stddef.h>

#include "job_pool.h"
#include "replay.h"

/// One recording's outcome: cli_replay's return code (0 ok, 1 the simulation failed, 2 bad
/// model or parameters), its errors, and its message when rc != 0.
typedef struct cli_replay_outcome {
    int rc;
    cli_replay_error error;
    char message[256];
} cli_replay_outcome;

/// Replays recs[index[i]] for i < n under model/params on pool into out[i]. 0 when every
/// replay reported (each outcome has its own rc); -1 with a message if no worker could be
/// started or a worker died before reporting.
int cli_replay_pool(cli_pool *pool, const ipx_scene *scene, const char *model, const char *params,
                    const cli_recording *recs, const int *index, int n, cli_replay_outcome *out,
                    char *message, size_t message_size);

/// An MPI worker's part: replays what the master's cli_replay_pool calls send (recs as the
/// master loaded them: n_recs, in the same order) until the master closes the pool.
int cli_replay_serve(cli_pool *pool, const ipx_scene *scene, const cli_recording *recs, int n_recs);

#endif
