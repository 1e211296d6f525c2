/* Contacts on jointed bodies that their joints lock, wholly or along one axis. A rod
   (1 kg, 1 x 0.1 x 0.1 m) hinged to the world twice at one end, the second hinge's axis turned
   by 1e-4 rad from the first's (y), swings its free end onto the floor at 2 m/s, gravity off.
   The two hinges lock it: the joints' projection stops it (the velocity it had violates them),
   and its contact, whose row of W is 0, is left approaching only by that projection's
   round-off (1e-31 m/s). No impulse can stop such an approach and no LCP on it has a
   solution: aplcp, routh, bowling and jia left the island to ODE ("Lemke failed (LCP ray
   termination)", "W_nn = 0"). The held row's velocity within that round-off is 0, as its row
   of W is: every model answers, and the rod ends at rest. With gravity on, the host's
   accuracy (|g| h) had hidden it. A wheel whose steering axis has equal stops is held on it
   through an impact (rows.c axis_locked). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ensure.h"
#include "impax/ode.h"
#include "ode_kit.h"

static void test_every_model_answers_a_locked_rods_contact(void)
{
    static const char *const models[] = {"plus", "aplcp", "routh", "bowling", "jia"};
    for (size_t m = 0; m < sizeof models / sizeof models[0]; m++) {
        dWorldID world = dWorldCreate();
        dWorldSetGravity(world, 0, 0, 0);
        dJointGroupID group = dJointGroupCreate(0);
        const double side[3] = {1.0, 0.1, 0.1}, at[3] = {0, 0, 0.05}, z[3] = {0, 0, 1};
        dBodyID rod = kit_box(world, 1.0, side, at, z, 0.0);
        dBodySetAngularVel(rod, 0.0, 2.0, 0.0); /* the free end comes down at 2 m/s */
        dBodySetLinearVel(rod, 0.0, 0.0, -1.0);
        for (int h = 0; h < 2; h++) {
            dJointID hinge = dJointCreateHinge(world, 0);
            dJointAttach(hinge, rod, 0);
            dJointSetHingeAnchor(hinge, -0.5, 0.0, 0.05);
            dJointSetHingeAxis(hinge, h ? sin(1e-4) : 0.0, h ? cos(1e-4) : 1.0, 0.0);
        }
        const double p[3] = {0.5, 0.0, 0.0};
        dContact c = kit_contact(p, z, 0.0, 0.5, 0.5, 0.01);
        char msg[256];
        ipx_ode_context *ipx = ipx_ode_create(world);
        ENSURE(ipx_ode_configure(ipx, models[m], NULL, msg, sizeof msg) == 0);
        ipx_ode_contact(ipx, world, group, &c, rod, NULL);
        ipx_ode_pre_step(ipx, 0.001);
        const ipx_ode_stats st = ipx_ode_get_stats(ipx);
        const dReal *v = dBodyGetLinearVel(rod), *w = dBodyGetAngularVel(rod);
        const double speed = fmax(sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]),
                                  sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]));
        printf("  %-8s events %ld, fallbacks %ld %s; the rod's speed after %.3g\n", models[m],
               st.impact_events, st.fallbacks, st.last_message, speed);
        ENSURE(st.impact_events == 1 && st.fallbacks == 0);
        ENSURE(speed < 1e-12);
        kit_finish(ipx, group, world);
    }
}

/* The steering rate after a wheel (a box, 1 kg, 0.2 m) on a chassis (a box, 5 kg) by a hinge2
   (steering axis z, axle y) runs sideways at 1 m/s into a wall off its steering axis (0.1 m
   along x), e = 0, frictionless: the wall's impulse turns the wheel about z unless the steering
   is locked. */
static double steering_rate_after(const char *model, int locked)
{
    dWorldID world = dWorldCreate();
    dWorldSetGravity(world, 0, 0, 0);
    dJointGroupID group = dJointGroupCreate(0);
    const double wheel_side[3] = {0.2, 0.2, 0.2}, chassis_side[3] = {1.0, 0.6, 0.2};
    const double at_wheel[3] = {0, 0, 0}, at_chassis[3] = {-0.6, 0, 0}, z[3] = {0, 0, 1};
    dBodyID wheel = kit_box(world, 1.0, wheel_side, at_wheel, z, 0.0);
    dBodyID chassis = kit_box(world, 5.0, chassis_side, at_chassis, z, 0.0);
    dBodySetLinearVel(wheel, 0, 1.0, 0);
    dBodySetLinearVel(chassis, 0, 1.0, 0);
    dJointID j = dJointCreateHinge2(world, 0);
    dJointAttach(j, chassis, wheel);
    dJointSetHinge2Anchor(j, 0, 0, 0);
    const dReal axis1[3] = {0, 0, 1}, axis2[3] = {0, 1, 0};
    dJointSetHinge2Axes(j, axis1, axis2);
    if (locked) {
        dJointSetHinge2Param(j, dParamLoStop, 0.0);
        dJointSetHinge2Param(j, dParamHiStop, 0.0);
    }
    const double p[3] = {0.1, 0.1, 0.0}, n[3] = {0, -1, 0};
    dContact c = kit_contact(p, n, 0.0, 0.0, 0.0, 0.01);
    char msg[256];
    ipx_ode_context *ipx = ipx_ode_create(world);
    ENSURE(ipx_ode_configure(ipx, model, NULL, msg, sizeof msg) == 0);
    ipx_ode_contact(ipx, world, group, &c, wheel, NULL);
    ipx_ode_pre_step(ipx, 0.001);
    ENSURE(ipx_ode_get_stats(ipx).impact_events == 1);
    const double rate = dJointGetHinge2Angle1Rate(j);
    kit_finish(ipx, group, world);
    return rate;
}

/* An axis whose two stops are equal is locked (ODE holds it with a bilateral row): an impact
   must not turn it. A vehicle's rear wheels are held so (ODE's demo_buggy, dParamLoStop =
   dParamHiStop = 0 on the steering axis); impax left every stop out of the impact, and a knock
   on a rear wheel steered it until ODE's next step pulled it back. */
static void test_a_locked_steering_axis_does_not_turn_at_an_impact(void)
{
    static const char *const models[] = {"plus", "aplcp", "routh", "bowling", "jia"};
    for (size_t m = 0; m < sizeof models / sizeof models[0]; m++) {
        const double free_rate = steering_rate_after(models[m], 0);
        const double locked_rate = steering_rate_after(models[m], 1);
        printf("  %-8s steering rate after the knock: free %.6f rad/s, locked %.3g rad/s\n",
               models[m], free_rate, locked_rate);
        ENSURE(fabs(free_rate) > 0.1);
        ENSURE(fabs(locked_rate) < 1e-12);
    }
}

int main(void)
{
    dInitODE2(0);
    RUN(test_every_model_answers_a_locked_rods_contact);
    RUN(test_a_locked_steering_axis_does_not_turn_at_an_impact);
    dCloseODE();
    return ipx_test_exit();
}
