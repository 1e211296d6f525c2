/// A batch of jobs as the job pool (job_pool.h) and its transports run it: the job and done
/// callbacks, and the growable byte buffer a job's result comes back in (job_batch.c).
#ifndef IMPAX_CLI_JOB_BATCH_H
#define IMPAX_CLI_JOB_BATCH_H

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
typedef int (*cli_job_fn)(void *ctx, int id, const void *payload, size_t payload_size,
                          cli_buf *result);
/// Receives, in the master, the result of the batch's job k (0 <= k < n), in finishing order.
/// Non-zero stops the batch: no new jobs are handed out (those running still finish).
typedef int (*cli_done_fn)(void *ctx, int k, const void *result, size_t size);

/// One batch of jobs.
typedef struct cli_batch {
    int n;               /* jobs */
    const int *id;       /* the id job k runs as (NULL: k) */
    const void *payload; /* the same bytes for every job of the batch (may be NULL) */
    size_t payload_size;
    cli_job_fn run; /* serial and fork; MPI workers run the fn given to cli_pool_serve */
    void *run_ctx;
    cli_done_fn done;
    void *done_ctx;
} cli_batch;

#endif
