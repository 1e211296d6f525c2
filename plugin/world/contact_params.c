/* Contact-surface overrides from the params string: mu, e (ODE's bounce), bounce_vel, and the
   rolling and spinning friction of ODE's dContactRolling. */
#include "contact_params.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "impax/registry.h"
#include "world.h"

static const struct {
    const char *name;
    double lo, hi;
    const char *unit;
} keys[CONTACT_KEYS] = {
    [CONTACT_MU] = {"mu", 0.0, 10.0, ""},
    [CONTACT_E] = {"e", 0.0, 1.0, ""},
    [CONTACT_BOUNCE_VEL] = {"bounce_vel", 0.0, 100.0, " m/s"},
    [CONTACT_ROLLING] = {"rolling", 0.0, 1.0, " m"},
    [CONTACT_SPINNING] = {"spinning", 0.0, 1.0, " m"},
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

/* The value of item for key k into *out: 0, or -1 with a message naming the key and its range. */
static int parse_value(int k, const ipx_param_item *item, double *out, char *message,
                       size_t message_size)
{
    double x;
    char why[IPX_MESSAGE_SIZE];
    if (ipx_param_number(item, &x, why, sizeof why) != IPX_OK) {
        snprintf(message, message_size, "contact %s", why);
        return -1;
    }
    if (!isfinite(x) || x < keys[k].lo || x > keys[k].hi) {
        snprintf(message, message_size, "contact parameter %s = %g is out of range [%g, %g]%s",
                 keys[k].name, x, keys[k].lo, keys[k].hi, keys[k].unit);
        return -1;
    }
    *out = x;
    return 0;
}

/* One contact key of item into the override: 1, 0 if item is not one, -1 with a message. */
static int take_contact_key(void *user, const ipx_param_item *item, char *message,
                            size_t message_size)
{
    contact_override *out = user;
    const int k = find_key(item->key, item->key_len);
    if (k < 0) return 0;
    if (parse_value(k, item, &out->value[k], message, message_size) != 0) return -1;
    out->set[k] = 1;
    return 1;
}

int contact_params_split(const char *text, contact_override *out, char *rest, size_t rest_size,
                         char *message, size_t message_size)
{
    memset(out, 0, sizeof *out);
    return ipx_params_split(text, take_contact_key, out, rest, rest_size, message, message_size);
}

/* A coefficient of ODE's rolling rows (m: the torque's bound over the normal force), or -1 for no
   row. ODE 0.16's contact joint (the world's mode has dContactMu2, which is dContactAxisDep)
   counts a row for a coefficient of 0 in getInfo1 but fills it only when it is positive in
   getInfo2, which leaves an empty row in the step's LCP; a negative one it sets to 0 and skips
   in both. */
static double rolling_row(double rho) { return rho > 0.0 ? rho : -1.0; }

/* Rolling (about both friction directions) and spinning (about the normal) friction, bounded by
   the coefficient times the normal force (the world's dContactApprox1 includes
   dContactApprox1_N); a surface with neither keeps no rolling rows. */
static void apply_rolling(const contact_override *o, dContact *c)
{
    const int rolling = o->set[CONTACT_ROLLING], spinning = o->set[CONTACT_SPINNING];
    if (!rolling && !spinning) return;
    const double rho = rolling ? o->value[CONTACT_ROLLING] : 0.0;
    const double rho_n = spinning ? o->value[CONTACT_SPINNING] : 0.0;
    if (!(rho > 0.0) && !(rho_n > 0.0)) return;
    c->surface.mode |= dContactRolling | dContactAxisDep;
    c->surface.rho = c->surface.rho2 = rolling_row(rho);
    c->surface.rhoN = rolling_row(rho_n);
}

void contact_params_apply(const contact_override *o, dContact *c)
{
    if (o->set[CONTACT_MU]) c->surface.mu = c->surface.mu2 = o->value[CONTACT_MU];
    if (o->set[CONTACT_E]) c->surface.bounce = o->value[CONTACT_E];
    if (o->set[CONTACT_BOUNCE_VEL]) c->surface.bounce_vel = o->value[CONTACT_BOUNCE_VEL];
    apply_rolling(o, c);
}
