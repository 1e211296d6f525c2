/* <joint>: type, parent and child links, anchor and axes in the world. SDF 1.6: the joint's pose
   is relative to its child link; <axis><xyz> is in the joint frame, or in the model frame with
   <use_parent_model_frame>true</use_parent_model_frame>. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sdf_parse.h"

static const char *const type_names[] = {"revolute", "continuous", "prismatic", "ball",
                                         "fixed",    "universal",  "revolute2"};
enum { N_TYPES = (int)(sizeof type_names / sizeof type_names[0]) };

/* The link named `name` in the model `prefix` (or by its full name); -1 = world, -2 = none.
   (Two links of one name are an error of their own: sdf_check_scene.) */
static int find_link(sdf_load *ld, const char *prefix, const char *name)
{
    if (strcmp(name, "world") == 0) return -1;
    char *scoped = sdf_scoped(&ld->diag, prefix, name);
    int i = scoped ? sdf_find_link(ld->scene, scoped) : -1;
    free(scoped);
    if (i < 0) i = sdf_find_link(ld->scene, name);
    return i < 0 ? -2 : i;
}

/* <dynamics> with anything but zeros would need joint damping, friction or springs. */
static void parse_dynamics(sdf_load *ld, const xmlNode *node)
{
    for (const xmlNode *c = sdf_first(node); c; c = sdf_next(c)) {
        double v;
        if (!sdf_is(c, "damping") && !sdf_is(c, "friction") && !sdf_is(c, "spring_stiffness") &&
            !sdf_is(c, "spring_reference")) {
            sdf_unhandled(&ld->diag, c);
            continue;
        }
        if (sdf_double(&ld->diag, c, &v) != 0) continue;
        if (sdf_is(c, "spring_reference")) continue; /* meaningless without stiffness */
        if (v != 0.0)
            sdf_error(&ld->diag, c,
                      "<%s> %g: joint damping, friction and springs are not supported (use 0)",
                      (const char *)c->name, v);
    }
}

static void parse_limit(sdf_load *ld, const xmlNode *node, scene_axis *axis)
{
    axis->lower = -1e16; /* SDF defaults: unlimited */
    axis->upper = 1e16;
    for (const xmlNode *c = sdf_first(node); c; c = sdf_next(c)) {
        if (sdf_is(c, "lower")) sdf_double(&ld->diag, c, &axis->lower);
        else if (sdf_is(c, "upper")) sdf_double(&ld->diag, c, &axis->upper);
        else if (!sdf_is(c, "effort") && !sdf_is(c, "velocity") && !sdf_is(c, "stiffness") &&
                 !sdf_is(c, "dissipation"))
            sdf_unhandled(&ld->diag,
                          c); /* effort and velocity limit motors, which impax has none of */
    }
    axis->has_limits = axis->lower > -1e15 || axis->upper < 1e15;
    if (axis->lower > axis->upper)
        sdf_error(&ld->diag, node, "<limit>: lower %g > upper %g", axis->lower, axis->upper);
}

static void parse_axis(sdf_load *ld, const xmlNode *node, const ipx_pose *joint_pose,
                       const ipx_pose *model_pose, scene_axis *axis)
{
    double xyz[3] = {0, 0, 1};
    int in_model = 0;
    const xmlNode *xyz_node = node;
    for (const xmlNode *c = sdf_first(node); c; c = sdf_next(c)) {
        if (sdf_is(c, "xyz")) {
            sdf_doubles(&ld->diag, c, xyz, 3);
            xyz_node = c;
        } else if (sdf_is(c, "use_parent_model_frame")) sdf_bool(&ld->diag, c, &in_model);
        else if (sdf_is(c, "limit")) parse_limit(ld, c, axis);
        else if (sdf_is(c, "dynamics")) parse_dynamics(ld, c);
        else if (sdf_is(c, "initial_position")) continue; /* SDF marks it unused */
        else sdf_unhandled(&ld->diag, c);
    }
    if (ipx_vec3_unit(xyz, xyz) != 0) {
        sdf_error(&ld->diag, xyz_node, "<xyz> of a joint axis must not be zero");
        return;
    }
    ipx_pose_rotate(in_model ? model_pose : joint_pose, xyz, axis->xyz);
}

static int parse_type(sdf_load *ld, const xmlNode *node, joint_type *type)
{
    char t[32];
    sdf_attr(node, "type", t, sizeof t);
    for (int i = 0; i < N_TYPES; i++)
        if (strcmp(t, type_names[i]) == 0) {
            *type = (joint_type)i;
            return 0;
        }
    sdf_error(&ld->diag, node,
              "joint type '%s' is not supported (impax: revolute, continuous, prismatic, ball, "
              "fixed, universal, revolute2)",
              t);
    return -1;
}

/* The <parent> or <child> link: its index, -1 for the world, -2 after an error. */
static int parse_link_ref(sdf_load *ld, const xmlNode *joint, const char *which, const char *prefix,
                          const char *joint_name)
{
    for (const xmlNode *c = sdf_first(joint); c; c = sdf_next(c)) {
        if (!sdf_is(c, which)) continue;
        char *name = sdf_text_dup(&ld->diag, c);
        if (!name) return -2;
        int i = find_link(ld, prefix, name);
        if (i == -2)
            sdf_error(&ld->diag, c, "joint '%s': %s link '%s' not found in model '%s'", joint_name,
                      which, name, prefix);
        free(name);
        return i;
    }
    sdf_error(&ld->diag, joint, "joint '%s' has no <%s>", joint_name, which);
    return -2;
}

/* The joint's frame (its pose relative to the child link) and its axes in the world. */
static void place_joint(sdf_load *ld, const xmlNode *node, const sdf_scope *model, scene_joint *j)
{
    ipx_pose local = ipx_pose_identity();
    for (const xmlNode *c = sdf_first(node); c; c = sdf_next(c))
        if (sdf_is(c, "pose")) sdf_pose(&ld->diag, c, &local);
    ipx_pose pose = ipx_pose_compose(&ld->scene->links[j->child].pose, &local);
    memcpy(j->anchor, pose.p, sizeof j->anchor);
    static const double z[3] = {0, 0, 1};
    for (int a = 0; a < 2; a++) ipx_pose_rotate(&pose, z, j->axis[a].xyz);
    for (const xmlNode *c = sdf_first(node); c; c = sdf_next(c)) {
        if (sdf_is(c, "pose") || sdf_is(c, "parent") || sdf_is(c, "child")) continue;
        if (sdf_is(c, "axis")) parse_axis(ld, c, &pose, &model->pose, &j->axis[0]);
        else if (sdf_is(c, "axis2")) parse_axis(ld, c, &pose, &model->pose, &j->axis[1]);
        else sdf_unhandled(&ld->diag, c);
    }
}

void sdf_parse_joint(sdf_load *ld, const xmlNode *node, const sdf_scope *model)
{
    joint_type type;
    if (parse_type(ld, node, &type) != 0) return;
    char *name = sdf_attr_dup(&ld->diag, node, "name");
    if (name && !name[0]) sdf_error(&ld->diag, node, "<joint> without a name");
    const int parent = parse_link_ref(ld, node, "parent", model->prefix, sdf_s(name));
    const int child = parse_link_ref(ld, node, "child", model->prefix, sdf_s(name));
    scene_joint *j = NULL;
    if (parent == -2 || child == -2) {
        /* reported */
    } else if (child == -1) {
        sdf_error(&ld->diag, node, "joint '%s': the child cannot be the world", sdf_s(name));
    } else if (child == parent) {
        sdf_error(&ld->diag, node, "joint '%s' joins link '%s' to itself", sdf_s(name),
                  sdf_s(ld->scene->links[child].name));
    } else {
        j = sdf_append(ld, 3);
    }
    if (j) {
        j->name = sdf_scoped(&ld->diag, model->prefix, sdf_s(name));
        j->line = (int)xmlGetLineNo(node);
        j->type = type;
        j->parent = parent;
        j->child = child;
        place_joint(ld, node, model, j);
    }
    free(name);
}
