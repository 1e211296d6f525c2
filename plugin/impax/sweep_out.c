/* `impax sweep`'s output file: the jobs' keys, the rows already there, appending. */
#define _POSIX_C_SOURCE 200809L /* getline, truncate, strdup */
#include "sweep_out.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sweep_jobs.h"

static const sweep_index *sort_index; /* qsort's comparison has no context argument */

static int compare_jobs(const void *a, const void *b)
{
    return strcmp(sort_index->key[*(const int *)a], sort_index->key[*(const int *)b]);
}

int sweep_index_build(const sweep_spec *spec, sweep_index *index)
{
    const int n = (int)sweep_job_count(spec);
    index->n = 0;
    index->key = calloc((size_t)n + 1, sizeof *index->key);
    index->job = malloc(((size_t)n + 1) * sizeof *index->job);
    int *order = malloc(((size_t)n + 1) * sizeof *order);
    char **sorted = malloc(((size_t)n + 1) * sizeof *sorted);
    cli_buf key = {0};
    int rc = index->key && index->job && order && sorted ? 0 : -1;
    for (int j = 0; j < n && rc == 0; j++) {
        sweep_job job;
        sweep_job_decode(spec, j, &job);
        key.size = 0;
        rc = sweep_job_key(spec, &job, &key) == 0 && cli_buf_append(&key, "", 1) == 0 &&
                     (index->key[j] = strdup(key.data)) != NULL
                 ? 0
                 : -1;
        order[j] = j;
        index->n = j + 1;
    }
    if (rc == 0) {
        sort_index = index;
        qsort(order, (size_t)n, sizeof *order, compare_jobs);
        for (int i = 0; i < n; i++) {
            sorted[i] = index->key[order[i]];
            index->job[i] = order[i];
        }
        memcpy(index->key, sorted, (size_t)n * sizeof *sorted);
    }
    free(order);
    free(sorted);
    cli_buf_free(&key);
    if (rc != 0) sweep_index_free(index);
    return rc;
}

int sweep_index_find(const sweep_index *index, const char *key, size_t len)
{
    int lo = 0, hi = index->n - 1;
    while (lo <= hi) {
        const int mid = lo + (hi - lo) / 2;
        const char *k = index->key[mid];
        int c = strncmp(k, key, len);
        if (c == 0) c = k[len] != '\0'; /* k is longer than key */
        if (c == 0) return index->job[mid];
        if (c < 0) lo = mid + 1;
        else hi = mid - 1;
    }
    return -1;
}

void sweep_index_free(sweep_index *index)
{
    for (int i = 0; index->key && i < index->n; i++) free(index->key[i]);
    free(index->key);
    free(index->job);
    memset(index, 0, sizeof *index);
}

/* The key of a complete row, or -1. */
static int row_job(const sweep_index *index, const char *row, size_t len)
{
    static const char status[] = ",\"status\":";
    if (len < 2 || row[0] != '{' || row[len - 1] != '}') return -1;
    for (size_t i = 1; i + sizeof status - 1 <= len; i++)
        if (memcmp(row + i, status, sizeof status - 1) == 0)
            return sweep_index_find(index, row + 1, i - 1);
    return -1;
}

int sweep_rows_read(const char *path, const sweep_index *index, sweep_row_fn fn, void *ctx,
                    int *other, long *partial_at, char *message, size_t message_size)
{
    *other = 0;
    *partial_at = -1;
    FILE *f = fopen(path, "rb");
    if (!f) {
        if (errno == ENOENT) return 0;
        snprintf(message, message_size, "cannot read '%s': %s", path, strerror(errno));
        return -1;
    }
    char *line = NULL;
    size_t cap = 0;
    long offset = 0;
    ssize_t len;
    while ((len = getline(&line, &cap, f)) > 0) {
        if (line[len - 1] != '\n') { /* a crash cut the last row short */
            *partial_at = offset;
            break;
        }
        const int job = row_job(index, line, (size_t)len - 1);
        if (job >= 0) fn(ctx, job, line, (size_t)len - 1);
        else if (len > 1) (*other)++;
        offset += (long)len;
    }
    const int failed = ferror(f);
    free(line);
    fclose(f);
    if (failed) snprintf(message, message_size, "cannot read '%s'", path);
    return failed ? -1 : 0;
}

double sweep_row_value(const char *row, size_t len, const char *name)
{
    static const char values[] = "\"values\":{";
    cli_buf pattern = {0};
    double v = NAN;
    if (sweep_json_string(&pattern, name) != 0 || cli_buf_append(&pattern, ":", 1) != 0) {
        cli_buf_free(&pattern);
        return v;
    }
    const char *end = row + len;
    for (const char *p = row; p + sizeof values - 1 <= end; p++) {
        if (memcmp(p, values, sizeof values - 1) != 0) continue;
        for (const char *q = p + sizeof values - 1; q + pattern.size <= end && *q != '}'; q++)
            if ((q[-1] == '{' || q[-1] == ',') && memcmp(q, pattern.data, pattern.size) == 0) {
                char *after;
                const double x = strtod(q + pattern.size, &after);
                if (after != q + pattern.size) v = x;
                break;
            }
        break;
    }
    cli_buf_free(&pattern);
    return v;
}

FILE *sweep_out_open(const char *path, long partial_at, char *message, size_t message_size)
{
    if (partial_at >= 0 && truncate(path, (off_t)partial_at) != 0) {
        snprintf(message, message_size, "cannot cut the incomplete last line of '%s': %s", path,
                 strerror(errno));
        return NULL;
    }
    FILE *f = fopen(path, "a");
    if (!f) snprintf(message, message_size, "cannot write '%s': %s", path, strerror(errno));
    return f;
}
