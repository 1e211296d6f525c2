/// Worlds as Gazebo writes them (issue [ux] 1): worlds/gazebo_box_drop.world, saved by Gazebo 11
/// with every element it writes at its default and a <state>, loads with warnings only, starts
/// from the state's pose and velocity, and settles flat with no energy gained; and what ODE can do
/// of Gazebo's elements works as in Gazebo: collide bitmasks filter contacts (disjoint: a box
/// falls through another; shared bits: it lands on it), a kinematic body moves with its velocity
/// whatever gravity and contacts do, a link's self_collide lets links of one model touch, and a
/// model state moves the model's links, collisions and joints rigidly.
/// argv[1]: the worlds directory.
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ensure.h"
#include "world_kit.h"

static const char *worlds_dir;

typedef struct diags {
    int errors, warnings;
    char all[8192];
} diags;

static void collect(void *user, int is_error, const char *line)
{
    diags *d = user;
    if (is_error) d->errors++;
    else d->warnings++;
    size_t used = strlen(d->all);
    snprintf(d->all + used, sizeof d->all - used, "%s\n", line);
}

static ipx_scene *load_world(const char *body)
{
    return kit_world("test_world_gazebo.world", body);
}

/* Steps sim for t seconds; the largest total energy met (J). */
static double run_for(ipx_sim *sim, double t)
{
    char msg[256];
    double e_max = ipx_sim_energy(sim);
    while (ipx_sim_time(sim) < t - 1e-9) {
        if (ipx_sim_step(sim, msg, sizeof msg) != 0) {
            printf("  step failed: %s\n", msg);
            ENSURE(0);
            break;
        }
        e_max = fmax(e_max, ipx_sim_energy(sim));
    }
    return e_max;
}

static const dReal *position_of(const ipx_sim *sim, const char *name)
{
    const int b = ipx_sim_body_index(sim, name);
    ENSURE(b >= 0);
    static const dReal nowhere[4] = {NAN, NAN, NAN, NAN};
    return b >= 0 ? dBodyGetPosition(ipx_sim_body(sim, b)) : nowhere;
}

static void test_gazebo_saved_world_loads_runs_and_settles(void)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/gazebo_box_drop.world", worlds_dir);
    diags d = {0};
    ipx_scene *scene = ipx_scene_load(path, collect, &d);
    printf("%s", d.all);
    ENSURE(scene != NULL && d.errors == 0);
    if (!scene) return;
    /* warnings only for what changes nothing: no "not supported", no "unknown" */
    ENSURE(strstr(d.all, "not supported") == NULL && strstr(d.all, "unknown") == NULL);
    static const char *const models[] = {"plus", "ode"};
    for (int m = 0; m < 2; m++) {
        ipx_sim *sim = kit_sim(scene, models[m]);
        ENSURE(sim != NULL);
        if (!sim) continue;
        dBodyID box = ipx_sim_body(sim, ipx_sim_body_index(sim, "unit_box::link"));
        /* the <state>'s pose and velocity */
        ENSURE_NEAR(dBodyGetPosition(box)[2], 1.8, 1e-12);
        ENSURE_NEAR(dBodyGetLinearVel(box)[2], -3.43, 1e-12);
        ENSURE_NEAR(dBodyGetAngularVel(box)[0], 1.2, 1e-12);
        ENSURE_NEAR(dBodyGetAngularVel(box)[1], -0.4, 1e-12);
        const double e0 = ipx_sim_energy(sim), e_max = run_for(sim, ipx_scene_duration(scene));
        const double e_end = ipx_sim_energy(sim), z = dBodyGetPosition(box)[2];
        printf("  %-4s energy %.4f J at the start, at most %.4f, %.4f J at the end; box at z = "
               "%.4f m\n",
               models[m], e0, e_max, e_end, z);
        /* one step of the state's wrench (9.8 N for 1 ms) adds at most m v dv = 3.4 * 0.0098 J */
        ENSURE(e_max <= e0 + 0.04);
        ENSURE_NEAR(z, 0.5, 0.005);              /* flat on the ground */
        ENSURE_NEAR(e_end, 1.0 * 9.8 * z, 0.01); /* at rest */
        ipx_sim_destroy(sim);
    }
    ipx_scene_free(scene);
}

/* Box b (0.1 m, bitmask mask_b) dropped from 0.3 m onto box a (bitmask mask_a) resting on the
   ground: the final height of b. */
static double dropped_box_height(const char *mask_a, const char *mask_b)
{
    char body[4096];
    snprintf(body, sizeof body,
             "<model name='ground'><static>true</static><link name='l'><collision "
             "name='c'><geometry><plane>"
             "<normal>0 0 1</normal></plane></geometry></collision></link></model>\n"
             "<model name='a'><pose>0 0 0.05 0 0 0</pose><link "
             "name='l'><inertial><mass>1</mass><inertia><ixx>0.00167"
             "</ixx><iyy>0.00167</iyy><izz>0.00167</izz></inertia></inertial><collision "
             "name='c'><geometry><box><size>"
             "0.1 0.1 "
             "0.1</size></box></geometry><surface><contact><collide_bitmask>%s</collide_bitmask></"
             "contact>"
             "</surface></collision></link></model>\n"
             "<model name='b'><pose>0 0 0.3 0 0 0</pose><link "
             "name='l'><inertial><mass>1</mass><inertia><ixx>0.00167"
             "</ixx><iyy>0.00167</iyy><izz>0.00167</izz></inertia></inertial><collision "
             "name='c'><geometry><box><size>"
             "0.1 0.1 "
             "0.1</size></box></geometry><surface><contact><collide_bitmask>%s</collide_bitmask></"
             "contact>"
             "</surface></collision></link></model>\n",
             mask_a, mask_b);
    ipx_scene *scene = load_world(body);
    ENSURE(scene != NULL);
    if (!scene) return NAN;
    ipx_sim *sim = kit_sim(scene, "plus");
    double z = NAN;
    if (sim) {
        run_for(sim, 1.0);
        z = position_of(sim, "b::l")[2];
        ipx_sim_destroy(sim);
    }
    ipx_scene_free(scene);
    return z;
}

static void test_collide_bitmasks_filter_contacts(void)
{
    const double disjoint = dropped_box_height("0x01", "0x02"),
                 shared = dropped_box_height("0x03", "0x02"),
                 defaults = dropped_box_height("65535", "0xffff");
    printf("  box b rests at %.4f m (disjoint masks), %.4f m (a shared bit), %.4f m (defaults)\n",
           disjoint, shared, defaults);
    ENSURE_NEAR(disjoint, 0.05, 0.003); /* through a, onto the ground */
    ENSURE_NEAR(shared, 0.15, 0.003);   /* on a */
    ENSURE_NEAR(defaults, 0.15, 0.003);
}

/* A kinematic box sliding at 1 m/s along the ground, under gravity, through a resting box. */
static void test_kinematic_body_moves_with_its_velocity(void)
{
    static const char body[] =
        "<model name='ground'><static>true</static><link name='l'><collision "
        "name='c'><geometry><plane>"
        "<normal>0 0 1</normal></plane></geometry></collision></link></model>\n"
        "<model name='pusher'><pose>0 0 0.1 0 0 0</pose><link name='l'><kinematic>1</kinematic>"
        "<impax:linear_velocity>1 0 0</impax:linear_velocity>"
        "<collision name='c'><geometry><box><size>0.2 0.2 "
        "0.2</size></box></geometry></collision></link></model>\n"
        "<model name='crate'><pose>0.5 0 0.05 0 0 0</pose><link "
        "name='l'><inertial><mass>1</mass><inertia><ixx>0.00167"
        "</ixx><iyy>0.00167</iyy><izz>0.00167</izz></inertia></inertial><collision "
        "name='c'><geometry><box><size>"
        "0.1 0.1 0.1</size></box></geometry></collision></link></model>\n";
    ipx_scene *scene = load_world(body);
    ENSURE(scene != NULL);
    if (!scene) return;
    static const char *const models[] = {"plus", "ode"};
    for (int m = 0; m < 2; m++) {
        ipx_sim *sim = kit_sim(scene, models[m]);
        ENSURE(sim != NULL);
        if (!sim) continue;
        dBodyID pusher = ipx_sim_body(sim, ipx_sim_body_index(sim, "pusher::l"));
        ENSURE(dBodyIsKinematic(pusher));
        run_for(sim, 1.0);
        const dReal *x = dBodyGetPosition(pusher), *v = dBodyGetLinearVel(pusher);
        const double crate_x = position_of(sim, "crate::l")[0];
        printf(
            "  %-4s pusher at (%.6f, %.6f, %.6f) m moving %.6f m/s; crate pushed to x = %.3f m\n",
            models[m], x[0], x[1], x[2], v[0], crate_x);
        ENSURE_NEAR(x[0], 1.0, 1e-9);  /* 1 m/s for 1 s */
        ENSURE_NEAR(x[2], 0.1, 1e-12); /* no gravity, no push-out */
        ENSURE_NEAR(v[0], 1.0, 0);
        ENSURE_NEAR(v[2], 0.0, 0);
        ENSURE(crate_x > 1.05); /* shoved ahead of the pusher's front face */
        ipx_sim_destroy(sim);
    }
    ipx_scene_free(scene);
}

/* Two overlapping links of one model, no joint: they touch only if one of them self-collides. */
static double separation_after(const char *self_collide_b)
{
    char body[2048];
    snprintf(body, sizeof body,
             "<gravity>0 0 0</gravity><model name='m'>"
             "<link name='a'><collision "
             "name='c'><geometry><sphere><radius>0.1</radius></sphere></geometry>"
             "</collision></link>"
             "<link name='b'><pose>0.15 0 0 0 0 0</pose>%s<collision "
             "name='c'><geometry><sphere><radius>0.1</radius>"
             "</sphere></geometry></collision></link></model>",
             self_collide_b);
    ipx_scene *scene = load_world(body);
    ENSURE(scene != NULL);
    if (!scene) return NAN;
    ipx_sim *sim = kit_sim(scene, "ode");
    double gap = NAN;
    if (sim) {
        run_for(sim, 0.5);
        gap = position_of(sim, "m::b")[0] - position_of(sim, "m::a")[0];
        ipx_sim_destroy(sim);
    }
    ipx_scene_free(scene);
    return gap;
}

static void test_link_self_collide_lets_links_of_a_model_touch(void)
{
    const double apart = separation_after(""),
                 pushed = separation_after("<self_collide>1</self_collide>");
    const double off = separation_after("<self_collide>0</self_collide>");
    printf("  centres %.4f m apart (default), %.4f m (b self-collides), %.4f m (self_collide 0)\n",
           apart, pushed, off);
    ENSURE_NEAR(apart, 0.15, 1e-12);
    ENSURE_NEAR(off, 0.15, 1e-12);
    ENSURE(pushed >
           0.153); /* ODE pushes the overlap out, at Gazebo's default max_vel of 0.01 m/s */
}

/* A <state> pose of a model (yaw 90 deg, 1 m up) moves its links, their collisions and its joint
   anchors with it; a link state's pose then overrides its link; velocities are the link
   origin's, made the centre of mass's. */
static void test_state_moves_models_links_and_joints(void)
{
    static const char body[] =
        "<gravity>0 0 0</gravity>\n"
        "<model name='m'><pose>1 0 0 0 0 0</pose>\n"
        " <link name='a'><inertial><pose>0.5 0 0 0 0 0</pose><mass>1</mass></inertial>\n"
        "  <collision name='c'><pose>0 0 0.2 0 0 "
        "0</pose><geometry><sphere><radius>0.1</radius></sphere></geometry>"
        "</collision></link>\n"
        " <link name='b'><pose>0 1 0 0 0 0</pose></link>\n"
        " <joint name='j' type='revolute'><parent>world</parent><child>a</child><pose>0.1 0 0 0 0 "
        "0</pose>"
        "<axis><xyz>1 0 0</xyz></axis></joint>\n"
        "</model>\n"
        "<state world_name='w'><sim_time>1 0</sim_time><model name='m'><pose frame=''>0 0 1 0 0 "
        "1.5707963267948966"
        "</pose><scale>1 1 1</scale>\n"
        " <link name='b'><pose frame=''>5 5 5 0 -0 0</pose><velocity>1 0 0 0 0 2</velocity>"
        "<acceleration>0 0 0 0 -0 0</acceleration><wrench>0 0 0 0 -0 0</wrench></link>\n"
        " <joint name='j'><angle axis='0'>0</angle></joint></model></state>\n";
    ipx_scene *scene = load_world(body);
    ENSURE(scene != NULL);
    if (!scene) return;
    ipx_sim *sim = kit_sim(scene, "plus");
    ENSURE(sim != NULL);
    if (sim) {
        dBodyID a = ipx_sim_body(sim, ipx_sim_body_index(sim, "m::a"));
        /* link a: model origin now at (0 0 1) turned 90 deg about z; the COM 0.5 m along a's x = world +y */
        const dReal *x = dBodyGetPosition(a);
        ENSURE_NEAR(x[0], 0.0, 1e-12);
        ENSURE_NEAR(x[1], 0.5, 1e-12);
        ENSURE_NEAR(x[2], 1.0, 1e-12);
        const dReal *g = dGeomGetPosition(dBodyGetFirstGeom(a)); /* 0.2 m up from the link */
        ENSURE_NEAR(g[0], 0.0, 1e-12);
        ENSURE_NEAR(g[1], 0.0, 1e-12);
        ENSURE_NEAR(g[2], 1.2, 1e-12);
        dVector3 anchor, axis;
        dJointGetHingeAnchor(dBodyGetJoint(a, 0), anchor); /* 0.1 m along a's x = world +y */
        dJointGetHingeAxis(dBodyGetJoint(a, 0), axis);     /* a's x = world +y */
        ENSURE_NEAR(anchor[1], 0.1, 1e-12);
        ENSURE_NEAR(anchor[2], 1.0, 1e-12);
        ENSURE_NEAR(fabs(axis[1]), 1.0, 1e-12);
        /* link b: its own state pose and velocity (its COM is its origin) */
        dBodyID b = ipx_sim_body(sim, ipx_sim_body_index(sim, "m::b"));
        ENSURE_NEAR(dBodyGetPosition(b)[0], 5.0, 1e-12);
        ENSURE_NEAR(dBodyGetLinearVel(b)[0], 1.0, 0);
        ENSURE_NEAR(dBodyGetAngularVel(b)[2], 2.0, 0);
        ipx_sim_destroy(sim);
    }
    ipx_scene_free(scene);
}

/* <velocity_decay> is ODE's per-body damping; zeros, Gazebo's default, change nothing. */
static void test_velocity_decay_is_odes_damping(void)
{
    static const char body[] =
        "<model name='m'><link "
        "name='a'><velocity_decay><linear>0.01</linear><angular>0.02</angular>"
        "</velocity_decay></link><link "
        "name='b'><velocity_decay><linear>0</linear><angular>0</angular>"
        "</velocity_decay></link></model>";
    ipx_scene *scene = load_world(body);
    ENSURE(scene != NULL);
    if (!scene) return;
    ipx_sim *sim = kit_sim(scene, "plus");
    ENSURE(sim != NULL); /* else the test passed having checked nothing */
    if (sim) {
        dBodyID a = ipx_sim_body(sim, 0), b = ipx_sim_body(sim, 1);
        ENSURE_NEAR(dBodyGetLinearDamping(a), 0.01, 0);
        ENSURE_NEAR(dBodyGetAngularDamping(a), 0.02, 0);
        ENSURE_NEAR(dBodyGetLinearDamping(b), 0.0, 0);
        ipx_sim_destroy(sim);
    }
    ipx_scene_free(scene);
}

int main(int argc, char **argv)
{
    if (argc != 2) return 2;
    worlds_dir = argv[1];
    RUN(test_gazebo_saved_world_loads_runs_and_settles);
    RUN(test_collide_bitmasks_filter_contacts);
    RUN(test_kinematic_body_moves_with_its_velocity);
    RUN(test_link_self_collide_lets_links_of_a_model_touch);
    RUN(test_state_moves_models_links_and_joints);
    RUN(test_velocity_decay_is_odes_damping);
    return ipx_test_exit();
}
