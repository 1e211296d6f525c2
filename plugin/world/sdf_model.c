/* <model> (nested too) and <link>. SDF 1.6 frames: a model's pose is relative to its parent (the
   world or the enclosing model), a link's to its model, an inertial's and a collision's to their
   link. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ranges.h"
#include "sdf_parse.h"

/* An initial velocity (m/s or rad/s, world frame): three numbers of norm at most RANGE_SPEED. */
static int parse_velocity(sdf_load *ld, const xmlNode *node, const char *unit, double out[3])
{
    double v[3];
    if (sdf_doubles(&ld->diag, node, v, 3) != 0) return -1;
    const double norm = ipx_vec3_norm(v);
    if (norm > RANGE_SPEED) {
        sdf_error(&ld->diag, node, "<impax:%s> of norm %g %s is out of range: at most %g %s",
                  (const char *)node->name, norm, unit, RANGE_SPEED, unit);
        return -1;
    }
    memcpy(out, v, sizeof v);
    return 0;
}

/* <velocity_decay>: ODE's damping scales, the fraction of the velocity removed each step. */
static void parse_velocity_decay(sdf_load *ld, const xmlNode *node, double damping[2])
{
    for (const xmlNode *c = sdf_first(node); c; c = sdf_next(c)) {
        if (sdf_is(c, "linear")) sdf_double_in(&ld->diag, c, 0.0, 1.0, "", &damping[0]);
        else if (sdf_is(c, "angular")) sdf_double_in(&ld->diag, c, 0.0, 1.0, "", &damping[1]);
        else sdf_unhandled(&ld->diag, c);
    }
}

/* The children of <link> other than <pose>. */
static void parse_link_child(sdf_load *ld, const xmlNode *c, int index)
{
    scene_link *link = &ld->scene->links[index];
    if (sdf_is(c, "inertial")) sdf_parse_inertial(ld, c, index);
    else if (sdf_is(c, "collision")) sdf_parse_collision(ld, c, index);
    else if (sdf_is(c, "gravity")) sdf_bool(&ld->diag, c, &link->gravity);
    else if (sdf_is(c, "self_collide")) sdf_bool(&ld->diag, c, &link->self_collide);
    else if (sdf_is(c, "kinematic")) sdf_bool(&ld->diag, c, &link->kinematic);
    else if (sdf_is(c, "velocity_decay")) parse_velocity_decay(ld, c, link->damping);
    else if (sdf_is_impax(c, "linear_velocity"))
        link->has_v0 = parse_velocity(ld, c, "m/s", link->v0) == 0;
    else if (sdf_is_impax(c, "angular_velocity"))
        link->has_w0 = parse_velocity(ld, c, "rad/s", link->w0) == 0;
    else sdf_unhandled(&ld->diag, c);
}

void sdf_parse_link(sdf_load *ld, const xmlNode *node, const sdf_scope *model)
{
    scene_link *link = sdf_append(ld, 1);
    if (!link) return;
    const int index = ld->scene->n_links - 1;
    char *name = sdf_attr_dup(&ld->diag, node, "name");
    if (name && !name[0]) sdf_error(&ld->diag, node, "<link> without a name");
    link->name = sdf_scoped(&ld->diag, model->prefix, sdf_s(name));
    free(name);
    link->line = (int)xmlGetLineNo(node);
    link->model = model->top_model;
    link->is_static = model->is_static;
    link->self_collide = model->self_collide;
    link->gravity = 1;
    link->mass = 1.0; /* SDF defaults */
    link->inertia[0] = link->inertia[4] = link->inertia[8] = 1.0;
    ipx_pose local = ipx_pose_identity();
    for (const xmlNode *c = sdf_first(node); c; c = sdf_next(c))
        if (sdf_is(c, "pose")) sdf_pose(&ld->diag, c, &local);
    link->pose = ipx_pose_compose(&model->pose, &local);
    link->inertial = link->pose;
    link->first_collision = ld->scene->n_collisions;
    for (const xmlNode *c = sdf_first(node); c; c = sdf_next(c))
        if (!sdf_is(c, "pose")) parse_link_child(ld, c, index);
    link = &ld->scene->links[index];
    link->n_collisions = ld->scene->n_collisions - link->first_collision;
}

/* A model's own settings, read before its links because SDF allows them in any order. */
static void parse_model_settings(sdf_load *ld, const xmlNode *node, ipx_pose *local,
                                 sdf_scope *scope)
{
    for (const xmlNode *c = sdf_first(node); c; c = sdf_next(c)) {
        if (sdf_is(c, "pose")) sdf_pose(&ld->diag, c, local);
        else if (sdf_is(c, "static")) sdf_bool(&ld->diag, c, &scope->is_static);
        else if (sdf_is(c, "self_collide")) sdf_bool(&ld->diag, c, &scope->self_collide);
    }
}

void sdf_parse_model(sdf_load *ld, const xmlNode *node, const sdf_scope *parent)
{
    char *name = sdf_attr_dup(&ld->diag, node, "name");
    if (name && !name[0]) sdf_error(&ld->diag, node, "<model> without a name");
    char *full = sdf_scoped(&ld->diag, parent->prefix, sdf_s(name));
    free(name);
    scene_model *m = sdf_append(ld, 0);
    if (!m) {
        free(full);
        return;
    }
    const int index = ld->scene->n_models - 1;
    m->name = full; /* the scene owns it; the scope below only borrows it */
    m->line = (int)xmlGetLineNo(node);
    m->top = parent->top_model < 0 ? index : parent->top_model;
    sdf_scope scope = *parent;
    scope.prefix = sdf_s(full);
    scope.top_model = m->top;
    ipx_pose local = ipx_pose_identity();
    parse_model_settings(ld, node, &local, &scope);
    scope.pose = ipx_pose_compose(&parent->pose, &local);
    ld->scene->models[index].pose = scope.pose;
    for (const xmlNode *c = sdf_first(node); c; c = sdf_next(c)) {
        if (sdf_is(c, "pose") || sdf_is(c, "static") || sdf_is(c, "self_collide") ||
            sdf_is(c, "joint"))
            continue;
        if (sdf_is(c, "link")) sdf_parse_link(ld, c, &scope);
        else if (sdf_is(c, "model")) sdf_parse_model(ld, c, &scope);
        else sdf_unhandled(&ld->diag, c);
    }
    for (const xmlNode *c = sdf_first(node); c; c = sdf_next(c)) /* joints name links: after them */
        if (sdf_is(c, "joint")) sdf_parse_joint(ld, c, &scope);
}
