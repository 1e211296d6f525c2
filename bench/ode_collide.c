#include <string.h>

#include "ode_collide.h"

int bench_collide(ipx_ode_context *ipx, dWorldID world, dJointGroupID group, dGeomID a, dGeomID b)
{
    dBodyID b1 = dGeomGetBody(a), b2 = dGeomGetBody(b);
    dContactGeom g[4];
    int n = dCollide(a, b, 4, g, sizeof g[0]);
    for (int i = 0; i < n; i++) {
        dContact c;
        memset(&c, 0, sizeof c);
        c.surface.mode = dContactBounce | dContactApprox1;
        c.surface.mu = 0.6;
        c.surface.bounce = 0.3;
        c.surface.bounce_vel = 0.05; /* m/s */
        c.geom = g[i];
        if (ipx) ipx_ode_contact(ipx, world, group, &c, b1, b2);
        else dJointAttach(dJointCreateContact(world, group, &c), b1, b2);
    }
    return n;
}
