/* The job pool's fork transport (pool_fork.c): what job_pool.c runs a batch of more than one
   job on when it has more than one local process. Private to the pool. */
#ifndef IMPAX_CLI_POOL_FORK_H
#define IMPAX_CLI_POOL_FORK_H

#include <stddef.h>

#include "job_batch.h"

/* fork + pipe: the batch on jobs forked workers; as cli_pool_run. */
int pool_fork_run(int jobs, const cli_batch *batch, char *message, size_t message_size);

#endif
