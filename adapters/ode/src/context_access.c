/* The context's accessors and the helpers every other file of the adapter uses on it: growing
   a buffer, recording a fallback, growing the model's workspace for a problem, and the public
   getters (configuration, statistics, the model's name, parameters and kind), and moving a body
   without changing its kinetic energy. Calls no other
   file of the adapter. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* Moves body b by dx (m) and turns it by the rotation vector dtheta (rad), world frame. The
   angular velocity turns with the body, so that it stays the same in the body's frame and the
   rotational kinetic energy w^T R I R^T w does not change (at a fixed world w it would: a
   spinning wheel tilted by 1 mrad). The linear velocity is kept. */
void ipx_ode_displace(dBodyID b, const double dx[3], const double dtheta[3])
{
    const dReal *p = dBodyGetPosition(b);
    dBodySetPosition(b, p[0] + dx[0], p[1] + dx[1], p[2] + dx[2]);
    const double angle =
        sqrt(dtheta[0] * dtheta[0] + dtheta[1] * dtheta[1] + dtheta[2] * dtheta[2]);
    if (!(angle > 0.0)) return;
    dQuaternion turn, q;
    dQFromAxisAndAngle(turn, dtheta[0], dtheta[1], dtheta[2], angle);
    dQMultiply0(q, turn, dBodyGetQuaternion(b));
    dBodySetQuaternion(b, q);
    const dReal *w = dBodyGetAngularVel(b);
    double wt[3] = {w[0], w[1], w[2]};
    ipx_ode_turn(dtheta, wt);
    dBodySetAngularVel(b, wt[0], wt[1], wt[2]);
}

void ipx_ode_turn(const double dtheta[3], double w[3])
{
    const double angle =
        sqrt(dtheta[0] * dtheta[0] + dtheta[1] * dtheta[1] + dtheta[2] * dtheta[2]);
    if (!(angle > 0.0)) return;
    dQuaternion turn;
    dQFromAxisAndAngle(turn, dtheta[0], dtheta[1], dtheta[2], angle);
    dMatrix3 R;
    dRfromQ(R, turn);
    const dVector3 in = {w[0], w[1], w[2]};
    dVector3 out;
    dMultiply0_331(out, R, in);
    for (int a = 0; a < 3; a++) w[a] = out[a];
}

int ipx_ode_grow(void **buf, int *cap, int need, size_t size)
{
    if (need <= *cap) return 0;
    int n = *cap < 16 ? 16 : 2 * *cap;
    if (n < need) n = need;
    void *p = realloc(*buf, (size_t)n * size);
    if (!p) return -1;
    *buf = p;
    *cap = n;
    return 0;
}

void ipx_ode_fallback(ipx_ode_context *ctx, const char *message)
{
    ctx->stats.fallbacks++;
    snprintf(ctx->stats.last_message, sizeof ctx->stats.last_message, "%s", message);
}

int ipx_ode_reserve_workspace(ipx_ode_context *ctx, const ipx_problem *p, char *msg, size_t size)
{
    const int k = p->k;
    size_t need = ipx_workspace_bytes_for(&ctx->params, p); /* O(k) for W as blocks */
    if (need && need <= ipx_workspace_capacity(ctx->ws)) return 0;
    ipx_workspace *ws = need ? ipx_workspace_create_bytes(need) : NULL;
    if (!ws) {
        snprintf(msg, size,
                 "out of memory for the workspace of model '%s' at k = %d contacts (%zu bytes)",
                 ctx->params.model->name, k, need);
        return -1;
    }
    ipx_workspace_destroy(ctx->ws);
    ctx->ws = ws;
    return 0;
}

ipx_ode_config ipx_ode_get_config(const ipx_ode_context *ctx) { return ctx->config; }

const char *ipx_ode_model_name(const ipx_ode_context *ctx)
{
    return ctx->passthrough ? "ode" : ctx->params.model->name;
}

const ipx_params *ipx_ode_get_params(const ipx_ode_context *ctx)
{
    return ctx->passthrough ? NULL : &ctx->params;
}

int ipx_ode_is_compliant(const ipx_ode_context *ctx) { return ctx->compliant; }

ipx_ode_stats ipx_ode_get_stats(const ipx_ode_context *ctx) { return ctx->stats; }

void ipx_ode_reset_stats(ipx_ode_context *ctx) { memset(&ctx->stats, 0, sizeof ctx->stats); }
