/// Values at the edges of what ODE computes (issue [hardening] 4, 5): directions of any scale are
/// normalised without overflow (a plane normal 0 0 1e155 is +z, not zero; a joint axis
/// 0 1e155 0 is +y instead of an ODE abort; 1e-300 keeps its direction too), a friction
/// direction along the contact normal does not make ODE assert, and a run whose
/// body leaves the range ODE's collision space holds stops with a message instead of aborting.
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ensure.h"
#include "world_kit.h"

static ipx_scene *load_world(const char *body)
{
    return kit_world("test_world_limits.world", body);
}

/* A box with friction direction fdir1 resting on a plane of normal `normal` (any positive
   multiple of +z). */
static void expect_plane_up(const char *normal, const char *fdir1)
{
    char body[2048];
    snprintf(body, sizeof body,
             "<model name='g'><static>true</static><link name='l'><collision "
             "name='c'><geometry><plane><normal>%s"
             "</normal></plane></geometry></collision></link></model>"
             "<model name='b'><pose>0 0 0.05 0 0 0</pose><link "
             "name='l'><inertial><mass>1</mass><inertia><ixx>0.00167"
             "</ixx><iyy>0.00167</iyy><izz>0.00167</izz></inertia></inertial><collision "
             "name='c'><geometry><box><size>"
             "0.1 0.1 "
             "0.1</size></box></geometry><surface><friction><ode><fdir1>%s</fdir1></ode></"
             "friction></surface>"
             "</collision></link></model>",
             normal, fdir1);
    ipx_scene *scene = load_world(body);
    ENSURE(scene != NULL);
    if (!scene) return;
    char msg[256];
    ipx_sim *sim = kit_sim(scene, "plus");
    ENSURE(sim != NULL);
    if (sim) {
        dGeomID plane = NULL;
        for (int i = 0;
             i < dSpaceGetNumGeoms(dGeomGetSpace(dBodyGetFirstGeom(ipx_sim_body(sim, 0)))); i++) {
            dGeomID g = dSpaceGetGeom(dGeomGetSpace(dBodyGetFirstGeom(ipx_sim_body(sim, 0))), i);
            if (dGeomGetClass(g) == dPlaneClass) plane = g;
        }
        dVector4 p;
        dGeomPlaneGetParams(plane, p);
        const double e0 = ipx_sim_energy(sim);
        for (int s = 0; s < 500; s++) ENSURE(ipx_sim_step(sim, msg, sizeof msg) == 0);
        printf("  normal %-12s fdir1 %-12s -> (%g, %g, %g); energy %.6f J -> %.6f J\n", normal,
               fdir1, p[0], p[1], p[2], e0, ipx_sim_energy(sim));
        ENSURE_NEAR(p[0], 0.0, 0);
        ENSURE_NEAR(p[2], 1.0, 1e-15);
        ENSURE(ipx_sim_energy(sim) <=
               e0 + 1e-3); /* resting: no 4900 J from a plane that vanished */
        ipx_sim_destroy(sim);
    }
    ipx_scene_free(scene);
}

static void test_large_and_tiny_directions_keep_their_direction(void)
{
    expect_plane_up("0 0 1e155", "1e155 0 0");
    expect_plane_up("0 0 1e300", "0 1e-300 0");
    expect_plane_up("0 0 1e-300", "1 1 0");
}

/* ODE wants fdir1 perpendicular to the contact normal: one along the normal made its step
   assert (dNormalize4); it is projected onto each contact's plane, or left to ODE there. */
static void test_friction_direction_along_the_normal(void)
{
    expect_plane_up("0 0 1", "0 0 1");
    expect_plane_up("0 0 1", "0 0 -1e155");
    expect_plane_up("0 0 1", "1 0 1");
}

static void test_joint_axis_of_any_scale(void)
{
    static const char *const axes[] = {"0 1e155 0", "0 1e-300 0", "0 1e308 0"};
    for (int i = 0; i < 3; i++) {
        char body[1024];
        snprintf(
            body, sizeof body,
            "<model name='m'><link name='a'><pose>0 0 1 0 0 0</pose><impax:angular_velocity>0 1 0"
            "</impax:angular_velocity></link><joint name='j' "
            "type='revolute'><parent>world</parent><child>a"
            "</child><axis><xyz>%s</xyz></axis></joint></model>",
            axes[i]);
        ipx_scene *scene = load_world(body);
        ENSURE(scene != NULL);
        if (!scene) continue;
        char msg[256];
        ipx_sim *sim = kit_sim(scene, "plus");
        ENSURE(sim != NULL);
        if (sim) {
            dVector3 axis;
            dJointGetHingeAxis(dBodyGetJoint(ipx_sim_body(sim, 0), 0), axis);
            for (int s = 0; s < 100; s++) ENSURE(ipx_sim_step(sim, msg, sizeof msg) == 0);
            printf("  axis %-11s -> (%g, %g, %g)\n", axes[i], axis[0], axis[1], axis[2]);
            ENSURE_NEAR(axis[1], 1.0, 1e-15);
            ipx_sim_destroy(sim);
        }
        ipx_scene_free(scene);
    }
}

/* A body thrown at the largest accepted speed with a long step leaves ODE's range: the run stops
   with a message naming the body (ODE would assert in its hash space, exit 134). */
static void test_a_body_leaving_the_range_stops_the_run(void)
{
    static const char body[] =
        "<gravity>0 0 0</gravity><physics type='ode'><max_step_size>1</max_step_size></physics>"
        "<model name='g'><static>true</static><link name='l'><collision "
        "name='c'><geometry><box><size>1 1 1</size>"
        "</box></geometry></collision></link></model>"
        "<model name='shot'><pose>9e5 0 0 0 0 0</pose><link name='l'><impax:linear_velocity>1e6 0 0"
        "</impax:linear_velocity><collision "
        "name='c'><geometry><sphere><radius>1e-3</radius></sphere></geometry>"
        "</collision></link></model>";
    ipx_scene *scene = load_world(body);
    ENSURE(scene != NULL);
    if (!scene) return;
    char msg[256] = "";
    ipx_sim *sim = kit_sim(scene, "plus");
    ENSURE(sim != NULL);
    int stopped = 0, steps = 0;
    while (sim && !stopped && steps < 1000) {
        stopped = ipx_sim_step(sim, msg, sizeof msg) != 0;
        steps++;
    }
    printf("  stopped after %d steps: %s\n", steps, msg);
    ENSURE(stopped && steps == 100 &&
           strstr(msg, "body 'shot::l' left the range ODE can simulate") != NULL);
    ipx_sim_destroy(sim);
    ipx_scene_free(scene);
}

int main(void)
{
    RUN(test_large_and_tiny_directions_keep_their_direction);
    RUN(test_friction_direction_along_the_normal);
    RUN(test_joint_axis_of_any_scale);
    RUN(test_a_body_leaving_the_range_stops_the_run);
    return ipx_test_exit();
}
