#define _POSIX_C_SOURCE 200809L /* strdup */
#include "text_table.h"

#include <stdlib.h>
#include <string.h>

typedef struct row {
    char *label;  /* NULL for a section */
    char *title;  /* a section's line */
    char **cells; /* n_cols */
} row;

struct cli_table {
    int n_cols, n_rows, capacity;
    char **heads;
    row *rows;
};

enum { GAP = 2 }; /* blanks between columns */

cli_table *cli_table_create(int n_cols, const char *const *heads)
{
    cli_table *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    t->n_cols = n_cols;
    t->heads = calloc((size_t)n_cols, sizeof *t->heads);
    int ok = t->heads != NULL;
    for (int c = 0; ok && c < n_cols; c++) ok = (t->heads[c] = strdup(heads[c])) != NULL;
    if (ok) return t;
    cli_table_free(t);
    return NULL;
}

void cli_table_free(cli_table *t)
{
    if (!t) return;
    for (int r = 0; r < t->n_rows; r++) {
        for (int c = 0; t->rows[r].cells && c < t->n_cols; c++) free(t->rows[r].cells[c]);
        free(t->rows[r].cells);
        free(t->rows[r].label);
        free(t->rows[r].title);
    }
    for (int c = 0; t->heads && c < t->n_cols; c++) free(t->heads[c]);
    free(t->heads);
    free(t->rows);
    free(t);
}

static row *append(cli_table *t)
{
    if (t->n_rows == t->capacity) {
        const int cap = t->capacity ? 2 * t->capacity : 32;
        row *grown = realloc(t->rows, (size_t)cap * sizeof *grown);
        if (!grown) return NULL;
        t->rows = grown;
        t->capacity = cap;
    }
    row *r = &t->rows[t->n_rows++];
    memset(r, 0, sizeof *r);
    return r;
}

int cli_table_row(cli_table *t, const char *label, const char *const *cells)
{
    row *r = append(t);
    if (!r) return -1;
    r->label = strdup(label);
    r->cells = calloc((size_t)t->n_cols, sizeof *r->cells);
    int ok = r->label && r->cells;
    for (int c = 0; ok && c < t->n_cols; c++)
        ok = (r->cells[c] = strdup(cells[c] ? cells[c] : "-")) != NULL;
    return ok ? 0 : -1;
}

int cli_table_section(cli_table *t, const char *title)
{
    row *r = append(t);
    return r && (r->title = strdup(title)) ? 0 : -1;
}

static int label_width(const cli_table *t)
{
    int w = 0;
    for (int r = 0; r < t->n_rows; r++)
        if (t->rows[r].label && (int)strlen(t->rows[r].label) > w)
            w = (int)strlen(t->rows[r].label);
    return w;
}

static int column_width(const cli_table *t, int c)
{
    int w = (int)strlen(t->heads[c]);
    for (int r = 0; r < t->n_rows; r++)
        if (t->rows[r].cells && (int)strlen(t->rows[r].cells[c]) > w)
            w = (int)strlen(t->rows[r].cells[c]);
    return w + GAP;
}

/* Columns [first, last) under the labels. */
static void print_block(FILE *out, const cli_table *t, int first, int last, int lw, int width)
{
    fprintf(out, "%-*s", lw, "");
    for (int c = first; c < last; c++) fprintf(out, "%*s", column_width(t, c), t->heads[c]);
    fputc('\n', out);
    for (int r = 0; r < t->n_rows; r++) {
        const row *w = &t->rows[r];
        if (!w->label) {
            fprintf(out, "%.*s\n", width, w->title);
            continue;
        }
        fprintf(out, "%-*s", lw, w->label);
        for (int c = first; c < last; c++) fprintf(out, "%*s", column_width(t, c), w->cells[c]);
        fputc('\n', out);
    }
}

void cli_table_print(FILE *out, const cli_table *t, int width)
{
    const int lw = label_width(t);
    for (int first = 0; first < t->n_cols;) {
        int last = first + 1, used = lw + column_width(t, first);
        while (last < t->n_cols && used + column_width(t, last) <= width)
            used += column_width(t, last++);
        if (first > 0) fputc('\n', out);
        print_block(out, t, first, last, lw, width);
        first = last;
    }
}

void cli_print_wrapped(FILE *out, int col, const char *text, const char *indent, int width)
{
    int fresh = 1; /* nothing of text on this line yet */
    for (const char *p = text; *p;) {
        while (*p == ' ') p++;
        const int word = (int)strcspn(p, " ");
        if (!word) break;
        if (!fresh && col + 1 + word > width) {
            fprintf(out, "\n%s", indent);
            col = (int)strlen(indent);
            fresh = 1;
        }
        if (!fresh) {
            fputc(' ', out);
            col++;
        }
        fprintf(out, "%.*s", word, p);
        col += word;
        fresh = 0;
        p += word;
    }
    fputc('\n', out);
}
