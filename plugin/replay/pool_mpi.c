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
    if (MPI_Allreduce(mine, all, 2, MPI_INT, MPI_MIN, MPI_COMM_WORLD) != MPI_SUCCESS)
        all[0] = all[1] = 0;
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
                    MPI_STATUS_IGNORE) == MPI_SUCCESS
               ? 0
               : -1;
}

/* The jobs a worker rank has been sent and not answered, oldest first: two, so that a worker
   finds its next job waiting when it sends a result (no round trip per job). Sends do not
   block: Open MPI's blocking send of a few hundred bytes waited (spinning) until the receiver
   next called MPI, 1.8 ms per cradle job while rank 0 slept; each message stays in its slot's
   buffer until its send has completed. */
enum { AHEAD = 2 };
typedef struct slot {
    int k;
    MPI_Request req;
    cli_buf buf;
} slot;
typedef struct queue {
    slot s[AHEAD];
    int n;
} queue;

/* Sends the batch's next job (if any) to worker rank r + 1. 1 if sent. */
static int feed(const cli_batch *b, int *next, queue *q, int r)
{
    if (*next >= b->n || q->n == AHEAD) return 0;
    slot *s = &q->s[q->n];
    const int32_t id = b->id ? b->id[*next] : *next;
    s->buf.size = 0;
    if (cli_buf_append(&s->buf, &id, sizeof id) != 0 ||
        cli_buf_append(&s->buf, b->payload, b->payload_size) != 0 ||
        MPI_Isend(s->buf.data, (int)s->buf.size, MPI_BYTE, r + 1, TAG_JOB, MPI_COMM_WORLD,
                  &s->req) != MPI_SUCCESS)
        return 0;
    s->k = (*next)++;
    q->n++;
    return 1;
}

/* The oldest job of q, answered: its send is complete; its slot goes to the back. */
static int pop(queue *q)
{
    slot first = q->s[0];
    MPI_Wait(&first.req, MPI_STATUS_IGNORE);
    for (int i = 1; i < AHEAD; i++) q->s[i - 1] = q->s[i];
    q->s[AHEAD - 1] = first;
    q->n--;
    return first.k;
}

static void free_queues(queue *q, int workers)
{
    for (int r = 0; q && r < workers; r++)
        for (int i = 0; i < AHEAD; i++) {
            if (q[r].s[i].req != MPI_REQUEST_NULL) MPI_Request_free(&q[r].s[i].req);
            cli_buf_free(&q[r].s[i].buf);
        }
    free(q);
}

int pool_mpi_run(cli_pool *pool, const cli_batch *b, char *message, size_t message_size)
{
    const int workers = pool->size - 1;
    queue *q = calloc((size_t)workers, sizeof *q);
    cli_buf result = {0};
    if (!q) {
        snprintf(message, message_size, "out of memory for the MPI job messages");
        return -1;
    }
    for (int r = 0; r < workers; r++)
        for (int i = 0; i < AHEAD; i++) q[r].s[i].req = MPI_REQUEST_NULL;
    int next = 0, busy = 0, finished = 0, lost = 0, stopped = 0;
    for (int round = 0; round < AHEAD; round++) /* one job to every worker before a second to any */
        for (int r = 0; r < workers; r++) busy += feed(b, &next, &q[r], r);
    while (busy > 0) {
        MPI_Status st;
        wait_message(MPI_ANY_SOURCE, MPI_ANY_TAG, &st);
        const int r = st.MPI_SOURCE - 1;
        if (receive(&st, &result) != 0 || r < 0 || r >= workers || q[r].n == 0) {
            snprintf(message, message_size, "bad message from rank %d", st.MPI_SOURCE);
            break;
        }
        const int k = pop(&q[r]);
        busy--;
        if (st.MPI_TAG == TAG_LOST) {
            if (lost++ == 0)
                snprintf(message, message_size, "rank %d made no result for job %d", r + 1,
                         b->id ? b->id[k] : k);
        } else {
            finished++;
            if (!stopped && b->done(b->done_ctx, k, result.data, result.size) != 0) stopped = 1;
        }
        if (!stopped) busy += feed(b, &next, &q[r], r);
    }
    if (stopped && !message[0])
        snprintf(message, message_size, "stopped after %d of %d jobs", finished, b->n);
    free_queues(q, workers);
    cli_buf_free(&result);
    return b->n - finished;
}

int pool_mpi_serve(cli_pool *pool, cli_job_fn run, void *ctx)
{
    (void)pool;
    cli_buf msg = {0}, result[2] = {{0}, {0}}; /* a result's buffer is reused two jobs later */
    MPI_Request sending[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
    int rc = 0, cur = 0;
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
        MPI_Wait(&sending[cur], MPI_STATUS_IGNORE);
        cli_buf *out = &result[cur];
        out->size = 0;
        const int made = run(ctx, id, msg.data + sizeof id, msg.size - sizeof id, out) == 0;
        MPI_Isend(made ? out->data : NULL, made ? (int)out->size : 0, MPI_BYTE, 0,
                  made ? TAG_RESULT : TAG_LOST, MPI_COMM_WORLD, &sending[cur]);
        cur ^= 1;
    }
    MPI_Waitall(2, sending, MPI_STATUSES_IGNORE);
    cli_buf_free(&msg);
    cli_buf_free(&result[0]);
    cli_buf_free(&result[1]);
    return rc;
}

void pool_mpi_close(cli_pool *pool)
{
    if (pool->rank == 0)
        for (int r = 1; r < pool->size; r++)
            MPI_Send(NULL, 0, MPI_BYTE, r, TAG_SHUTDOWN, MPI_COMM_WORLD);
    MPI_Finalize();
}
