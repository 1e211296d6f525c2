/* BLAS threads (docs/ode-adapter.md "BLAS threads"): inside an impax call an OpenBLAS in the process reports
   one thread, whatever the host set, and the host's setting is back afterwards, also when two
   worlds are stepped in two threads at once (the pin is counted process-wide). Skipped (exit
   77) when the loaded BLAS is not a threaded OpenBLAS. */
#define _GNU_SOURCE /* RTLD_DEFAULT */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "ensure.h"
#include "impax/ode.h"
#include "ode_kit.h"

#define HOST_THREADS 3

static int (*blas_get)(void);
static void (*blas_set)(int);

static void *find(const char *name) { return dlsym(RTLD_DEFAULT, name); }

/* 1 if a threaded OpenBLAS is loaded (its functions found) */
static int resolve(void)
{
    void *g = find("openblas_get_num_threads"), *s = find("openblas_set_num_threads");
    void *p = find("openblas_get_parallel");
    memcpy(&blas_get, &g, sizeof blas_get);
    memcpy(&blas_set, &s, sizeof blas_set);
    int (*parallel)(void);
    memcpy(&parallel, &p, sizeof parallel);
    return blas_get && blas_set && (!parallel || parallel() != 0);
}

typedef struct inside {
    int events, threads_min, threads_max;
} inside;

static void on_event(const ipx_ode_event *ev, void *user)
{
    (void)ev;
    inside *in = user;
    const int n = blas_get();
    if (in->events++ == 0) in->threads_min = in->threads_max = n;
    if (n < in->threads_min) in->threads_min = n;
    if (n > in->threads_max) in->threads_max = n;
}

/* A ball bouncing on the ground (e = 0.7) for steps steps, each contact through the adapter;
   every impact event records the BLAS's thread count into *in. */
static void bounce(int steps, inside *in, int own_threading)
{
    dWorldID w = dWorldCreate();
    dThreadingImplementationID threading = NULL;
    if (own_threading) { /* a world stepped concurrently with others needs its own */
        threading = dThreadingAllocateSelfThreadedImplementation();
        dWorldSetStepThreadingImplementation(w, dThreadingImplementationGetFunctions(threading),
                                             threading);
    }
    dWorldSetGravity(w, 0, 0, -9.81);
    dJointGroupID group = dJointGroupCreate(0);
    const double at[3] = {0, 0, 0.3};
    dBodyID ball = kit_ball(w, 1.0, 0.1, at);
    ipx_ode_context *ipx = ipx_ode_create(w);
    ipx_ode_set_event_callback(ipx, on_event, in);
    for (int step = 0; step < steps; step++) {
        const double z = dBodyGetPosition(ball)[2];
        if (z < 0.1) {
            const double p[3] = {0, 0, 0}, up[3] = {0, 0, 1};
            dContact c = kit_contact(p, up, 0.1 - z, 0.5, 0.7, 0.01);
            ipx_ode_contact(ipx, w, group, &c, ball, 0);
        }
        ipx_ode_step(ipx, 0.001);
        ipx_ode_empty_group(ipx, group);
    }
    ipx_ode_destroy(ipx);
    dJointGroupDestroy(group);
    dWorldDestroy(w);
    if (threading) dThreadingFreeImplementation(threading);
}

static void test_one_thread_inside_and_the_host_setting_after(void)
{
    blas_set(HOST_THREADS);
    ENSURE(blas_get() == HOST_THREADS);
    inside in = {0, 0, 0};
    bounce(1500, &in, 0);
    printf("  %d impact events, BLAS threads inside %d..%d, after %d (host set %d)\n", in.events,
           in.threads_min, in.threads_max, blas_get(), HOST_THREADS);
    ENSURE(in.events >= 3);
    ENSURE(in.threads_min == 1 && in.threads_max == 1);
    ENSURE(blas_get() == HOST_THREADS);
    /* a host that already runs one thread keeps it */
    blas_set(1);
    bounce(300, &in, 0);
    ENSURE(blas_get() == 1);
    blas_set(HOST_THREADS);
}

static void *bounce_thread(void *out)
{
    dAllocateODEDataForThread(dAllocateMaskAll);
    bounce(3000, out, 1);
    dCleanupODEAllDataForThread();
    return NULL;
}

static void test_two_worlds_in_two_threads_restore_the_host_setting(void)
{
    blas_set(HOST_THREADS);
    inside in[2] = {{0, 0, 0}, {0, 0, 0}};
    pthread_t t[2];
    for (int i = 0; i < 2; i++) ENSURE(pthread_create(&t[i], NULL, bounce_thread, &in[i]) == 0);
    for (int i = 0; i < 2; i++) pthread_join(t[i], NULL);
    printf("  events %d and %d, BLAS threads inside %d..%d and %d..%d, after %d\n", in[0].events,
           in[1].events, in[0].threads_min, in[0].threads_max, in[1].threads_min, in[1].threads_max,
           blas_get());
    for (int i = 0; i < 2; i++) {
        ENSURE(in[i].events >= 3);
        ENSURE(in[i].threads_min == 1 && in[i].threads_max == 1);
    }
    ENSURE(blas_get() == HOST_THREADS);
}

int main(void)
{
    if (!resolve()) {
        printf("skipped: the loaded BLAS is not a threaded OpenBLAS (no openblas_get_num_threads / "
               "openblas_set_num_threads, or a single-threaded build)\n");
        return 77;
    }
    dInitODE2(0);
    RUN(test_one_thread_inside_and_the_host_setting_after);
    RUN(test_two_worlds_in_two_threads_restore_the_host_setting);
    dCloseODE();
    return ipx_test_exit();
}
