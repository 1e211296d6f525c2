/* Contact creation with Gazebo's rules (ODEPhysics::Collide, docs/ode-host.md §7): no contacts
   between geoms neither of which can move (static or kinematic), between bodies already joined,
   or between two links of one model neither of which self-collides (collide bitmasks act
   earlier, as ODE's category and collide bits); at most max_contacts per pair (the deepest); one
   dContact template per pair with the pair minimum of mu, mu2, bounce, bounce threshold and slip
   (or the params' contact keys), kp in series and kd in parallel turned into soft ERP/CFM for the
   step, the ERP capped by the links' max_vel. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "sim_internal.h"

static const scene_collision *collision_of(const ipx_sim *sim, dGeomID g)
{
    return &sim->scene->collisions[(intptr_t)dGeomGetData(g)];
}

/* A body that contacts can move: neither static (no body) nor kinematic. */
static int movable(dBodyID b) { return b && !dBodyIsKinematic(b); }

static int should_collide(const ipx_sim *sim, dGeomID g1, dGeomID g2)
{
    dBodyID b1 = dGeomGetBody(g1), b2 = dGeomGetBody(g2);
    if (!movable(b1) && !movable(b2))
        return 0; /* static or kinematic on both sides: nothing to push */
    if (b1 && b2 && dAreConnectedExcluding(b1, b2, dJointTypeContact)) return 0;
    const scene_link *l1 = &sim->scene->links[collision_of(sim, g1)->link];
    const scene_link *l2 = &sim->scene->links[collision_of(sim, g2)->link];
    return l1->model != l2->model || l1->self_collide || l2->self_collide;
}

static int pair_limit(const ipx_sim *sim, const scene_collision *c1, const scene_collision *c2)
{
    int n = sim->scene->max_contacts;
    if (c1->max_contacts > 0 && c1->max_contacts < n) n = c1->max_contacts;
    if (c2->max_contacts > 0 && c2->max_contacts < n) n = c2->max_contacts;
    return n < SIM_MAX_PAIR_CONTACTS ? n : SIM_MAX_PAIR_CONTACTS;
}

/* fdir1 of the lower-mu surface that has one, in the world (Gazebo's choice). */
static int friction_direction(dGeomID g1, const scene_collision *c1, dGeomID g2,
                              const scene_collision *c2, dVector3 out)
{
    const scene_surface *s1 = &c1->surface, *s2 = &c2->surface;
    int use1 = s1->has_fdir1 && (!s2->has_fdir1 || s1->mu <= s2->mu);
    if (!use1 && !s2->has_fdir1) return 0;
    dGeomID g = use1 ? g1 : g2;
    const double *d = use1 ? s1->fdir1 : s2->fdir1;
    const dReal *R = dGeomGetClass(g) == dPlaneClass ? NULL : dGeomGetRotation(g);
    for (int i = 0; i < 3; i++)
        out[i] = R ? R[4 * i] * d[0] + R[4 * i + 1] * d[1] + R[4 * i + 2] * d[2] : d[i];
    return 1;
}

static dContact pair_template(const ipx_sim *sim, dGeomID g1, dGeomID g2)
{
    const scene_collision *c1 = collision_of(sim, g1), *c2 = collision_of(sim, g2);
    const scene_surface *s1 = &c1->surface, *s2 = &c2->surface;
    const double h = sim->scene->step_size;
    const double kp = 1.0 / (1.0 / s1->kp + 1.0 / s2->kp), kd = s1->kd + s2->kd;
    dContact c = {0};
    c.surface.mode = dContactBounce | dContactMu2 | dContactSoftERP | dContactSoftCFM |
                     dContactApprox1 | dContactSlip1 | dContactSlip2;
    c.surface.mu = fmin(s1->mu, s2->mu);
    c.surface.mu2 = fmin(s1->mu2, s2->mu2);
    c.surface.bounce = fmin(s1->bounce, s2->bounce);
    c.surface.bounce_vel = fmin(s1->bounce_threshold, s2->bounce_threshold);
    c.surface.slip1 = fmin(s1->slip1, s2->slip1);
    c.surface.slip2 = fmin(s1->slip2, s2->slip2);
    c.surface.soft_erp = h * kp / (h * kp + kd);
    c.surface.soft_cfm = 1.0 / (h * kp + kd);
    if (friction_direction(g1, c1, g2, c2, c.fdir1)) c.surface.mode |= dContactFDir1;
    contact_params_apply(&sim->contact, &c);
    return c;
}

/* Gazebo's max_vel is a per-link push-out cap (dBodySetMaxVel in its ODE fork; docs/ode-host.md §7)
   that ODE 0.16 has only per world: the pair's value (the smaller of the dynamic links' values
   that are >= 0; negative means the world's contact_max_correcting_vel) caps the contact's soft
   ERP instead, so that ODE's push-out erp (depth - layer) / h stays at or below it. */
static void cap_push_out(const ipx_sim *sim, dGeomID g1, dGeomID g2, dContact *c)
{
    double max_vel = -1.0;
    const dGeomID g[2] = {g1, g2};
    for (int i = 0; i < 2; i++) {
        const double v = collision_of(sim, g[i])->surface.max_vel;
        if (dGeomGetBody(g[i]) && v >= 0.0) max_vel = max_vel < 0.0 ? v : fmin(max_vel, v);
    }
    const double excess = c->geom.depth - sim->scene->surface_layer;
    if (max_vel < 0.0 || !(excess > 0.0)) return;
    c->surface.soft_erp = fmin(c->surface.soft_erp, max_vel * sim->scene->step_size / excess);
}

/* ODE needs fdir1 to be a unit vector perpendicular to the contact normal (else its friction
   rows are degenerate and the step asserts): the pair's direction projected onto this contact's
   plane, or ODE's own choice where it is (nearly) along the normal. */
static void friction_in_plane(const dVector3 pair_dir, int has_dir, dContact *c)
{
    c->surface.mode &= ~dContactFDir1;
    if (!has_dir) return;
    const dReal *n = c->geom.normal;
    const double along = pair_dir[0] * n[0] + pair_dir[1] * n[1] + pair_dir[2] * n[2];
    double t[3];
    for (int i = 0; i < 3; i++) t[i] = pair_dir[i] - along * n[i];
    const double len = sqrt(t[0] * t[0] + t[1] * t[1] + t[2] * t[2]);
    if (!(len > 1e-6)) return;
    for (int i = 0; i < 3; i++) c->fdir1[i] = t[i] / len;
    c->surface.mode |= dContactFDir1;
}

/* Keeps the n deepest of the found contacts, in their original order. */
static int keep_deepest(dContactGeom *cg, int found, int n)
{
    while (found > n) {
        int shallowest = 0;
        for (int i = 1; i < found; i++)
            if (cg[i].depth < cg[shallowest].depth) shallowest = i;
        for (int i = shallowest; i + 1 < found; i++) cg[i] = cg[i + 1];
        found--;
    }
    return found;
}

static void near_callback(void *data, dGeomID g1, dGeomID g2)
{
    ipx_sim *sim = data;
    if (!should_collide(sim, g1, g2)) return;
    dContactGeom cg[SIM_MAX_PAIR_CONTACTS];
    int found = dCollide(g1, g2, SIM_MAX_PAIR_CONTACTS, cg, sizeof cg[0]);
    if (found <= 0) return;
    found = keep_deepest(cg, found, pair_limit(sim, collision_of(sim, g1), collision_of(sim, g2)));
    dContact c = pair_template(sim, g1, g2);
    const int has_dir = (c.surface.mode & dContactFDir1) != 0;
    const dVector3 dir = {c.fdir1[0], c.fdir1[1], c.fdir1[2], 0};
    dBodyID b1 = dGeomGetBody(g1), b2 = dGeomGetBody(g2);
    const double erp = c.surface.soft_erp;
    for (int i = 0; i < found; i++) {
        c.geom = cg[i];
        c.surface.soft_erp = erp;
        friction_in_plane(dir, has_dir, &c);
        cap_push_out(sim, g1, g2, &c);
        if (cg[i].depth > sim->penetration) sim->penetration = cg[i].depth;
        if (ipx_ode_contact_impacting(sim->ipx, &c, b1, b2, sim->scene->step_size))
            sim->had_impact = 1;
        ipx_ode_contact(sim->ipx, sim->world, sim->contacts, &c, b1, b2);
    }
}

void ipx_sim_collide(ipx_sim *sim)
{
    sim->penetration = 0.0;
    sim->had_impact = 0;
    dSpaceCollide(sim->space, sim, near_callback);
}
