#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "impax/aplcp.h"
#include "impax/bowling.h"
#include "impax/gonthier.h"
#include "impax/jia.h"
#include "impax/plus.h"
#include "impax/problem.h"
#include "impax/registry.h"
#include "impax/routh.h"
#include "impax/validate.h"
#include "result_internal.h"
#include "workspace_internal.h"

/* Every model impax knows, in the order users see them listed. */
static const ipx_model *const models[] = {
    &ipx_model_plus,
    &ipx_model_aplcp,
    &ipx_model_jia,
    &ipx_model_routh,
    &ipx_model_bowling,
    &ipx_model_gonthier,
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
        snprintf(message, message_size, "parameter %s = %g of model '%s' is out of range [%g, %g]%s%s",
                 key, value, m->name, d->min, d->max, d->unit[0] ? " " : "", d->unit);
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
static ipx_status parse_item(ipx_params *p, const ipx_param_item *item, char *message, size_t message_size)
{
    char key[64];
    double value;
    if (ipx_param_number(item, &value, message, message_size) != IPX_OK) return IPX_ERR_INPUT;
    ipx_printable(item->key, item->key_len, key, sizeof key);
    if (item->key_len >= sizeof key) memcpy(key + sizeof key - 4, "...", 4); /* no parameter has such a name */
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

ipx_w_route ipx_w_route_of(const ipx_params *params, const ipx_problem *p)
{
    if (p->W || !p->Ws) return IPX_W_DENSE;
    return ipx_model_reads_blocks(params, p->k) ? IPX_W_IN_PLACE : IPX_W_COPIED;
}

size_t ipx_model_workspace_bytes_for(const ipx_params *params, const ipx_problem *p)
{
    const ipx_model *m = params->model;
    if (ipx_w_route_of(params, p) == IPX_W_IN_PLACE) return m->blocks_workspace_bytes(p->k, params->value);
    return m->workspace_bytes(p->k, params->value);
}

/* For a model that reads W densely at p's size, a dense copy of p's blocks kept in ws (after the
   result's arrays, so the solve's slices leave it) and *dense = p with that copy; else *dense = *p.
   IPX_ERR_WORKSPACE if ws cannot hold the copy and need more bytes. */
static ipx_status dense_if_needed(const ipx_params *params, const ipx_problem *p, size_t need,
                                  ipx_workspace *ws, ipx_problem *dense, ipx_result *r)
{
    *dense = *p;
    if (ipx_w_route_of(params, p) != IPX_W_COPIED) return IPX_OK;
    const size_t doubles = ipx_w_copy_doubles(p->k), copy = ipx_ws_doubles_bytes(doubles);
    double *W = need + copy <= ipx_ws_available(ws) ? ipx_ws_keep_doubles(ws, doubles) : NULL;
    if (!W) {
        snprintf(r->message, sizeof r->message,
                 "workspace has %zu bytes, model '%s' needs %zu for k = %d with W given as blocks "
                 "(%zu of them its dense copy)", ipx_workspace_capacity(ws), params->model->name,
                 need + copy + ipx_result_bytes(p->k, IPX_ROWS_PER_CONTACT), p->k, copy);
        return r->status = IPX_ERR_WORKSPACE;
    }
    ipx_problem_dense_W(p, W);
    dense->W = W;
    dense->Ws = NULL;
    return IPX_OK;
}

ipx_status ipx_solve(const ipx_params *params, const ipx_problem *p, ipx_workspace *ws,
                     ipx_result *r)
{
    if (ipx_result_begin(r, p ? p->k : 0, IPX_ROWS_PER_CONTACT, ws) != IPX_OK) return r->status;
    if (!params || !params->model || !p || !ws) {
        r->status = IPX_ERR_INPUT;
        snprintf(r->message, sizeof r->message, "ipx_solve: NULL %s",
                 !params || !params->model ? "params" : !p ? "problem" : "workspace");
        return r->status;
    }
    ipx_ws_reset(ws);
    r->status = ipx_problem_validate(p, ws, r->message, sizeof r->message);
    if (r->status != IPX_OK) return r->status;
    size_t need = ipx_model_workspace_bytes_for(params, p);
    if (need > ipx_ws_available(ws)) {
        r->status = IPX_ERR_WORKSPACE;
        snprintf(r->message, sizeof r->message,
                 "workspace has %zu bytes, model '%s' needs %zu for k = %d",
                 ipx_workspace_capacity(ws), params->model->name,
                 need + ipx_result_bytes(p->k, IPX_ROWS_PER_CONTACT), p->k);
        return r->status;
    }
    ipx_problem dense;
    if (dense_if_needed(params, p, need, ws, &dense, r) != IPX_OK) return r->status;
    ipx_ws_reset(ws);
    ipx_status st = params->model->solve(&dense, params->value, ws, r);
    if (st != IPX_OK) {
        r->k = p->k;
        if (!r->message[0])
            snprintf(r->message, sizeof r->message, "model '%s': %s", params->model->name,
                     ipx_status_name(st));
        return ipx_result_fail(r, st);
    }
    r->status = st;
    return st;
}
