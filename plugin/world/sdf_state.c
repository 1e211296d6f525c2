/* <state>: the poses and velocities Gazebo saves with a world, applied once every model is loaded
   as Gazebo's World::SetState does: a model's pose moves its links rigidly, then each link's
   pose and velocity are set; joints keep their frames on the child links; joint states, the
   clock and collision states change nothing. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ranges.h"
#include "sdf_parse.h"

/* p <- delta p (a point). */
static void move_point(const ipx_pose *delta, double p[3])
{
    ipx_pose_rotate(delta, p, p);
    for (int i = 0; i < 3; i++) p[i] += delta->p[i];
}

/* Moves link i by delta (in the world) with what hangs on it: its inertial frame, its
   collisions, the frames of the joints it is the child of. */
static void move_link(ipx_scene *s, int i, const ipx_pose *delta)
{
    scene_link *l = &s->links[i];
    l->pose = ipx_pose_compose(delta, &l->pose);
    l->inertial = ipx_pose_compose(delta, &l->inertial);
    for (int c = l->first_collision; c < l->first_collision + l->n_collisions; c++)
        s->collisions[c].pose = ipx_pose_compose(delta, &s->collisions[c].pose);
    for (int j = 0; j < s->n_joints; j++) {
        if (s->joints[j].child != i) continue;
        move_point(delta, s->joints[j].anchor);
        for (int a = 0; a < 2; a++)
            ipx_pose_rotate(delta, s->joints[j].axis[a].xyz, s->joints[j].axis[a].xyz);
    }
}

/* The pose that takes `from` to `to` (both in the world): to from^-1. */
static ipx_pose moving(const ipx_pose *from, const ipx_pose *to)
{
    const ipx_pose back = ipx_pose_inverse(from);
    return ipx_pose_compose(to, &back);
}

/* 1 if name is prefix::something. */
static int inside(const char *name, const char *prefix)
{
    const size_t n = strlen(prefix);
    return strncmp(name, prefix, n) == 0 && name[n] == ':' && name[n + 1] == ':';
}

/* <velocity> of a link state: the link origin's velocity and the angular velocity, world frame;
   impax keeps the centre of mass's. An impax: velocity of the link wins over the state's. */
static void state_velocity(sdf_load *ld, const xmlNode *node, scene_link *l)
{
    double v[6];
    if (sdf_doubles(&ld->diag, node, v, 6) != 0) return;
    const double speed = fmax(ipx_vec3_norm(v), ipx_vec3_norm(v + 3));
    if (speed > RANGE_SPEED) {
        sdf_error(&ld->diag, node,
                  "<velocity> of link '%s' in <state>: %g m/s or rad/s is out of range: at most %g",
                  sdf_s(l->name), speed, RANGE_SPEED);
        return;
    }
    if ((l->has_v0 || l->has_w0) && speed > 0)
        sdf_warn(&ld->diag, node,
                 "<velocity> of link '%s' in <state> ignored: its impax: velocity is used",
                 sdf_s(l->name));
    const double *w = v + 3,
                 r[3] = {l->inertial.p[0] - l->pose.p[0], l->inertial.p[1] - l->pose.p[1],
                         l->inertial.p[2] - l->pose.p[2]};
    if (!l->has_w0) memcpy(l->w0, w, sizeof l->w0);
    if (!l->has_v0) {
        const double wr[3] = {w[1] * r[2] - w[2] * r[1], w[2] * r[0] - w[0] * r[2],
                              w[0] * r[1] - w[1] * r[0]};
        for (int i = 0; i < 3; i++) l->v0[i] = v[i] + wr[i];
    }
}

static void state_link(sdf_load *ld, const xmlNode *node, const char *model)
{
    char *name = sdf_attr_dup(&ld->diag, node, "name"),
         *full = sdf_scoped(&ld->diag, model, sdf_s(name));
    ipx_scene *s = ld->scene;
    const int i = full ? sdf_find_link(s, full) : -1;
    if (i < 0 && full)
        sdf_error(&ld->diag, node, "<state>: model '%s' has no link '%s'", model, sdf_s(name));
    free(name);
    free(full);
    if (i < 0) return;
    ipx_pose pose;
    for (const xmlNode *c = sdf_first(node); c;
         c = sdf_next(c)) /* the pose first: velocities refer to it */
        if (sdf_is(c, "pose") && sdf_pose(&ld->diag, c, &pose) == 0) {
            const ipx_pose delta = moving(&s->links[i].pose, &pose);
            move_link(s, i, &delta);
        }
    for (const xmlNode *c = sdf_first(node); c; c = sdf_next(c)) {
        double unused[6];
        if (sdf_is(c, "velocity")) state_velocity(ld, c, &s->links[i]);
        else if (sdf_is(c, "wrench") && sdf_doubles(&ld->diag, c, unused, 6) == 0) {
            memcpy(s->links[i].force, unused,
                   sizeof s->links[i].force); /* Gazebo: SetForce, SetTorque */
            memcpy(s->links[i].torque, unused + 3, sizeof s->links[i].torque);
        } else if (sdf_is(c, "acceleration"))
            sdf_doubles(&ld->diag, c, unused, 6); /* a record: sets nothing */
        else if (!sdf_is(c, "pose") && !sdf_is(c, "collision") && !sdf_is(c, "wrench"))
            sdf_unhandled(&ld->diag, c);
    }
}

/* A model state's pose moves the model's links and nested models rigidly. */
static void move_model(ipx_scene *s, int m, const ipx_pose *to)
{
    const ipx_pose delta = moving(&s->models[m].pose, to);
    const char *name = sdf_s(s->models[m].name);
    for (int i = 0; i < s->n_links; i++)
        if (inside(sdf_s(s->links[i].name), name)) move_link(s, i, &delta);
    for (int i = 0; i < s->n_models; i++)
        if (i == m || inside(sdf_s(s->models[i].name), name))
            s->models[i].pose = ipx_pose_compose(&delta, &s->models[i].pose);
}

static void state_scale(sdf_load *ld, const xmlNode *node)
{
    double k[3];
    if (sdf_doubles(&ld->diag, node, k, 3) == 0 && (k[0] != 1 || k[1] != 1 || k[2] != 1))
        sdf_error(&ld->diag, node,
                  "<scale> %g %g %g in <state> is not supported: impax does not scale shapes "
                  "(write the scaled sizes into the model)",
                  k[0], k[1], k[2]);
}

static void state_model(sdf_load *ld, const xmlNode *node, const char *prefix)
{
    char *name = sdf_attr_dup(&ld->diag, node, "name"),
         *full = sdf_scoped(&ld->diag, prefix, sdf_s(name));
    ipx_scene *s = ld->scene;
    const int m = full ? sdf_find_model(s, full) : -1;
    if (m < 0 && full)
        sdf_error(&ld->diag, node, "<state> of model '%s': the world has no such model", full);
    free(name);
    if (m >= 0) {
        ipx_pose pose;
        for (const xmlNode *c = sdf_first(node); c;
             c = sdf_next(c)) /* the model first, then its parts */
            if (sdf_is(c, "pose") && sdf_pose(&ld->diag, c, &pose) == 0) move_model(s, m, &pose);
        for (const xmlNode *c = sdf_first(node); c; c = sdf_next(c)) {
            if (sdf_is(c, "link")) state_link(ld, c, full);
            else if (sdf_is(c, "model")) state_model(ld, c, full);
            else if (sdf_is(c, "scale")) state_scale(ld, c);
            else if (!sdf_is(c, "pose") && !sdf_is(c, "joint"))
                sdf_unhandled(&ld->diag, c); /* joint states: unused */
        }
    }
    free(full);
}

void sdf_parse_state(sdf_load *ld, const xmlNode *node)
{
    for (const xmlNode *c = sdf_first(node); c; c = sdf_next(c)) {
        if (sdf_is(c, "model")) state_model(ld, c, "");
        else if (sdf_is(c, "insertions") || sdf_is(c, "deletions")) {
            if (sdf_first(c))
                sdf_error(
                    &ld->diag, c,
                    "<%s> in <state> is not supported: write the world as it is at that state",
                    (const char *)c->name);
        } else if (!sdf_is(c, "sim_time") && !sdf_is(c, "real_time") && !sdf_is(c, "wall_time") &&
                   !sdf_is(c, "iterations")) { /* the clock: impax starts at 0 s */
            sdf_unhandled(&ld->diag, c);
        }
    }
}
