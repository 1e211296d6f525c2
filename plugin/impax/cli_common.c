#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"

static const char *command = "impax"; /* "impax CMD" once main has chosen the command */

void cli_set_command(const char *name)
{
    static char buf[64];
    snprintf(buf, sizeof buf, "impax %s", name);
    command = buf;
}

static void print_diag(void *user, int is_error, const char *line)
{
    (void)user;
    (void)is_error;
    fprintf(stderr, "%s\n", line);
}

ipx_scene *cli_load_scene(const char *path) { return ipx_scene_load(path, print_diag, NULL); }

typedef struct first_error {
    char *text;
    size_t size;
} first_error;

static void keep_first_error(void *user, int is_error, const char *line)
{
    first_error *e = user;
    if (is_error && !e->text[0]) snprintf(e->text, e->size, "%s", line);
}

ipx_scene *cli_load_scene_quiet(const char *path, char *message, size_t message_size)
{
    first_error e = {message, message_size};
    message[0] = '\0';
    ipx_scene *scene = ipx_scene_load(path, keep_first_error, &e);
    if (!scene && !message[0]) snprintf(message, message_size, "%s: cannot load the world", path);
    return scene;
}

int cli_parse_seconds(const char *text, const char *option, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    if (end == text || *end != '\0' || errno != 0 || !isfinite(v) || v <= 0) {
        fprintf(stderr, "%s: %s needs a finite number of seconds > 0, not '%s'\n", command, option,
                text);
        return -1;
    }
    *out = v;
    return 0;
}

int cli_parse_real(const char *text, const char *option, double lo, double hi, double *out)
{
    char *end;
    errno = 0;
    const double v = strtod(text, &end);
    if (end == text || *end != '\0' || errno != 0 || !(v >= lo && v <= hi)) {
        fprintf(stderr, "%s: %s needs a number in [%g, %g], not '%s'\n", command, option, lo, hi,
                text);
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
        fprintf(stderr, "%s: %s needs an integer in [%ld, %ld], not '%s'\n", command, option, lo,
                hi, text);
        return -1;
    }
    *out = v;
    return 0;
}

int cli_step_count(double duration_s, double step_s, long *n, char *message, size_t message_size)
{
    const double steps = ceil(duration_s / step_s - 1e-9);
    if (!(steps >= 0 && steps < (double)LONG_MAX)) {
        snprintf(message, message_size, "a duration of %g s is %g steps of %g s, more than %ld",
                 duration_s, steps, step_s, LONG_MAX);
        return -1;
    }
    *n = (long)steps;
    return 0;
}

int cli_usage_error(const char *cmd, const char *message)
{
    fprintf(stderr, "impax %s: %s (see impax %s --help)\n", cmd, message, cmd);
    return CLI_USAGE;
}
