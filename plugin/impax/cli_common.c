#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"

static void print_diag(void *user, int is_error, const char *line)
{
    (void)user;
    (void)is_error;
    fprintf(stderr, "%s\n", line);
}

ipx_scene *cli_load_scene(const char *path) { return ipx_scene_load(path, print_diag, NULL); }

int cli_parse_seconds(const char *text, const char *option, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    if (end == text || *end != '\0' || errno != 0 || !isfinite(v) || v <= 0) {
        fprintf(stderr, "impax: %s needs a finite number of seconds > 0, not '%s'\n", option, text);
        return -1;
    }
    *out = v;
    return 0;
}

int cli_parse_int(const char *text, const char *option, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (end == text || *end != '\0' || errno != 0 || v < lo || v > hi) {
        fprintf(stderr, "impax: %s needs an integer in [%ld, %ld], not '%s'\n", option, lo, hi, text);
        return -1;
    }
    *out = v;
    return 0;
}

int cli_usage_error(const char *cmd, const char *message)
{
    fprintf(stderr, "impax %s: %s (see impax %s --help)\n", cmd, message, cmd);
    return CLI_USAGE;
}
