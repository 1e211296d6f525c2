/// Text tables that fit a terminal: row labels down the left, one column per item (a model),
/// printed in blocks of as many columns as fit the width, each block with the labels again.
/// Section rows (a body's name) are lines of their own.
#ifndef IMPAX_CLI_TEXT_TABLE_H
#define IMPAX_CLI_TEXT_TABLE_H

#include <stdio.h>

typedef struct cli_table cli_table;

/// A table of n_cols columns headed heads[0..n_cols) (copied). NULL if memory is short.
cli_table *cli_table_create(int n_cols, const char *const *heads);
void cli_table_free(cli_table *t);
/// Appends a row: its label and n_cols cells (copied; NULL cells print as "-"). 0, or -1.
int cli_table_row(cli_table *t, const char *label, const char *const *cells);
/// Appends a section line (printed as given, cut at the width). 0, or -1.
int cli_table_section(cli_table *t, const char *title);
/// Prints t in blocks no wider than width columns (a single column wider than that is printed
/// alone, as wide as it is).
void cli_table_print(FILE *out, const cli_table *t, int width);

/// Prints text on lines of at most width columns (the first already has col columns), broken at
/// blanks, each line after the first starting with indent; then a newline.
void cli_print_wrapped(FILE *out, int col, const char *text, const char *indent, int width);

#endif
