/* The adapter's Jacobian rows, built from ODE's public getters, span exactly the row space of
   ODE 0.16.2's own getInfo2 rows (called through dlsym as an oracle) for every supported joint
   type (plane2d, DBall and DHinge among them), with both attach orders and with one body
   attached to the world; contact rows equal ODE's bit for bit. Bodies are rotated and displaced
   after the joint is set, so the joints carry position error and the anchors on the two bodies
   differ. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ensure.h"
#include "impax/ode.h"
#include "ode_kit.h"

enum { ORDER_AB, ORDER_BA, ORDER_A0, ORDER_0A, N_ORDERS };
static const char *order_name[N_ORDERS] = {"(a,b)", "(b,a)", "(a,0)", "(0,a)"};

static const double anchor[3] = {0.3, -0.2, 0.9};
static const double ax1[3] = {0.0, 0.6, 0.8}; /* unit */
static const double ax2[3] = {1.0, 0.0, 0.0}; /* unit, perpendicular to ax1 */

static void set_up(dJointID j, int type)
{
    switch (type) {
    case dJointTypeBall: dJointSetBallAnchor(j, anchor[0], anchor[1], anchor[2]); break;
    case dJointTypeHinge:
        dJointSetHingeAnchor(j, anchor[0], anchor[1], anchor[2]);
        dJointSetHingeAxis(j, ax1[0], ax1[1], ax1[2]);
        break;
    case dJointTypeSlider: dJointSetSliderAxis(j, ax1[0], ax1[1], ax1[2]); break;
    case dJointTypeUniversal:
        dJointSetUniversalAnchor(j, anchor[0], anchor[1], anchor[2]);
        dJointSetUniversalAxis1(j, ax1[0], ax1[1], ax1[2]);
        dJointSetUniversalAxis2(j, ax2[0], ax2[1], ax2[2]);
        break;
    case dJointTypeHinge2:
        dJointSetHinge2Anchor(j, anchor[0], anchor[1], anchor[2]);
        dJointSetHinge2Axes(j, ax1, ax2);
        break;
    case dJointTypeFixed: dJointSetFixed(j); break;
    case dJointTypePiston:
        dJointSetPistonAnchor(j, anchor[0], anchor[1], anchor[2]);
        dJointSetPistonAxis(j, ax1[0], ax1[1], ax1[2]);
        break;
    case dJointTypePR:
        dJointSetPRAnchor(j, anchor[0], anchor[1], anchor[2]);
        dJointSetPRAxis1(j, ax1[0], ax1[1], ax1[2]);
        dJointSetPRAxis2(j, ax2[0], ax2[1], ax2[2]);
        break;
    case dJointTypePU:
        dJointSetPUAnchor(j, anchor[0], anchor[1], anchor[2]);
        dJointSetPUAxis1(j, ax2[0], ax2[1], ax2[2]);
        dJointSetPUAxis2(j, 0.0, 0.0, 1.0);
        dJointSetPUAxisP(j, ax1[0], ax1[1], ax1[2]);
        break;
    case dJointTypeDBall:
        dJointSetDBallAnchor1(j, anchor[0], anchor[1], anchor[2]);
        dJointSetDBallAnchor2(j, anchor[0] + 0.4, anchor[1] - 0.1, anchor[2] + 0.3);
        break;
    case dJointTypeDHinge:
        dJointSetDHingeAxis(j, ax1[0], ax1[1], ax1[2]);
        dJointSetDHingeAnchor1(j, anchor[0], anchor[1], anchor[2]);
        dJointSetDHingeAnchor2(j, anchor[0] + 0.4, anchor[1] - 0.1, anchor[2] + 0.3);
        break;
    default: break;
    }
}

static dJointID create(dWorldID w, int type)
{
    switch (type) {
    case dJointTypeBall: return dJointCreateBall(w, 0);
    case dJointTypeHinge: return dJointCreateHinge(w, 0);
    case dJointTypeSlider: return dJointCreateSlider(w, 0);
    case dJointTypeUniversal: return dJointCreateUniversal(w, 0);
    case dJointTypeHinge2: return dJointCreateHinge2(w, 0);
    case dJointTypeFixed: return dJointCreateFixed(w, 0);
    case dJointTypePiston: return dJointCreatePiston(w, 0);
    case dJointTypePR: return dJointCreatePR(w, 0);
    case dJointTypePU: return dJointCreatePU(w, 0);
    case dJointTypePlane2D: return dJointCreatePlane2D(w, 0);
    case dJointTypeDBall: return dJointCreateDBall(w, 0);
    case dJointTypeDHinge: return dJointCreateDHinge(w, 0);
    default: return 0;
    }
}

/* Sets both stops of every axis the joint type can stop to 0: a locked axis, which ODE holds
   with a bilateral row (rows.c axis_locked). Hinge2's second axis has no stop in ODE. */
static void lock_axes(dJointID j, int type)
{
    void (*set)(dJointID, int, dReal) = NULL;
    int groups = 1; /* parameter groups with stops */
    switch (type) {
    case dJointTypeHinge: set = dJointSetHingeParam; break;
    case dJointTypeSlider: set = dJointSetSliderParam; break;
    case dJointTypeHinge2: set = dJointSetHinge2Param; break;
    case dJointTypeUniversal: set = dJointSetUniversalParam, groups = 2; break;
    case dJointTypePiston: set = dJointSetPistonParam, groups = 2; break;
    case dJointTypePR: set = dJointSetPRParam, groups = 2; break;
    case dJointTypePU: set = dJointSetPUParam, groups = 3; break;
    default: return;
    }
    for (int g = 0; g < groups; g++) {
        set(j, dParamLoStop + dParamGroup * g, 0.0);
        set(j, dParamHiStop + dParamGroup * g, 0.0);
    }
}

/* Checks one joint type in one attach order, with the bodies moved after the joint was set
   (drift: the joint is violated) or not, its axes locked (lock_axes) or free; returns 1 if the
   case applies. */
static int check_locked_case(int type, int order, int drift, int locked)
{
    if (type == dJointTypeHinge2 && (order == ORDER_A0 || order == ORDER_0A))
        return 0; /* needs two bodies */
    dWorldID w = dWorldCreate();
    const double side[3] = {0.4, 0.3, 0.2}, pa[3] = {0.1, 0.0, 0.5}, pb[3] = {0.5, -0.3, 1.2};
    const double axa[3] = {1, 2, 3}, axb[3] = {-2, 1, 0.5};
    dBodyID a = kit_box(w, 2.0, side, pa, axa, 0.4), b = kit_box(w, 1.3, side, pb, axb, -0.7);
    dJointID j = create(w, type);
    dBodyID first = order == ORDER_AB || order == ORDER_A0 ? a : order == ORDER_BA ? b : 0;
    dBodyID second = order == ORDER_AB ? b : order == ORDER_BA ? a : order == ORDER_0A ? a : 0;
    dJointAttach(j, first, second);
    set_up(j, type);
    if (locked) lock_axes(j, type);
    if (drift) { /* move and turn both bodies: the anchors on the two bodies now differ */
        dBodySetPosition(a, pa[0] + 0.03, pa[1] - 0.02, pa[2] + 0.01);
        dMatrix3 R;
        dRFromAxisAndAngle(R, 0.3, -1.0, 0.2, 0.55);
        dBodySetRotation(a, R);
        dBodySetPosition(b, pb[0] - 0.01, pb[1] + 0.04, pb[2]);
    }

    double ours[8][12], ode[8][12];
    char msg[256] = "";
    int n_ours = ipx_ode_joint_rows(j, ours, 8, msg, sizeof msg);
    int n_ode = ode_oracle_rows(j, ode, 8);
    int same = n_ours >= 0 && n_ode >= 0 && same_row_space(ours, n_ours, ode, n_ode, 1e-9);
    if (!same)
        printf("  type %d %s drift %d locked %d: ours %d rows (%s), ODE %d rows, ranks %d / %d\n",
               type, order_name[order], drift, locked, n_ours, msg, n_ode,
               rows_rank(&ours[0][0], n_ours > 0 ? n_ours : 0, 12, 1e-9),
               rows_rank(&ode[0][0], n_ode > 0 ? n_ode : 0, 12, 1e-9));
    ENSURE(n_ours == n_ode);
    ENSURE(same);
    dWorldDestroy(w);
    return 1;
}

static int check_case(int type, int order, int drift)
{
    return check_locked_case(type, order, drift, 0);
}

static void test_bilateral_rows_span_odes_row_space(void)
{
    const int types[] = {dJointTypeBall,   dJointTypeHinge,   dJointTypeSlider, dJointTypeUniversal,
                         dJointTypeHinge2, dJointTypeFixed,   dJointTypePiston, dJointTypePR,
                         dJointTypePU,     dJointTypePlane2D, dJointTypeDBall,  dJointTypeDHinge};
    int cases = 0;
    for (size_t t = 0; t < sizeof types / sizeof types[0]; t++)
        for (int o = 0; o < N_ORDERS; o++) cases += check_case(types[t], o, 0);
    ENSURE(cases == 12 * 4 - 2);
}

/* With the joint violated, the rows of ball, hinge, slider, universal, hinge2 and piston still
   match ODE's: they come from the anchors on each body, which have getters. (Fixed, PR and PU
   keep a body-1 offset that ODE stores without a getter, so with drift their rows differ from
   ODE's by the order of the drift: documented in ode.h.) */
static void test_rows_with_joint_drift_match_where_odes_anchors_are_public(void)
{
    const int types[] = {dJointTypeBall,      dJointTypeHinge,  dJointTypeSlider,
                         dJointTypeUniversal, dJointTypeHinge2, dJointTypePiston,
                         dJointTypePlane2D,   dJointTypeDBall,  dJointTypeDHinge};
    for (size_t t = 0; t < sizeof types / sizeof types[0]; t++)
        for (int o = 0; o < N_ORDERS; o++) check_case(types[t], o, 1);
}

/* An axis whose two stops are equal is locked: ODE adds a bilateral row for it (joint.cpp
   addLimot), and so do the adapter's rows (rows.c), which otherwise leave every stop out of an
   impact. Each type that has stops, in every attach order, and with drift where its anchors are
   public: the rows span ODE's, one more per locked axis. */
static void test_locked_axes_add_odes_rows(void)
{
    const int types[] = {dJointTypeHinge,  dJointTypeSlider, dJointTypeUniversal, dJointTypeHinge2,
                         dJointTypePiston, dJointTypePR,     dJointTypePU};
    int cases = 0;
    for (size_t t = 0; t < sizeof types / sizeof types[0]; t++)
        for (int o = 0; o < N_ORDERS; o++) {
            cases += check_locked_case(types[t], o, 0, 1);
            if (types[t] != dJointTypePR && types[t] != dJointTypePU)
                check_locked_case(types[t], o, 1, 1);
        }
    ENSURE(cases == 7 * 4 - 2);
}

/* Contact rows: ODE's rows are n, t1, t2; ours are [t1, t2, n]: equal bit for bit. */
static void check_contact(int with_fdir1, int order)
{
    dWorldID w = dWorldCreate();
    dJointGroupID g = dJointGroupCreate(0);
    const double side[3] = {0.4, 0.3, 0.2}, pa[3] = {0.1, 0.2, 0.3}, pb[3] = {0.4, 0.1, 0.0};
    const double axa[3] = {1, 1, 0}, axb[3] = {0, 1, 1};
    dBodyID a = kit_box(w, 1.0, side, pa, axa, 0.3), b = kit_box(w, 2.0, side, pb, axb, 0.9);
    const double p[3] = {0.2, 0.15, 0.12}, n[3] = {0.48, -0.6, 0.64};
    dContact c = kit_contact(p, n, 0.001, 0.5, 0.0, 0.0);
    if (with_fdir1) {
        c.surface.mode |= dContactFDir1;
        /* unit and tangent, as ODE expects: the friction direction ODE then uses as given */
        const double f[3] = {0.8, 0.64, 0.0}, nf = sqrt(0.8 * 0.8 + 0.64 * 0.64);
        for (int a = 0; a < 3; a++) c.fdir1[a] = f[a] / nf;
    }
    dJointID j = dJointCreateContact(w, g, &c);
    dBodyID first = order == ORDER_AB || order == ORDER_A0 ? a : order == ORDER_BA ? b : 0;
    dBodyID second = order == ORDER_AB ? b : order == ORDER_BA ? a : order == ORDER_0A ? a : 0;
    dJointAttach(j, first, second);
    double ours[3][12], ode[8][12];
    ENSURE(ipx_ode_contact_rows(&c, first, second, ours) == 0);
    int m = ode_oracle_rows(j, ode, 8);
    ENSURE(m == 3);
    /* ODE row 0 = normal, rows 1, 2 = tangents */
    int identical = m == 3 && memcmp(ours[2], ode[0], sizeof ours[2]) == 0 &&
                    memcmp(ours[0], ode[1], sizeof ours[0]) == 0 &&
                    memcmp(ours[1], ode[2], sizeof ours[1]) == 0;
    if (!identical)
        printf("  contact fdir1=%d %s differs from ODE's rows\n", with_fdir1, order_name[order]);
    ENSURE(identical);
    dJointGroupDestroy(g);
    dWorldDestroy(w);
}

static void test_contact_rows_equal_odes_bit_for_bit(void)
{
    for (int f = 0; f < 2; f++)
        for (int o = 0; o < N_ORDERS; o++) check_contact(f, o);
}

static void test_contact_rows_refuse_a_zero_normal(void)
{
    const double p[3] = {0, 0, 0}, n[3] = {0, 0, 0};
    dContact c = kit_contact(p, n, 0.0, 0.5, 0.0, 0.0);
    double J[3][12];
    ENSURE(ipx_ode_contact_rows(&c, 0, 0, J) == -1);
}

static void test_motors_carry_no_impact_rows(void)
{
    dWorldID w = dWorldCreate();
    const double side[3] = {1, 1, 1}, p[3] = {0, 0, 0}, ax[3] = {0, 0, 1};
    dBodyID a = kit_box(w, 1.0, side, p, ax, 0.0);
    dJointID m = dJointCreateAMotor(w, 0);
    dJointAttach(m, a, 0);
    double J[8][12];
    char msg[128];
    ENSURE(ipx_ode_joint_rows(m, J, 8, msg, sizeof msg) == 0);
    dJointID pl = dJointCreatePlane2D(w, 0);
    dJointAttach(pl, a, 0);
    dJointSetPlane2DXParam(pl, dParamFMax, 5.0); /* a powered plane2d: its motor row is left out */
    dJointSetPlane2DXParam(pl, dParamVel, 1.0);
    ENSURE(ipx_ode_joint_rows(pl, J, 8, msg, sizeof msg) == 3);
    dWorldDestroy(w);
}

/* The one joint type without rows: its island is left to ODE, with a message naming it. */
static void test_a_transmission_joint_is_refused_by_name(void)
{
    dWorldID w = dWorldCreate();
    const double side[3] = {1, 1, 1}, pa[3] = {0, 0, 0}, pb[3] = {2, 0, 0}, ax[3] = {0, 0, 1};
    dBodyID a = kit_box(w, 1.0, side, pa, ax, 0.0), b = kit_box(w, 1.0, side, pb, ax, 0.0);
    dJointID t = dJointCreateTransmission(w, 0);
    dJointAttach(t, a, b);
    double J[8][12];
    char msg[256] = "";
    ENSURE(ipx_ode_joint_rows(t, J, 8, msg, sizeof msg) == -1);
    ENSURE(strstr(msg, "not supported") != NULL);
    dWorldDestroy(w);
}

int main(void)
{
    dInitODE2(0);
    RUN(test_bilateral_rows_span_odes_row_space);
    RUN(test_rows_with_joint_drift_match_where_odes_anchors_are_public);
    RUN(test_locked_axes_add_odes_rows);
    RUN(test_contact_rows_equal_odes_bit_for_bit);
    RUN(test_contact_rows_refuse_a_zero_normal);
    RUN(test_motors_carry_no_impact_rows);
    RUN(test_a_transmission_joint_is_refused_by_name);
    dCloseODE();
    return ipx_test_exit();
}
