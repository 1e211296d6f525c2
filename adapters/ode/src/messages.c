/* ODE's messages (dMessage: "LCP internal error, s <= 0 (s=...)" and the like, which ODE prints
   to stderr as they happen, thousands of times in a rocking block's run), caught with
   dSetMessageHandler and counted per kind: the message's format text with its number. A run
   then reports each kind once. Process-wide, as ODE's handler is. */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "impax/ode.h"

#define MAX_KINDS 32

static struct {
    pthread_mutex_t lock;
    int echo;
    int n;
    struct {
        int errnum;
        const char *format; /* ODE's format strings are literals: the pointer names the kind */
        long count;
    } kind[MAX_KINDS];
    long others; /* messages of kinds beyond MAX_KINDS */
} caught = {.lock = PTHREAD_MUTEX_INITIALIZER};

static void on_message(int errnum, const char *msg, va_list ap)
{
    pthread_mutex_lock(&caught.lock);
    int k = 0;
    while (k < caught.n && !(caught.kind[k].errnum == errnum && caught.kind[k].format == msg)) k++;
    if (k < caught.n) {
        caught.kind[k].count++;
    } else if (caught.n < MAX_KINDS) {
        caught.kind[k].errnum = errnum;
        caught.kind[k].format = msg;
        caught.kind[k].count = 1;
        caught.n++;
    } else {
        caught.others++;
    }
    if (caught.echo) { /* as ODE prints it */
        fprintf(stderr, "\nODE Message %d: ", errnum);
        vfprintf(stderr, msg, ap);
        fputc('\n', stderr);
    }
    pthread_mutex_unlock(&caught.lock);
}

void ipx_ode_capture_messages(int echo)
{
    pthread_mutex_lock(&caught.lock);
    caught.echo = echo;
    pthread_mutex_unlock(&caught.lock);
    dSetMessageHandler(on_message);
}

long ipx_ode_report_messages(FILE *f, const char *prefix)
{
    pthread_mutex_lock(&caught.lock);
    long total = caught.others;
    for (int k = 0; k < caught.n; k++) total += caught.kind[k].count;
    if (total > 0) {
        fprintf(f, "%sODE printed %ld message%s%s:\n", prefix, total, total == 1 ? "" : "s",
                caught.echo ? "" : " (held back: --verbose or IMPAX_VERBOSE=1 shows each)");
        for (int k = 0; k < caught.n; k++)
            fprintf(f, "%s  %ld x ODE Message %d: %s\n", prefix, caught.kind[k].count,
                    caught.kind[k].errnum, caught.kind[k].format);
        if (caught.others) fprintf(f, "%s  %ld of further kinds\n", prefix, caught.others);
    }
    pthread_mutex_unlock(&caught.lock);
    return total;
}
