/// worlds/robot_arm_strike.world: the arm's first link swings free of the post under its base
/// (docs/validation.md "Impulses beside a joint"). The post's corner once sat at joint 1,
/// where the first link's rounded end (a 0.04 m cap about a point 0.04 m from the joint)
/// touched it: the link could not turn down without digging into the post, so
/// joint 1 stayed jammed (the link turned by 1 degree in 2 s) and every strike came with a
/// contact 0.73 mm from the joint's axis, where stopping a creep of 4e-5 m/s took 368 N s (the
/// hinge's lever: tests/unit/test_hinge_stop.c). Under plus over 0.3 s: the first link's centre
/// of mass falls below 0.45 m (it turns down by more than 15 degrees; it stayed at 0.497 m), and
/// no contact of an impact lies within 1 cm of joint 1's axis (the y line through (0, 0, 0.5)).
/// argv[1]: the worlds directory.
#include <math.h>
#include <stdio.h>

#include "ensure.h"
#include "world.h"

#define JOINT1_Z 0.5 /* m, joint 1's axis: the y line through (0, 0, JOINT1_Z) */

static const char *dir;

/* The closest any impact's contact came to joint 1's axis (m). */
static void nearest_to_joint1(const ipx_ode_event *ev, void *user)
{
    double *nearest = user;
    if (!ev->ok || !ev->point) return;
    for (int i = 0; i < ev->k; i++) {
        const double *p = ev->point + 3 * i;
        *nearest = fmin(*nearest, hypot(p[0], p[2] - JOINT1_Z));
    }
}

static void test_first_link_swings_free_of_its_post(void)
{
    char path[1024], msg[256];
    snprintf(path, sizeof path, "%s/robot_arm_strike.world", dir);
    ipx_scene *scene = ipx_scene_load(path, NULL, NULL);
    ENSURE(scene != NULL);
    if (!scene) return;
    ipx_sim *sim = ipx_sim_create(scene, "plus", NULL, msg, sizeof msg);
    ENSURE(sim != NULL);
    if (!sim) {
        printf("  %s\n", msg);
        ipx_scene_free(scene);
        return;
    }
    double nearest = INFINITY;
    ipx_ode_set_event_callback(ipx_sim_impax(sim), nearest_to_joint1, &nearest);
    const long steps = lround(0.3 / ipx_scene_step_size(scene));
    int failed = 0;
    for (long s = 0; s < steps && !failed; s++) failed = ipx_sim_step(sim, msg, sizeof msg) != 0;
    ENSURE(!failed);
    const int link1 = ipx_sim_body_index(sim, "robot::link1");
    ENSURE(link1 >= 0);
    const double z = link1 >= 0 ? dBodyGetPosition(ipx_sim_body(sim, link1))[2] : 0.0;
    printf("  after %.2f s: link1's centre of mass at z = %.4f m, nearest impact contact %.4g m "
           "from joint 1's axis\n",
           ipx_sim_time(sim), z, nearest);
    ENSURE(z < 0.45);
    ENSURE(nearest > 0.01);
    ipx_sim_destroy(sim);
    ipx_scene_free(scene);
}

int main(int argc, char **argv)
{
    if (argc != 2) return 2;
    dir = argv[1];
    RUN(test_first_link_swings_free_of_its_post);
    return ipx_test_exit();
}
