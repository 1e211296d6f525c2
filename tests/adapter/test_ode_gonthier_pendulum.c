/* The paper's double pendulum on a plane (docs/models/gonthier.md §V6, Table III) through ODE with the
   Gonthier model: links of 0.5 m / 5 kg and 0.25 m / 2 kg on frictionless hinges, the surface
   0.61 m below the top joint, released at phi1 = 45 deg, phi2 = 0 (relative) with
   phi1' = -120 deg/s, phi2' = +130 deg/s; k = 1e9, e = 0.9. The paper: phi2 first goes positive,
   the tip bounces, then slides with slowly decaying oscillations and sticks (dwell state to 1)
   after about 6.5 s, with phi1 2.2 deg off centre and phi2 near -65 deg; the tip then rests on
   the surface (l1 cos phi1 + l2 cos(phi1 + phi2) = 0.61 m). Not given by the paper, assumed:
   uniform slender links (m l^2 / 12), phi measured from hanging straight down, a tip sphere of
   5 mm radius. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ensure.h"
#include "impax/ode.h"
#include "ode_kit.h"

#define DEG (3.14159265358979323846 / 180.0)

static const double l1 = 0.5, m1 = 5.0, l2 = 0.25, m2 = 2.0, floor_z = -0.61, tip_r = 0.005;

typedef struct pendulum {
    dWorldID world;
    dSpaceID space;
    dJointGroupID group;
    dBodyID link[2];
    dGeomID tip;
    ipx_ode_context *ipx;
} pendulum;

static void near(void *data, dGeomID a, dGeomID b)
{
    pendulum *s = data;
    const dSurfaceParameters surface = {.mode = dContactBounce, .bounce = 0.9, .mu = 0.15};
    kit_collide(s->ipx, s->world, s->group, &surface, a, b);
}

/* Direction of a link at absolute angle phi from hanging down, in the x-z plane. */
static void direction(double phi, double d[3]) { d[0] = sin(phi), d[1] = 0.0, d[2] = -cos(phi); }

static dBodyID link_body(dWorldID w, double m, double l, const double c[3], const double v[3],
                         double omega_y)
{
    dBodyID b = dBodyCreate(w);
    dMass mass;
    const double I = m * l * l / 12.0; /* about the hinge axis; the hinges fix the other axes */
    dMassSetParameters(&mass, m, 0, 0, 0, I, I, I, 0, 0, 0);
    dBodySetMass(b, &mass);
    dBodySetPosition(b, c[0], c[1], c[2]);
    dBodySetLinearVel(b, v[0], v[1], v[2]);
    dBodySetAngularVel(b, 0, omega_y, 0);
    return b;
}

static void make(pendulum *s)
{
    memset(s, 0, sizeof *s);
    s->world = dWorldCreate();
    dWorldSetGravity(s->world, 0, 0, -9.81);
    s->space = dSimpleSpaceCreate(0);
    s->group = dJointGroupCreate(0);
    dCreatePlane(s->space, 0, 0, 1, floor_z);
    const double phi1 = 45 * DEG, phi2 = 0.0, rate1 = -120 * DEG, rate2 = 130 * DEG;
    double d1[3], d2[3], c1[3], c2[3], e1[3], v1[3], v2[3];
    direction(phi1, d1);
    direction(phi1 + phi2, d2);
    /* omega_y = -phi' (a positive phi' turns the link from -z toward +x) */
    const double w1 = -rate1, w2 = -(rate1 + rate2);
    for (int a = 0; a < 3; a++) {
        c1[a] = 0.5 * l1 * d1[a];
        e1[a] = l1 * d1[a];
        c2[a] = e1[a] + 0.5 * l2 * d2[a];
    }
    /* w x r for w = (0, w, 0): (w r_z, 0, -w r_x) */
    v1[0] = w1 * c1[2], v1[1] = 0, v1[2] = -w1 * c1[0];
    v2[0] = w1 * e1[2] + w2 * (c2[2] - e1[2]), v2[1] = 0,
    v2[2] = -w1 * e1[0] - w2 * (c2[0] - e1[0]);
    s->link[0] = link_body(s->world, m1, l1, c1, v1, w1);
    s->link[1] = link_body(s->world, m2, l2, c2, v2, w2);
    dJointID top = dJointCreateHinge(s->world, 0), knee = dJointCreateHinge(s->world, 0);
    dJointAttach(top, s->link[0], 0);
    dJointSetHingeAnchor(top, 0, 0, 0);
    dJointSetHingeAxis(top, 0, 1, 0);
    dJointAttach(knee, s->link[0], s->link[1]);
    dJointSetHingeAnchor(knee, e1[0], e1[1], e1[2]);
    dJointSetHingeAxis(knee, 0, 1, 0);
    s->tip = dCreateSphere(s->space, tip_r);
    dGeomSetBody(s->tip, s->link[1]);
    dGeomSetOffsetPosition(s->tip, 0.5 * l2 * d2[0], 0.5 * l2 * d2[1], 0.5 * l2 * d2[2]);
    s->ipx = ipx_ode_create(s->world);
    char msg[256];
    ENSURE(ipx_ode_configure(s->ipx, "gonthier", "k=1e9,e=0.9,preset=3", msg, sizeof msg) == 0);
}

/* Absolute angle of link i from hanging down: from its upper joint (the origin, or the knee at
   twice link 1's centre) to its centre. */
static double angle(const pendulum *s, int i)
{
    const dReal *c1 = dBodyGetPosition(s->link[0]), *c = dBodyGetPosition(s->link[i]);
    const double top_x = i == 0 ? 0.0 : 2.0 * c1[0], top_z = i == 0 ? 0.0 : 2.0 * c1[2];
    return atan2(c[0] - top_x, -(c[2] - top_z));
}

static void test_double_pendulum_settles_as_the_paper_reports(void)
{
    pendulum s;
    make(&s);
    /* the paper's 1 kHz; the adapter sub-steps the contact at 10 us inside each step */
    const double h = 1e-3;
    const int steps = 10000;
    static double phi1_at[10001];
    double phi2_max = -INFINITY;
    for (int step = 1; step <= steps; step++) {
        dSpaceCollide(s.space, &s, near);
        ipx_ode_step(s.ipx, h);
        ipx_ode_empty_group(s.ipx, s.group);
        const double phi2 = angle(&s, 1) - angle(&s, 0);
        if (step * h < 0.5) phi2_max = fmax(phi2_max, phi2);
        phi1_at[step] = angle(&s, 0);
    }
    const double phi1 = angle(&s, 0), phi2 = angle(&s, 1) - phi1;
    int settled = steps; /* from here on phi1 stays within 0.5 deg of its final value */
    while (settled > 1 && fabs(phi1_at[settled - 1] - phi1) < 0.5 * DEG) settled--;
    const double tip_height = -(l1 * cos(phi1) + l2 * cos(phi1 + phi2));
    const ipx_ode_stats st = ipx_ode_get_stats(s.ipx);
    printf("  phi2 first up to %.1f deg; at 10 s phi1 %.2f deg, phi2 %.2f deg (relative), tip at "
           "%.4f m (surface %.2f + r %.3f), still from %.2f s; %ld events, %ld fallbacks\n",
           phi2_max / DEG, phi1 / DEG, phi2 / DEG, tip_height, floor_z, tip_r, settled * h,
           st.impact_events, st.fallbacks);
    ENSURE(phi2_max > 0.0);                              /* phi2 first goes positive */
    ENSURE(fabs(phi2 / DEG + 65.0) < 3.0);               /* settles near -65 deg */
    ENSURE(fabs(phi1 / DEG) < 2.5);                      /* near the centre (paper: 2.2 deg off) */
    ENSURE(fabs(tip_height - (floor_z + tip_r)) < 1e-3); /* resting on the surface */
    ENSURE(settled * h > 5.0 && settled * h < 9.0);      /* sticks after about 6.5 s */
    ENSURE(st.fallbacks == 0);
    ipx_ode_destroy(s.ipx);
    dJointGroupDestroy(s.group);
    dSpaceDestroy(s.space);
    dWorldDestroy(s.world);
}

int main(void)
{
    dInitODE2(0);
    RUN(test_double_pendulum_settles_as_the_paper_reports);
    dCloseODE();
    return ipx_test_exit();
}
