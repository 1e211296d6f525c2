/* The job pool's MPI transport: rank 0 hands out jobs (a JOB message: the job's index and the
   batch's payload), each worker rank sends each result back (RESULT) and gets another, until
   rank 0 closes the pool (SHUTDOWN). A worker has at most two jobs: the one it runs and the
   next, already in its queue. Both sides wait by probing with short sleeps
   rather than in a blocking call, which Open MPI spins in: an idle rank then leaves its core to
   the ranks that compute (mpirun --oversubscribe). */
#define _POSIX_C_SOURCE 200809L /* nanosleep */
#include "pool_internal.h"

#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { TAG_JOB = 1, TAG_RESULT = 2, TAG_LOST = 3, TAG_SHUTDOWN = 4 };

int pool_mpi_available(void) { return 1; }

int pool_mpi_open(cli_pool *pool, char *message, size_t message_size)
{
    int initialised = 0;
    MPI_Initialized(&initialised);
    if (!initialised && MPI_Init(NULL, NULL) != MPI_SUCCESS) {
        snprintf(message, message_size, "MPI_Init failed");
        return -1;
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &pool->rank);
    MPI_Comm_size(MPI_COMM_WORLD, &pool->size);
    pool->kind = POOL_MPI;
    return 0;
}

int pool_mpi_agree(cli_pool *pool, int ok, int *master_ok)
{
    int mine[2] = {pool->rank == 0 ? ok : 1, ok}, all[2] = {0, 0};
    if (MPI_Allreduce(mine, all, 2, MPI_INT, MPI_MIN, MPI_COMM_WORLD) != MPI_SUCCESS) all[0] = all[1] = 0;
    *master_ok = all[0];
    return all[1];
}

/* Waits for a message from source with tag (MPI_ANY_*): probes, sleeping between probes from
   50 us (Linux's default timer slack: shorter sleeps last that long anyway) doubling up to 1 ms.
   Each wake-up costs a system call and a probe (about 18 us of CPU here): polling every 0.1 ms
   cost rank 0 0.4 ms of CPU per 2.3 ms cradle job, this about 0.1 ms. A worker does not wait on
   rank 0's sleep while it has its queued job to run. */
static void wait_message(int source, int tag, MPI_Status *status)
{
    long pause_ns = 50000;
    for (;;) {
        int flag = 0;
        MPI_Iprobe(source, tag, MPI_COMM_WORLD, &flag, status);
        if (flag) return;
        const struct timespec ts = {0, pause_ns};
        nanosleep(&ts, NULL);
        pause_ns = pause_ns < 500000 ? 2 * pause_ns : 1000000;
    }
}

static int receive(const MPI_Status *probed, cli_buf *buf)
{
    int count = 0;
    MPI_Get_count(probed, MPI_BYTE, &count);
    if (cli_buf_reserve(buf, (size_t)count + 1) != 0) return -1;
    buf->size = (size_t)count;
    return MPI_Recv(buf->data, count, MPI_BYTE, probed->MPI_SOURCE, probed->MPI_TAG, MPI_COMM_WORLD,
                    MPI_STATUS_IGNORE) == MPI_SUCCESS ? 0 : -1;
}

static int send_job(cli_buf *msg, const cli_batch *b, int k, int rank)
{
    const int32_t id = b->id ? b->id[k] : k;
    memcpy(msg->data, &id, sizeof id);
    return MPI_Send(msg->data, (int)msg->size, MPI_BYTE, rank, TAG_JOB, MPI_COMM_WORLD) == MPI_SUCCESS ? 0 : -1;
}

/* The jobs a worker rank has been sent and not answered, oldest first: two, so that a worker
   finds its next job waiting when it sends a result (no round trip per job). */
enum { AHEAD = 2 };
typedef struct queue {
    int k[AHEAD];
    int n;
} queue;

/* Sends the batch's next job (if any) to worker rank r + 1. 1 if sent. */
static int feed(cli_buf *msg, const cli_batch *b, int *next, queue *q, int r)
{
    if (*next >= b->n || q->n == AHEAD || send_job(msg, b, *next, r + 1) != 0) return 0;
    q->k[q->n++] = (*next)++;
    return 1;
}

int pool_mpi_run(cli_pool *pool, const cli_batch *b, char *message, size_t message_size)
{
    const int workers = pool->size - 1;
    queue *q = calloc((size_t)workers, sizeof *q);
    cli_buf msg = {0}, result = {0};
    const int32_t no_id = -1;
    if (!q || cli_buf_append(&msg, &no_id, sizeof no_id) != 0 ||
        cli_buf_append(&msg, b->payload, b->payload_size) != 0) {
        free(q);
        cli_buf_free(&msg);
        snprintf(message, message_size, "out of memory for the MPI job messages");
        return -1;
    }
    int next = 0, busy = 0, finished = 0, lost = 0, stopped = 0;
    for (int round = 0; round < AHEAD; round++) /* one job to every worker before a second to any */
        for (int r = 0; r < workers; r++) busy += feed(&msg, b, &next, &q[r], r);
    while (busy > 0) {
        MPI_Status st;
        wait_message(MPI_ANY_SOURCE, MPI_ANY_TAG, &st);
        const int r = st.MPI_SOURCE - 1;
        if (receive(&st, &result) != 0 || r < 0 || r >= workers || q[r].n == 0) {
            snprintf(message, message_size, "bad message from rank %d", st.MPI_SOURCE);
            break;
        }
        const int k = q[r].k[0];
        q[r].k[0] = q[r].k[1];
        q[r].n--;
        busy--;
        if (st.MPI_TAG == TAG_LOST) {
            if (lost++ == 0) snprintf(message, message_size, "rank %d made no result for job %d", r + 1, b->id ? b->id[k] : k);
        } else {
            finished++;
            if (!stopped && b->done(b->done_ctx, k, result.data, result.size) != 0) stopped = 1;
        }
        if (!stopped) busy += feed(&msg, b, &next, &q[r], r);
    }
    if (stopped && !message[0]) snprintf(message, message_size, "stopped after %d of %d jobs", finished, b->n);
    free(q);
    cli_buf_free(&msg);
    cli_buf_free(&result);
    return b->n - finished;
}

int pool_mpi_serve(cli_pool *pool, cli_job_fn run, void *ctx)
{
    (void)pool;
    cli_buf msg = {0}, result = {0};
    int rc = 0;
    for (;;) {
        MPI_Status st;
        wait_message(0, MPI_ANY_TAG, &st);
        if (receive(&st, &msg) != 0 || (st.MPI_TAG == TAG_JOB && msg.size < sizeof(int32_t))) {
            rc = -1;
            break;
        }
        if (st.MPI_TAG == TAG_SHUTDOWN) break;
        int32_t id;
        memcpy(&id, msg.data, sizeof id);
        result.size = 0;
        const int made = run(ctx, id, msg.data + sizeof id, msg.size - sizeof id, &result) == 0;
        MPI_Send(made ? result.data : NULL, made ? (int)result.size : 0, MPI_BYTE, 0, made ? TAG_RESULT : TAG_LOST,
                 MPI_COMM_WORLD);
    }
    cli_buf_free(&msg);
    cli_buf_free(&result);
    return rc;
}

void pool_mpi_close(cli_pool *pool)
{
    if (pool->rank == 0)
        for (int r = 1; r < pool->size; r++) MPI_Send(NULL, 0, MPI_BYTE, r, TAG_SHUTDOWN, MPI_COMM_WORLD);
    MPI_Finalize();
}
