/* Contact-surface overrides from the params string: mu, e (ODE's bounce) and bounce_vel. */
#include "contact_params.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "world.h"

static const struct {
    const char *name;
    double lo, hi;
    const char *unit;
} keys[CONTACT_KEYS] = {
    [CONTACT_MU] = {"mu", 0.0, 10.0, ""},
    [CONTACT_E] = {"e", 0.0, 1.0, ""},
    [CONTACT_BOUNCE_VEL] = {"bounce_vel", 0.0, 100.0, " m/s"},
};

/* The key named by [name, name + n), or -1. */
static int find_key(const char *name, size_t n)
{
    for (int k = 0; k < CONTACT_KEYS; k++)
        if (strlen(keys[k].name) == n && strncmp(keys[k].name, name, n) == 0) return k;
    return -1;
}

int ipx_contact_param_range(const char *key, double *lo, double *hi)
{
    const int k = key ? find_key(key, strlen(key)) : -1;
    if (k < 0) return 0;
    if (lo) *lo = keys[k].lo;
    if (hi) *hi = keys[k].hi;
    return 1;
}

/* Moves *begin forward and *end back over blanks. */
static void trim(const char **begin, const char **end)
{
    while (*begin < *end && (**begin == ' ' || **begin == '\t')) (*begin)++;
    while (*end > *begin && ((*end)[-1] == ' ' || (*end)[-1] == '\t')) (*end)--;
}

/* The value [v, v + n) of key k into *out: 0, or -1 with a message naming the key. */
static int parse_value(int k, const char *v, size_t n, double *out, char *message, size_t message_size)
{
    char num[64];
    char *stop = NULL;
    double x = NAN;
    if (n > 0 && n < sizeof num) {
        memcpy(num, v, n);
        num[n] = '\0';
        x = strtod(num, &stop);
    }
    if (!stop || stop == num || *stop != '\0') {
        snprintf(message, message_size, "contact parameter %s: '%.*s' is not a number", keys[k].name, (int)n, v);
        return -1;
    }
    if (!isfinite(x) || x < keys[k].lo || x > keys[k].hi) {
        snprintf(message, message_size, "contact parameter %s = %g is out of range [%g, %g]%s", keys[k].name, x,
                 keys[k].lo, keys[k].hi, keys[k].unit);
        return -1;
    }
    *out = x;
    return 0;
}

/* Appends [item, end) to rest as one more comma-separated item. */
static int append_item(char *rest, size_t rest_size, size_t *used, const char *item, const char *end,
                       char *message, size_t message_size)
{
    const size_t n = (size_t)(end - item);
    if (*used + n + 2 > rest_size) {
        snprintf(message, message_size, "parameters too long (%zu characters at most)", rest_size - 1);
        return -1;
    }
    if (*used) rest[(*used)++] = ',';
    memcpy(rest + *used, item, n);
    rest[*used += n] = '\0';
    return 0;
}

int contact_params_split(const char *text, contact_override *out, char *rest, size_t rest_size,
                         char *message, size_t message_size)
{
    memset(out, 0, sizeof *out);
    size_t used = 0;
    rest[0] = '\0';
    for (const char *item = text; item && *item;) {
        const char *comma = strchr(item, ','), *end = comma ? comma : item + strlen(item);
        const char *eq = memchr(item, '=', (size_t)(end - item));
        int k = -1;
        if (eq) {
            const char *kb = item, *ke = eq;
            trim(&kb, &ke);
            k = find_key(kb, (size_t)(ke - kb));
        }
        if (k >= 0) {
            const char *vb = eq + 1, *ve = end;
            trim(&vb, &ve);
            if (parse_value(k, vb, (size_t)(ve - vb), &out->value[k], message, message_size) != 0) return -1;
            out->set[k] = 1;
        } else if (append_item(rest, rest_size, &used, item, end, message, message_size) != 0) {
            return -1;
        }
        item = comma ? comma + 1 : end;
    }
    return 0;
}

void contact_params_apply(const contact_override *o, dContact *c)
{
    if (o->set[CONTACT_MU]) c->surface.mu = c->surface.mu2 = o->value[CONTACT_MU];
    if (o->set[CONTACT_E]) c->surface.bounce = o->value[CONTACT_E];
    if (o->set[CONTACT_BOUNCE_VEL]) c->surface.bounce_vel = o->value[CONTACT_BOUNCE_VEL];
}
