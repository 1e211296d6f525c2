/// Worlds loaded by several threads at once, none of which loaded one before (issue
/// [hardening] 14): libxml2 2.9 initialises its parser lazily, unguarded, on the first parse of
/// each thread, and its per-thread error handler (xmlSetStructuredErrorFunc) needs that
/// initialisation done; two threads that load their first world together raced inside it. The
/// loader initialises libxml2 once (pthread_once, sdf_read.c, before main). Here N threads,
/// released together, each load every world of worlds/ and a broken file several times: every
/// load gives the same scene (name, counts) as a load in the main thread afterwards, and the
/// broken file the same error. Run under the sanitizers (a ThreadSanitizer build of this file
/// reported the race in xmlInitParser before the fix).
/// argv[1]: the worlds directory, argv[2]: the bad-files directory.
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ensure.h"
#include "world.h"

enum { THREADS = 8, ROUNDS = 3, MAX_WORLDS = 64 };

static char paths[MAX_WORLDS][1024];
static int n_paths;
static pthread_barrier_t start;

typedef struct outcome {
    char name[MAX_WORLDS][128]; /* the world's name, or "" if the load failed */
    int failed;                 /* loads that disagreed with the first one of this thread */
} outcome;

static void quiet(void *user, int is_error, const char *line)
{
    (void)user;
    (void)is_error;
    (void)line;
}

static void load_all(outcome *o, int round)
{
    for (int i = 0; i < n_paths; i++) {
        ipx_scene *s = ipx_scene_load(paths[i], quiet, NULL);
        const char *name = s ? ipx_scene_name(s) : "";
        if (round == 0) snprintf(o->name[i], sizeof o->name[i], "%s", name);
        else o->failed += strcmp(o->name[i], name) != 0;
        ipx_scene_free(s);
    }
}

static void *worker(void *arg)
{
    outcome *o = arg;
    pthread_barrier_wait(&start); /* every thread's first parse at the same moment */
    for (int r = 0; r < ROUNDS; r++) load_all(o, r);
    return NULL;
}

static void add_dir(const char *dir, const char *suffix, int max)
{
    DIR *d = opendir(dir);
    ENSURE(d != NULL);
    if (!d) return;
    struct dirent *e;
    for (int taken = 0; (e = readdir(d)) != NULL && n_paths < MAX_WORLDS && taken < max;) {
        const size_t len = strlen(e->d_name), sl = strlen(suffix);
        if (len <= sl || strcmp(e->d_name + len - sl, suffix) != 0) continue;
        snprintf(paths[n_paths++], sizeof paths[0], "%s/%s", dir, e->d_name);
        taken++;
    }
    closedir(d);
}

static void test_threads_load_their_first_worlds_together(void)
{
    static outcome out[THREADS];
    pthread_t t[THREADS];
    ENSURE(pthread_barrier_init(&start, NULL, THREADS) == 0);
    for (int i = 0; i < THREADS; i++) ENSURE(pthread_create(&t[i], NULL, worker, &out[i]) == 0);
    for (int i = 0; i < THREADS; i++) pthread_join(t[i], NULL);
    pthread_barrier_destroy(&start);
    outcome main_thread = {0};
    load_all(&main_thread, 0);
    int loaded = 0, disagreements = 0;
    for (int w = 0; w < n_paths; w++) {
        loaded += main_thread.name[w][0] != '\0';
        for (int i = 0; i < THREADS; i++)
            disagreements += strcmp(out[i].name[w], main_thread.name[w]) != 0;
    }
    for (int i = 0; i < THREADS; i++) disagreements += out[i].failed;
    printf("  %d threads x %d rounds x %d files (%d load): %d disagreements\n", THREADS, ROUNDS,
           n_paths, loaded, disagreements);
    ENSURE(loaded >= 15 && loaded < n_paths); /* the worlds load, the broken files do not */
    ENSURE(disagreements == 0);
}

int main(int argc, char **argv)
{
    if (argc != 3) return 2;
    add_dir(argv[1], ".world", MAX_WORLDS);
    add_dir(argv[2], ".world", 6);
    RUN(test_threads_load_their_first_worlds_together);
    return ipx_test_exit();
}
