/* Gonthier's springs on a collider that reports one depth for all the points of a manifold (as
   ODE's cylinder-trimesh one does, demo_cyl; docs/real-clients.md, kind 4): a 1 kg box (0.4 x
   0.4 x 0.1 m) resting on a plane on its four corners, all found at the deepest corner's depth.
   Rocked by a spin about x, the corners the box lifts are found deeper than the step's
   integration left them; a spring started from the depth found would hold energy nothing paid
   for, and the box rocks on that energy instead of settling. The depth a carried-over contact
   is found beyond its last end depth is owed to first touch, as a new contact's is, and what
   nothing pays starts the spring deeper (docs/models/gonthier.md §5). The box comes to rest
   (its corners below 1e-6 m/s 6 s after the spin and 2 s later; with the spring started from
   the depth found, 1.5e-5 m/s 6 s after and 1.9e-5 m/s 2 s later). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ensure.h"
#include "impax/ode.h"
#include "ode_kit.h"

/* Every contact of the pair at the manifold's deepest depth. */
static void near_one_depth(void *data, dGeomID a, dGeomID b)
{
    kit_sim *s = data;
    dContactGeom g[8];
    const int n = dCollide(a, b, 8, g, sizeof g[0]);
    double deepest = 0.0;
    for (int i = 0; i < n; i++) deepest = fmax(deepest, g[i].depth);
    for (int i = 0; i < n; i++) {
        dContact c;
        memset(&c, 0, sizeof c);
        c.surface = s->surface;
        c.geom = g[i];
        c.geom.depth = deepest;
        ipx_ode_contact(s->ipx, s->world, s->group, &c, dGeomGetBody(a), dGeomGetBody(b));
    }
}

static void step(kit_sim *s, double h)
{
    dSpaceCollide(s->space, s, near_one_depth);
    ipx_ode_step(s->ipx, h);
    ipx_ode_empty_group(s->ipx, s->group);
}

/* m/s: the fastest point of the box's corners. */
static double corner_speed(dBodyID box, const double side[3])
{
    double fastest = 0.0;
    for (int c = 0; c < 8; c++) {
        dVector3 v;
        dBodyGetRelPointVel(box, (c & 1 ? 0.5 : -0.5) * side[0], (c & 2 ? 0.5 : -0.5) * side[1],
                            (c & 4 ? 0.5 : -0.5) * side[2], v);
        fastest = fmax(fastest, sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]));
    }
    return fastest;
}

static void test_box_rocked_on_one_depth_comes_to_rest(void)
{
    const double side[3] = {0.4, 0.4, 0.1}, h = 0.001;
    dSurfaceParameters surface;
    memset(&surface, 0, sizeof surface);
    surface.mu = 0.5;
    kit_sim s;
    ENSURE(kit_sim_make(&s, "gonthier", "", &surface, 0) == 0);
    dBodyID box = kit_box(s.world, 1.0, side, (double[3]){0, 0, 0.05}, (double[3]){0, 0, 1}, 0.0);
    dGeomSetBody(dCreateBox(s.space, side[0], side[1], side[2]), box);
    for (int i = 0; i < 500; i++) step(&s, h); /* settled on its springs */
    dBodySetAngularVel(box, 0.5, 0, 0);
    for (int i = 0; i < 6000; i++) step(&s, h);
    const double speed = corner_speed(box, side), z = dBodyGetPosition(box)[2];
    for (int i = 0; i < 2000; i++) step(&s, h);
    const double speed_later = corner_speed(box, side), sunk = z - dBodyGetPosition(box)[2];
    const ipx_ode_stats st = ipx_ode_get_stats(s.ipx);
    printf("  corners' fastest point 6 s after the spin %.3g m/s, 2 s later %.3g m/s; sank %.3g m "
           "meanwhile (%ld events, %ld fallbacks)\n",
           speed, speed_later, sunk, st.impact_events, st.fallbacks);
    ENSURE(st.fallbacks == 0);
    ENSURE(speed < 1e-6 && speed_later < 1e-6);
    kit_sim_free(&s);
}

int main(void)
{
    dInitODE2(0);
    RUN(test_box_rocked_on_one_depth_comes_to_rest);
    dCloseODE();
    return ipx_test_exit();
}
