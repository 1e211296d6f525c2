/* The speeds the impact test compares (classify.c applies it; docs/ode-adapter.md "Impact or
   resting contact"): a contact's approach speed, the speed gravity adds in a step, the speed
   test's threshold, and a contact's own threshold with the jitter term, whose lever factor is
   computed here. The handback's speed scale and penetration recovery's recovered depth use the
   gravity speed too. */
#include <math.h>

#include "kinematics.h"

double ipx_ode_approach_speed(const contact_record *r)
{
    char msg[8];
    if (!ipx_ode_contact_valid(&r->contact, msg, sizeof msg)) return NAN;
    const dReal *n = r->contact.geom.normal, *p = r->contact.geom.pos;
    dVector3 v[2] = {{0, 0, 0, 0}, {0, 0, 0, 0}};
    for (int s = 0; s < 2; s++)
        if (r->body[s]) dBodyGetPointVel(r->body[s], p[0], p[1], p[2], v[s]);
    /* the normal points into body 1: n . (v1 - v2) > 0 is separating, relative to the
       surface's own motion along it (ipx_ode_surface_motion) */
    double m[IPX_ROWS_PER_CONTACT], vn = 0.0;
    ipx_ode_surface_motion(&r->contact, m);
    for (int a = 0; a < 3; a++) vn += n[a] * (v[0][a] - v[1][a]);
    return m[IPX_N] - vn;
}

double ipx_ode_gravity_speed(const ipx_ode_context *ctx, dReal h)
{
    dVector3 g;
    dWorldGetGravity(ctx->world, g);
    return sqrt(g[0] * g[0] + g[1] * g[1] + g[2] * g[2]) * (isfinite(h) ? fabs(h) : 0.0);
}

double ipx_ode_impact_threshold(const ipx_ode_context *ctx, dReal h)
{
    return ctx->config.impact_threshold + ctx->config.gravity_steps * ipx_ode_gravity_speed(ctx, h);
}

/* sqrt(m W_i) of body b at point p along normal n; NaN for bad mass data. */
static double body_factor(dBodyID b, const dReal *p, const dReal *n)
{
    dMass m;
    dBodyGetMass(b, &m);
    const dReal *x = dBodyGetPosition(b), *R = dBodyGetRotation(b);
    const double r[3] = {p[0] - x[0], p[1] - x[1], p[2] - x[2]};
    const double rn[3] = {r[1] * n[2] - r[2] * n[1], r[2] * n[0] - r[0] * n[2],
                          r[0] * n[1] - r[1] * n[0]};
    double y[3]; /* R^T (r x n): the body frame, where m.I is given */
    for (int a = 0; a < 3; a++) y[a] = R[a] * rn[0] + R[4 + a] * rn[1] + R[8 + a] * rn[2];
    /* y^T I^-1 y with the adjugate of the symmetric I (ODE's 3x4 row-major layout) */
    const double *I = m.I;
    const double a = I[0], b2 = I[1], c = I[2], d = I[5], e = I[6], f = I[10];
    const double A = d * f - e * e, B = c * e - b2 * f, C = b2 * e - c * d;
    const double D = a * f - c * c, E = b2 * c - a * e, F = a * d - b2 * b2;
    const double det = a * A + b2 * B + c * C;
    if (!(m.mass > 0.0) || !(det > 0.0)) return NAN;
    const double q = (A * y[0] * y[0] + D * y[1] * y[1] + F * y[2] * y[2] +
                      2.0 * (B * y[0] * y[1] + C * y[0] * y[2] + E * y[1] * y[2])) /
                     det;
    if (!(q >= 0.0) || !isfinite(m.mass * q)) return NAN;
    return sqrt(1.0 + m.mass * q);
}

double ipx_ode_lever_factor(const dContact *contact, dBodyID body1, dBodyID body2)
{
    const dReal *p = contact->geom.pos, *n = contact->geom.normal;
    double k = 0.0;
    if (ipx_ode_dynamic(body1)) k += body_factor(body1, p, n);
    if (ipx_ode_dynamic(body2)) k += body_factor(body2, p, n);
    return k;
}

double ipx_ode_contact_threshold(const ipx_ode_context *ctx, const dContact *contact, dBodyID body1,
                                 dBodyID body2, double gravity_speed)
{
    const ipx_ode_config *cfg = &ctx->config;
    double steps = cfg->gravity_steps;
    if (cfg->jitter_steps > 0.0) {
        const double k = ipx_ode_lever_factor(contact, body1, body2);
        if (cfg->jitter_steps * k > steps)
            steps = cfg->jitter_steps * k; /* NaN (bad mass): the island reports it */
    }
    const double t = cfg->impact_threshold + steps * gravity_speed;
    const dSurfaceParameters *s = &contact->surface;
    return (s->mode & dContactBounce) && s->bounce_vel >= 0.0 ? fmax(s->bounce_vel, t) : t;
}
