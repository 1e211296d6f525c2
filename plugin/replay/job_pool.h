/// A pool of worker processes that run independent jobs: what `impax sweep` runs its
/// simulations on and what `impax fit` replays its recordings on. The master hands out jobs to
/// the workers as they finish theirs (dynamic: slow jobs do not hold up the rest), each worker
/// with the job it runs and the next one queued (it never waits for the master between jobs),
/// and gets each job's result back as bytes, in the order jobs finish. Three transports:
///
/// - serial: jobs run in this process, one after the other (one job at a time, or --jobs 1);
/// - fork:   N forks of this process, a pipe each way (one machine);
/// - MPI:    the ranks of `mpirun -n N` (a cluster): rank 0 is the master, ranks 1..N-1 are
///           workers that run cli_pool_serve until the master closes the pool.
///
/// A job's result depends only on the job (its id and the batch's payload): the transports
/// give the same bytes for every job. A forked worker that dies loses only the job it was
/// running (the one queued behind it goes to another); the batch goes on with the others and
/// reports what was lost. (Open MPI ends every rank when one dies.)
#ifndef IMPAX_CLI_JOB_POOL_H
#define IMPAX_CLI_JOB_POOL_H

#include <stddef.h>

#include "job_batch.h"

typedef struct cli_pool cli_pool;

/// Processors this process may run on (at least 1): the default number of jobs.
int cli_pool_default_jobs(void);

/// A pool for command cmd ("sweep", "fit": messages name it). Under mpirun (with more than one
/// rank and impax built with MPI) initialises MPI and uses the ranks; jobs is then ignored.
/// Otherwise fork with jobs processes (serial for 1). Started by mpirun but built without MPI
/// (or with IMPAX_MPI=0 in the environment), rank 0 says so on stderr and works alone.
/// NULL when this process has nothing to do, *exit_status saying with what: 0 for a rank > 0
/// that leaves (no MPI), 1 after printing "impax CMD: why" (MPI or memory failed).
cli_pool *cli_pool_open(const char *cmd, int jobs, int *exit_status);

/// 1 in the process that hands out jobs (no MPI, or rank 0); 0 in an MPI worker.
int cli_pool_is_master(const cli_pool *pool);
/// Processes that run jobs (fork: the jobs asked for; MPI: ranks - 1).
int cli_pool_workers(const cli_pool *pool);
/// "serial", "fork" or "MPI".
const char *cli_pool_transport(const cli_pool *pool);

/// Every process says whether its own setup (options, files) succeeded: 1 when all did. Call it
/// in every process at the same point before the first batch (MPI: a collective). An MPI
/// worker whose setup failed prints its error (when not NULL) only when the master's setup
/// succeeded: otherwise the master has printed the same.
int cli_pool_agree(cli_pool *pool, int ok, const char *error);

/// Master: runs the batch. The number of jobs that did not finish (0 when every done was
/// called; a worker died, or done stopped the batch), with message saying why, or -1 with a
/// message when no worker could be started.
int cli_pool_run(cli_pool *pool, const cli_batch *batch, char *message, size_t message_size);

/// MPI worker: runs the jobs the master sends with run until the master closes the pool.
/// 0, or -1 when the link to the master failed.
int cli_pool_serve(cli_pool *pool, cli_job_fn run, void *ctx);

/// Master: tells the MPI workers to stop. Every process: finalises MPI and frees the pool.
void cli_pool_close(cli_pool *pool);

#endif
