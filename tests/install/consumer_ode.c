/* A ball dropped on the ground through the installed ODE adapter (impax::ode, impax-ode.pc):
   one impact event under plus, none left to ODE, and with e = 0.5 the ball leaves at half its
   impact speed (less the step's gravity). */
#include <impax/ode.h>
#include <math.h>
#include <stdio.h>

static const double h = 0.001; /* s */

/* The near callback's work: the ball's contact with the ground, if any, through impax. */
static void collide(ipx_ode_context *ipx, dWorldID world, dJointGroupID group, dGeomID ball,
                    dGeomID ground)
{
    dContact c = {0};
    if (dCollide(ball, ground, 1, &c.geom, sizeof c.geom) != 1) return;
    c.surface.mode = dContactBounce;
    c.surface.mu = 0.5;
    c.surface.bounce = 0.5;
    c.surface.bounce_vel = 0.01;
    ipx_ode_contact(ipx, world, group, &c, dGeomGetBody(ball), NULL);
}

int main(void)
{
    dInitODE();
    dWorldID world = dWorldCreate();
    dWorldSetGravity(world, 0, 0, -9.81);
    dSpaceID space = dSimpleSpaceCreate(0);
    dGeomID ground = dCreatePlane(space, 0, 0, 1, 0), ball = dCreateSphere(space, 0.1);
    dBodyID body = dBodyCreate(world);
    dMass m;
    dMassSetSphereTotal(&m, 1.0, 0.1);
    dBodySetMass(body, &m);
    dGeomSetBody(ball, body);
    dBodySetPosition(body, 0, 0, 0.2);
    dBodySetLinearVel(body, 0, 0, -1.0);
    dJointGroupID group = dJointGroupCreate(0);
    ipx_ode_context *ipx = ipx_ode_create(world);
    char msg[256] = "out of memory";
    if (!ipx || ipx_ode_configure(ipx, "plus", "", msg, sizeof msg) != 0) {
        printf("%s\n", msg);
        return 1;
    }
    double v_in = 0.0, v_out = 0.0;
    for (int s = 0; s < 200 && v_out == 0.0; s++) {
        const double vz = dBodyGetLinearVel(body)[2];
        collide(ipx, world, group, ball, ground);
        ipx_ode_step(ipx, h);
        ipx_ode_empty_group(ipx, group);
        if (ipx_ode_get_stats(ipx).impact_events == 1) {
            v_in = vz;
            v_out = dBodyGetLinearVel(body)[2];
        }
    }
    const ipx_ode_stats st = ipx_ode_get_stats(ipx);
    const double expected = 0.5 * fabs(v_in) - 9.81 * h;
    const int ok = st.impact_events == 1 && st.fallbacks == 0 && fabs(v_out - expected) < 1e-6;
    printf("impact at %.4f m/s, leaves at %.6f m/s (expected %.6f), %ld event(s), %ld fallback(s): "
           "%s\n",
           v_in, v_out, expected, st.impact_events, st.fallbacks, ok ? "ok" : "wrong");
    ipx_ode_destroy(ipx);
    dJointGroupDestroy(group);
    dSpaceDestroy(space);
    dWorldDestroy(world);
    dCloseODE();
    return ok ? 0 : 1;
}
