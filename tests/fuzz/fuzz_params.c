/* libFuzzer target: parameter strings. The first byte picks a model (or "ode"), the rest is the
   text. Checks the promises of registry.h and impax/ode.h: the list's items (ipx_params_next)
   are trimmed, non-empty keys and values inside the text; a number either parses or leaves its
   output alone with a message; ipx_params_parse accepts exactly the lists whose items all name a
   parameter with a value in its range, leaves the values unchanged when it fails, and its
   result round-trips through ipx_params_format; the adapter splits the same items (one set of
   text rules) and ipx_ode_configure leaves the previous configuration in place when it fails.
   Every failure comes with a one-line message. */
#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "fuzz_promise.h"
#include "impax/ode.h"
#include "impax/registry.h"

enum { TEXT_MAX = 4096 };

static int blank_at_ends(const char *s, size_t n)
{
    return isspace((unsigned char)s[0]) || isspace((unsigned char)s[n - 1]);
}

/* One item as ipx_params_next promises it, and its number: parsed, or out untouched. */
static void check_item(const char *text, size_t len, const ipx_param_item *it)
{
    PROMISE(it->key_len && it->value_len, "an empty key or value in '%s'", text);
    PROMISE(it->key >= text && it->key + it->key_len <= text + len && it->value >= text &&
                it->value + it->value_len <= text + len,
            "an item outside the text '%s'", text);
    PROMISE(!blank_at_ends(it->key, it->key_len) && !blank_at_ends(it->value, it->value_len),
            "an item with white space around its key or value in '%s'", text);
    PROMISE(!memchr(it->key, '=', it->key_len) && !memchr(it->key, ',', it->key_len) &&
                !memchr(it->value, ',', it->value_len),
            "an item with '=' in its key or ',' in it: '%s'", text);
    double x = 12345.0;
    char message[256] = "";
    if (ipx_param_number(it, &x, message, sizeof message) != IPX_OK) {
        promise_message("ipx_param_number", message);
        PROMISE(x == 12345.0, "ipx_param_number failed and changed its output to %g", x);
    }
}

/* The number of items if the whole list follows the rules (every item checked), else -1 (and a
   message). */
static int list_items(const char *text)
{
    const size_t len = strlen(text);
    const char *cursor = text, *before = text;
    ipx_param_item it;
    char message[512] = "";
    int got, items = 0;
    while ((got = ipx_params_next(text, &cursor, &it, message, sizeof message)) > 0) {
        check_item(text, len, &it);
        PROMISE(cursor > before && cursor <= text + len, "the cursor did not move on in '%s'",
                text);
        PROMISE(++items <= (int)len, "more items than characters in '%s'", text);
        before = cursor;
    }
    if (got < 0) promise_message("ipx_params_next", message);
    return got == 0 ? items : -1;
}

static int same_values(const ipx_params *a, const ipx_params *b)
{
    return a->model == b->model && memcmp(a->value, b->value, sizeof a->value) == 0;
}

/* ipx_params_parse on top of the model's defaults: its promises; 1 if it accepted text. */
static int check_parse(const ipx_model *model, const char *text, int rules_ok)
{
    ipx_params p, before, again;
    char message[512] = "", formatted[IPX_MAX_PARAMS * 48];
    ipx_params_default(&p, model);
    before = p;
    if (ipx_params_parse(&p, text, message, sizeof message) != IPX_OK) {
        promise_message("ipx_params_parse", message);
        PROMISE(same_values(&p, &before), "ipx_params_parse failed on '%s' and changed the values",
                text);
        return 0;
    }
    PROMISE(rules_ok, "ipx_params_parse accepted '%s', which ipx_params_next refuses", text);
    for (int i = 0; i < model->n_params; i++) {
        const ipx_param_def *d = &model->params[i];
        const double v = p.value[i];
        PROMISE(isfinite(v) && v >= d->min && v <= d->max && (!d->integer || v == floor(v)),
                "%s=%.17g accepted from '%s', outside [%g, %g]%s", d->name, v, text, d->min, d->max,
                d->integer ? " or not whole" : "");
    }
    ipx_params_format(&p, formatted, sizeof formatted);
    ipx_params_default(&again, model);
    PROMISE(ipx_params_parse(&again, formatted, message, sizeof message) == IPX_OK &&
                same_values(&p, &again),
            "'%s' does not read back as the values it formats (%s)", formatted, message);
    return 1;
}

static int same_config(const ipx_ode_config *a, const ipx_ode_config *b)
{
    return a->impact_threshold == b->impact_threshold && a->gravity_steps == b->gravity_steps &&
           a->jitter_steps == b->jitter_steps && a->disable_separating == b->disable_separating &&
           a->separating_speed == b->separating_speed && a->mu_infinity == b->mu_infinity &&
           a->v_plastic == b->v_plastic && a->recovery == b->recovery &&
           a->recovery_speed == b->recovery_speed && a->handback_bound == b->handback_bound &&
           a->recovery_switch == b->recovery_switch;
}

/* The adapter's split: the same items as the list's rules; 1 (and model_text) if it accepted. */
static int check_split(const char *text, int rules_ok, char *model_text, size_t model_size)
{
    ipx_ode_config cfg = ipx_ode_default_config(), before = cfg;
    char message[512] = "";
    if (ipx_ode_split_params(text, &cfg, model_text, model_size, message, sizeof message) != 0) {
        promise_message("ipx_ode_split_params", message);
        PROMISE(same_config(&cfg, &before),
                "ipx_ode_split_params failed on '%s' and changed the config", text);
        return 0;
    }
    PROMISE(rules_ok, "ipx_ode_split_params accepted '%s', which ipx_params_next refuses", text);
    PROMISE(list_items(model_text) >= 0, "the model's part of '%s' ('%s') breaks the list's rules",
            text, model_text);
    return 1;
}

/* ipx_ode_configure: accepts exactly what the split and the model's parser accept ('ode': a list
   without items); on a failure the previous model and config stay. */
static void check_configure(ipx_ode_context *ctx, const ipx_model *model, const char *text,
                            int items, int split_ok, int model_ok)
{
    const char *name = model ? model->name : "ode";
    const ipx_ode_config cfg = ipx_ode_get_config(ctx);
    const char *previous = ipx_ode_model_name(ctx);
    char message[512] = "";
    const int ok = ipx_ode_configure(ctx, name, text, message, sizeof message) == 0;
    if (!model)
        PROMISE(ok == (items == 0), "model 'ode' %s '%s'", ok ? "accepted" : "refused", text);
    else
        PROMISE(ok == (split_ok && model_ok),
                "ipx_ode_configure(%s) %s '%s' (split %d, model's part %d)", name,
                ok ? "accepted" : "refused", text, split_ok, model_ok);
    if (ok) return;
    promise_message("ipx_ode_configure", message);
    const ipx_ode_config now = ipx_ode_get_config(ctx);
    PROMISE(same_config(&cfg, &now) && strcmp(previous, ipx_ode_model_name(ctx)) == 0,
            "ipx_ode_configure failed on '%s' and changed the configuration", text);
}

static ipx_ode_context *context(void)
{
    static ipx_ode_context *ctx;
    if (!ctx) {
        dInitODE2(0);
        ctx = ipx_ode_create(dWorldCreate());
        PROMISE(ctx, "no context");
    }
    return ctx;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > TEXT_MAX) return 0;
    char text[TEXT_MAX + 1], model_text[1024];
    memcpy(text, data + 1, size - 1);
    text[size - 1] = '\0'; /* a NUL in the input ends the text early */
    const int n_models = ipx_model_count();
    const int pick = data[0] % (n_models + 1);
    const ipx_model *model = pick < n_models ? ipx_model_at(pick) : NULL; /* NULL: "ode" */
    const int items = list_items(text), rules_ok = items >= 0;
    const int split_ok = check_split(text, rules_ok, model_text, sizeof model_text);
    int model_ok = 0;
    if (model) {
        check_parse(model, text, rules_ok);
        model_ok = split_ok && check_parse(model, model_text, 1);
    }
    check_configure(context(), model, text, items, split_ok, model_ok);
    return 0;
}
