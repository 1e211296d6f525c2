/* The per-world context's life: creation (entered in the world table), configuration (the model,
   its parameters and the adapter's keys) and destruction. */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "impax/gonthier.h"
#include "internal.h"

ipx_ode_config ipx_ode_default_config(void)
{
    ipx_ode_config c;
    c.impact_threshold = 1e-3;
    c.gravity_steps = 2.0;
    c.disable_separating = 1;
    c.separating_speed = 1e-6;
    c.mu_infinity = 1e3;
    c.v_plastic = 0.0;
    c.recovery = IPX_ODE_RECOVERY_POSITION;
    c.recovery_speed = 0.01;
    c.recovery_switch = IPX_ODE_RECOVERY_SWITCH;
    c.jitter_steps = 1.0;
    c.handback_bound = IPX_ODE_HANDBACK_BOUND;
    c.accuracy_steps = 1.0;
    return c;
}

static int nonneg(double x) { return isfinite(x) && x >= 0.0; }

int ipx_ode_set_config(ipx_ode_context *ctx, const ipx_ode_config *c, char *msg, size_t size)
{
    const char *bad =
        !nonneg(c->impact_threshold)        ? "impact_threshold (m/s) must be finite and >= 0"
        : !nonneg(c->gravity_steps)         ? "gravity_steps must be finite and >= 0"
        : (c->disable_separating & ~1) != 0 ? "disable_separating must be 0 or 1"
        : !nonneg(c->separating_speed)      ? "separating_speed (m/s) must be finite and >= 0"
        : !(nonneg(c->mu_infinity) && c->mu_infinity > 0.0) ? "mu_infinity must be finite and > 0"
        : !nonneg(c->v_plastic) ? "v_plastic (m/s) must be finite and >= 0"
        : (unsigned)c->recovery > IPX_ODE_RECOVERY_ODE
            ? "recovery must be position, velocity or ode"
        : !nonneg(c->recovery_speed) ? "recovery_speed (m/s) must be finite and >= 0"
        : c->recovery_switch < 1     ? "recovery_switch (contacts) must be >= 1"
        : !nonneg(c->jitter_steps)   ? "jitter_steps must be finite and >= 0"
        : !(nonneg(c->handback_bound) && c->handback_bound > 0.0)
            ? "handback_bound must be finite and > 0"
        : !nonneg(c->accuracy_steps) ? "accuracy_steps must be finite and >= 0"
                                     : NULL;
    if (bad) {
        snprintf(msg, size, "%s", bad);
        return -1;
    }
    ctx->config = *c;
    return 0;
}

/* 'ode' takes a list without items ("", white space): 0, or -1 with a message quoting the text. */
static int no_items(const char *text, char *msg, size_t size)
{
    const char *cursor = text;
    ipx_param_item item;
    const int got = text ? ipx_params_next(text, &cursor, &item, msg, size) : 0;
    if (got > 0) {
        char shown[160];
        ipx_printable(text, strlen(text), shown, sizeof shown);
        snprintf(msg, size, "model 'ode' (pass-through) takes no parameters, got '%s'", shown);
    }
    return got == 0 ? 0 : -1;
}

int ipx_ode_configure(ipx_ode_context *ctx, const char *model_name, const char *params_text,
                      char *msg, size_t size)
{
    if (model_name && strcmp(model_name, "ode") == 0) {
        if (no_items(params_text, msg, size) != 0) return -1;
        ctx->passthrough = 1;
        ctx->compliant = 0;
        return 0;
    }
    ipx_params p;
    if (!ipx_model_find(model_name)) {
        char names[200], shown[96];
        ipx_model_names(names, sizeof names);
        ipx_printable(model_name ? model_name : "(null)", model_name ? strlen(model_name) : 6,
                      shown, sizeof shown);
        snprintf(msg, size, "unknown model '%s' (accepted: ode, %s)", shown, names);
        return -1;
    }
    ipx_ode_config cfg = ctx->config;
    char model_text[1024];
    if (ipx_ode_split_params(params_text, &cfg, model_text, sizeof model_text, msg, size) != 0 ||
        ipx_params_init(&p, model_name, msg, size) != IPX_OK ||
        ipx_params_parse(&p, model_text, msg, size) != IPX_OK)
        return -1;
    /* sized for small islands; ipx_ode_reserve_workspace grows it for a larger one */
    ipx_workspace *ws = ipx_workspace_create(&p, IPX_ODE_WORKSPACE_CONTACTS);
    if (!ws) {
        snprintf(msg, size, "out of memory for the workspace of model '%s'", model_name);
        return -1;
    }
    ipx_workspace_destroy(ctx->ws);
    ctx->ws = ws;
    ctx->params = p;
    ctx->config = cfg;
    ctx->passthrough = 0;
    ctx->compliant = p.model == &ipx_model_gonthier;
    ctx->cache.n = 0; /* states of another model's contacts mean nothing now */
    return 0;
}

ipx_ode_context *ipx_ode_create(dWorldID world)
{
    if (!world) return NULL;
    ipx_ode_context *ctx = calloc(1, sizeof *ctx);
    if (!ctx) return NULL;
    ctx->world = world;
    pthread_mutex_init(&ctx->lock, NULL);
    ctx->config = ipx_ode_default_config();
    ctx->store.free_head = -1;
    char msg[IPX_MESSAGE_SIZE];
    const char *model = ipx_model_find("plus") ? "plus" : ipx_model_at(0)->name;
    if (ipx_ode_configure(ctx, model, NULL, msg, sizeof msg) != 0) {
        pthread_mutex_destroy(&ctx->lock);
        free(ctx);
        return NULL;
    }
    ipx_ode_table_insert(ctx);
    return ctx;
}

static void free_work(ipx_ode_context *ctx)
{
    island *is = &ctx->isl;
    free(is->body);
    free(is->joint);
    free(is->contact);
    free(is->twin);
    free(is->body_list);
    free(is->contact_next);
    free(is->twin_of);
    ipx_ode_map_free(&is->body_index);
    ipx_ode_map_free(&is->joint_seen);
    assembly *as = &ctx->as;
    ipx_ode_assembly_free(as);
    free(ctx->disabled);
    free(ctx->cache.entry);
    free(ctx->cache.lcp);
    free(ctx->cache.ilcp);
    free(ctx->deferred);
    ipx_ode_recovery_free(ctx);
    ipx_ode_feedback_free(&ctx->feedback);
}

void ipx_ode_destroy(ipx_ode_context *ctx)
{
    if (!ctx) return;
    ipx_ode_table_remove(ctx);
    ipx_ode_store_free(&ctx->store);
    ipx_workspace_destroy(ctx->ws);
    free_work(ctx);
    pthread_mutex_destroy(&ctx->lock);
    free(ctx);
}
