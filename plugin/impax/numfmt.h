/// Numbers as the `impax` command prints them: never "-0.000" (a tiny negative value that rounds
/// to zero prints as zero), "-" for NaN.
#ifndef IMPAX_CLI_NUMFMT_H
#define IMPAX_CLI_NUMFMT_H

#include <stddef.h>

/// Formats v with fmt (one floating conversion such as "%.3f" or "%+.4f") into buf; returns buf.
const char *cli_num(char *buf, size_t size, const char *fmt, double v);

#endif
