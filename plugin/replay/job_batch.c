/* The growable byte buffer a job's result comes back in (job_batch.h). */
#include "job_batch.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cli_buf_reserve(cli_buf *buf, size_t capacity)
{
    if (capacity <= buf->capacity) return 0;
    size_t grown_capacity = buf->capacity ? buf->capacity : 256;
    while (grown_capacity < capacity) grown_capacity *= 2;
    char *grown = realloc(buf->data, grown_capacity);
    if (!grown) return -1;
    buf->data = grown;
    buf->capacity = grown_capacity;
    return 0;
}

int cli_buf_append(cli_buf *buf, const void *data, size_t size)
{
    if (cli_buf_reserve(buf, buf->size + size) != 0) return -1;
    if (size) memcpy(buf->data + buf->size, data, size);
    buf->size += size;
    return 0;
}

int cli_buf_printf(cli_buf *buf, const char *format, ...)
{
    char small[256];
    va_list ap;
    va_start(ap, format);
    const int n = vsnprintf(small, sizeof small, format, ap);
    va_end(ap);
    if (n < 0) return -1;
    if ((size_t)n < sizeof small) return cli_buf_append(buf, small, (size_t)n);
    char *big = malloc((size_t)n + 1);
    if (!big) return -1;
    va_start(ap, format);
    vsnprintf(big, (size_t)n + 1, format, ap);
    va_end(ap);
    const int rc = cli_buf_append(buf, big, (size_t)n);
    free(big);
    return rc;
}

void cli_buf_free(cli_buf *buf)
{
    free(buf->data);
    memset(buf, 0, sizeof *buf);
}
