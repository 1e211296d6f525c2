#include "model_entry.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "impax/registry.h"

enum { MAX_SETTINGS = 32 };

/* One entry's settings in a form two spellings can be compared in: per key its last value. */
typedef struct settings {
    int n;
    char key[MAX_SETTINGS][48];
    char text[MAX_SETTINGS][48]; /* the value as given */
    double value[MAX_SETTINGS];  /* as a number (compared when both read as numbers) */
    int numeric[MAX_SETTINGS];
} settings;

static int set_key(settings *s, const char *item, size_t len)
{
    const char *eq = memchr(item, '=', len);
    if (!eq || eq == item || eq == item + len - 1) return -1;
    const size_t key_len = (size_t)(eq - item), value_len = len - key_len - 1;
    if (key_len >= sizeof s->key[0] || value_len >= sizeof s->text[0]) return -1;
    int i = 0;
    while (i < s->n && !(strlen(s->key[i]) == key_len && strncmp(s->key[i], item, key_len) == 0))
        i++;
    if (i == MAX_SETTINGS) return -1;
    if (i == s->n) s->n++;
    snprintf(s->key[i], sizeof s->key[i], "%.*s", (int)key_len, item);
    snprintf(s->text[i], sizeof s->text[i], "%.*s", (int)value_len, eq + 1);
    char *end;
    s->value[i] = strtod(s->text[i], &end);
    s->numeric[i] = end != s->text[i] && *end == '\0';
    return 0;
}

/* The settings of entry e (its params, key=value,...). -1 names the bad item in why. */
static int read_settings(const cli_model_entry *e, settings *s, char *why, size_t why_size)
{
    s->n = 0;
    for (const char *p = e->params; *p;) {
        const char *end = strchr(p, ',');
        const size_t len = end ? (size_t)(end - p) : strlen(p);
        if (set_key(s, p, len) != 0) {
            snprintf(why, why_size, "'%.*s' in '%s' is not KEY=VALUE", (int)len, p, e->label);
            return -1;
        }
        p += len + (end != NULL);
    }
    return 0;
}

static int same_value(const settings *a, int i, const settings *b, int j)
{
    return a->numeric[i] && b->numeric[j] ? a->value[i] == b->value[j]
                                          : strcmp(a->text[i], b->text[j]) == 0;
}

static int same_settings(const settings *a, const settings *b)
{
    if (a->n != b->n) return 0;
    for (int i = 0; i < a->n; i++) {
        int j = 0;
        while (j < b->n && strcmp(a->key[i], b->key[j]) != 0) j++;
        if (j == b->n || !same_value(a, i, b, j)) return 0;
    }
    return 1;
}

/* Splits [text, text + len) into e: NAME, then ':'-separated settings. -1 with why. */
static int split_entry(const char *text, size_t len, cli_model_entry *e, char *why, size_t why_size)
{
    if (len >= sizeof e->label) {
        snprintf(why, why_size, "the entry '%.40s...' is longer than %zu characters", text,
                 sizeof e->label - 1);
        return -1;
    }
    snprintf(e->label, sizeof e->label, "%.*s", (int)len, text);
    const char *colon = strchr(e->label, ':');
    const size_t name_len = colon ? (size_t)(colon - e->label) : len;
    if (name_len >= sizeof e->model) {
        snprintf(why, why_size, "unknown model '%s'", e->label);
        return -1;
    }
    snprintf(e->model, sizeof e->model, "%.*s", (int)name_len, e->label);
    snprintf(e->params, sizeof e->params, "%s", colon ? colon + 1 : "");
    for (char *p = e->params; *p; p++)
        if (*p == ':') *p = ',';
    if (colon && !e->params[0]) {
        snprintf(why, why_size, "'%s' has a ':' but no KEY=VALUE after it", e->label);
        return -1;
    }
    if (strcmp(e->model, "ode") != 0 && !ipx_model_find(e->model)) {
        char accepted[256];
        ipx_model_names(accepted, sizeof accepted);
        snprintf(why, why_size, "unknown model '%s' in '%s' (accepted: ode, %s)", e->model,
                 e->label, accepted);
        return -1;
    }
    return 0;
}

/* -1 with why if entries[n] repeats an earlier entry. */
static int check_unique(const cli_model_entry *entries, int n, char *why, size_t why_size)
{
    settings mine, theirs;
    if (read_settings(&entries[n], &mine, why, why_size) != 0) return -1;
    for (int i = 0; i < n; i++) {
        if (strcmp(entries[i].model, entries[n].model) != 0) continue;
        if (read_settings(&entries[i], &theirs, why, why_size) == 0 &&
            same_settings(&mine, &theirs)) {
            if (strcmp(entries[i].label, entries[n].label) == 0)
                snprintf(why, why_size, "'%s' is listed twice", entries[n].label);
            else
                snprintf(why, why_size, "'%s' is listed twice (also as '%s')", entries[n].label,
                         entries[i].label);
            return -1;
        }
    }
    return 0;
}

int cli_parse_model_entries(const char *cmd, const char *option, const char *list,
                            cli_model_entry *entries, int *n, int max)
{
    char why[512] = "";
    *n = 0;
    for (const char *p = list; *p && !why[0];) {
        const char *end = strchr(p, ',');
        const size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len > 0 && *n == max)
            snprintf(why, sizeof why, "%s lists more than %d models", option, max);
        else if (len > 0 && split_entry(p, len, &entries[*n], why, sizeof why) == 0 &&
                 check_unique(entries, *n, why, sizeof why) == 0)
            ++*n;
        p += len + (end != NULL);
    }
    if (!why[0] && *n == 0) snprintf(why, sizeof why, "%s names no model", option);
    if (why[0]) fprintf(stderr, "impax %s: %s\n", cmd, why);
    return why[0] ? -1 : 0;
}

const char *cli_model_entry_params(const ipx_scene *scene, const char *params,
                                   const cli_model_entry *e, char *buf, size_t size)
{
    if (!e->params[0]) return params;
    const char *world_model = ipx_scene_model(scene);
    const char *base = params                                              ? params
                       : world_model && strcmp(world_model, e->model) == 0 ? ipx_scene_params(scene)
                                                                           : "";
    if (!base) base = "";
    snprintf(buf, size, "%s%s%s", base, base[0] ? "," : "", e->params);
    return buf;
}
