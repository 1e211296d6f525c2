/* Impact or resting contact: the jitter term of the impact threshold (docs/ode-adapter.md
   "Impact or resting contact").

   ODE's resting-contact handling leaves small velocity errors in the bodies of a pile: a step of
   weight its LCP did not quite support (QuickStep's unconverged sweeps), a push-out of about the
   same size, a rocking box's corner; each of the order of |g| h in a body's velocity. The speed
   test (island.c) calls a contact impacting above impact_threshold + gravity_steps |g| h, which
   is right for a ball on the ground but not for a contact at a box's corner between two boxes:
   there, two bodies that each jitter at |g| h approach at up to about 4 |g| h, and a settling
   pile under QuickStep made an impact event every few hundred steps from such contacts
   (approach 2.1 to 3.5 |g| h, bench_ode_pile).

   The rule: a body of mass m whose kinetic energy is T can give a contact point at most the
   normal speed sqrt(2 T W_i), with W_i = 1/m + (r x n)^T I^-1 (r x n) its part of the contact's
   normal Delassus entry (the least kinetic energy that produces a normal speed v at the point
   is v^2 / (2 W_i): Cauchy-Schwarz in the body's mass metric). An approach that the contact's
   bodies could make with the kinetic energy of moving at jitter_steps |g| h each is jitter:

       impacting  iff  approach > impact_threshold
                                  + |g| h max(gravity_steps, jitter_steps sum_i sqrt(m_i W_i))

   over its dynamic bodies (the world and kinematic bodies add nothing). sqrt(m W) = 1 for a
   body pushed through its centre, 2 at a cube's corner pushed along a face normal, so with the
   defaults (2, 1) only contacts whose lever factor exceeds 2 get a higher threshold. The factor
   is dimensionless, independent of the masses' ratio and of the scale. The classifier runs over
   every captured contact every step, so the factor is computed only for the contacts that pass
   the speed test, which the jitter term can only make fewer. */
#include <math.h>

#include "classify.h"

/* sqrt(m W_i) of body b at point p along normal n; NaN for bad mass data. */
static double body_factor(dBodyID b, const dReal *p, const dReal *n)
{
    dMass m;
    dBodyGetMass(b, &m);
    const dReal *x = dBodyGetPosition(b), *R = dBodyGetRotation(b);
    const double r[3] = {p[0] - x[0], p[1] - x[1], p[2] - x[2]};
    const double rn[3] = {r[1] * n[2] - r[2] * n[1], r[2] * n[0] - r[0] * n[2], r[0] * n[1] - r[1] * n[0]};
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
                      2.0 * (B * y[0] * y[1] + C * y[0] * y[2] + E * y[1] * y[2])) / det;
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
        if (cfg->jitter_steps * k > steps) steps = cfg->jitter_steps * k; /* NaN (bad mass): the island reports it */
    }
    const double t = cfg->impact_threshold + steps * gravity_speed;
    const dSurfaceParameters *s = &contact->surface;
    return (s->mode & dContactBounce) && s->bounce_vel >= 0.0 ? fmax(s->bounce_vel, t) : t;
}

int ipx_ode_classify_resting(ipx_ode_context *ctx, double gravity_speed)
{
    int n = 0;
    for (int i = 0; i < ctx->store.high_water; i++) {
        contact_record *r = &ctx->store.rec[i];
        if (!r->joint || !r->impacting) continue;
        if (!ctx->compliant && ctx->config.jitter_steps > 0.0) { /* else the speed test decided */
            const double approach = ipx_ode_approach_speed(r);
            /* NaN (bad data) stays impacting, so that its island reports it */
            if (!isnan(approach) &&
                !(approach > ipx_ode_contact_threshold(ctx, &r->contact, r->body[0], r->body[1], gravity_speed))) {
                r->impacting = 0;
                ctx->stats.resting_contacts++;
                continue;
            }
        }
        n++;
    }
    return n;
}
