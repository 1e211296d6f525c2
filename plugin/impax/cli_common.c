#define _POSIX_C_SOURCE 200809L /* strtok_r */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "impax/registry.h"

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
        fprintf(stderr, "impax: %s needs a finite number of seconds > 0, not '%s'\n", option, text);
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
        fprintf(stderr, "impax: %s needs a number in [%g, %g], not '%s'\n", option, lo, hi, text);
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

int cli_parse_models(const char *cmd, const char *option, char *list, const char **names, int *n, int max)
{
    *n = 0;
    char *save = NULL;
    for (char *tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        if (strcmp(tok, "ode") != 0 && !ipx_model_find(tok)) {
            char accepted[256];
            ipx_model_names(accepted, sizeof accepted);
            fprintf(stderr, "impax %s: unknown model '%s' (accepted: ode, %s)\n", cmd, tok, accepted);
            return -1;
        }
        if (*n == max) {
            fprintf(stderr, "impax %s: at most %d models\n", cmd, max);
            return -1;
        }
        names[(*n)++] = tok;
    }
    if (*n == 0) fprintf(stderr, "impax %s: %s names no model\n", cmd, option);
    return *n ? 0 : -1;
}
