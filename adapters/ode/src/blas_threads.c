/* One BLAS thread inside impax's work (docs/ode-adapter.md "BLAS threads").

   impax's dense calls are small (a few to 192 rows), and a threaded OpenBLAS starts its
   threads for matrices of a few dozen rows (Debian 12's libopenblas0-pthread 0.3.21 threads
   dgemv from 96 x 96 and its LAPACK factorisations by its own size rules): at 32 contacts the
   process's CPU time was 1.19 times the stepping thread's, for no gain. impax must not compete
   with the host program's own threads, so the adapter pins the BLAS to one thread around the
   work that calls it (the pre-step's islands, the post-step's position recovery) and puts the
   host's setting back afterwards.

   How: openblas_get_num_threads / openblas_set_num_threads, looked up at run time (no link to
   OpenBLAS: the reference BLAS, or another BLAS, simply lacks them and nothing is done). Looked
   up in the global scope first, then in the dependency tree of the library that provides
   LAPACKE (a host that dlopen()ed impax with RTLD_LOCAL has the BLAS only there).

   Cost: in 0.3.21's pthread server, openblas_set_num_threads(n) for n no larger than the
   threads already started only stores n into blas_cpu_number (Debian builds with NO_AFFINITY,
   so no affinity calls); openblas_get_num_threads reads it. No lock, no system call: pinning
   and restoring cost nanoseconds, so the adapter does it per pre-step that has work.

   Threads: that count is process-wide in 0.3.21 (no per-thread setting), so the pin is counted
   process-wide under a mutex: the first pin saves the host's count, the last unpin restores it
   (two worlds stepped in two threads do not restore each other's 1). While any impax call is
   pinned, BLAS calls of the host's other threads also run on one thread (OpenBLAS reads the
   count at each call; a call already running keeps its threads): the price of a process-wide
   setting, paid only for the duration of impax's work. If the host changed the count during
   the pin (it no longer reads 1), its new value is kept. An OpenBLAS built for OpenMP (parallel
   mode 2) also sets the calling thread's omp_set_num_threads there, and takes its thread count
   from the calling thread's OpenMP setting at each call, so there the save and restore are per
   thread. A single-threaded build (mode 0) is left alone. */
#define _GNU_SOURCE /* dladdr, RTLD_DEFAULT */
#include <dlfcn.h>
#include <lapacke.h>
#include <pthread.h>
#include <stddef.h>
#include <string.h>

#include "blas_threads.h"

typedef int (*get_fn)(void);
typedef void (*set_fn)(int);

static pthread_once_t once = PTHREAD_ONCE_INIT;
static get_fn blas_get;
static set_fn blas_set;
static int parallel_mode; /* openblas_get_parallel: 0 serial, 1 threads, 2 OpenMP */

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int depth; /* pins held in the process (mode 1) */
static int saved; /* the host's count, saved by the outermost pin; 0: nothing to restore */

static _Thread_local int tls_depth, tls_saved; /* mode 2: per thread */

/* dlsym returns an object pointer; memcpy turns it into a function pointer without the cast
   ISO C leaves undefined (as plugin/preload/shim.c does). */
static void lookup(void *handle, const char *name, void *fn_ptr, size_t size)
{
    void *symbol = dlsym(handle, name);
    memcpy(fn_ptr, &symbol, size);
}

static void resolve(void)
{
    void *handle = RTLD_DEFAULT;
    if (!dlsym(handle, "openblas_set_num_threads")) {
        lapack_int (*lapacke)(int, char, lapack_int, double *, lapack_int) = LAPACKE_dpotrf_work;
        void *address;
        memcpy(&address, &lapacke, sizeof address);
        Dl_info info;
        void *lib = NULL;
        if (dladdr(address, &info) && info.dli_fname)
            lib = dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
        if (!lib) return;
        handle = lib; /* kept open: the library stays loaded as long as impax is */
    }
    get_fn g, p;
    set_fn s;
    lookup(handle, "openblas_get_num_threads", &g, sizeof g);
    lookup(handle, "openblas_set_num_threads", &s, sizeof s);
    lookup(handle, "openblas_get_parallel", &p, sizeof p);
    if (!g || !s) return;
    parallel_mode = p ? p() : 1;
    blas_get = g;
    blas_set = s;
}

void ipx_ode_blas_pin(void)
{
    pthread_once(&once, resolve);
    if (!blas_set || parallel_mode == 0) return;
    if (parallel_mode == 2) {
        if (tls_depth++ == 0) {
            tls_saved = blas_get();
            if (tls_saved != 1) blas_set(1);
        }
        return;
    }
    pthread_mutex_lock(&lock);
    if (depth++ == 0) {
        const int host = blas_get();
        saved = host != 1 ? host : 0;
        if (saved) blas_set(1);
    }
    pthread_mutex_unlock(&lock);
}

void ipx_ode_blas_unpin(void)
{
    if (!blas_set || parallel_mode == 0) return;
    if (parallel_mode == 2) {
        if (--tls_depth == 0 && tls_saved != 1 && blas_get() == 1) blas_set(tls_saved);
        return;
    }
    pthread_mutex_lock(&lock);
    if (--depth == 0 && saved) {
        if (blas_get() == 1) blas_set(saved);
        saved = 0;
    }
    pthread_mutex_unlock(&lock);
}
