/* Recorded trajectories: the CSV reader (recording.h, docs/command.md "Recorded trajectories"). */
#define _POSIX_C_SOURCE 200809L /* getline, scandir, strdup */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "recording.h"

enum { N_COLUMNS = 14, MAX_CELLS = 64 };

static const char *const column_name[N_COLUMNS] = {"t",  "x",  "y",  "z",  "qw", "qx", "qy",
                                                   "qz", "vx", "vy", "vz", "wx", "wy", "wz"};
#define COLUMN_LIST "t,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz"

static const double QUATERNION_NORM_TOLERANCE = 1e-3;

/* Where column col of the canonical order goes in a sample. */
static double *slot(cli_sample *s, int col)
{
    if (col == 0) return &s->t_s;
    if (col < 4) return &s->x_m[col - 1];
    if (col < 8) return &s->q[col - 4];
    if (col < 11) return &s->v_mps[col - 8];
    return &s->w_body_radps[col - 11];
}

typedef struct reader {
    const char *path;
    int line;
    char *message;
    size_t message_size;
} reader;

static int fail(reader *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int fail(reader *r, const char *fmt, ...)
{
    char text[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    snprintf(r->message, r->message_size, "%s:%d: %s", r->path, r->line, text);
    return -1;
}

static char *trimmed(char *s)
{
    while (*s == ' ' || *s == '\t') s++;
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r' || s[n - 1] == '\n'))
        s[--n] = '\0';
    return s;
}

/* Splits line at commas in place into trimmed cells; returns how many (at most max). */
static int split_cells(char *line, char **cells, int max)
{
    int n = 0;
    for (char *p = line; n < max;) {
        char *comma = strchr(p, ',');
        if (comma) *comma = '\0';
        cells[n++] = trimmed(p);
        if (!comma) break;
        p = comma + 1;
    }
    return n;
}

/* order[i]: the canonical column of the header's cell i. */
static int parse_header(reader *r, char *line, int order[N_COLUMNS])
{
    char *cells[MAX_CELLS];
    const int n = split_cells(line, cells, MAX_CELLS);
    int seen[N_COLUMNS] = {0};
    for (int i = 0; i < n; i++) {
        int col = 0;
        while (col < N_COLUMNS && strcmp(cells[i], column_name[col]) != 0) col++;
        if (col == N_COLUMNS)
            return fail(r, "unknown column '%s' (a recording has the columns " COLUMN_LIST ")",
                        cells[i]);
        if (seen[col]++) return fail(r, "column '%s' appears twice", cells[i]);
        order[i] = col;
    }
    for (int col = 0; col < N_COLUMNS; col++)
        if (!seen[col])
            return fail(r, "missing column '%s' (a recording has the columns " COLUMN_LIST ")",
                        column_name[col]);
    return 0;
}

static int parse_row(reader *r, char *line, const int order[N_COLUMNS], cli_sample *s)
{
    char *cells[N_COLUMNS + 1];
    const int n = split_cells(line, cells, N_COLUMNS + 1);
    if (n != N_COLUMNS)
        return fail(r, "%s values: the header has %d columns", n > N_COLUMNS ? "more" : "fewer",
                    N_COLUMNS);
    for (int i = 0; i < N_COLUMNS; i++) {
        char *end;
        errno = 0;
        const double v = strtod(cells[i], &end);
        if (end == cells[i] || *end != '\0')
            return fail(r, "column '%s': '%s' is not a number", column_name[order[i]], cells[i]);
        if (!isfinite(v) || errno == ERANGE)
            return fail(r, "column '%s': '%s' is not a finite number", column_name[order[i]],
                        cells[i]);
        *slot(s, order[i]) = v;
    }
    const double norm =
        sqrt(s->q[0] * s->q[0] + s->q[1] * s->q[1] + s->q[2] * s->q[2] + s->q[3] * s->q[3]);
    if (!(fabs(norm - 1.0) <= QUATERNION_NORM_TOLERANCE))
        return fail(r,
                    "the quaternion (qw, qx, qy, qz) has norm %.6g: a unit quaternion is needed "
                    "(within %g)",
                    norm, QUATERNION_NORM_TOLERANCE);
    return 0; /* kept as written: a state set from it is the file's (cli_body_set_state normalises) */
}

static int is_blank(const char *s)
{
    while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n') s++;
    return *s == '\0';
}

static int append_sample(reader *r, cli_recording *rec, int *capacity, const cli_sample *s)
{
    if (rec->n > 0 && !(s->t_s > rec->samples[rec->n - 1].t_s))
        return fail(
            r,
            "time %.17g s is not after the previous sample's %.17g s (time must increase strictly)",
            s->t_s, rec->samples[rec->n - 1].t_s);
    if (rec->n == *capacity) {
        const int cap = *capacity ? 2 * *capacity : 256;
        cli_sample *grown = realloc(rec->samples, (size_t)cap * sizeof *grown);
        if (!grown) return fail(r, "out of memory");
        rec->samples = grown;
        *capacity = cap;
    }
    rec->samples[rec->n++] = *s;
    return 0;
}

/* The header and the samples of f into rec. */
static int read_lines(reader *r, FILE *f, cli_recording *rec)
{
    char *line = NULL;
    size_t size = 0;
    int order[N_COLUMNS], have_header = 0, capacity = 0, rc = 0;
    while (rc == 0 && getline(&line, &size, f) != -1) {
        r->line++;
        if (is_blank(line)) continue;
        if (!have_header) {
            rc = parse_header(r, line, order);
            have_header = 1;
            continue;
        }
        cli_sample s;
        rc = parse_row(r, line, order, &s);
        if (rc == 0) rc = append_sample(r, rec, &capacity, &s);
    }
    free(line);
    if (rc != 0) return rc;
    if (ferror(f)) return fail(r, "cannot read the file: %s", strerror(errno));
    if (!have_header) return fail(r, "empty file: no header line " COLUMN_LIST);
    if (rec->n < 2)
        return fail(r, "%d sample%s: a recording needs at least two", rec->n,
                    rec->n == 1 ? "" : "s");
    return 0;
}

int cli_recording_load(const char *path, cli_recording *rec, char *message, size_t message_size)
{
    memset(rec, 0, sizeof *rec);
    reader r = {path, 0, message, message_size};
    FILE *f = fopen(path, "r");
    if (!f) return fail(&r, "cannot open the file: %s", strerror(errno));
    int rc = read_lines(&r, f, rec);
    fclose(f);
    if (rc == 0 && !(rec->path = strdup(path))) rc = fail(&r, "out of memory");
    if (rc != 0) cli_recording_free(rec);
    return rc;
}

void cli_recording_free(cli_recording *rec)
{
    free(rec->path);
    free(rec->samples);
    memset(rec, 0, sizeof *rec);
}

void cli_recordings_free(cli_recording *recs, int n)
{
    for (int i = 0; i < n; i++) cli_recording_free(&recs[i]);
    free(recs);
}

const cli_sample *cli_recording_start(const cli_recording *rec)
{
    return rec->start_window > 0 ? &rec->start : &rec->samples[0];
}

static int load_append(const char *path, cli_recording **recs, int *n, char *message,
                       size_t message_size)
{
    cli_recording rec;
    if (cli_recording_load(path, &rec, message, message_size) != 0) return -1;
    cli_recording *grown = realloc(*recs, (size_t)(*n + 1) * sizeof *grown);
    if (!grown) {
        snprintf(message, message_size, "%s: out of memory", path);
        cli_recording_free(&rec);
        return -1;
    }
    *recs = grown;
    (*recs)[(*n)++] = rec;
    return 0;
}

static int is_csv(const struct dirent *e)
{
    const size_t n = strlen(e->d_name);
    return n > 4 && e->d_name[0] != '.' && strcmp(e->d_name + n - 4, ".csv") == 0;
}

int cli_recordings_load(const char *path, cli_recording **recs, int *n, char *message,
                        size_t message_size)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        snprintf(message, message_size, "cannot open %s: %s", path, strerror(errno));
        return -1;
    }
    if (!S_ISDIR(st.st_mode)) return load_append(path, recs, n, message, message_size);
    struct dirent **names;
    const int count = scandir(path, &names, is_csv, alphasort);
    if (count < 0) {
        snprintf(message, message_size, "cannot read the directory %s: %s", path, strerror(errno));
        return -1;
    }
    if (count == 0) snprintf(message, message_size, "no *.csv file in the directory %s", path);
    int rc = count == 0 ? -1 : 0;
    for (int i = 0; i < count; i++) {
        char file[4096];
        const size_t len = strlen(path);
        snprintf(file, sizeof file, "%s%s%s", path, len && path[len - 1] == '/' ? "" : "/",
                 names[i]->d_name);
        if (rc == 0) rc = load_append(file, recs, n, message, message_size);
        free(names[i]);
    }
    free(names);
    return rc;
}
