/* The surface settings Gazebo writes beyond ODE's contact parameters: torsional friction (which
   ODE 0.16 does not have: accepted where it has no effect) and the contact filters (collide and
   category bitmasks, which become ODE's collide and category bits; collide_without_contact). */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sdf_parse.h"

/* <torsional>: the torque limit is coefficient x normal force x a radius, the patch radius or
   (use_patch_radius false) one from the surface radius; none of them, no torque. */
void sdf_parse_torsional(sdf_load *ld, const xmlNode *node)
{
    double coefficient = 1.0, patch = 0.0, surface = 0.0, slip = 0.0; /* SDF 1.6 defaults */
    int use_patch = 1;
    for (const xmlNode *c = sdf_first(node); c; c = sdf_next(c)) {
        if (sdf_is(c, "coefficient")) sdf_double_in(&ld->diag, c, 0.0, INFINITY, "", &coefficient);
        else if (sdf_is(c, "use_patch_radius")) sdf_bool(&ld->diag, c, &use_patch);
        else if (sdf_is(c, "patch_radius")) sdf_double_in(&ld->diag, c, 0.0, INFINITY, "m", &patch);
        else if (sdf_is(c, "surface_radius"))
            sdf_double_in(&ld->diag, c, 0.0, INFINITY, "m", &surface);
        else if (sdf_is(c, "ode")) {
            for (const xmlNode *o = sdf_first(c); o; o = sdf_next(o))
                if (sdf_is(o, "slip"))
                    sdf_double_in(&ld->diag, o, 0.0, INFINITY, "", &slip); /* no torque, no slip */
                else sdf_unhandled(&ld->diag, o);
        } else sdf_unhandled(&ld->diag, c);
    }
    const double radius = use_patch ? patch : surface;
    if (coefficient > 0 && radius > 0)
        sdf_error(&ld->diag, node,
                  "<torsional> friction with coefficient %g and %s %g m is not supported: ODE 0.16 "
                  "has no torsional friction (set <coefficient> or the radius to 0)",
                  coefficient, use_patch ? "<patch_radius>" : "<surface_radius>", radius);
}

/* A bitmask: decimal, or hexadecimal after 0x, at most 32 bits (Gazebo's unsigned int). */
static int parse_bits(sdf_load *ld, const xmlNode *node, unsigned long *out)
{
    char *text = sdf_text_dup(&ld->diag, node);
    if (!text) return -1;
    const int hex = text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
    char *end = NULL;
    errno = 0;
    const unsigned long v =
        isdigit((unsigned char)text[0]) ? strtoul(text + (hex ? 2 : 0), &end, hex ? 16 : 10) : 0;
    const int ok =
        end && end != text + (hex ? 2 : 0) && *end == '\0' && errno == 0 && v <= 0xffffffffUL;
    if (ok) *out = v;
    else
        sdf_error(&ld->diag, node,
                  "<%s> must be a bitmask of at most 32 bits (decimal, or hexadecimal after 0x), "
                  "got '%s'",
                  (const char *)node->name, text);
    free(text);
    return ok ? 0 : -1;
}

static int has_sibling(const xmlNode *node, const char *name)
{
    for (const xmlNode *c = sdf_first(node->parent); c; c = sdf_next(c))
        if (sdf_is(c, name)) return 1;
    return 0;
}

int sdf_parse_contact_bits(sdf_load *ld, const xmlNode *node, scene_collision *col)
{
    if (sdf_is(node, "collide_bitmask")) {
        /* SDF: without a category bitmask, the category is the collide bitmask */
        if (parse_bits(ld, node, &col->collide_bits) == 0 && !has_sibling(node, "category_bitmask"))
            col->category_bits = col->collide_bits;
    } else if (sdf_is(node, "category_bitmask")) {
        parse_bits(ld, node, &col->category_bits);
    } else if (sdf_is(node, "collide_without_contact")) {
        int without = 0;
        if (sdf_bool(&ld->diag, node, &without) == 0 && without)
            sdf_error(
                &ld->diag, node,
                "<collide_without_contact> true is not supported: impax makes every contact "
                "it detects (Gazebo's contact-sensor-only collisions have no ODE counterpart)");
    } else if (sdf_is(node, "collide_without_contact_bitmask")) {
        unsigned long unused;
        parse_bits(ld, node, &unused); /* used only with collide_without_contact */
    } else {
        return 0;
    }
    return 1;
}
