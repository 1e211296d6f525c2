#define _GNU_SOURCE /* fork, pipe, sysconf, strsignal */
#include "replay_pool.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>


int cli_replay_default_jobs(void)
{
    const long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

static void replay_one(const ipx_scene *scene, const char *model, const char *params,
                       const cli_recording *rec, cli_replay_outcome *o)
{
    memset(o, 0, sizeof *o);
    o->rc = cli_replay(scene, model, params, rec, &o->error, NULL, o->message, sizeof o->message);
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

/* The worker's whole life: its share of the list, one outcome at a time down the pipe. */
static void worker(const ipx_scene *scene, const char *model, const char *params,
                   const cli_recording *recs, const int *index, int n, int jobs, int first, int fd)
{
    int status = 0;
    for (int i = first; i < n && status == 0; i += jobs) {
        cli_replay_outcome o;
        replay_one(scene, model, params, &recs[index[i]], &o);
        status = write_all(fd, &o, sizeof o);
    }
    /* not exit(): the parent owns stdio buffers and atexit work; ODE's held-back messages go
       with the worker (--verbose prints them as they come) */
    _exit(status == 0 ? 0 : 1);
}

int cli_replay_pool(const ipx_scene *scene, const char *model, const char *params,
                    const cli_recording *recs, const int *index, int n, int jobs,
                    cli_replay_outcome *out, char *message, size_t message_size)
{
    if (jobs > n) jobs = n;
    if (jobs <= 1) {
        for (int i = 0; i < n; i++) replay_one(scene, model, params, &recs[index[i]], &out[i]);
        return 0;
    }
    int *fd = malloc((size_t)jobs * sizeof *fd);
    pid_t *pid = malloc((size_t)jobs * sizeof *pid);
    if (!fd || !pid) {
        free(fd);
        free(pid);
        snprintf(message, message_size, "out of memory starting %d replay workers", jobs);
        return -1;
    }
    fflush(stdout);
    fflush(stderr);
    int started = 0, rc = 0;
    for (; started < jobs; started++) {
        int p[2];
        if (pipe(p) != 0) break;
        const pid_t child = fork();
        if (child < 0) {
            close(p[0]);
            close(p[1]);
            break;
        }
        if (child == 0) {
            close(p[0]);
            for (int j = 0; j < started; j++) close(fd[j]);
            worker(scene, model, params, recs, index, n, jobs, started, p[1]);
        }
        close(p[1]);
        fd[started] = p[0];
        pid[started] = child;
    }
    if (started < jobs) {
        snprintf(message, message_size, "cannot start replay worker %d of %d: %s", started + 1, jobs,
                 strerror(errno));
        rc = -1;
    }
    /* Worker j's outcomes arrive in list order j, j + jobs, ...; a slow pipe only waits. */
    int lost = -1, lost_recording = -1;
    for (int j = 0; j < started; j++) {
        for (int i = j; i < n && rc == 0; i += jobs)
            if (read_all(fd[j], &out[i], sizeof out[i]) != 0) {
                lost = j;
                lost_recording = index[i];
                rc = -1;
            }
        close(fd[j]);
    }
    for (int j = 0; j < started; j++) {
        int status = 0;
        while (waitpid(pid[j], &status, 0) < 0 && errno == EINTR) {
        }
        if (j != lost) continue;
        char how[64] = "exited";
        if (WIFSIGNALED(status)) snprintf(how, sizeof how, "was killed by signal %d (%s)", WTERMSIG(status), strsignal(WTERMSIG(status)));
        else if (WIFEXITED(status)) snprintf(how, sizeof how, "exited with status %d", WEXITSTATUS(status));
        snprintf(message, message_size, "replay worker %d %s while replaying %s", j + 1, how,
                 recs[lost_recording].path);
    }
    free(fd);
    free(pid);
    return rc;
}
