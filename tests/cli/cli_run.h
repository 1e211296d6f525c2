/// Runs the `impax` command for the CLI tests and reads what it wrote.
#ifndef IMPAX_TEST_CLI_RUN_H
#define IMPAX_TEST_CLI_RUN_H

#include <stddef.h>

#include "text_file.h" /* read_file */

typedef struct cli_result {
    int exit_status; /* -1 if the command did not exit normally */
    char *out, *err; /* whole stdout and stderr (malloc'd, NUL-terminated) */
} cli_result;

/// Runs "IMPAX ARGS" through the shell in scratch_dir, capturing stdout and stderr.
cli_result cli_exec(const char *impax, const char *scratch_dir, const char *args_fmt, ...);
void cli_result_free(cli_result *r);

/// 1 if dir/name is a PNG file of more than 1000 bytes (a plot with something in it).
int png_written(const char *dir, const char *name);

/// A parsed CSV: a header and rows of numbers (empty cells are NaN).
typedef struct csv_table {
    int n_cols, n_rows;
    char **header; /* n_cols names */
    char **first;  /* n_rows first cells as text (model names) */
    double *value; /* n_rows x n_cols, row-major */
} csv_table;

int csv_read(const char *path, csv_table *t);
int csv_col(const csv_table *t, const char *name); /* -1 if absent */
double csv_at(const csv_table *t, int row, int col);
void csv_free(csv_table *t);

#endif
