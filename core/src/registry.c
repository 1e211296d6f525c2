/* The model registry (see impax/registry.h): the table of every model, its lookups by name and
   position, and a model's parameter values: defaults, set, parsed and formatted. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "impax/aplcp.h"
#include "impax/bowling.h"
#include "impax/gonthier.h"
#include "impax/jia.h"
#include "impax/plus.h"
#include "impax/registry.h"
#include "impax/routh.h"

/* Every model's parameters fit ipx_params.value: a model with more would write past it. */
_Static_assert(IPX_PLUS_N_PARAMS <= IPX_MAX_PARAMS, "plus: raise IPX_MAX_PARAMS");
_Static_assert(IPX_APLCP_N_PARAMS <= IPX_MAX_PARAMS, "aplcp: raise IPX_MAX_PARAMS");
_Static_assert(IPX_JIA_N_PARAMS <= IPX_MAX_PARAMS, "jia: raise IPX_MAX_PARAMS");
_Static_assert(IPX_ROUTH_N_PARAMS <= IPX_MAX_PARAMS, "routh: raise IPX_MAX_PARAMS");
_Static_assert(IPX_BOWLING_N_PARAMS <= IPX_MAX_PARAMS, "bowling: raise IPX_MAX_PARAMS");
_Static_assert(IPX_GONTHIER_N_PARAMS <= IPX_MAX_PARAMS, "gonthier: raise IPX_MAX_PARAMS");

/* Every model impax knows, in the order users see them listed. */
static const ipx_model *const models[] = {
    &ipx_model_plus,  &ipx_model_aplcp,   &ipx_model_jia,
    &ipx_model_routh, &ipx_model_bowling, &ipx_model_gonthier,
};

#define N_MODELS ((int)(sizeof models / sizeof models[0]))

int ipx_model_count(void) { return N_MODELS; }

const ipx_model *ipx_model_at(int i) { return i >= 0 && i < N_MODELS ? models[i] : NULL; }

const ipx_model *ipx_model_find(const char *name)
{
    if (!name) return NULL;
    for (int i = 0; i < N_MODELS; i++)
        if (strcmp(models[i]->name, name) == 0) return models[i];
    return NULL;
}

void ipx_model_names(char *buf, size_t size)
{
    size_t used = 0;
    if (size) buf[0] = '\0';
    for (int i = 0; i < N_MODELS && used < size; i++)
        used += (size_t)snprintf(buf + used, size - used, "%s%s", i ? ", " : "", models[i]->name);
}

void ipx_params_default(ipx_params *params, const ipx_model *model)
{
    memset(params, 0, sizeof *params);
    params->model = model;
    for (int i = 0; i < model->n_params; i++) params->value[i] = model->params[i].def;
}

ipx_status ipx_params_init(ipx_params *params, const char *model_name, char *message,
                           size_t message_size)
{
    const ipx_model *m = ipx_model_find(model_name);
    if (!m) {
        char names[256];
        ipx_model_names(names, sizeof names);
        snprintf(message, message_size, "unknown model '%s' (accepted: %s)",
                 model_name ? model_name : "(null)", names);
        return IPX_ERR_INPUT;
    }
    ipx_params_default(params, m);
    return IPX_OK;
}

int ipx_param_index(const ipx_model *model, const char *key)
{
    for (int i = 0; i < model->n_params; i++)
        if (strcmp(model->params[i].name, key) == 0) return i;
    return -1;
}

int ipx_params_inelastic(const ipx_params *params)
{
    const char *flag = params->model->restitution_flag;
    const int i = flag ? ipx_param_index(params->model, flag) : -1;
    return i >= 0 && params->value[i] == 0.0;
}

double ipx_params_ignored_restitution(const ipx_params *params, const ipx_problem *p)
{
    double e = 0.0;
    if (!ipx_params_inelastic(params)) return e;
    for (int i = 0; i < p->k; i++)
        if (-p->v[IPX_ROWS_PER_CONTACT * i + IPX_N] > p->contact[i].v_capture)
            e = fmax(e, p->contact[i].e);
    return e;
}

static void param_names(const ipx_model *m, char *buf, size_t size)
{
    size_t used = 0;
    if (size) buf[0] = '\0';
    for (int i = 0; i < m->n_params && used < size; i++)
        used += (size_t)snprintf(buf + used, size - used, "%s%s", i ? ", " : "", m->params[i].name);
    if (m->n_params == 0) snprintf(buf, size, "none");
}

ipx_status ipx_params_set(ipx_params *params, const char *key, double value, char *message,
                          size_t message_size)
{
    const ipx_model *m = params->model;
    int i = ipx_param_index(m, key);
    if (i < 0) {
        char names[512];
        param_names(m, names, sizeof names);
        snprintf(message, message_size, "model '%s' has no parameter '%s' (accepted: %s)", m->name,
                 key, names);
        return IPX_ERR_INPUT;
    }
    const ipx_param_def *d = &m->params[i];
    if (!isfinite(value) || value < d->min || value > d->max) {
        snprintf(message, message_size,
                 "parameter %s = %g of model '%s' is out of range [%g, %g]%s%s", key, value,
                 m->name, d->min, d->max, d->unit[0] ? " " : "", d->unit);
        return IPX_ERR_INPUT;
    }
    if (d->integer && value != floor(value)) {
        snprintf(message, message_size, "parameter %s of model '%s' must be a whole number, got %g",
                 key, m->name, value);
        return IPX_ERR_INPUT;
    }
    params->value[i] = value;
    return IPX_OK;
}

/* One item: its key must name a parameter of the model and its value be a number in range. */
static ipx_status parse_item(ipx_params *p, const ipx_param_item *item, char *message,
                             size_t message_size)
{
    char key[64];
    double value;
    if (ipx_param_number(item, &value, message, message_size) != IPX_OK) return IPX_ERR_INPUT;
    ipx_printable(item->key, item->key_len, key, sizeof key);
    if (item->key_len >= sizeof key)
        memcpy(key + sizeof key - 4, "...", 4); /* no parameter has such a name */
    return ipx_params_set(p, key, value, message, message_size);
}

ipx_status ipx_params_parse(ipx_params *params, const char *text, char *message,
                            size_t message_size)
{
    ipx_params trial = *params; /* all or nothing: params change only if every item is good */
    ipx_param_item item;
    const char *cursor = text;
    int got;
    while ((got = ipx_params_next(text, &cursor, &item, message, message_size)) > 0)
        if (parse_item(&trial, &item, message, message_size) != IPX_OK) return IPX_ERR_INPUT;
    if (got < 0) return IPX_ERR_INPUT;
    *params = trial;
    return IPX_OK;
}

void ipx_params_format(const ipx_params *params, char *buf, size_t size)
{
    const ipx_model *m = params->model;
    size_t used = 0;
    if (size) buf[0] = '\0';
    for (int i = 0; i < m->n_params && used < size; i++)
        used += (size_t)snprintf(buf + used, size - used, "%s%s=%.17g", i ? "," : "",
                                 m->params[i].name, params->value[i]);
}

int ipx_model_reads_blocks(const ipx_params *params, int k)
{
    const ipx_model *m = params->model;
    return m->blocks_from && k >= m->blocks_from(params->value);
}
