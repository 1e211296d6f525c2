/* A contact on a body its joints lock (constrained.h: a row the joints hold rigid). A rod
   (1 kg, 1 x 0.1 x 0.1 m) hinged to the world twice at one end, the second hinge's axis turned
   by 1e-4 rad from the first's (y), swings its free end onto the floor at 2 m/s, gravity off.
   The two hinges lock it: the joints' projection stops it (the velocity it had violates them),
   and its contact, whose row of W is 0, is left approaching only by that projection's
   round-off (1e-31 m/s). No impulse can stop such an approach and no LCP on it has a
   solution: aplcp, routh, bowling and jia left the island to ODE ("Lemke failed (LCP ray
   termination)", "W_nn = 0"). The held row's velocity within that round-off is 0, as its row
   of W is: every model answers, and the rod ends at rest. With gravity on, the host's
   accuracy (|g| h) had hidden it. */
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

int main(void)
{
    dInitODE2(0);
    RUN(test_every_model_answers_a_locked_rods_contact);
    dCloseODE();
    return ipx_test_exit();
}
