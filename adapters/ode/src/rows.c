/* Jacobian rows of ODE joints and contacts from the public getters (docs/ode-host.md §2.1).
   Each joint's rows span the same space as ODE 0.16's own getInfo2 rows, including ODE's
   choices of anchor points, so a velocity with J u = 0 here is one ODE's stepper leaves alone. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

/* The joint's bodies in the caller's attach order, with their positions. */
typedef struct ends {
    dBodyID body[2];
    const dReal *x[2];
    int reversed; /* attached as (0, b): ODE keeps b first internally */
} ends;

static ends joint_ends(dJointID j)
{
    ends e;
    for (int s = 0; s < 2; s++) {
        e.body[s] = dJointGetBody(j, s);
        e.x[s] = e.body[s] ? dBodyGetPosition(e.body[s]) : NULL;
    }
    e.reversed = !e.body[0] && e.body[1];
    return e;
}

static void cross(const double a[3], const double b[3], double out[3])
{
    double x = a[1] * b[2] - a[2] * b[1], y = a[2] * b[0] - a[0] * b[2],
           z = a[0] * b[1] - a[1] * b[0];
    out[0] = x;
    out[1] = y;
    out[2] = z;
}

/* The relative velocity along d of material point pA on body 1 and pB on body 2:
   body 1: [d, (pA - x1) x d], body 2: [-d, (pB - x2) x -d]. */
static void point_row(double row[12], const double d[3], const double pA[3], const double pB[3],
                      const ends *e)
{
    memset(row, 0, 12 * sizeof(double));
    const double nd[3] = {-d[0], -d[1], -d[2]};
    const double *dir[2] = {d, nd}, *p[2] = {pA, pB};
    for (int s = 0; s < 2; s++) {
        if (!e->body[s]) continue;
        double r[3] = {p[s][0] - e->x[s][0], p[s][1] - e->x[s][1], p[s][2] - e->x[s][2]};
        memcpy(row + 6 * s, dir[s], 3 * sizeof(double));
        cross(r, dir[s], row + 6 * s + 3);
    }
}

/* Relative angular velocity along d: body 1 [0, d], body 2 [0, -d]. */
static void angular_row(double row[12], const double d[3], const ends *e)
{
    memset(row, 0, 12 * sizeof(double));
    for (int a = 0; a < 3; a++) {
        if (e->body[0]) row[3 + a] = d[a];
        if (e->body[1]) row[9 + a] = -d[a];
    }
}

static const double axes[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};

static double norm3(const double q[3]) { return sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2]); }

static int unit_cross(const dReal a[3], const dReal b[3], double out[3])
{
    cross(a, b, out);
    const double n = norm3(out);
    if (!(n > 1e-9)) return -1;
    for (int i = 0; i < 3; i++) out[i] /= n;
    return 0;
}

/* The position of the single body, or of body 2 when there are two (slider, fixed). */
static const dReal *second_or_only(const ends *e) { return e->x[1] ? e->x[1] : e->x[0]; }

/* 1 if the joint's axis of parameter group `group` (0, 1, 2: dParamLoStop, ...2, ...3) is
   locked: its two stops are equal, and ODE then holds it with a bilateral row whatever the
   position (joint.cpp addLimot: lo = -dInfinity, hi = dInfinity). A rotational stop counts only
   within [-pi, pi], as ODE's getInfo1 takes it. Other stops are unilateral and are not modelled
   (docs/ode-host.md 2.1). */
static int axis_locked(dReal (*get)(dJointID, int), dJointID j, int group, int rotational)
{
    const dReal lo = get(j, dParamLoStop + dParamGroup * group);
    const dReal hi = get(j, dParamHiStop + dParamGroup * group);
    return lo == hi && isfinite(lo) && (!rotational || fabs(lo) <= M_PI);
}

/* A locked prismatic axis's row: the bodies' relative velocity along d at their midpoint (at the
   body, with one), ODE's linear stop row with its torque decoupling (joint.cpp addLimot). */
static void locked_linear_row(double row[12], const double d[3], const ends *e)
{
    double mid[3];
    for (int i = 0; i < 3; i++)
        mid[i] = e->x[0] && e->x[1] ? 0.5 * (e->x[0][i] + e->x[1][i]) : second_or_only(e)[i];
    point_row(row, d, mid, mid, e);
}

static int ball_rows(dJointID j, const ends *e, double J[][12])
{
    dVector3 a1, a2;
    dJointGetBallAnchor(j, a1);
    dJointGetBallAnchor2(j, a2);
    for (int i = 0; i < 3; i++) point_row(J[i], axes[i], a1, a2, e);
    return 3;
}

static int hinge_rows(dJointID j, const ends *e, double J[][12])
{
    dVector3 a1, a2, axis, p, q;
    dJointGetHingeAnchor(j, a1);
    dJointGetHingeAnchor2(j, a2);
    dJointGetHingeAxis(j, axis);
    dPlaneSpace(axis, p, q);
    for (int i = 0; i < 3; i++) point_row(J[i], axes[i], a1, a2, e);
    angular_row(J[3], p, e);
    angular_row(J[4], q, e);
    if (!axis_locked(dJointGetHingeParam, j, 0, 1)) return 5;
    angular_row(J[5], axis, e);
    return 6;
}

static int slider_rows(dJointID j, const ends *e, double J[][12])
{
    dVector3 axis, p, q;
    dJointGetSliderAxis(j, axis);
    dPlaneSpace(axis, p, q);
    const dReal *P = second_or_only(e);
    for (int i = 0; i < 3; i++) angular_row(J[i], axes[i], e);
    point_row(J[3], p, P, P, e);
    point_row(J[4], q, P, P, e);
    if (!axis_locked(dJointGetSliderParam, j, 0, 0)) return 5;
    locked_linear_row(J[5], axis, e);
    return 6;
}

static int universal_rows(dJointID j, const ends *e, double J[][12], char *msg, size_t size)
{
    dVector3 a1, a2, ax1, ax2;
    double u[3];
    dJointGetUniversalAnchor(j, a1);
    dJointGetUniversalAnchor2(j, a2);
    dJointGetUniversalAxis1(j, ax1);
    dJointGetUniversalAxis2(j, ax2);
    if (unit_cross(ax1, ax2, u) != 0) {
        snprintf(msg, size, "universal joint %p: its two axes are parallel", (void *)j);
        return -1;
    }
    for (int i = 0; i < 3; i++) point_row(J[i], axes[i], a1, a2, e);
    angular_row(J[3], u, e);
    int n = 4;
    if (axis_locked(dJointGetUniversalParam, j, 0, 1)) angular_row(J[n++], ax1, e);
    if (axis_locked(dJointGetUniversalParam, j, 1, 1)) angular_row(J[n++], ax2, e);
    return n;
}

static int hinge2_rows(dJointID j, const ends *e, double J[][12], char *msg, size_t size)
{
    if (!e->body[0] || !e->body[1]) {
        snprintf(msg, size, "hinge2 joint %p: needs two bodies", (void *)j);
        return -1;
    }
    dVector3 a1, a2, ax1, ax2;
    double u[3];
    dJointGetHinge2Anchor(j, a1);
    dJointGetHinge2Anchor2(j, a2);
    dJointGetHinge2Axis1(j, ax1);
    dJointGetHinge2Axis2(j, ax2);
    if (unit_cross(ax1, ax2, u) != 0) {
        snprintf(msg, size, "hinge2 joint %p: its two axes are parallel", (void *)j);
        return -1;
    }
    for (int i = 0; i < 3; i++) point_row(J[i], axes[i], a1, a2, e);
    angular_row(J[3], u, e);
    if (!axis_locked(dJointGetHinge2Param, j, 0, 1)) return 4; /* ODE never stops axis 2 */
    angular_row(J[4], ax1, e);
    return 5;
}

static int fixed_rows(const ends *e, double J[][12])
{
    const dReal *P = second_or_only(e);
    for (int i = 0; i < 3; i++) {
        angular_row(J[i], axes[i], e);
        point_row(J[3 + i], axes[i], P, P, e);
    }
    return 6;
}

/* Prismatic joints attached (0, b): ODE 0.16 measures the lever arm as x_b - anchor instead of
   anchor - x_b (piston.cpp, pr.cpp `dist`), i.e. it uses the point mirrored through x_b. */
static void mirrored_anchor(const ends *e, const dReal anchor[3], double out[3])
{
    for (int i = 0; i < 3; i++) out[i] = e->reversed ? 2.0 * e->x[1][i] - anchor[i] : anchor[i];
}

static int piston_rows(dJointID j, const ends *e, double J[][12])
{
    dVector3 axis, p, q, anchor;
    double P[3];
    dJointGetPistonAxis(j, axis);
    dPlaneSpace(axis, p, q);
    /* ODE's anchor2: on body 2, or the fixed world point when there is one body */
    if (e->reversed) dJointGetPistonAnchor(j, anchor);
    else dJointGetPistonAnchor2(j, anchor);
    mirrored_anchor(e, anchor, P);
    angular_row(J[0], p, e);
    angular_row(J[1], q, e);
    point_row(J[2], p, P, P, e);
    point_row(J[3], q, P, P, e);
    int n = 4;
    if (axis_locked(dJointGetPistonParam, j, 0, 0)) locked_linear_row(J[n++], axis, e);
    if (axis_locked(dJointGetPistonParam, j, 1, 1)) angular_row(J[n++], axis, e);
    return n;
}

static int pr_rows(dJointID j, const ends *e, double J[][12], char *msg, size_t size)
{
    dVector3 axP, axR, anchor;
    double q[3], P[3];
    dJointGetPRAxis1(j, axP);
    dJointGetPRAxis2(j, axR);
    dJointGetPRAnchor(j, anchor);
    if (unit_cross(axR, axP, q) != 0) {
        snprintf(msg, size, "PR joint %p: its prismatic and rotoide axes are parallel", (void *)j);
        return -1;
    }
    mirrored_anchor(e, anchor, P);
    angular_row(J[0], axP, e);
    angular_row(J[1], q, e);
    point_row(J[2], axR, P, P, e);
    point_row(J[3], q, P, P, e);
    int n = 4;
    if (axis_locked(dJointGetPRParam, j, 0, 0)) locked_linear_row(J[n++], axP, e);
    if (axis_locked(dJointGetPRParam, j, 1, 1)) angular_row(J[n++], axR, e);
    return n;
}

/* PU: ODE puts body 1's end of the prismatic rows at its own anchor1, which has no getter; it is
   anchor2 displaced by the joint position along the prismatic axis. Attached (0, b), ODE 0.16
   reads the prismatic axis's body-frame components as world ones (pu.cpp getInfo2), and so do we. */
static int pu_rows(dJointID j, const ends *e, double J[][12], char *msg, size_t size)
{
    dVector3 ax1, ax2, axP, an2, plane_axis, p, q;
    double u[3], an1[3];
    dJointGetPUAxis1(j, ax1);
    dJointGetPUAxis2(j, ax2);
    dJointGetPUAxis3(j, axP);
    dJointGetPUAnchor(j, an2);
    if (unit_cross(ax1, ax2, u) != 0) {
        snprintf(msg, size, "PU joint %p: its two rotation axes are parallel", (void *)j);
        return -1;
    }
    double s = (e->reversed ? -1.0 : 1.0) * dJointGetPUPosition(j);
    for (int i = 0; i < 3; i++) an1[i] = an2[i] + s * axP[i];
    memcpy(plane_axis, axP, sizeof plane_axis);
    if (e->reversed) {
        const dReal *R = dBodyGetRotation(e->body[1]);
        for (int i = 0; i < 3; i++)
            plane_axis[i] = R[i] * axP[0] + R[4 + i] * axP[1] + R[8 + i] * axP[2];
    }
    dPlaneSpace(plane_axis, p, q);
    angular_row(J[0], u, e);
    const double *pA = an1, *pB = e->reversed ? an1 : an2;
    point_row(J[1], p, pA, pB, e);
    point_row(J[2], q, pA, pB, e);
    int n = 3;
    if (axis_locked(dJointGetPUParam, j, 0, 1)) angular_row(J[n++], ax1, e);
    if (axis_locked(dJointGetPUParam, j, 1, 1)) angular_row(J[n++], ax2, e);
    if (axis_locked(dJointGetPUParam, j, 2, 0)) locked_linear_row(J[n++], plane_axis, e);
    return n;
}

/* Plane2D keeps ODE's first body in the plane z = 0 (plane2d.cpp getInfo2): its linear z and
   angular x, y velocities, in the world frame. ODE ignores a second body; so do these rows. */
static int plane2d_rows(const ends *e, double J[][12])
{
    ends only = *e;
    if (!e->reversed) only.body[1] = NULL, only.x[1] = NULL;
    const dReal *x = second_or_only(&only);
    point_row(J[0], axes[2], x, x, &only);
    angular_row(J[1], axes[0], &only);
    angular_row(J[2], axes[1], &only);
    return 3;
}

/* The unit direction from anchor a2 to a1 of a distance joint. ODE's own choice when the anchors
   coincide (dball.cpp getInfo2): the anchors' relative velocity, else x. */
static void distance_direction(const dReal a1[3], const dReal a2[3], const ends *e, double q[3])
{
    for (int i = 0; i < 3; i++) q[i] = a1[i] - a2[i];
    if (norm3(q) < 1e-12) {
        dVector3 v[2] = {{0, 0, 0}, {0, 0, 0}};
        const dReal *a[2] = {a1, a2};
        for (int s = 0; s < 2; s++)
            if (e->body[s]) dBodyGetPointVel(e->body[s], a[s][0], a[s][1], a[s][2], v[s]);
        for (int i = 0; i < 3; i++) q[i] = v[0][i] - v[1][i];
        if (norm3(q) < 1e-12) q[0] = 1, q[1] = 0, q[2] = 0;
    }
    const double n = norm3(q);
    for (int i = 0; i < 3; i++) q[i] /= n;
}

/* DBall holds the distance between its anchors: one row along the line joining them. */
static int dball_rows(dJointID j, const ends *e, double J[][12])
{
    dVector3 a1, a2;
    double q[3];
    dJointGetDBallAnchor1(j, a1);
    dJointGetDBallAnchor2(j, a2);
    distance_direction(a1, a2, e, q);
    point_row(J[0], q, a1, a2, e);
    return 1;
}

/* DHinge (dhinge.cpp getInfo2): the DBall row, the two relative rotations across the axis, and
   the relative velocity along the axis of the bodies' midpoint (of the body, with one). */
static int dhinge_rows(dJointID j, const ends *e, double J[][12])
{
    dVector3 a1, a2, axis, p, q;
    double d[3], mid[3];
    dJointGetDHingeAnchor1(j, a1);
    dJointGetDHingeAnchor2(j, a2);
    dJointGetDHingeAxis(j, axis);
    distance_direction(a1, a2, e, d);
    point_row(J[0], d, a1, a2, e);
    dPlaneSpace(axis, p, q);
    angular_row(J[1], p, e);
    angular_row(J[2], q, e);
    for (int i = 0; i < 3; i++)
        mid[i] = e->x[0] && e->x[1] ? 0.5 * (e->x[0][i] + e->x[1][i]) : second_or_only(e)[i];
    point_row(J[3], axis, mid, mid, e);
    return 4;
}

static int rows_by_type(dJointID j, const ends *e, double J[][12], char *msg, size_t size)
{
    switch (dJointGetType(j)) {
    case dJointTypeBall: return ball_rows(j, e, J);
    case dJointTypeHinge: return hinge_rows(j, e, J);
    case dJointTypeSlider: return slider_rows(j, e, J);
    case dJointTypeUniversal: return universal_rows(j, e, J, msg, size);
    case dJointTypeHinge2: return hinge2_rows(j, e, J, msg, size);
    case dJointTypeFixed: return fixed_rows(e, J);
    case dJointTypePiston: return piston_rows(j, e, J);
    case dJointTypePR: return pr_rows(j, e, J, msg, size);
    case dJointTypePU: return pu_rows(j, e, J, msg, size);
    case dJointTypePlane2D: return plane2d_rows(e, J);
    case dJointTypeDBall: return dball_rows(j, e, J);
    case dJointTypeDHinge: return dhinge_rows(j, e, J);
    case dJointTypeNull:
    case dJointTypeAMotor:
    case dJointTypeLMotor:
        return 0; /* motors exert bounded forces: no impulse during an instantaneous impact */
    default:
        snprintf(msg, size,
                 "joint %p: type %d is not supported by the impact adapter "
                 "(ball, hinge, slider, universal, hinge2, fixed, piston, PR, PU, plane2d, DBall, "
                 "DHinge are)",
                 (void *)j, (int)dJointGetType(j));
        return -1;
    }
}

int ipx_ode_joint_rows(dJointID joint, double J[][12], int max_rows, char *msg, size_t size)
{
    double rows[IPX_ODE_MAX_JOINT_ROWS][12];
    ends e = joint_ends(joint);
    if (!e.body[0] && !e.body[1]) return 0;
    int n = rows_by_type(joint, &e, rows, msg, size);
    if (n < 0) return -1;
    if (n > max_rows) {
        snprintf(msg, size, "joint %p has %d rows, more than the %d asked for", (void *)joint, n,
                 max_rows);
        return -1;
    }
    memcpy(J, rows, (size_t)n * sizeof rows[0]);
    return n;
}

int ipx_ode_contact_valid(const dContact *c, char *msg, size_t size)
{
    const dReal *n = c->geom.normal, *p = c->geom.pos;
    double len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    if (!(fabs(len - 1.0) <= IPX_ODE_NORMAL_TOL)) {
        snprintf(msg, size, "contact normal (%g, %g, %g) has length %g, not 1 (ODE cannot step it)",
                 n[0], n[1], n[2], len);
        return 0;
    }
    if (!isfinite(p[0]) || !isfinite(p[1]) || !isfinite(p[2]) || !isfinite(c->geom.depth)) {
        snprintf(msg, size, "contact position (%g, %g, %g) or depth %g is not finite", p[0], p[1],
                 p[2], c->geom.depth);
        return 0;
    }
    return 1;
}

int ipx_ode_surface_motion(const dContact *c, double m[IPX_ROWS_PER_CONTACT])
{
    const int mode = c->surface.mode;
    m[IPX_T1] = (mode & dContactMotion1) ? c->surface.motion1 : 0.0;
    m[IPX_T2] = (mode & dContactMotion2) ? c->surface.motion2 : 0.0;
    m[IPX_N] = (mode & dContactMotionN) ? c->surface.motionN : 0.0;
    return m[IPX_T1] != 0.0 || m[IPX_T2] != 0.0 || m[IPX_N] != 0.0;
}

int ipx_ode_island_motion(const ipx_ode_context *ctx, int k, double m[IPX_ROWS_PER_CONTACT])
{
    return ipx_ode_surface_motion(&ctx->store.rec[ctx->isl.contact[k]].contact, m);
}

/* ODE's friction directions (contact.cpp getInfo2), so the rows equal ODE's bit for bit: for
   the normal m as ODE sees it, t1 = fdir1 when dContactFDir1 is set (ODE takes it as given; one
   that is not unit and tangent is made so here, where ODE's rows would be skewed) and
   t2 = m x t1, else dPlaneSpace(m). */
static void ode_tangents(const dContact *c, const dReal m[4], dVector3 t1, dVector3 t2)
{
    if (c->surface.mode & dContactFDir1) {
        const dReal *f = c->fdir1;
        double dn = f[0] * m[0] + f[1] * m[1] + f[2] * m[2];
        double len = sqrt(f[0] * f[0] + f[1] * f[1] + f[2] * f[2]);
        if (fabs(dn) <= 1e-9 && fabs(len - 1.0) <= 1e-9) {
            for (int i = 0; i < 3; i++) t1[i] = f[i];
            cross(m, t1, t2);
            return;
        }
        double tl = 0.0;
        for (int i = 0; i < 3; i++) {
            t1[i] = f[i] - dn * m[i];
            tl += t1[i] * t1[i];
        }
        tl = sqrt(tl);
        if (tl > 1e-9) {
            for (int i = 0; i < 3; i++) t1[i] /= tl;
            cross(m, t1, t2);
            return;
        }
    }
    dPlaneSpace(m, t1, t2);
}

/* Attached (0, b), ODE flips the normal to act on b as its first body; its tangents then come
   from -n, and on our +body1/-body2 convention they are the negated ones. */
static void contact_tangents(const dContact *c, int reversed, dVector3 t1, dVector3 t2)
{
    const dReal *n = c->geom.normal;
    dVector3 m = {n[0], n[1], n[2], 0.0};
    if (reversed)
        for (int i = 0; i < 3; i++) m[i] = -n[i];
    ode_tangents(c, m, t1, t2);
    if (reversed)
        for (int i = 0; i < 3; i++) {
            t1[i] = -t1[i];
            t2[i] = -t2[i];
        }
}

void ipx_ode_contact_tangents(const dContact *c, dBodyID body1, dBodyID body2, double t1[3],
                              double t2[3])
{
    dVector3 a, b;
    contact_tangents(c, !body1 && body2, a, b);
    for (int i = 0; i < 3; i++) t1[i] = a[i], t2[i] = b[i];
}

int ipx_ode_contact_rows(const dContact *c, dBodyID body1, dBodyID body2, double J[3][12])
{
    char msg[8];
    if (!ipx_ode_contact_valid(c, msg, sizeof msg)) return -1;
    ends e = {{body1, body2}, {NULL, NULL}, 0};
    for (int s = 0; s < 2; s++) e.x[s] = e.body[s] ? dBodyGetPosition(e.body[s]) : NULL;
    dVector3 t1, t2;
    contact_tangents(c, !body1 && body2, t1, t2);
    const dReal *dir[3] = {t1, t2, c->geom.normal};
    for (int i = 0; i < 3; i++) point_row(J[i], dir[i], c->geom.pos, c->geom.pos, &e);
    return 0;
}
