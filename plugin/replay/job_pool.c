/* The job pool (job_pool.h): the choice of transport, and the serial one. */
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT */
#include "job_pool.h"

#include "pool_fork.h"
#include "pool_internal.h"

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int cli_pool_default_jobs(void)
{
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0) return CPU_COUNT(&set);
    const long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

static int env_int(const char *a, const char *b, int fallback)
{
    const char *text = getenv(a);
    if (!text) text = getenv(b);
    return text && *text ? atoi(text) : fallback;
}

void pool_launcher_ranks(int *size, int *rank)
{
    *size = env_int("OMPI_COMM_WORLD_SIZE", "PMI_SIZE", 1);
    *rank = env_int("OMPI_COMM_WORLD_RANK", "PMI_RANK", 0);
    if (*size < 1) *size = 1;
}

cli_pool *cli_pool_open(const char *cmd, int jobs, int *exit_status)
{
    cli_pool *pool = calloc(1, sizeof *pool);
    char message[256] = "out of memory for the job pool";
    *exit_status = 1;
    if (!pool) {
        fprintf(stderr, "impax %s: %s\n", cmd, message);
        return NULL;
    }
    pool->cmd = cmd;
    pool->jobs = jobs > 0 ? jobs : 1;
    pool->kind = pool->jobs > 1 ? POOL_FORK : POOL_SERIAL;
    pool->size = 1;
    int size, rank;
    pool_launcher_ranks(&size, &rank);
    const char *use_mpi = getenv("IMPAX_MPI");
    const int mpi_off = use_mpi && strcmp(use_mpi, "0") == 0;
    if (size > 1 && pool_mpi_available() && !mpi_off) {
        if (pool_mpi_open(pool, message, sizeof message) == 0) return pool;
        fprintf(stderr, "impax %s: %s\n", cmd, message);
    } else if (size > 1 && rank > 0) {
        *exit_status = 0; /* rank 0 does it all */
    } else {
        if (size > 1)
            fprintf(stderr,
                    "impax %s: started by mpirun (%d ranks), but %s: rank 0 runs everything on %d "
                    "local "
                    "process%s, the other ranks leave\n",
                    cmd, size,
                    mpi_off ? "IMPAX_MPI=0 turns MPI off" : "this impax was built without MPI",
                    pool->jobs, pool->jobs == 1 ? "" : "es");
        return pool;
    }
    free(pool);
    return NULL;
}

int cli_pool_is_master(const cli_pool *pool) { return pool->rank == 0; }

int cli_pool_workers(const cli_pool *pool)
{
    return pool->kind == POOL_MPI ? pool->size - 1 : pool->kind == POOL_FORK ? pool->jobs : 1;
}

const char *cli_pool_transport(const cli_pool *pool)
{
    static const char *const names[] = {"serial", "fork", "MPI"};
    return names[pool->kind];
}

int cli_pool_agree(cli_pool *pool, int ok, const char *error)
{
    if (pool->kind != POOL_MPI) return ok;
    int master_ok;
    const int all = pool_mpi_agree(pool, ok, &master_ok);
    if (!ok && master_ok && pool->rank > 0 && error)
        fprintf(stderr, "impax %s (MPI rank %d): %s\n", pool->cmd, pool->rank, error);
    return all;
}

/* One job after the other in this process. */
static int run_serial(const cli_batch *b, char *message, size_t message_size)
{
    cli_buf result = {0};
    int k = 0;
    for (; k < b->n; k++) {
        result.size = 0;
        const int id = b->id ? b->id[k] : k;
        if (b->run(b->run_ctx, id, b->payload, b->payload_size, &result) != 0) {
            snprintf(message, message_size, "job %d made no result (out of memory)", id);
            break;
        }
        if (b->done(b->done_ctx, k, result.data, result.size) != 0) {
            k++;
            snprintf(message, message_size, "stopped after %d of %d jobs", k, b->n);
            break;
        }
    }
    cli_buf_free(&result);
    return b->n - k;
}

int cli_pool_run(cli_pool *pool, const cli_batch *batch, char *message, size_t message_size)
{
    message[0] = '\0';
    if (batch->n <= 0) return 0;
    switch (pool->kind) {
    case POOL_MPI: return pool_mpi_run(pool, batch, message, message_size);
    case POOL_FORK:
        if (batch->n > 1)
            return pool_fork_run(pool->jobs < batch->n ? pool->jobs : batch->n, batch, message,
                                 message_size);
        return run_serial(batch, message, message_size);
    case POOL_SERIAL: break;
    }
    return run_serial(batch, message, message_size);
}

int cli_pool_serve(cli_pool *pool, cli_job_fn run, void *ctx)
{
    return pool->kind == POOL_MPI ? pool_mpi_serve(pool, run, ctx) : 0;
}

void cli_pool_close(cli_pool *pool)
{
    if (!pool) return;
    if (pool->kind == POOL_MPI) pool_mpi_close(pool);
    free(pool);
}
