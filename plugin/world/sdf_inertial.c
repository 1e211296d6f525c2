/* <inertial>: mass, inertia tensor and inertial frame of a link. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sdf_parse.h"

/* <inertia>: the six entries of the symmetric tensor (SDF defaults: identity). */
static void parse_inertia(sdf_load *ld, const xmlNode *node, double I[9])
{
    static const char *const names[6] = {"ixx", "ixy", "ixz", "iyy", "iyz", "izz"};
    static const int at[6][2] = {{0, 0}, {0, 1}, {0, 2}, {1, 1}, {1, 2}, {2, 2}};
    for (const xmlNode *c = sdf_first(node); c; c = sdf_next(c)) {
        int k = 0;
        while (k < 6 && !sdf_is(c, names[k])) k++;
        if (k == 6) {
            sdf_unhandled(&ld->diag, c);
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

void sdf_parse_inertial(sdf_load *ld, const xmlNode *node, int link_index)
{
    ipx_pose local = ipx_pose_identity();
    scene_link *link = &ld->scene->links[link_index];
    for (const xmlNode *c = sdf_first(node); c; c = sdf_next(c)) {
        if (sdf_is(c, "mass")) {
            double m;
            if (sdf_double(&ld->diag, c, &m) != 0) continue;
            if (!(m > 0)) sdf_error(&ld->diag, c, "<mass> of link '%s' must be > 0 kg, got %g", sdf_s(link->name), m);
            else link->mass = m;
        } else if (sdf_is(c, "inertia")) {
            parse_inertia(ld, c, link->inertia);
            if (!inertia_valid(link->inertia))
                sdf_error(&ld->diag, c, "<inertia> of link '%s' is not a rigid body's (it must be positive "
                          "definite and its moments must satisfy the triangle inequality)", sdf_s(link->name));
        } else if (sdf_is(c, "pose")) {
            sdf_pose(&ld->diag, c, &local);
        } else {
            sdf_unhandled(&ld->diag, c);
        }
    }
    link->inertial = ipx_pose_compose(&link->pose, &local);
}
