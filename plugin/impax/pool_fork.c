/* The job pool's fork transport: N forks of this process, each with a pipe from the master
   (the next job's index, 4 bytes; end of file: stop) and a pipe to it (a result: 8-byte size,
   then the bytes). The master polls the result pipes and gives a free worker the next job.
   The workers see the batch as it is in memory at the fork: nothing but indices crosses. */
#define _POSIX_C_SOURCE 200809L /* fork, pipe, sigaction, poll */
#include "pool_internal.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

typedef struct worker {
    pid_t pid;
    int to, from; /* job pipe (write end), result pipe (read end); -1 when closed */
    int job;      /* batch index it runs, -1 when free */
} worker;

static int write_all(int fd, const void *data, size_t size)
{
    const char *p = data;
    while (size > 0) {
        const ssize_t w = write(fd, p, size);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return -1;
        p += w;
        size -= (size_t)w;
    }
    return 0;
}

static int read_all(int fd, void *data, size_t size)
{
    char *p = data;
    while (size > 0) {
        const ssize_t r = read(fd, p, size);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return -1;
        p += r;
        size -= (size_t)r;
    }
    return 0;
}

/* The worker's whole life: jobs in, results out, until the master closes the job pipe. Not
   exit(): the master owns stdio buffers and atexit work. */
static void worker_main(const cli_batch *b, int from_master, int to_master)
{
    signal(SIGPIPE, SIG_DFL); /* a master that is gone ends its workers */
    cli_buf result = {0};
    int32_t k;
    while (read_all(from_master, &k, sizeof k) == 0) {
        result.size = 0;
        if (b->run(b->run_ctx, b->id ? b->id[k] : k, b->payload, b->payload_size, &result) != 0) _exit(3);
        const uint64_t size = result.size;
        if (write_all(to_master, &size, sizeof size) != 0 || write_all(to_master, result.data, result.size) != 0)
            _exit(1);
    }
    _exit(0);
}

static int start_worker(worker *w, int index, const worker *started, const cli_batch *b)
{
    int job[2], res[2];
    if (pipe(job) != 0) return -1;
    if (pipe(res) != 0) {
        close(job[0]);
        close(job[1]);
        return -1;
    }
    w->pid = fork();
    if (w->pid == 0) {
        close(job[1]);
        close(res[0]);
        for (int j = 0; j < index; j++) { /* the other workers' pipes are not this one's */
            if (started[j].to >= 0) close(started[j].to);
            if (started[j].from >= 0) close(started[j].from);
        }
        worker_main(b, job[0], res[1]);
    }
    close(job[0]);
    close(res[1]);
    if (w->pid < 0) {
        close(job[1]);
        close(res[0]);
        return -1;
    }
    w->to = job[1];
    w->from = res[0];
    w->job = -1;
    return 0;
}

/* Closes a worker's pipes, reaps it and says how it ended when it was running a job. */
static void retire(worker *w, int index, const cli_batch *b, char *message, size_t message_size, int *deaths)
{
    if (w->to >= 0) close(w->to);
    if (w->from >= 0) close(w->from);
    w->to = w->from = -1;
    int status = 0;
    while (waitpid(w->pid, &status, 0) < 0 && errno == EINTR) {
    }
    const int job = w->job;
    w->job = -1; /* no longer waited for */
    if (job < 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0) return;
    if ((*deaths)++ == 0) {
        char how[64];
        if (WIFSIGNALED(status)) snprintf(how, sizeof how, "killed by signal %d", WTERMSIG(status));
        else snprintf(how, sizeof how, "exit status %d", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
        if (job >= 0)
            snprintf(message, message_size, "worker %d (pid %ld) died during job %d (%s)", index + 1,
                     (long)w->pid, b->id ? b->id[job] : job, how);
        else
            snprintf(message, message_size, "worker %d (pid %ld) died (%s)", index + 1, (long)w->pid, how);
    }
}

/* Gives worker w the next job if there is one; a worker that cannot take it is retired. */
static void hand_out(worker *w, int index, const cli_batch *b, int *next, char *message, size_t message_size,
                     int *deaths)
{
    if (*next >= b->n) {
        close(w->to);
        w->to = -1;
        return;
    }
    const int32_t k = *next;
    if (write_all(w->to, &k, sizeof k) != 0) {
        retire(w, index, b, message, message_size, deaths);
        return;
    }
    w->job = k;
    (*next)++;
}

/* Reads worker w's result. 0 and the job's done's answer in *stop, or -1 if the worker died. */
static int collect(worker *w, const cli_batch *b, cli_buf *buf, int *stop)
{
    uint64_t size;
    if (read_all(w->from, &size, sizeof size) != 0) return -1;
    if (cli_buf_reserve(buf, (size_t)size) != 0 || read_all(w->from, buf->data, (size_t)size) != 0) return -1;
    *stop = b->done(b->done_ctx, w->job, buf->data, (size_t)size) != 0;
    w->job = -1;
    return 0;
}

/* Polls the busy workers until every job handed out has come back or its worker is gone. */
static int serve_batch(worker *w, int jobs, const cli_batch *b, char *message, size_t message_size, int *deaths)
{
    struct pollfd *pfd = malloc((size_t)jobs * sizeof *pfd);
    int *who = malloc((size_t)jobs * sizeof *who);
    cli_buf buf = {0};
    int next = 0, finished = 0, stopped = 0;
    if (!pfd || !who) snprintf(message, message_size, "out of memory for %d workers", jobs);
    for (int j = 0; pfd && who && j < jobs; j++) hand_out(&w[j], j, b, &next, message, message_size, deaths);
    for (;;) {
        int n = 0;
        for (int j = 0; pfd && who && j < jobs; j++)
            if (w[j].job >= 0) {
                pfd[n] = (struct pollfd){.fd = w[j].from, .events = POLLIN};
                who[n++] = j;
            }
        if (n == 0) break;
        if (poll(pfd, (nfds_t)n, -1) < 0) {
            if (errno == EINTR) continue;
            break;
        }
        for (int i = 0; i < n; i++) {
            worker *x = &w[who[i]];
            if (!(pfd[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
            int stop = 0;
            if (collect(x, b, &buf, &stop) != 0) {
                retire(x, who[i], b, message, message_size, deaths);
                continue;
            }
            finished++;
            stopped |= stop;
            if (stopped) next = b->n; /* no more jobs: closing the pipe ends the worker */
            hand_out(x, who[i], b, &next, message, message_size, deaths);
        }
    }
    free(pfd);
    free(who);
    cli_buf_free(&buf);
    if (stopped && !message[0]) snprintf(message, message_size, "stopped after %d of %d jobs", finished, b->n);
    return finished;
}

int pool_fork_run(int jobs, const cli_batch *batch, char *message, size_t message_size)
{
    worker *w = calloc((size_t)jobs, sizeof *w);
    if (!w) {
        snprintf(message, message_size, "out of memory for %d workers", jobs);
        return -1;
    }
    /* a worker that died must not take the master with it when a job is written to it */
    struct sigaction ignore = {.sa_handler = SIG_IGN}, old;
    sigemptyset(&ignore.sa_mask);
    sigaction(SIGPIPE, &ignore, &old);
    fflush(NULL);
    int started = 0;
    while (started < jobs && start_worker(&w[started], started, w, batch) == 0) started++;
    int rc, deaths = 0;
    if (started == 0) {
        snprintf(message, message_size, "cannot start a worker process: %s", strerror(errno));
        rc = -1;
    } else {
        rc = batch->n - serve_batch(w, started, batch, message, message_size, &deaths);
        if (rc > 0 && deaths > 1) {
            const size_t used = strlen(message);
            snprintf(message + used, message_size - used, "; %d workers died in all", deaths);
        }
    }
    for (int j = 0; j < started; j++)
        if (w[j].to >= 0 || w[j].from >= 0) retire(&w[j], j, batch, message, message_size, &deaths);
    sigaction(SIGPIPE, &old, NULL);
    free(w);
    return rc;
}
