/* Gazebo's contact settings as the world loader applies them (README "Contact parameters"):
   a link's <surface><contact><ode><max_vel> (0.01 m/s unless set) caps ODE's push-out of that
   link's contacts, as Gazebo's per-link max_vel does. The plastic sphere drop of
   worlds/gonthier_bouncing_sphere.world (e = 0, ERP 0.2, h = 1 ms, 4.4 mm into the ground in
   its impact step) under ODE alone: with the default cap the push-out bounce carries at most
   (0.01 m/s + g h)^2 / 2 per kg; with max_vel 100 m/s it carries the full erp depth / h. Under
   impax (recovery=position) neither bounces. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ensure.h"
#include "world.h"

static const char *worlds_dir;

/* The sphere world with e = 0 and, if max_vel is not NULL, that <max_vel> on the ball. */
static const char *plastic_world(const char *max_vel)
{
    static char path[64], text[16384];
    char src[1024];
    snprintf(src, sizeof src, "%s/gonthier_bouncing_sphere.world", worlds_dir);
    FILE *f = fopen(src, "r");
    size_t n = f ? fread(text, 1, sizeof text - 1, f) : 0;
    if (f) fclose(f);
    text[n] = '\0';
    for (char *p; (p = strstr(text, "<restitution_coefficient>0.5")) != NULL;) p[27] = '0'; /* 0.5 -> 0.0 */
    if (max_vel) {
        /* the ball's surface is the last <friction>...</friction> of the file */
        char *at = strstr(strstr(text, "<model name=\"ball\">"), "</friction>") + strlen("</friction>");
        char tail[8192];
        snprintf(tail, sizeof tail, "%s", at);
        snprintf(at, sizeof text - (size_t)(at - text), "<contact><ode><max_vel>%s</max_vel></ode></contact>%s",
                 max_vel, tail);
    }
    snprintf(path, sizeof path, "test_world_contact.world");
    f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
    return path;
}

static void print_diag(void *user, int is_error, const char *line)
{
    (void)user;
    fprintf(stderr, "%s %s\n", is_error ? "error:" : "warning:", line);
}

/* Largest kinetic energy (J) from 0.05 s after the first impact to the end (2 s). */
static double energy_after_landing(const char *max_vel, const char *model)
{
    ipx_scene *scene = ipx_scene_load(plastic_world(max_vel), print_diag, NULL);
    ENSURE(scene != NULL);
    char msg[256];
    ipx_sim *sim = ipx_sim_create(scene, model, NULL, msg, sizeof msg);
    ENSURE(sim != NULL);
    double landed = -1.0, ke = 0.0;
    while (sim && ipx_sim_time(sim) < 2.0) {
        ENSURE(ipx_sim_step(sim, msg, sizeof msg) == 0);
        if (landed < 0.0 && ipx_sim_penetration(sim) > 0.0) landed = ipx_sim_time(sim);
        if (landed >= 0.0 && ipx_sim_time(sim) > landed + 0.05) ke = fmax(ke, ipx_sim_kinetic_energy(sim));
    }
    ipx_sim_destroy(sim);
    ipx_scene_free(scene);
    return ke;
}

static void test_max_vel_caps_the_push_out(void)
{
    const double g_h = 9.81e-3, cap = 0.5 * (0.01 + g_h) * (0.01 + g_h);
    const double capped = energy_after_landing(NULL, "ode"), free_ = energy_after_landing("100", "ode");
    const double impax = energy_after_landing("100", "plus");
    printf("  kinetic energy after landing: ODE, default max_vel %.3g J (bound %.3g J); ODE, max_vel 100 "
           "%.3g J; plus %.3g J\n", capped, cap, free_, impax);
    ENSURE(capped <= cap);
    ENSURE(free_ > 100.0 * cap);
    ENSURE(impax <= cap);
}

int main(int argc, char **argv)
{
    worlds_dir = argc > 1 ? argv[1] : "worlds";
    RUN(test_max_vel_caps_the_push_out);
    return ipx_test_exit();
}
