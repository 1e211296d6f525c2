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

/// A growable byte buffer: a job's result.
typedef struct cli_buf {
    char *data;
    size_t size, capacity;
} cli_buf;

/// Makes room for capacity bytes in all. 0, or -1 when memory is short (buf unchanged).
int cli_buf_reserve(cli_buf *buf, size_t capacity);
/// Appends size bytes. 0, or -1 when memory is short (buf unchanged).
int cli_buf_append(cli_buf *buf, const void *data, size_t size);
/// Appends printf-formatted text (no terminating NUL kept). 0 or -1.
int cli_buf_printf(cli_buf *buf, const char *format, ...) __attribute__((format(printf, 2, 3)));
void cli_buf_free(cli_buf *buf);

/// Runs job id with the batch's payload in a worker and appends its result to result.
/// 0, or -1 if no result could be made (the job is then lost, as if the worker had died).
typedef int (*cli_job_fn)(void *ctx, int id, const void *payload, size_t payload_size, cli_buf *result);
/// Receives, in the master, the result of the batch's job k (0 <= k < n), in finishing order.
/// Non-zero stops the batch: no new jobs are handed out (those running still finish).
typedef int (*cli_done_fn)(void *ctx, int k, const void *result, size_t size);

/// One batch of jobs.
typedef struct cli_batch {
    int n;                     /* jobs */
    const int *id;             /* the id job k runs as (NULL: k) */
    const void *payload;       /* the same bytes for every job of the batch (may be NULL) */
    size_t payload_size;
    cli_job_fn run;            /* serial and fork; MPI workers run the fn given to cli_pool_serve */
    void *run_ctx;
    cli_done_fn done;
    void *done_ctx;
} cli_batch;

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
