/* The job pool without MPI (impax built without it): no MPI transport. job_pool.c never picks
   it, since pool_mpi_available() says so. */
#include <stdio.h>

#include "pool_internal.h"

int pool_mpi_available(void) { return 0; }

int pool_mpi_open(cli_pool *pool, char *message, size_t message_size)
{
    (void)pool;
    snprintf(message, message_size, "impax was built without MPI");
    return -1;
}

int pool_mpi_agree(cli_pool *pool, int ok, int *master_ok)
{
    (void)pool;
    *master_ok = ok;
    return ok;
}

int pool_mpi_run(cli_pool *pool, const cli_batch *batch, char *message, size_t message_size)
{
    (void)pool;
    (void)batch;
    snprintf(message, message_size, "impax was built without MPI");
    return -1;
}

int pool_mpi_serve(cli_pool *pool, cli_job_fn run, void *ctx)
{
    (void)pool;
    (void)run;
    (void)ctx;
    return -1;
}

void pool_mpi_close(cli_pool *pool) { (void)pool; }
