/* Impact or resting contact (docs/ode-adapter.md "Impact or resting contact"): which captured
   contacts are impacting this step, by the speed test and then the jitter term of the impact
   threshold (the speeds and thresholds themselves: kinematics.c).

   ODE's resting-contact handling leaves small velocity errors in the bodies of a pile: a step of
   weight its LCP did not quite support (QuickStep's unconverged sweeps), a push-out of about the
   same size, a rocking box's corner; each of the order of |g| h in a body's velocity. The speed
   test (ipx_ode_classify) calls a contact impacting above impact_threshold + gravity_steps |g| h,
   which is right for a ball on the ground but not for a contact at a box's corner between two
   boxes: there, two bodies that each jitter at |g| h approach at up to about 4 |g| h, and a
   settling pile under QuickStep made an impact event every few hundred steps from such contacts
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
#include <string.h>

#include "classify.h"
#include "kinematics.h"

/* Bounce contacts impact above their own bounce_vel (as ODE bounces them), others above the
   context's threshold; below the threshold a contact is resting and left to ODE even if its
   bounce_vel is lower. Bad data (NaN) also counts, so that its island reports it. */
static int is_impacting(double threshold, const contact_record *r)
{
    const dSurfaceParameters *s = &r->contact.surface;
    double approach = ipx_ode_approach_speed(r);
    if (isnan(approach)) return 1;
    int bounce = (s->mode & dContactBounce) && s->bounce_vel >= 0.0;
    return approach > (bounce ? fmax(s->bounce_vel, threshold) : threshold);
}

int ipx_ode_contact_impacting(const ipx_ode_context *ctx, const dContact *contact, dBodyID body1,
                              dBodyID body2, dReal h)
{
    if (!ctx || !ctx->world || !contact || (!ipx_ode_dynamic(body1) && !ipx_ode_dynamic(body2)))
        return 0;
    contact_record r;
    memset(&r, 0, sizeof r);
    r.contact = *contact;
    r.body[0] = body1;
    r.body[1] = body2;
    if (!is_impacting(ipx_ode_impact_threshold(ctx, h), &r)) return 0;
    /* the pre-step's jitter term too (classify.c), so that this agrees with it */
    const double approach = ipx_ode_approach_speed(&r);
    return isnan(approach) || approach > ipx_ode_contact_threshold(ctx, contact, body1, body2,
                                                                   ipx_ode_gravity_speed(ctx, h));
}

int ipx_ode_classify(ipx_ode_context *ctx)
{
    contact_store *store = &ctx->store;
    int n = 0;
    for (int i = 0; i < store->high_water; i++) {
        contact_record *r = &store->rec[i];
        if (!r->joint) continue;
        r->impacting = 0;
        if (!r->attached || r->dead || !dJointIsEnabled(r->joint)) continue;
        if (!ipx_ode_dynamic(r->body[0]) && !ipx_ode_dynamic(r->body[1])) continue;
        /* a compliant model acts at every touching contact (depth 0 too: its spring starts there),
           an impulsive one at impacts */
        r->impacting = ctx->compliant
                           ? r->contact.geom.depth >= 0.0 || !isfinite(r->contact.geom.depth)
                           : is_impacting(ctx->threshold, r);
        n += r->impacting;
    }
    return n;
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
                !(approach > ipx_ode_contact_threshold(ctx, &r->contact, r->body[0], r->body[1],
                                                       gravity_speed))) {
                r->impacting = 0;
                ctx->stats.resting_contacts++;
                continue;
            }
        }
        n++;
    }
    return n;
}
