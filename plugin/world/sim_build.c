/* Scene -> ODE: a body per non-static link (body frame = its inertial frame, so dMass's c is 0),
   geoms offset from it, static geoms placed in the world, and joints. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim_internal.h"

static void to_dmatrix(const double R[9], dMatrix3 out)
{
    for (int i = 0; i < 3; i++) {
        for (int j = 0; j < 3; j++) out[4 * i + j] = R[3 * i + j];
        out[4 * i + 3] = 0;
    }
}

static dGeomID make_geom(ipx_sim *sim, const scene_collision *c)
{
    switch (c->type) {
    case GEOM_BOX: return dCreateBox(sim->space, c->size[0], c->size[1], c->size[2]);
    case GEOM_SPHERE: return dCreateSphere(sim->space, c->size[0]);
    case GEOM_CYLINDER: return dCreateCylinder(sim->space, c->size[0], c->size[1]);
    case GEOM_CAPSULE: return dCreateCapsule(sim->space, c->size[0], c->size[1]);
    case GEOM_PLANE: {
        double n[3];
        ipx_pose_rotate(&c->pose, c->normal, n);
        return dCreatePlane(sim->space, n[0], n[1], n[2],
                            n[0] * c->pose.p[0] + n[1] * c->pose.p[1] + n[2] * c->pose.p[2]);
    }
    }
    return NULL;
}

static void place_geom(dGeomID g, dBodyID body, const scene_collision *c)
{
    if (c->type == GEOM_PLANE) return; /* non-placeable: its equation says where it is */
    dMatrix3 R;
    to_dmatrix(c->pose.R, R);
    if (body) {
        dGeomSetBody(g, body);
        dGeomSetOffsetWorldPosition(g, c->pose.p[0], c->pose.p[1], c->pose.p[2]);
        dGeomSetOffsetWorldRotation(g, R);
    } else {
        dGeomSetPosition(g, c->pose.p[0], c->pose.p[1], c->pose.p[2]);
        dGeomSetRotation(g, R);
    }
}

static dBodyID make_body(ipx_sim *sim, const scene_link *l)
{
    dBodyID b = dBodyCreate(sim->world);
    dMatrix3 R;
    to_dmatrix(l->inertial.R, R);
    dBodySetPosition(b, l->inertial.p[0], l->inertial.p[1], l->inertial.p[2]);
    dBodySetRotation(b, R);
    dMass m;
    const double *I = l->inertia;
    dMassSetParameters(&m, l->mass, 0, 0, 0, I[0], I[4], I[8], I[1], I[2], I[5]);
    dBodySetMass(b, &m);
    dBodySetLinearVel(b, l->v0[0], l->v0[1], l->v0[2]);
    dBodySetAngularVel(b, l->w0[0], l->w0[1], l->w0[2]);
    dBodySetGravityMode(b, l->gravity);
    dBodySetLinearDamping(b, l->damping[0]);
    dBodySetAngularDamping(b, l->damping[1]);
    dBodySetForce(b, l->force[0], l->force[1],
                  l->force[2]); /* ODE clears them after the first step */
    dBodySetTorque(b, l->torque[0], l->torque[1], l->torque[2]);
    if (l->kinematic) dBodySetKinematic(b); /* after the mass, which would make it dynamic again */
    return b;
}

typedef void (*param_setter)(dJointID, int, dReal);

static void set_limits(dJointID j, param_setter set, const scene_axis *a, int lo, int hi)
{
    if (!a->has_limits) return;
    set(j, hi, a->upper); /* high first: ODE ignores a low stop above the high one */
    set(j, lo, a->lower);
}

static dJointID make_joint(ipx_sim *sim, const scene_joint *jd)
{
    const double *p = jd->anchor, *a1 = jd->axis[0].xyz, *a2 = jd->axis[1].xyz;
    dBodyID parent = jd->parent >= 0 && sim->link_body[jd->parent] >= 0
                         ? sim->body[sim->link_body[jd->parent]]
                         : 0;
    dBodyID child = sim->link_body[jd->child] >= 0 ? sim->body[sim->link_body[jd->child]] : 0;
    if (!parent && !child) return NULL; /* both static: nothing moves */
    dJointID j = NULL;
    switch (jd->type) {
    case JOINT_REVOLUTE:
    case JOINT_CONTINUOUS: j = dJointCreateHinge(sim->world, 0); break;
    case JOINT_PRISMATIC: j = dJointCreateSlider(sim->world, 0); break;
    case JOINT_BALL: j = dJointCreateBall(sim->world, 0); break;
    case JOINT_FIXED: j = dJointCreateFixed(sim->world, 0); break;
    case JOINT_UNIVERSAL: j = dJointCreateUniversal(sim->world, 0); break;
    case JOINT_REVOLUTE2: j = dJointCreateHinge2(sim->world, 0); break;
    }
    dJointAttach(j, parent ? parent : child, parent ? child : 0);
    switch (jd->type) {
    case JOINT_REVOLUTE:
    case JOINT_CONTINUOUS:
        dJointSetHingeAnchor(j, p[0], p[1], p[2]);
        dJointSetHingeAxis(j, a1[0], a1[1], a1[2]);
        if (jd->type == JOINT_REVOLUTE)
            set_limits(j, dJointSetHingeParam, &jd->axis[0], dParamLoStop, dParamHiStop);
        break;
    case JOINT_PRISMATIC:
        dJointSetSliderAxis(j, a1[0], a1[1], a1[2]);
        set_limits(j, dJointSetSliderParam, &jd->axis[0], dParamLoStop, dParamHiStop);
        break;
    case JOINT_BALL: dJointSetBallAnchor(j, p[0], p[1], p[2]); break;
    case JOINT_FIXED: dJointSetFixed(j); break;
    case JOINT_UNIVERSAL:
        dJointSetUniversalAnchor(j, p[0], p[1], p[2]);
        dJointSetUniversalAxis1(j, a1[0], a1[1], a1[2]);
        dJointSetUniversalAxis2(j, a2[0], a2[1], a2[2]);
        set_limits(j, dJointSetUniversalParam, &jd->axis[0], dParamLoStop, dParamHiStop);
        set_limits(j, dJointSetUniversalParam, &jd->axis[1], dParamLoStop2, dParamHiStop2);
        break;
    case JOINT_REVOLUTE2: {
        dJointSetHinge2Anchor(j, p[0], p[1], p[2]);
        const dReal ax1[3] = {a1[0], a1[1], a1[2]}, ax2[3] = {a2[0], a2[1], a2[2]};
        dJointSetHinge2Axes(j, ax1, ax2);
        set_limits(j, dJointSetHinge2Param, &jd->axis[0], dParamLoStop, dParamHiStop);
        break;
    }
    }
    return j;
}

static void set_world(ipx_sim *sim)
{
    const ipx_scene *s = sim->scene;
    dWorldSetGravity(sim->world, s->gravity[0], s->gravity[1], s->gravity[2]);
    dWorldSetERP(sim->world, s->erp);
    dWorldSetCFM(sim->world, s->cfm);
    dWorldSetContactMaxCorrectingVel(sim->world, s->max_correcting_vel);
    dWorldSetContactSurfaceLayer(sim->world, s->surface_layer);
    dWorldSetQuickStepNumIterations(sim->world, s->iters);
    dWorldSetQuickStepW(sim->world, s->sor);
}

int ipx_sim_build(ipx_sim *sim, char *message, size_t message_size)
{
    const ipx_scene *s = sim->scene;
    size_t nl = (size_t)(s->n_links ? s->n_links : 1),
           nc = (size_t)(s->n_collisions ? s->n_collisions : 1);
    sim->body = calloc(nl, sizeof *sim->body);
    sim->body_link = calloc(nl, sizeof *sim->body_link);
    sim->link_body = calloc(nl, sizeof *sim->link_body);
    sim->geom = calloc(nc, sizeof *sim->geom);
    if (!sim->body || !sim->body_link || !sim->link_body || !sim->geom) {
        snprintf(message, message_size, "out of memory building the world");
        return -1;
    }
    set_world(sim);
    for (int i = 0; i < s->n_links; i++) {
        const scene_link *l = &s->links[i];
        sim->link_body[i] = -1;
        dBodyID body = NULL;
        if (!l->is_static) {
            body = make_body(sim, l);
            sim->link_body[i] = sim->n_bodies;
            sim->body_link[sim->n_bodies] = i;
            sim->body[sim->n_bodies++] = body;
        }
        for (int c = l->first_collision; c < l->first_collision + l->n_collisions; c++) {
            dGeomID g = make_geom(sim, &s->collisions[c]);
            place_geom(g, body, &s->collisions[c]);
            dGeomSetCategoryBits(g, s->collisions[c].category_bits);
            dGeomSetCollideBits(g, s->collisions[c].collide_bits);
            dGeomSetData(g, (void *)(intptr_t)c);
            sim->geom[c] = g;
        }
    }
    for (int j = 0; j < s->n_joints; j++) make_joint(sim, &s->joints[j]);
    return 0;
}
