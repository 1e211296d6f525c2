/* What viewers draw of a simulation: its collisions' shapes where ODE holds them, and its joints. */
#include <string.h>

#include "sim_internal.h"

int ipx_sim_shape_count(const ipx_sim *sim) { return sim->scene->n_collisions; }

/* Where a geom is: relative to its body (ODE's offset), or in the world for a static one. */
static void geom_pose(dGeomID g, int on_body, ipx_shape *out)
{
    dQuaternion q;
    const dReal *p;
    if (on_body) {
        p = dGeomGetOffsetPosition(g);
        dGeomGetOffsetQuaternion(g, q);
    } else {
        p = dGeomGetPosition(g);
        dGeomGetQuaternion(g, q);
    }
    for (int i = 0; i < 3; i++) out->pos[i] = p[i];
    for (int i = 0; i < 4; i++) out->quat[i] = q[i];
}

void ipx_sim_shape(const ipx_sim *sim, int i, ipx_shape *out)
{
    static const ipx_shape_type types[] = {[GEOM_BOX] = IPX_SHAPE_BOX,
                                           [GEOM_SPHERE] = IPX_SHAPE_SPHERE,
                                           [GEOM_CYLINDER] = IPX_SHAPE_CYLINDER,
                                           [GEOM_CAPSULE] = IPX_SHAPE_CAPSULE,
                                           [GEOM_PLANE] = IPX_SHAPE_PLANE};
    const scene_collision *c = &sim->scene->collisions[i];
    memset(out, 0, sizeof *out);
    out->type = types[c->type];
    out->body = sim->link_body[c->link];
    out->quat[0] = 1.0;
    for (int a = 0; a < 3; a++) out->size[a] = c->size[a];
    dGeomID g = sim->geom[i];
    if (!g) return;
    if (c->type != GEOM_PLANE) {
        geom_pose(g, out->body >= 0, out);
        return;
    }
    dVector4 plane;
    dGeomPlaneGetParams(g, plane);
    for (int a = 0; a < 3; a++) out->normal[a] = plane[a];
    out->offset = plane[3];
}

int ipx_sim_joint_count(const ipx_sim *sim) { return sim->scene->n_joints; }

void ipx_sim_joint_view(const ipx_sim *sim, int i, ipx_joint_view *out)
{
    const scene_joint *j = &sim->scene->joints[i];
    out->body[0] = j->parent >= 0 ? sim->link_body[j->parent] : -1;
    out->body[1] = j->child >= 0 ? sim->link_body[j->child] : -1;
    for (int a = 0; a < 3; a++) out->anchor[a] = j->anchor[a];
}
