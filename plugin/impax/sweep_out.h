/// `impax sweep`'s output: a JSON Lines file, one row per finished job, appended as jobs finish.
/// A row's key (its text from the opening brace to ,"status":) names the job; a rerun with the
/// same file skips the jobs whose rows are there and drops a last line left incomplete by a
/// crash, so it completes what a crash or a lost node left undone.
#ifndef IMPAX_CLI_SWEEP_OUT_H
#define IMPAX_CLI_SWEEP_OUT_H

#include <stdio.h>

#include "sweep_spec.h"

/// Every job's key, sorted: which job a row belongs to.
typedef struct sweep_index {
    int n;
    char **key; /* NUL-terminated */
    int *job;
} sweep_index;

int sweep_index_build(const sweep_spec *spec, sweep_index *index);
/// The job whose key is key[0..len), or -1.
int sweep_index_find(const sweep_index *index, const char *key, size_t len);
void sweep_index_free(sweep_index *index);

/// Called for each complete row of the file whose key is a job of the index (job), with the
/// row's text (no newline).
typedef void (*sweep_row_fn)(void *ctx, int job, const char *row, size_t len);

/// Reads the rows of path, if it exists (a missing file has none). Complete rows are lines
/// ending in '}' and a newline; *other counts those that name no job of the index; *partial_at
/// gets the offset of an incomplete last line, -1 if none. 0, or -1 with a message.
int sweep_rows_read(const char *path, const sweep_index *index, sweep_row_fn fn, void *ctx,
                    int *other, long *partial_at, char *message, size_t message_size);

/// The number called name in a row's "values" (NaN for null or absent).
double sweep_row_value(const char *row, size_t len, const char *name);

/// Opens path for appending after cutting an incomplete last line at partial_at (>= 0). NULL
/// with a message.
FILE *sweep_out_open(const char *path, long partial_at, char *message, size_t message_size);

#endif
