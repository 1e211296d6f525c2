/* <collision>: its <geometry> and <surface> (bounce, friction, contact), SDF 1.6 defaults. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ranges.h"
#include "sdf_parse.h"

static void surface_defaults(scene_surface *s)
{
    memset(s, 0, sizeof *s);
    s->bounce_threshold = 100000.0; /* SDF: bounce effectively off */
    s->mu = s->mu2 = 1.0;
    s->kp = 1e12;
    s->kd = 1.0;
    s->max_vel = 0.01;
}

/* A length of a shape, e.g. <radius>, in the sizes' range. */
static void length(sdf_load *ld, const xmlNode *node, double *out)
{
    sdf_double_in(&ld->diag, node, RANGE_SIZE_MIN, RANGE_SIZE_MAX, "m", out);
}

/* <box><size>: three lengths in the sizes' range. */
static void box_size(sdf_load *ld, const xmlNode *node, double size[3])
{
    double v[3];
    if (sdf_doubles(&ld->diag, node, v, 3) != 0) return;
    for (int i = 0; i < 3; i++)
        if (!(v[i] >= RANGE_SIZE_MIN && v[i] <= RANGE_SIZE_MAX)) {
            sdf_error(&ld->diag, node, "<size> of a box: %g m is out of range [%g, %g] m", v[i],
                      RANGE_SIZE_MIN, RANGE_SIZE_MAX);
            return;
        }
    memcpy(size, v, sizeof v);
}

/* <plane><normal>: any nonzero direction (normalised without overflow). */
static void plane_normal(sdf_load *ld, const xmlNode *node, double normal[3])
{
    double n[3];
    if (sdf_doubles(&ld->diag, node, n, 3) != 0) return;
    if (ipx_vec3_unit(n, normal) != 0)
        sdf_error(&ld->diag, node, "<normal> of a plane must not be zero");
}

static void parse_shape(sdf_load *ld, const xmlNode *shape, scene_collision *col)
{
    const int errors = ld->diag.errors;
    for (const xmlNode *c = sdf_first(shape); c; c = sdf_next(c)) {
        if (col->type == GEOM_BOX && sdf_is(c, "size")) box_size(ld, c, col->size);
        else if (col->type != GEOM_BOX && col->type != GEOM_PLANE && sdf_is(c, "radius"))
            length(ld, c, &col->size[0]);
        else if ((col->type == GEOM_CYLINDER || col->type == GEOM_CAPSULE) && sdf_is(c, "length"))
            length(ld, c, &col->size[1]);
        else if (col->type == GEOM_PLANE && sdf_is(c, "normal")) plane_normal(ld, c, col->normal);
        else if (!(col->type == GEOM_PLANE &&
                   sdf_is(c, "size"))) /* a plane's size: visual extent only */
            sdf_unhandled(&ld->diag, c);
    }
    int missing =
        (col->type == GEOM_BOX && col->size[0] == 0) ||
        ((col->type == GEOM_SPHERE || col->type == GEOM_CYLINDER || col->type == GEOM_CAPSULE) &&
         col->size[0] == 0) ||
        ((col->type == GEOM_CYLINDER || col->type == GEOM_CAPSULE) && col->size[1] == 0);
    if (missing && ld->diag.errors == errors)
        sdf_error(&ld->diag, shape, "<%s> lacks its dimensions", (const char *)shape->name);
}

static void parse_geometry(sdf_load *ld, const xmlNode *node, scene_collision *col)
{
    static const char *const names[] = {"box", "sphere", "cylinder", "capsule", "plane"};
    int shapes = 0;
    col->normal[2] = 1.0; /* SDF's plane default */
    for (const xmlNode *c = sdf_first(node); c; c = sdf_next(c)) {
        int t = 0;
        while (t < 5 && !sdf_is(c, names[t])) t++;
        if (t == 5) {
            sdf_error(
                &ld->diag, c,
                "geometry <%s> is not supported (impax: box, sphere, cylinder, capsule, plane)",
                (const char *)c->name);
            shapes++;
            continue;
        }
        col->type = (geom_type)t;
        shapes++;
        parse_shape(ld, c, col);
    }
    if (shapes != 1)
        sdf_error(&ld->diag, node, "<geometry> must hold exactly one shape, found %d", shapes);
}

static void parse_bounce(sdf_load *ld, const xmlNode *node, scene_surface *s)
{
    for (const xmlNode *c = sdf_first(node); c; c = sdf_next(c)) {
        if (sdf_is(c, "restitution_coefficient"))
            sdf_double_in(&ld->diag, c, 0.0, 1.0, "", &s->bounce);
        else if (sdf_is(c, "threshold"))
            sdf_double_in(&ld->diag, c, 0.0, INFINITY, "m/s", &s->bounce_threshold);
        else sdf_unhandled(&ld->diag, c);
    }
}

/* <mu>, <mu2>: a coefficient >= 0, or inf (ODE's dInfinity: the contact never slides). */
static void parse_mu(sdf_load *ld, const xmlNode *node, double *out)
{
    char *text = sdf_text_dup(&ld->diag, node);
    if (!text) return;
    const int infinite = strcasecmp(text, "inf") == 0 || strcasecmp(text, "infinity") == 0;
    free(text);
    if (infinite) *out = INFINITY;
    else sdf_double_in(&ld->diag, node, 0.0, INFINITY, "", out);
}

/* <fdir1>: a direction in the collision frame; SDF's 0 0 0 means none. */
static void parse_fdir1(sdf_load *ld, const xmlNode *node, scene_surface *s)
{
    double d[3];
    if (sdf_doubles(&ld->diag, node, d, 3) != 0) return;
    s->has_fdir1 = ipx_vec3_unit(d, s->fdir1) == 0;
}

static void parse_friction_ode(sdf_load *ld, const xmlNode *node, scene_surface *s)
{
    for (const xmlNode *o = sdf_first(node); o; o = sdf_next(o)) {
        if (sdf_is(o, "mu")) parse_mu(ld, o, &s->mu);
        else if (sdf_is(o, "mu2")) parse_mu(ld, o, &s->mu2);
        else if (sdf_is(o, "slip1"))
            sdf_double_in(&ld->diag, o, 0.0, INFINITY, "m/(N s)", &s->slip1);
        else if (sdf_is(o, "slip2"))
            sdf_double_in(&ld->diag, o, 0.0, INFINITY, "m/(N s)", &s->slip2);
        else if (sdf_is(o, "fdir1")) parse_fdir1(ld, o, s);
        else sdf_unhandled(&ld->diag, o);
    }
}

static void parse_friction(sdf_load *ld, const xmlNode *node, scene_surface *s)
{
    for (const xmlNode *c = sdf_first(node); c; c = sdf_next(c)) {
        if (sdf_is(c, "ode")) parse_friction_ode(ld, c, s);
        else if (sdf_is(c, "torsional")) sdf_parse_torsional(ld, c);
        else if (!sdf_is(c, "bullet"))
            sdf_unhandled(&ld->diag, c); /* bullet: another engine's settings */
    }
}

static void parse_contact_ode(sdf_load *ld, const xmlNode *node, scene_surface *s)
{
    double unused;
    for (const xmlNode *o = sdf_first(node); o; o = sdf_next(o)) {
        if (sdf_is(o, "kp")) sdf_double_in(&ld->diag, o, 1e-9, INFINITY, "N/m", &s->kp);
        else if (sdf_is(o, "kd")) sdf_double_in(&ld->diag, o, 0.0, INFINITY, "N s/m", &s->kd);
        else if (sdf_is(o, "min_depth")) sdf_double_in(&ld->diag, o, 0.0, 1.0, "m", &s->min_depth);
        else if (sdf_is(o, "max_vel"))
            sdf_double_in(&ld->diag, o, -1.0, INFINITY, "m/s", &s->max_vel);
        /* Gazebo derives soft_erp/soft_cfm from kp and kd and ignores these two (docs/ode-host.md §7) */
        else if (sdf_is(o, "soft_cfm") || sdf_is(o, "soft_erp"))
            sdf_double_in(&ld->diag, o, 0.0, INFINITY, "", &unused);
        else sdf_unhandled(&ld->diag, o);
    }
}

static void parse_contact(sdf_load *ld, const xmlNode *node, scene_collision *col)
{
    for (const xmlNode *c = sdf_first(node); c; c = sdf_next(c)) {
        if (sdf_is(c, "ode")) parse_contact_ode(ld, c, &col->surface);
        else if (!sdf_parse_contact_bits(ld, c, col) && !sdf_is(c, "bullet") &&
                 !sdf_is(c, "poissons_ratio") &&
                 !sdf_is(c, "elastic_modulus")) /* other engines' settings */
            sdf_unhandled(&ld->diag, c);
    }
}

static void parse_surface(sdf_load *ld, const xmlNode *node, scene_collision *col)
{
    for (const xmlNode *c = sdf_first(node); c; c = sdf_next(c)) {
        if (sdf_is(c, "bounce")) parse_bounce(ld, c, &col->surface);
        else if (sdf_is(c, "friction")) parse_friction(ld, c, &col->surface);
        else if (sdf_is(c, "contact")) parse_contact(ld, c, col);
        else sdf_unhandled(&ld->diag, c);
    }
}

void sdf_parse_collision(sdf_load *ld, const xmlNode *node, int link_index)
{
    scene_collision *col = sdf_append(ld, 2);
    if (!col) return;
    const scene_link *link = &ld->scene->links[link_index];
    col->name = sdf_attr_dup(&ld->diag, node, "name");
    if (col->name && !col->name[0]) sdf_error(&ld->diag, node, "<collision> without a name");
    col->line = (int)xmlGetLineNo(node);
    col->link = link_index;
    surface_defaults(&col->surface);
    col->max_contacts = 10; /* SDF 1.6 default */
    col->collide_bits = col->category_bits =
        0xffff; /* SDF 1.6 defaults: every collision touches every other */
    ipx_pose local = ipx_pose_identity();
    int has_geometry = 0;
    for (const xmlNode *c = sdf_first(node); c; c = sdf_next(c)) {
        if (sdf_is(c, "pose")) sdf_pose(&ld->diag, c, &local);
        else if (sdf_is(c, "geometry")) {
            parse_geometry(ld, c, col);
            has_geometry = 1;
        } else if (sdf_is(c, "surface")) parse_surface(ld, c, col);
        else if (sdf_is(c, "max_contacts")) sdf_int_in(&ld->diag, c, 0, 10000, &col->max_contacts);
        else sdf_unhandled(&ld->diag, c);
    }
    const char *name = sdf_s(col->name);
    if (!has_geometry) sdf_error(&ld->diag, node, "<collision> '%s' has no <geometry>", name);
    if (col->type == GEOM_PLANE && !link->is_static)
        sdf_error(
            &ld->diag, node,
            "plane '%s' on link '%s': a plane is infinite, so it must belong to a static model",
            name, sdf_s(link->name));
    col->pose = ipx_pose_compose(&link->pose, &local);
    if (col->surface.bounce > 0 &&
        col->surface.bounce_threshold >= 1e4) /* SDF's default: 100000 m/s */
        sdf_warn(&ld->diag, node,
                 "collision '%s' has restitution %g but a bounce threshold of %g m/s, so it never "
                 "bounces (Gazebo's default); set <bounce><threshold>",
                 name, col->surface.bounce, col->surface.bounce_threshold);
}
