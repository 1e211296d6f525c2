/* ODE's messages (dMessage: "LCP internal error, s <= 0 (s=%.4e)" and the like, which ODE prints
   to stderr as they happen, once a step in a world whose LCP fails every step), caught with
   dSetMessageHandler and counted per kind: the run they came from (a label the host sets, such
   as the model of one of ab's runs), the message's number and its format. The format comes with
   its arguments (a va_list), so each kind keeps the text of its first message, filled in. A
   host then reports each kind once, with its count. Process-wide, as ODE's handler is. */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "impax/ode.h"

#define MAX_KINDS 64
#define LABEL_SIZE 64
#define TEXT_SIZE 256

static struct {
    pthread_mutex_t lock;
    int echo;
    char label[LABEL_SIZE]; /* the run messages are counted under now; "" for none */
    int n;
    struct {
        char label[LABEL_SIZE];
        int errnum;
        const char *format;    /* ODE's format strings are literals: the pointer names the kind */
        char first[TEXT_SIZE]; /* the first message of the kind, its arguments filled in */
        long count;
    } kind[MAX_KINDS];
    long others; /* messages of kinds beyond MAX_KINDS */
} caught = {.lock = PTHREAD_MUTEX_INITIALIZER};

static void on_message(int errnum, const char *msg, va_list ap)
{
    char text[TEXT_SIZE];
    vsnprintf(text, sizeof text, msg, ap);
    pthread_mutex_lock(&caught.lock);
    int k = 0;
    while (k < caught.n && !(caught.kind[k].errnum == errnum && caught.kind[k].format == msg &&
                             strcmp(caught.kind[k].label, caught.label) == 0))
        k++;
    if (k < caught.n) {
        caught.kind[k].count++;
    } else if (caught.n < MAX_KINDS) {
        snprintf(caught.kind[k].label, LABEL_SIZE, "%s", caught.label);
        caught.kind[k].errnum = errnum;
        caught.kind[k].format = msg;
        snprintf(caught.kind[k].first, TEXT_SIZE, "%s", text);
        caught.kind[k].count = 1;
        caught.n++;
    } else {
        caught.others++;
    }
    if (caught.echo && caught.label[0]) /* as ODE prints it, with the run it came from */
        fprintf(stderr, "\nODE Message %d (%s): %s\n", errnum, caught.label, text);
    else if (caught.echo) fprintf(stderr, "\nODE Message %d: %s\n", errnum, text);
    pthread_mutex_unlock(&caught.lock);
}

void ipx_ode_capture_messages(int echo)
{
    pthread_mutex_lock(&caught.lock);
    caught.echo = echo;
    pthread_mutex_unlock(&caught.lock);
    dSetMessageHandler(on_message);
}

void ipx_ode_label_messages(const char *label)
{
    pthread_mutex_lock(&caught.lock);
    snprintf(caught.label, LABEL_SIZE, "%s", label ? label : "");
    pthread_mutex_unlock(&caught.lock);
}

long ipx_ode_report_messages(FILE *f, const char *prefix)
{
    pthread_mutex_lock(&caught.lock);
    long total = caught.others;
    for (int k = 0; k < caught.n; k++) total += caught.kind[k].count;
    if (total > 0) {
        fprintf(f, "%sODE printed %ld message%s%s:\n", prefix, total, total == 1 ? "" : "s",
                caught.echo ? "" : " (held back: --verbose or IMPAX_VERBOSE=1 shows each)");
        for (int k = 0; k < caught.n; k++) {
            const long count = caught.kind[k].count;
            fprintf(f, "%s  %s%s%ld x %s (ODE message %d%s)\n", prefix, caught.kind[k].label,
                    caught.kind[k].label[0] ? ": " : "", count, caught.kind[k].first,
                    caught.kind[k].errnum, count > 1 ? "; the first shown" : "");
        }
        if (caught.others) fprintf(f, "%s  %ld of further kinds\n", prefix, caught.others);
    }
    pthread_mutex_unlock(&caught.lock);
    return total;
}
