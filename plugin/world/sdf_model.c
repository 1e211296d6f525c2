/* <model> (nested too) and <link> with its <inertial>. SDF 1.6 frames: a model's pose is
   relative to its parent (the world or the enclosing model), a link's to its model, an
   inertial's and a collision's to their link. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sdf_parse.h"

static void scoped(char *out, size_t size, const char *prefix, const char *name)
{
    snprintf(out, size, "%s%s%s", prefix, prefix[0] ? "::" : "", name);
}

/* <inertia>: the six entries of the symmetric tensor (SDF defaults: identity). */
static void parse_inertia(sdf_load *ld, const xmlNode *node, double I[9])
{
    static const char *const names[6] = {"ixx", "ixy", "ixz", "iyy", "iyz", "izz"};
    static const int at[6][2] = {{0, 0}, {0, 1}, {0, 2}, {1, 1}, {1, 2}, {2, 2}};
    for (const xmlNode *c = sdf_first(node); c; c = sdf_next(c)) {
        int k = 0;
        while (k < 6 && !sdf_is(c, names[k])) k++;
        if (k == 6) {
            sdf_unhandled(&ld->diag, c, "inertia");
            continue;
        }
        double v;
        if (sdf_double(&ld->diag, c, &v) != 0) continue;
        I[3 * at[k][0] + at[k][1]] = I[3 * at[k][1] + at[k][0]] = v;
    }
}

/* Positive definite (Sylvester) and the triangle inequalities of a rigid body's principal moments
   hold for the tensor's diagonal in any frame. */
static int inertia_valid(const double I[9])
{
    double m1 = I[0], m2 = I[0] * I[4] - I[1] * I[3];
    double m3 = I[0] * (I[4] * I[8] - I[5] * I[7]) - I[1] * (I[3] * I[8] - I[5] * I[6]) +
                I[2] * (I[3] * I[7] - I[4] * I[6]);
    return m1 > 0 && m2 > 0 && m3 > 0 && I[0] + I[4] >= I[8] * (1 - 1e-9) && I[4] + I[8] >= I[0] * (1 - 1e-9) &&
           I[0] + I[8] >= I[4] * (1 - 1e-9);
}

static void parse_inertial(sdf_load *ld, const xmlNode *node, int link_index, const ipx_pose *link_pose)
{
    ipx_pose local = ipx_pose_identity();
    scene_link *link = &ld->scene->links[link_index];
    for (const xmlNode *c = sdf_first(node); c; c = sdf_next(c)) {
        if (sdf_is(c, "mass")) {
            double m;
            if (sdf_double(&ld->diag, c, &m) == 0 && !(m > 0))
                sdf_error(&ld->diag, c, "<mass> of link '%s' must be > 0 kg, got %g", link->name, m);
            else link->mass = m;
        } else if (sdf_is(c, "inertia")) {
            parse_inertia(ld, c, link->inertia);
            if (!inertia_valid(link->inertia))
                sdf_error(&ld->diag, c, "<inertia> of link '%s' is not a rigid body's (it must be positive "
                          "definite and its moments must satisfy the triangle inequality)", link->name);
        } else if (sdf_is(c, "pose")) {
            sdf_pose(&ld->diag, c, &local);
        } else {
            sdf_unhandled(&ld->diag, c, "inertial");
        }
    }
    link->inertial = ipx_pose_compose(link_pose, &local);
}

void sdf_parse_link(sdf_load *ld, const xmlNode *node, const ipx_pose *model_pose, const char *prefix,
                    int top_model, int is_static)
{
    scene_link *link = sdf_append(ld, 1);
    if (!link) return;
    int index = ld->scene->n_links - 1;
    char name[SCENE_NAME_SIZE];
    sdf_attr(node, "name", name, sizeof name);
    scoped(link->name, sizeof link->name, prefix, name);
    link->line = (int)xmlGetLineNo(node);
    link->model = top_model;
    link->is_static = is_static;
    link->gravity = 1;
    link->mass = 1.0; /* SDF defaults */
    link->inertia[0] = link->inertia[4] = link->inertia[8] = 1.0;
    if (!name[0]) sdf_error(&ld->diag, node, "<link> without a name");
    ipx_pose local = ipx_pose_identity();
    for (const xmlNode *c = sdf_first(node); c; c = sdf_next(c))
        if (sdf_is(c, "pose")) sdf_pose(&ld->diag, c, &local);
    link->pose = ipx_pose_compose(model_pose, &local);
    link->inertial = link->pose;
    link->first_collision = ld->scene->n_collisions;
    for (const xmlNode *c = sdf_first(node); c; c = sdf_next(c)) {
        link = &ld->scene->links[index];
        if (sdf_is(c, "pose")) continue;
        if (sdf_is(c, "inertial")) parse_inertial(ld, c, index, &link->pose);
        else if (sdf_is(c, "collision")) sdf_parse_collision(ld, c, &link->pose, link);
        else if (sdf_is(c, "gravity")) sdf_bool(&ld->diag, c, &link->gravity);
        else if (sdf_is_impax(c, "linear_velocity")) sdf_doubles(&ld->diag, c, link->v0, 3);
        else if (sdf_is_impax(c, "angular_velocity")) sdf_doubles(&ld->diag, c, link->w0, 3);
        else sdf_unhandled(&ld->diag, c, "link");
    }
    link = &ld->scene->links[index];
    link->n_collisions = ld->scene->n_collisions - link->first_collision;
}

/* A model's own settings, read before its links because SDF allows them in any order. */
static void parse_model_settings(sdf_load *ld, const xmlNode *node, ipx_pose *local, int *is_static,
                                 int *self_collide)
{
    for (const xmlNode *c = sdf_first(node); c; c = sdf_next(c)) {
        if (sdf_is(c, "pose")) sdf_pose(&ld->diag, c, local);
        else if (sdf_is(c, "static")) sdf_bool(&ld->diag, c, is_static);
        else if (sdf_is(c, "self_collide")) sdf_bool(&ld->diag, c, self_collide);
    }
}

void sdf_parse_model(sdf_load *ld, const xmlNode *node, const ipx_pose *parent, const char *prefix,
                     int top_model, int parent_static)
{
    char name[SCENE_NAME_SIZE], full[2 * SCENE_NAME_SIZE];
    sdf_attr(node, "name", name, sizeof name);
    if (!name[0]) sdf_error(&ld->diag, node, "<model> without a name");
    scoped(full, sizeof full, prefix, name);
    ipx_pose local = ipx_pose_identity();
    int is_static = parent_static, self_collide = 0;
    parse_model_settings(ld, node, &local, &is_static, &self_collide);
    if (top_model < 0) {
        scene_model *m = sdf_append(ld, 0);
        if (!m) return;
        snprintf(m->name, sizeof m->name, "%s", name);
        m->self_collide = self_collide;
        top_model = ld->scene->n_models - 1;
    }
    ipx_pose pose = ipx_pose_compose(parent, &local);
    for (const xmlNode *c = sdf_first(node); c; c = sdf_next(c)) {
        if (sdf_is(c, "pose") || sdf_is(c, "static") || sdf_is(c, "self_collide") || sdf_is(c, "joint")) continue;
        if (sdf_is(c, "link")) sdf_parse_link(ld, c, &pose, full, top_model, is_static);
        else if (sdf_is(c, "model")) sdf_parse_model(ld, c, &pose, full, top_model, is_static);
        else sdf_unhandled(&ld->diag, c, "model");
    }
    for (const xmlNode *c = sdf_first(node); c; c = sdf_next(c)) /* joints name links: after them */
        if (sdf_is(c, "joint")) sdf_parse_joint(ld, c, &pose, full);
}
