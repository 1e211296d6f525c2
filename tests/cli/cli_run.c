#define _POSIX_C_SOURCE 200809L
#include "cli_run.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

int png_written(const char *dir, const char *name)
{
    char path[2048];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    size_t size = 0;
    char *png = read_file(path, &size);
    const int ok = png && size > 1000 && memcmp(png, "\x89PNG", 4) == 0;
    free(png);
    return ok;
}

cli_result cli_exec(const char *impax, const char *scratch_dir, const char *args_fmt, ...)
{
    char args[2048], cmd[8192], out_path[1024], err_path[1024];
    va_list ap;
    va_start(ap, args_fmt);
    vsnprintf(args, sizeof args, args_fmt, ap);
    va_end(ap);
    snprintf(out_path, sizeof out_path, "%s/stdout.txt", scratch_dir);
    snprintf(err_path, sizeof err_path, "%s/stderr.txt", scratch_dir);
    snprintf(cmd, sizeof cmd, "cd '%s' && '%s' %s >'%s' 2>'%s'", scratch_dir, impax, args, out_path,
             err_path);
    int status = system(cmd);
    cli_result r;
    r.exit_status = status != -1 && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.out = read_file(out_path, NULL);
    r.err = read_file(err_path, NULL);
    if (!r.out) r.out = calloc(1, 1);
    if (!r.err) r.err = calloc(1, 1);
    return r;
}

void cli_result_free(cli_result *r)
{
    free(r->out);
    free(r->err);
}

/* Splits line at commas in place; returns the number of cells. */
static int split(char *line, char **cells, int max)
{
    int n = 0;
    char *p = line;
    while (n < max) {
        cells[n++] = p;
        char *comma = strchr(p, ',');
        if (!comma) break;
        *comma = '\0';
        p = comma + 1;
    }
    return n;
}

int csv_read(const char *path, csv_table *t)
{
    memset(t, 0, sizeof *t);
    char *text = read_file(path, NULL);
    if (!text) return -1;
    enum { MAX_CELLS = 4096 };
    char **cells = malloc(MAX_CELLS * sizeof *cells);
    char *save = NULL;
    int rc = 0;
    for (char *line = strtok_r(text, "\n", &save); line && rc == 0;
         line = strtok_r(NULL, "\n", &save)) {
        int n = split(line, cells, MAX_CELLS);
        if (!t->header) {
            t->n_cols = n;
            t->header = malloc((size_t)n * sizeof *t->header);
            for (int i = 0; i < n; i++) t->header[i] = strdup(cells[i]);
            continue;
        }
        if (n != t->n_cols) {
            rc = -1;
            break;
        }
        t->value = realloc(t->value, (size_t)(t->n_rows + 1) * t->n_cols * sizeof *t->value);
        t->first = realloc(t->first, (size_t)(t->n_rows + 1) * sizeof *t->first);
        t->first[t->n_rows] = strdup(cells[0]);
        for (int i = 0; i < n; i++) {
            char *end;
            double v = strtod(cells[i], &end);
            t->value[(size_t)t->n_rows * t->n_cols + i] = end == cells[i] ? NAN : v;
        }
        t->n_rows++;
    }
    free(cells);
    free(text);
    return t->header ? rc : -1;
}

int csv_col(const csv_table *t, const char *name)
{
    for (int i = 0; i < t->n_cols; i++)
        if (strcmp(t->header[i], name) == 0) return i;
    return -1;
}

double csv_at(const csv_table *t, int row, int col)
{
    return row >= 0 && row < t->n_rows && col >= 0 && col < t->n_cols
               ? t->value[(size_t)row * t->n_cols + col]
               : NAN;
}

void csv_free(csv_table *t)
{
    for (int i = 0; i < t->n_cols; i++) free(t->header[i]);
    for (int i = 0; i < t->n_rows; i++) free(t->first[i]);
    free(t->header);
    free(t->first);
    free(t->value);
    memset(t, 0, sizeof *t);
}
