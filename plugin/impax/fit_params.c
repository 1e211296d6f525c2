/* `impax fit`'s parameter list: which keys, their bounds and start values, and the params
   string of a candidate. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fit.h"
#include "impax/registry.h"

/* The value of key in a parameter list (ipx_params_next's rules); 1 if found. A later item wins,
   as in ipx_params_parse. A malformed list stops the search: the replay reports it. */
static int params_lookup(const char *text, const char *key, double *value)
{
    int found = 0;
    const char *cursor = text;
    ipx_param_item item;
    char message[256];
    while (text && ipx_params_next(text, &cursor, &item, message, sizeof message) == 1)
        if (ipx_param_item_is(&item, key) &&
            ipx_param_number(&item, value, message, sizeof message) == IPX_OK)
            found = 1;
    return found;
}

/* Bounds and default of one key for model: a contact key or the body key (every model, ode
   too) or one of the model's real-valued parameters. 0, or -1 with a message. */
static int key_range(const char *key, const char *model, double *lo, double *hi, double *def,
                     char *message, size_t message_size)
{
    if (ipx_contact_param_range(key, lo, hi)) {
        *def = NAN;
        return 0;
    }
    if (ipx_body_param_range(key, lo, hi)) {
        *def = 1.0; /* the world's own inertia */
        return 0;
    }
    const ipx_model *m = strcmp(model, "ode") == 0 ? NULL : ipx_model_find(model);
    const int i = m ? ipx_param_index(m, key) : -1;
    if (i < 0) {
        snprintf(
            message, message_size,
            "cannot fit '%s': not a contact key (mu, e, bounce_vel, rolling, spinning), the body "
            "key inertia_scale nor a parameter of model %s",
            key, model);
        return -1;
    }
    const ipx_param_def *d = &m->params[i];
    if (d->integer) {
        snprintf(message, message_size, "cannot fit '%s' of model %s: it takes whole numbers only",
                 key, model);
        return -1;
    }
    *lo = d->min;
    *hi = d->max;
    *def = d->def;
    return 0;
}

/* "lo:hi" after a key's '=': both finite, lo < hi, inside [*lo, *hi]. */
static int parse_bounds(const char *text, const char *key, double *lo, double *hi, char *message,
                        size_t message_size)
{
    char *colon, *end;
    errno = 0;
    const double a = strtod(text, &colon);
    const double b = *colon == ':' ? strtod(colon + 1, &end) : NAN;
    if (colon == text || *colon != ':' || *end != '\0' || errno != 0 || !isfinite(a) ||
        !isfinite(b) || !(a < b) || a < *lo || b > *hi) {
        snprintf(message, message_size,
                 "bounds of '%s' must be LO:HI with %g <= LO < HI <= %g, not '%s'", key, *lo, *hi,
                 text);
        return -1;
    }
    *lo = a;
    *hi = b;
    return 0;
}

int cli_fit_spec_parse(cli_fit_spec *spec, const char *text, const char *model,
                       const char *base_params, char *message, size_t message_size)
{
    memset(spec, 0, sizeof *spec);
    const char *cursor = base_params;
    ipx_param_item base_item;
    int more;
    while (base_params &&
           (more = ipx_params_next(base_params, &cursor, &base_item, message, message_size)) != 0)
        if (more < 0) return -1; /* the list's own rules first: the candidates are built from it */
    char item[128];
    for (const char *p = text; *p;) {
        const char *end = strchr(p, ',');
        const size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len == 0 || len >= sizeof item) {
            snprintf(message, message_size, "--fit needs names separated by commas, not '%s'",
                     text);
            return -1;
        }
        if (spec->n == CLI_FIT_MAX) {
            snprintf(message, message_size, "--fit takes at most %d parameters", CLI_FIT_MAX);
            return -1;
        }
        memcpy(item, p, len);
        item[len] = '\0';
        char *eq = strchr(item, '=');
        if (eq) *eq = '\0';
        const int k = spec->n;
        if (strlen(item) >= sizeof spec->name[k]) {
            snprintf(message, message_size, "--fit: no parameter is called '%s'", item);
            return -1;
        }
        for (int j = 0; j < k; j++)
            if (strcmp(spec->name[j], item) == 0) {
                snprintf(message, message_size, "--fit names '%s' twice", item);
                return -1;
            }
        double def;
        if (key_range(item, model, &spec->lo[k], &spec->hi[k], &def, message, message_size) != 0 ||
            (eq &&
             parse_bounds(eq + 1, item, &spec->lo[k], &spec->hi[k], message, message_size) != 0))
            return -1;
        strcpy(spec->name[k], item);
        double start;
        if (!params_lookup(base_params, item, &start)) start = def;
        if (!(start >= spec->lo[k] && start <= spec->hi[k]))
            start = 0.5 * (spec->lo[k] + spec->hi[k]);
        spec->start[k] = start;
        spec->n++;
        p += len + (end ? 1 : 0);
    }
    if (spec->n == 0) {
        snprintf(message, message_size, "--fit needs at least one parameter name");
        return -1;
    }
    return 0;
}

void cli_fit_params(const cli_fit_spec *spec, const double *x, const char *base, int digits,
                    char *out, size_t out_size)
{
    size_t used = 0;
    out[0] = '\0';
    /* base's items except the fitted keys, then the fitted values */
    const char *cursor = base;
    ipx_param_item item;
    char message[256];
    while (base && ipx_params_next(base, &cursor, &item, message, sizeof message) == 1) {
        int fitted = 0;
        for (int k = 0; k < spec->n; k++) fitted |= ipx_param_item_is(&item, spec->name[k]);
        if (!fitted && used < out_size)
            used += (size_t)snprintf(out + used, out_size - used, "%s%.*s=%.*s", used ? "," : "",
                                     (int)item.key_len, item.key, (int)item.value_len, item.value);
    }
    for (int k = 0; k < spec->n && used < out_size; k++)
        used += (size_t)snprintf(out + used, out_size - used, "%s%s=%.*g", used ? "," : "",
                                 spec->name[k], digits, x[k]);
}
