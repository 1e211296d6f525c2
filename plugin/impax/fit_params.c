/* `impax fit`'s parameter list: which keys, their bounds and start values, and the params
   string of a candidate. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fit.h"
#include "impax/registry.h"

/* The value of key in "k=v,k=v" (spaces allowed around items); 1 if found. A later item wins,
   as in ipx_params_parse. */
static int params_lookup(const char *text, const char *key, double *value)
{
    int found = 0;
    const size_t key_len = strlen(key);
    for (const char *p = text; p && *p;) {
        while (*p == ' ' || *p == ',') p++;
        const char *eq = strchr(p, '=');
        const char *end = strchr(p, ',');
        if (!end) end = p + strlen(p);
        if (eq && eq < end) {
            const char *k_end = eq;
            while (k_end > p && k_end[-1] == ' ') k_end--;
            if ((size_t)(k_end - p) == key_len && strncmp(p, key, key_len) == 0) {
                *value = strtod(eq + 1, NULL);
                found = 1;
            }
        }
        p = end;
    }
    return found;
}

/* Bounds and default of one key for model: a contact key (every model, ode too) or one of the
   model's real-valued parameters. 0, or -1 with a message. */
static int key_range(const char *key, const char *model, double *lo, double *hi, double *def,
                     char *message, size_t message_size)
{
    if (ipx_contact_param_range(key, lo, hi)) {
        *def = NAN;
        return 0;
    }
    const ipx_model *m = strcmp(model, "ode") == 0 ? NULL : ipx_model_find(model);
    const int i = m ? ipx_param_index(m, key) : -1;
    if (i < 0) {
        snprintf(message, message_size,
                 "cannot fit '%s': not a contact key (mu, e, bounce_vel) nor a parameter of model %s",
                 key, model);
        return -1;
    }
    const ipx_param_def *d = &m->params[i];
    if (d->integer) {
        snprintf(message, message_size, "cannot fit '%s' of model %s: it takes whole numbers only", key,
                 model);
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
    if (colon == text || *colon != ':' || *end != '\0' || errno != 0 || !isfinite(a) || !isfinite(b) ||
        !(a < b) || a < *lo || b > *hi) {
        snprintf(message, message_size, "bounds of '%s' must be LO:HI with %g <= LO < HI <= %g, not '%s'",
                 key, *lo, *hi, text);
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
    char item[128];
    for (const char *p = text; *p;) {
        const char *end = strchr(p, ',');
        const size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len == 0 || len >= sizeof item) {
            snprintf(message, message_size, "--fit needs names separated by commas, not '%s'", text);
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
            (eq && parse_bounds(eq + 1, item, &spec->lo[k], &spec->hi[k], message, message_size) != 0))
            return -1;
        strcpy(spec->name[k], item);
        double start;
        if (!params_lookup(base_params, item, &start)) start = def;
        if (!(start >= spec->lo[k] && start <= spec->hi[k])) start = 0.5 * (spec->lo[k] + spec->hi[k]);
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
    for (const char *p = base ? base : ""; *p;) {
        while (*p == ' ' || *p == ',') p++;
        const char *end = strchr(p, ',');
        const size_t len = end ? (size_t)(end - p) : strlen(p);
        const char *eq = memchr(p, '=', len);
        int fitted = 0;
        for (int k = 0; eq && k < spec->n; k++) {
            const char *k_end = eq;
            while (k_end > p && k_end[-1] == ' ') k_end--;
            fitted |= (size_t)(k_end - p) == strlen(spec->name[k]) &&
                      strncmp(p, spec->name[k], (size_t)(k_end - p)) == 0;
        }
        if (len > 0 && !fitted && used < out_size)
            used += (size_t)snprintf(out + used, out_size - used, "%s%.*s", used ? "," : "", (int)len, p);
        p += len;
    }
    for (int k = 0; k < spec->n && used < out_size; k++)
        used += (size_t)snprintf(out + used, out_size - used, "%s%s=%.*g", used ? "," : "", spec->name[k],
                                 digits, x[k]);
}
