/* `impax sweep`'s spec file read: the lines, the world and model lines, the defaults; the value
   lines are sweep_values.c's, the checks sweep_check.c's. */
#define _POSIX_C_SOURCE 200809L /* getline, strdup, glob */
#include "sweep_spec.h"

#include <errno.h>
#include <glob.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "impax/registry.h"

/* s without its comment and surrounding blanks (in place). */
static char *trim(char *s)
{
    char *hash = strchr(s, '#');
    if (hash) *hash = '\0';
    while (*s == ' ' || *s == '\t') s++;
    size_t n = strlen(s);
    while (n > 0 && strchr(" \t\r\n", s[n - 1])) s[--n] = '\0';
    return s;
}

/* Loads one world file matched by a world line. */
static int add_world_file(sweep_spec *spec, const char *path, const char *name, int line,
                          char *message, size_t message_size)
{
    for (int i = 0; i < spec->n_worlds; i++)
        if (strcmp(spec->world[i].path, path) == 0) {
            snprintf(message, message_size, "world '%s' is named twice (lines %d and %d)", name,
                     spec->world[i].line, line);
            return -1;
        }
    sweep_world *grown =
        sweep_grow(spec->world, (size_t)spec->n_worlds + 1, sizeof *grown, message, message_size);
    if (!grown) return -1;
    spec->world = grown;
    sweep_world *w = &spec->world[spec->n_worlds];
    char diag[512];
    *w = (sweep_world){.name = strdup(name), .path = strdup(path), .line = line};
    if (w->name && w->path) w->scene = cli_load_scene_quiet(path, diag, sizeof diag);
    else snprintf(diag, sizeof diag, "out of memory");
    spec->n_worlds++; /* freed with the spec even when it failed */
    if (!w->scene) snprintf(message, message_size, "world '%s' does not load: %s", name, diag);
    return w->scene ? 0 : 1;
}

/* A world line: a file or a glob, relative to the spec's directory. */
static int add_worlds(sweep_spec *spec, const char *dir, const char *pattern, int line,
                      char *message, size_t message_size)
{
    char full[4096];
    const int relative = pattern[0] != '/';
    const int prefix = relative ? snprintf(full, sizeof full, "%s/", dir) : 0;
    if (prefix < 0 || snprintf(full + prefix, sizeof full - (size_t)prefix, "%s", pattern) >=
                          (int)(sizeof full) - prefix) {
        snprintf(message, message_size, "world path too long: '%s'", pattern);
        return -1;
    }
    glob_t g;
    const int found = glob(full, 0, NULL, &g);
    if (found != 0) {
        if (found == GLOB_NOMATCH)
            snprintf(message, message_size, "no world file matches '%.300s' (looked for %.500s)",
                     pattern, full);
        else snprintf(message, message_size, "cannot list '%.500s'", full);
        if (found != GLOB_NOMATCH) globfree(&g);
        return -1;
    }
    int rc = 0;
    for (size_t i = 0; i < g.gl_pathc && rc == 0; i++)
        rc = add_world_file(spec, g.gl_pathv[i], g.gl_pathv[i] + prefix, line, message,
                            message_size);
    globfree(&g);
    return rc;
}

/* A model line: NAME, then optionally its own key=value,... */
static int add_model(sweep_spec *spec, char *text, int line, char *message, size_t message_size)
{
    char *params = text + strcspn(text, " \t");
    if (*params) *params++ = '\0';
    while (*params == ' ' || *params == '\t') params++;
    const ipx_model *m = strcmp(text, "ode") == 0 ? NULL : ipx_model_find(text);
    if ((!m && strcmp(text, "ode") != 0) || strlen(text) >= sizeof spec->model->name) {
        char accepted[256];
        ipx_model_names(accepted, sizeof accepted);
        snprintf(message, message_size, "unknown model '%s' (accepted: ode, %s)", text, accepted);
        return -1;
    }
    for (int i = 0; i < spec->n_models; i++)
        if (strcmp(spec->model[i].name, text) == 0 && strcmp(spec->model[i].params, params) == 0) {
            snprintf(message, message_size, "model %s%s%s is named twice (lines %d and %d)", text,
                     *params ? " " : "", params, spec->model[i].line, line);
            return -1;
        }
    sweep_model *grown =
        sweep_grow(spec->model, (size_t)spec->n_models + 1, sizeof *grown, message, message_size);
    if (!grown) return -1;
    spec->model = grown;
    sweep_model *model = &spec->model[spec->n_models];
    *model = (sweep_model){
        .params = strdup(params), .has_seed = m && ipx_param_index(m, "seed") >= 0, .line = line};
    strcpy(model->name, text);
    if (!model->params) {
        snprintf(message, message_size, "out of memory");
        return -1;
    }
    spec->n_models++;
    return 0;
}

static int set_duration(sweep_spec *spec, const char *text, char *message, size_t message_size)
{
    char *end;
    errno = 0;
    const double v = strtod(text, &end);
    if (end == text || *end != '\0' || errno != 0 || !isfinite(v) || v <= 0) {
        snprintf(message, message_size, "duration needs a finite number of seconds > 0, not '%s'",
                 text);
        return -1;
    }
    spec->duration_s = v;
    return 0;
}

static int parse_line(sweep_spec *spec, const char *dir, char *text, int line, char *message,
                      size_t message_size)
{
    char *eq = strchr(text, '=');
    if (!eq) {
        snprintf(message, message_size, "expected KEY = VALUE, not '%s'", text);
        return -1;
    }
    *eq = '\0';
    char *key = trim(text), *value = trim(eq + 1);
    if (!*key || !*value) {
        snprintf(message, message_size, "%s needs a value (KEY = VALUE)", *key ? key : "a line");
        return -1;
    }
    if (strcmp(key, "world") == 0) return add_worlds(spec, dir, value, line, message, message_size);
    if (strcmp(key, "model") == 0) return add_model(spec, value, line, message, message_size);
    if (strcmp(key, "duration") == 0) return set_duration(spec, value, message, message_size);
    if (strcmp(key, "seed") == 0)
        return sweep_parse_seeds(spec, value, line, message, message_size);
    if (strcmp(key, "perturb") == 0)
        return sweep_parse_perturb(spec, value, line, message, message_size);
    if (strcmp(key, "record") == 0)
        return sweep_parse_record(spec, value, line, message, message_size);
    return sweep_parse_axis(spec, key, value, line, message, message_size);
}

/* What a spec without seed or record lines gets. */
static int set_defaults(sweep_spec *spec, char *message, size_t message_size)
{
    if (spec->n_seeds == 0 && sweep_parse_seeds(spec, "0", 0, message, message_size) != 0)
        return -1;
    if (spec->n_records == 0 && sweep_parse_record(spec, "ke_change, impact_events, fallbacks", 0,
                                                   message, message_size) != 0)
        return -1;
    return 0;
}

static int read_lines(sweep_spec *spec, FILE *f, const char *dir, char *message,
                      size_t message_size)
{
    char *buf = NULL, problem[1024];
    size_t cap = 0;
    int line = 0, rc = 0;
    while (rc == 0 && getline(&buf, &cap, f) >= 0) {
        char *text = trim(buf);
        line++;
        if (*text && (rc = parse_line(spec, dir, text, line, problem, sizeof problem)) != 0)
            snprintf(message, message_size, "%s:%d: %s", spec->path, line, problem);
    }
    free(buf);
    if (rc == 0 && (spec->n_worlds == 0 || spec->n_models == 0)) {
        snprintf(message, message_size, "%s: names no %s (%s)", spec->path,
                 spec->n_worlds ? "model" : "world",
                 spec->n_worlds ? "model = NAME [key=value,...]" : "world = FILE or GLOB");
        rc = -1;
    }
    if (rc == 0 && set_defaults(spec, problem, sizeof problem) != 0) {
        snprintf(message, message_size, "%s: %s", spec->path, problem);
        rc = -1;
    }
    return rc < 0 ? 2 : rc;
}

int sweep_spec_load(const char *path, sweep_spec *spec, char *message, size_t message_size)
{
    memset(spec, 0, sizeof *spec);
    spec->path = strdup(path);
    FILE *f = spec->path ? fopen(path, "r") : NULL;
    if (!f) {
        snprintf(message, message_size, "cannot read the spec '%s'", path);
        sweep_spec_free(spec);
        return 1;
    }
    char dir[4096];
    const char *slash = strrchr(path, '/');
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) : 1, slash ? path : ".");
    if (slash == path) snprintf(dir, sizeof dir, "/");
    int rc = read_lines(spec, f, dir, message, message_size);
    fclose(f);
    if (rc == 0 && sweep_spec_check(spec, message, message_size) != 0) rc = 2;
    if (rc != 0) sweep_spec_free(spec);
    return rc;
}
