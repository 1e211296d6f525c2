#include "numfmt.h"

#include <math.h>
#include <stdio.h>

/* No digit 1-9 before an exponent: the text is a zero. */
static int reads_zero(const char *text)
{
    for (const char *p = text; *p && *p != 'e' && *p != 'E'; p++)
        if (*p >= '1' && *p <= '9') return 0;
    return 1;
}

const char *cli_num(char *buf, size_t size, const char *fmt, double v)
{
    if (isnan(v)) {
        snprintf(buf, size, "-");
        return buf;
    }
    snprintf(buf, size, fmt, v);
    if (signbit(v) && reads_zero(buf)) snprintf(buf, size, fmt, 0.0);
    return buf;
}
