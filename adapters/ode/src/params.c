/* The adapter's own keys in a "key=value,..." parameter list (ipx_ode_config), read with the
   core's list rules (ipx_params_split, ipx_param_number); the other items go to the model. */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

/* A finite number >= 0 from item into *out: 1, or -1 with a message naming the key and unit. */
static int nonneg_value(const ipx_param_item *item, const char *unit, double *out, char *msg,
                        size_t size)
{
    double v;
    if (ipx_param_number(item, &v, msg, size) != IPX_OK) return -1;
    if (!isfinite(v) || v < 0.0) {
        snprintf(msg, size, "%.*s=%g: %s, finite and >= 0", (int)item->key_len, item->key, v, unit);
        return -1;
    }
    *out = v;
    return 1;
}

/* A whole number >= 1 from item into *out: 1, or -1 with a message naming the key and unit. */
static int count_value(const ipx_param_item *item, const char *unit, int *out, char *msg,
                       size_t size)
{
    double v;
    if (ipx_param_number(item, &v, msg, size) != IPX_OK) return -1;
    if (!(v >= 1.0 && v <= INT_MAX && v == floor(v))) {
        snprintf(msg, size, "%.*s=%g: %s, a whole number >= 1", (int)item->key_len, item->key, v,
                 unit);
        return -1;
    }
    *out = (int)v;
    return 1;
}

/* recovery=position|velocity|ode: 1, or -1 with a message. */
static int recovery_value(const ipx_param_item *item, ipx_ode_recovery *out, char *msg, size_t size)
{
    static const char *const modes[] = {"position", "velocity", "ode"};
    for (int m = 0; m < 3; m++)
        if (item->value_len == strlen(modes[m]) &&
            strncmp(item->value, modes[m], item->value_len) == 0) {
            *out = (ipx_ode_recovery)m;
            return 1;
        }
    char shown[96];
    ipx_printable(item->value, item->value_len, shown, sizeof shown);
    snprintf(msg, size, "recovery='%s': use position, velocity or ode", shown);
    return -1;
}

/* One adapter key (recovery, recovery_speed, recovery_switch, impact_threshold, gravity_steps,
   jitter_steps, accuracy_steps, handback_bound) into the ipx_ode_config user: 1 if the item's key is one, 0 if it
   belongs to the model, -1 (with a message) for a bad value. */
static int adapter_key(void *user, const ipx_param_item *item, char *msg, size_t size)
{
    ipx_ode_config *cfg = user;
    if (ipx_param_item_is(item, "recovery")) return recovery_value(item, &cfg->recovery, msg, size);
    if (ipx_param_item_is(item, "recovery_speed"))
        return nonneg_value(item, "a speed in m/s", &cfg->recovery_speed, msg, size);
    if (ipx_param_item_is(item, "recovery_switch"))
        return count_value(item, "contacts", &cfg->recovery_switch, msg, size);
    if (ipx_param_item_is(item, "impact_threshold"))
        return nonneg_value(item, "a speed in m/s", &cfg->impact_threshold, msg, size);
    if (ipx_param_item_is(item, "gravity_steps"))
        return nonneg_value(item, "a number of steps", &cfg->gravity_steps, msg, size);
    if (ipx_param_item_is(item, "jitter_steps"))
        return nonneg_value(item, "a number of steps", &cfg->jitter_steps, msg, size);
    if (ipx_param_item_is(item, "accuracy_steps"))
        return nonneg_value(item, "a number of steps", &cfg->accuracy_steps, msg, size);
    if (ipx_param_item_is(item, "handback_bound")) {
        const int r = nonneg_value(item, "a ratio", &cfg->handback_bound, msg, size);
        if (r > 0 && !(cfg->handback_bound > 0.0)) {
            snprintf(msg, size, "handback_bound=%g: a ratio, finite and > 0", cfg->handback_bound);
            return -1;
        }
        return r;
    }
    return 0;
}

int ipx_ode_split_params(const char *text, ipx_ode_config *cfg, char *model_text, size_t model_size,
                         char *msg, size_t size)
{
    ipx_ode_config next = *cfg; /* *cfg changes only if the whole list is good */
    if (ipx_params_split(text, adapter_key, &next, model_text, model_size, msg, size) != 0)
        return -1;
    *cfg = next;
    return 0;
}
