/* One JSON object per impact event, one per line (JSON Lines), with the keys that
   docs/ode-adapter.md "Trace lines" documents. Numbers are printed with 17 significant digits (they read back exactly); arrays
   are null when the event failed before there was anything to show.
   The checked writer (ipx_trace_file): each line is formatted whole in memory and handed to
   write(2), so that a failure (a full disk, /dev/full, a file that takes no writes, a size
   limit) is seen at the event that met it: said once on stderr, the trace stops there (the
   caller's summary says so too), and on a regular file a line the failure cut is removed, so
   the file ends with whole lines. */
#define _GNU_SOURCE /* open_memstream, O_CLOEXEC */
#include "trace.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int ipx_trace_open(ipx_trace_file *t, const char *name, const char *path, char *msg, size_t size)
{
    *t = (ipx_trace_file){.fd = -1, .name = name, .path = path};
    /* without waiting: open(2) of a FIFO for writing blocks until a reader opens it, and this
       runs before main */
    const int fd = open(path, O_WRONLY | O_CREAT | O_NONBLOCK | O_CLOEXEC, 0666);
    if (fd < 0) {
        if (errno == ENXIO)
            snprintf(msg, size,
                     "%s='%s': a FIFO with no reader (start the reader first: "
                     "impax does not wait for one before the program runs)",
                     name, path);
        else
            snprintf(msg, size, "%s='%s': cannot open it for writing (%s)", name, path,
                     strerror(errno));
        return -1;
    }
    struct stat st;
    if (fstat(fd, &st) != 0 ||
        !(S_ISREG(st.st_mode) || S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode))) {
        snprintf(msg, size, "%s='%s': not a regular file, a FIFO or a character device", name,
                 path);
        close(fd);
        return -1;
    }
    const int flags = fcntl(fd, F_GETFL); /* from here on, writes wait as usual */
    if (flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0) {
        snprintf(msg, size, "%s='%s': %s", name, path, strerror(errno));
        close(fd);
        return -1;
    }
    t->fd = fd;
    return 0;
}

/* The first failure, said once: the trace stops. */
static void stop(ipx_trace_file *t, int err, const char *what)
{
    t->error = err ? err : EIO;
    fprintf(stderr, "impax: %s='%s': %s failed after %ld events (%s): tracing stopped\n", t->name,
            t->path, what, t->written, strerror(t->error));
}

void ipx_trace_begin(ipx_trace_file *t)
{
    if (t->fd < 0 || t->begun) return;
    t->begun = 1;
    struct stat st;
    if (fstat(t->fd, &st) != 0 || !S_ISREG(st.st_mode)) return; /* a FIFO or a device: as is */
    if (ftruncate(t->fd, 0) != 0 || lseek(t->fd, 0, SEEK_SET) != 0) stop(t, errno, "emptying");
}

/* Writes all of buf (len bytes) or fails; a regular file is cut back to where the line began. */
static int write_line(ipx_trace_file *t, const char *buf, size_t len)
{
    const off_t start = lseek(t->fd, 0, SEEK_CUR); /* -1 on a FIFO or a device: nothing to cut */
    for (size_t done = 0; done < len;) {
        const ssize_t n = write(t->fd, buf + done, len - done);
        if (n > 0) {
            done += (size_t)n;
            continue;
        }
        if (n < 0 && errno == EINTR) continue;
        const int err = n < 0 ? errno : ENOSPC; /* write(2) returns 0 only when nothing fits */
        if (done > 0 && start >= 0 && ftruncate(t->fd, start) == 0) lseek(t->fd, start, SEEK_SET);
        stop(t, err, "writing");
        return -1;
    }
    return 0;
}

/* JSON has no NaN or infinity: such a value (it cannot come from a handed-back event, which
   is checked finite) is written as null rather than as invalid JSON. */
static void number(FILE *f, double x)
{
    if (isfinite(x)) fprintf(f, "%.17g", x);
    else fputs("null", f);
}

static void string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        const unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\') fprintf(f, "\\%c", ch);
        else if (ch < 0x20) fprintf(f, "\\u%04x", ch);
        else fputc(ch, f);
    }
    fputc('"', f);
}

static void array(FILE *f, const double *x, int n)
{
    if (!x) {
        fputs("null", f);
        return;
    }
    fputc('[', f);
    for (int i = 0; i < n; i++) {
        if (i) fputc(',', f);
        number(f, x[i]);
    }
    fputc(']', f);
}

/* k arrays of `per` numbers, [[..],[..]], or null */
static void groups(FILE *f, const double *x, int k, int per)
{
    if (!x) {
        fputs("null", f);
        return;
    }
    fputc('[', f);
    for (int i = 0; i < k; i++) {
        if (i) fputc(',', f);
        array(f, x + (size_t)per * (size_t)i, per);
    }
    fputc(']', f);
}

void ipx_trace_event(FILE *f, int world_index, double time_s, const ipx_ode_event *ev)
{
    fprintf(f, "{\"step\":%ld,\"time\":", ev->step);
    number(f, time_s);
    fprintf(f, ",\"world\":%d,\"model\":", world_index);
    string(f, ev->model);
    fprintf(f, ",\"contacts\":%d,\"status\":", ev->k);
    string(f, ev->status);
    fputs(",\"ke_before\":", f);
    number(f, ev->ke_before);
    fputs(",\"ke_after\":", f);
    number(f, ev->ke_after);
    fputs(",\"delta_stored\":", f);
    number(f, ev->delta_stored);
    fputs(",\"work_other\":", f);
    number(f, ev->work_other);
    fprintf(f, ",\"energy_frame\":\"%s\"",
            ev->energy_frame > 0   ? "kinematic"
            : ev->energy_frame < 0 ? "unbalanced"
                                   : "world");
    fputs(",\"vn_before\":", f);
    array(f, ev->vn_before, ev->k);
    fputs(",\"vn_after\":", f);
    array(f, ev->vn_after, ev->k);
    fputs(",\"impulse\":", f);
    groups(f, ev->impulse, ev->k, IPX_ROWS_PER_CONTACT);
    fputs(",\"point\":", f);
    groups(f, ev->point, ev->k, 3);
    fputs(",\"normal\":", f);
    groups(f, ev->normal, ev->k, 3);
    const ipx_counts *c = &ev->counts;
    fprintf(f,
            ",\"rounds\":%d,\"intervals\":%d,\"lsq_solves\":%d,\"lcp_solves\":%d,\"pivots\":%d,"
            "\"steps\":%d,\"newton_iters\":%d,\"limits_hit\":%u}\n",
            c->rounds, c->intervals, c->lsq_solves, c->lcp_solves, c->pivots, c->steps,
            c->newton_iters, c->limits_hit);
}

void ipx_trace_write(ipx_trace_file *t, int world_index, double time_s, const ipx_ode_event *ev)
{
    if (t->fd < 0 || t->error) return;
    char *line = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&line, &len);
    if (!f) {
        stop(t, errno, "formatting");
        return;
    }
    ipx_trace_event(f, world_index, time_s, ev);
    if (fclose(f) != 0 || !line) {
        stop(t, errno, "formatting");
        free(line);
        return;
    }
    if (write_line(t, line, len) == 0) t->written++;
    free(line);
}

void ipx_trace_close(ipx_trace_file *t)
{
    if (t->fd < 0) return;
    if (close(t->fd) != 0 && !t->error) stop(t, errno, "closing"); /* NFS says so only here */
    t->fd = -1;
}

void ipx_trace_status(const ipx_trace_file *t, char *buf, size_t size)
{
    if (!t->error) snprintf(buf, size, "%s", "");
    else
        snprintf(buf, size, "; trace stopped after %ld events (%s)", t->written,
                 strerror(t->error));
}
