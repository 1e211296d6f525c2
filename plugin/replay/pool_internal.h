/* The job pool's own parts (job_pool.h): the pool, the launcher's ranks and the MPI transport
   that job_pool.c dispatches to (the fork transport: pool_fork.h). Private to the pool. */
#ifndef IMPAX_CLI_POOL_INTERNAL_H
#define IMPAX_CLI_POOL_INTERNAL_H

#include <stddef.h>

#include "job_batch.h"

typedef enum pool_kind { POOL_SERIAL, POOL_FORK, POOL_MPI } pool_kind;

/* The pool that job_pool.h hands out (the same typedef): what its transports read of it. */
typedef struct cli_pool cli_pool;
struct cli_pool {
    const char *cmd; /* "sweep", "fit": for messages */
    pool_kind kind;
    int jobs;       /* fork: processes */
    int rank, size; /* MPI: this rank and the ranks; 0 and 1 otherwise */
};

/* Ranks and this process's rank when started by mpirun (Open MPI's or PMI's variables), else
   size 1 and rank 0. */
void pool_launcher_ranks(int *size, int *rank);

/* MPI (pool_mpi.c; pool_nompi.c when impax is built without MPI) */
int pool_mpi_available(void);
int pool_mpi_open(cli_pool *pool, char *message, size_t message_size);
int pool_mpi_agree(cli_pool *pool, int ok, int *master_ok);
int pool_mpi_run(cli_pool *pool, const cli_batch *batch, char *message, size_t message_size);
int pool_mpi_serve(cli_pool *pool, cli_job_fn run, void *ctx);
void pool_mpi_close(cli_pool *pool);

#endif
