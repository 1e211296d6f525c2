/* The job pool's fork transport: N forks of this process, each with a pipe from the master
   (job indices, 4 bytes each; end of file: stop) and a pipe to it (a result: 8-byte size, then
   the bytes). The master polls the result pipes and keeps two jobs in each worker's pipe: the
   one it runs and the next, so a worker never waits for the master between jobs. The workers
   see the batch as it is in memory at the fork: nothing but indices crosses. */
#define _POSIX_C_SOURCE 200809L /* fork, pipe, sigaction, poll */
#include "pool_fork.h"

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

enum { AHEAD = 2 };

typedef struct worker {
    pid_t pid;
    int to, from;     /* job pipe (write end), result pipe (read end); -1 when closed */
    int queue[AHEAD]; /* batch indices sent and not answered, the one it runs first */
    int queued;
    int alive;
} worker;

/* The jobs to hand out: those never sent (next .. n - 1), and those that were queued behind
   the job of a worker that died (they never started: another worker runs them). */
typedef struct dealer {
    int next, n;
    int *retry, n_retry;
} dealer;

static int deal(dealer *d)
{
    if (d->n_retry > 0) return d->retry[--d->n_retry];
    return d->next < d->n ? d->next++ : -1;
}

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
        if (b->run(b->run_ctx, b->id ? b->id[k] : k, b->payload, b->payload_size, &result) != 0)
            _exit(3);
        const uint64_t size = result.size;
        if (write_all(to_master, &size, sizeof size) != 0 ||
            write_all(to_master, result.data, result.size) != 0)
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
            close(started[j].to);
            close(started[j].from);
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
    *w = (worker){.pid = w->pid, .to = job[1], .from = res[0], .alive = 1};
    return 0;
}

/* Closes a worker's pipes and reaps it. The job it ran is lost (said in message, the first
   time); those queued behind it go back to the dealer. */
static void retire(worker *w, int index, const cli_batch *b, dealer *d, char *message,
                   size_t message_size, int *deaths)
{
    close(w->to);
    close(w->from);
    w->to = w->from = -1;
    w->alive = 0;
    int status = 0;
    while (waitpid(w->pid, &status, 0) < 0 && errno == EINTR) {}
    const int job = w->queued > 0 ? w->queue[0] : -1;
    for (int i = 1; d->retry && i < w->queued; i++) d->retry[d->n_retry++] = w->queue[i];
    w->queued = 0;
    if (job < 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0) return;
    if ((*deaths)++ == 0) {
        char how[64];
        if (WIFSIGNALED(status)) snprintf(how, sizeof how, "killed by signal %d", WTERMSIG(status));
        else
            snprintf(how, sizeof how, "exit status %d",
                     WIFEXITED(status) ? WEXITSTATUS(status) : -1);
        if (job >= 0)
            snprintf(message, message_size, "worker %d (pid %ld) died during job %d (%s)",
                     index + 1, (long)w->pid, b->id ? b->id[job] : job, how);
        else
            snprintf(message, message_size, "worker %d (pid %ld) died (%s)", index + 1,
                     (long)w->pid, how);
    }
}

/* Tops up a live worker's queue from the dealer; a worker that cannot take a job is retired
   (the job goes back). */
static void fill(worker *w, int index, const cli_batch *b, dealer *d, char *message,
                 size_t message_size, int *deaths)
{
    while (w->alive && w->queued < AHEAD) {
        const int k = deal(d);
        if (k < 0) return;
        const int32_t k32 = k;
        if (write_all(w->to, &k32, sizeof k32) != 0) {
            d->retry[d->n_retry++] = k;
            retire(w, index, b, d, message, message_size, deaths);
            return;
        }
        w->queue[w->queued++] = k;
    }
}

/* Reads worker w's oldest result. 0 and the job's done's answer in *stop, or -1 if the worker
   died. */
static int collect(worker *w, const cli_batch *b, cli_buf *buf, int *stop)
{
    uint64_t size;
    if (read_all(w->from, &size, sizeof size) != 0) return -1;
    if (cli_buf_reserve(buf, (size_t)size) != 0 || read_all(w->from, buf->data, (size_t)size) != 0)
        return -1;
    const int k = w->queue[0];
    for (int i = 1; i < w->queued; i++) w->queue[i - 1] = w->queue[i];
    w->queued--;
    *stop = b->done(b->done_ctx, k, buf->data, (size_t)size) != 0;
    return 0;
}

/* Polls the workers with jobs until every job has come back or has no live worker to run it.
   The number of jobs whose done was called. */
static int serve_batch(worker *w, int jobs, const cli_batch *b, char *message, size_t message_size,
                       int *deaths)
{
    struct pollfd *pfd = malloc((size_t)jobs * sizeof *pfd);
    int *who = malloc((size_t)jobs * sizeof *who);
    dealer d = {.n = b->n, .retry = malloc(((size_t)jobs * AHEAD + 1) * sizeof *d.retry)};
    cli_buf buf = {0};
    int finished = 0, stopped = 0;
    if (!pfd || !who || !d.retry)
        snprintf(message, message_size, "out of memory for %d workers", jobs);
    while (pfd && who && d.retry) {
        int n = 0;
        for (int j = 0; j < jobs; j++) {
            fill(&w[j], j, b, &d, message, message_size, deaths);
            if (w[j].queued > 0) {
                pfd[n] = (struct pollfd){.fd = w[j].from, .events = POLLIN};
                who[n++] = j;
            }
        }
        if (n == 0) break;
        if (poll(pfd, (nfds_t)n, -1) < 0) {
            if (errno == EINTR) continue;
            break;
        }
        for (int i = 0; i < n; i++) {
            if (!(pfd[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
            int stop = 0;
            if (collect(&w[who[i]], b, &buf, &stop) != 0) {
                retire(&w[who[i]], who[i], b, &d, message, message_size, deaths);
                continue;
            }
            finished++;
            if (stop && !stopped) { /* no new jobs; those in the pipes still come back */
                stopped = 1;
                d.next = d.n;
                d.n_retry = 0;
            }
        }
    }
    free(pfd);
    free(who);
    free(d.retry);
    cli_buf_free(&buf);
    if (stopped && !message[0])
        snprintf(message, message_size, "stopped after %d of %d jobs", finished, b->n);
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
    dealer none = {.retry = NULL}; /* the batch is over: nothing goes back */
    for (int j = 0; j < started; j++)
        if (w[j].alive) retire(&w[j], j, batch, &none, message, message_size, &deaths);
    sigaction(SIGPIPE, &old, NULL);
    free(w);
    return rc;
}
