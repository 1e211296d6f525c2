/* The fuzz targets' one assertion: a promise of the library that an input broke is printed with
   its values, then abort() so that libFuzzer keeps the input as a crash file. */
#ifndef IMPAX_FUZZ_PROMISE_H
#define IMPAX_FUZZ_PROMISE_H

#include <stdio.h>
#include <stdlib.h>

#define PROMISE(cond, ...)                                   \
    do {                                                     \
        if (!(cond)) {                                       \
            fprintf(stderr, "broken promise (%s): ", #cond); \
            fprintf(stderr, __VA_ARGS__);                    \
            fputc('\n', stderr);                             \
            abort();                                         \
        }                                                    \
    } while (0)

/* A message: not empty, one line, no control character (user text is quoted with ipx_printable). */
static inline void promise_message(const char *what, const char *message)
{
    PROMISE(message && message[0], "%s without a message", what);
    for (const char *c = message; *c; c++)
        PROMISE((unsigned char)*c >= 0x20 && *c != 0x7f,
                "%s: message '%s' has control character 0x%02x", what, message, (unsigned char)*c);
}

#endif
