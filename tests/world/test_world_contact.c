/* Gazebo's contact settings as the world loader applies them (docs/command.md "Contact parameters"):
   a link's <surface><contact><ode><max_vel> (0.01 m/s unless set) caps ODE's push-out of that
   link's contacts, as Gazebo's per-link max_vel does. The plastic sphere drop of
   worlds/gonthier_bouncing_sphere.world (e = 0, ERP 0.2, h = 1 ms, 4.4 mm into the ground in
   its impact step) under ODE alone: with the default cap the push-out bounce carries at most
   (0.01 m/s + g h)^2 / 2 per kg; with max_vel 100 m/s it carries the full erp depth / h. Under
   impax (recovery=position) neither bounces. And the params' contact keys (mu, e, bounce_vel)
   against closed forms: the bounce height e^2 h, no bounce below bounce_vel, and the sliding
   distance v^2 / (2 mu g). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ensure.h"
#include "world_kit.h"

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
    for (char *p; (p = strstr(text, "<restitution_coefficient>0.5")) != NULL;)
        p[27] = '0'; /* 0.5 -> 0.0 */
    if (max_vel) {
        /* the ball's surface is the last <friction>...</friction> of the file */
        char *at =
            strstr(strstr(text, "<model name=\"ball\">"), "</friction>") + strlen("</friction>");
        char tail[8192];
        snprintf(tail, sizeof tail, "%s", at);
        snprintf(at, sizeof text - (size_t)(at - text),
                 "<contact><ode><max_vel>%s</max_vel></ode></contact>%s", max_vel, tail);
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
        if (landed >= 0.0 && ipx_sim_time(sim) > landed + 0.05)
            ke = fmax(ke, ipx_sim_kinetic_energy(sim));
    }
    ipx_sim_destroy(sim);
    ipx_scene_free(scene);
    return ke;
}

static void test_max_vel_caps_the_push_out(void)
{
    const double g_h = 9.81e-3, cap = 0.5 * (0.01 + g_h) * (0.01 + g_h);
    const double capped = energy_after_landing(NULL, "ode"),
                 free_ = energy_after_landing("100", "ode");
    const double impax = energy_after_landing("100", "plus");
    printf("  kinetic energy after landing: ODE, default max_vel %.3g J (bound %.3g J); ODE, "
           "max_vel 100 "
           "%.3g J; plus %.3g J\n",
           capped, cap, free_, impax);
    ENSURE(capped <= cap);
    ENSURE(free_ > 100.0 * cap);
    ENSURE(impax <= cap);
}

/* Height (m) of the ball's lowest point at the apex after its first bounce, in
   gonthier_bouncing_sphere.world (dropped from 1 m, radius 0.1 m) under model and params. */
static double first_bounce_apex(const char *model, const char *params)
{
    char path[1024], msg[256];
    snprintf(path, sizeof path, "%s/gonthier_bouncing_sphere.world", worlds_dir);
    ipx_scene *scene = ipx_scene_load(path, print_diag, NULL);
    ipx_sim *sim = scene ? ipx_sim_create(scene, model, params, msg, sizeof msg) : NULL;
    ENSURE(sim != NULL);
    double apex = 0.0;
    int rising = 0;
    while (sim && ipx_sim_time(sim) < 2.0) {
        ENSURE(ipx_sim_step(sim, msg, sizeof msg) == 0);
        dBodyID ball = ipx_sim_body(sim, 0);
        const double z = dBodyGetPosition(ball)[2] - 0.1, vz = dBodyGetLinearVel(ball)[2];
        if (ipx_sim_penetration(sim) > 0.0 && vz > 0.0) rising = 1;
        if (rising) apex = fmax(apex, z);
        if (rising && vz < 0.0 && z > 0.01) break;
    }
    ipx_sim_destroy(sim);
    ipx_scene_free(scene);
    return apex;
}

/* The keys e and bounce_vel of the params replace every surface's restitution and threshold, for
   ODE's own contact handling too: a drop from 1 m comes back to e^2 of it while the impact speed
   (sqrt(2 g), 4.43 m/s) exceeds bounce_vel, and not at all below it. */
static void test_contact_keys_set_restitution_and_threshold(void)
{
    const double e = 0.9, expect = e * e * 1.0;
    const double plus = first_bounce_apex("plus", "e=0.9"), ode = first_bounce_apex("ode", "e=0.9");
    const double plastic = first_bounce_apex("plus", "e=0"),
                 world = first_bounce_apex("plus", NULL);
    const double slow = first_bounce_apex("ode", "e=0.9,bounce_vel=5"),
                 slow_plus = first_bounce_apex("plus", "e=0.9,bounce_vel=5");
    printf("  apex after the first bounce: e=0.9 plus %.4f m, ode %.4f m (e^2 h = %.4f); e=0 plus "
           "%.2g m; "
           "the world's e=0.5 plus %.4f m; e=0.9, bounce_vel=5 m/s: ode %.2g m, plus %.2g m\n",
           plus, ode, expect, plastic, world, slow, slow_plus);
    /* the contact is found in the step after the ball reaches the surface, up to v h = 4.4 mm
       below it, and bounces from there; ODE's push-out adds up to 0.01 m/s (max_vel): 0.5 % */
    const double v_h = sqrt(2 * 9.81 * 1.0) * 0.001, tol = 1.5 * v_h;
    ENSURE_NEAR(plus, expect, tol);
    ENSURE_NEAR(ode, expect, tol);
    ENSURE(plastic < 1e-3);
    ENSURE_NEAR(world, 0.25, tol);
    ENSURE(slow < 1e-3 && slow_plus < 1e-3);
}

/* A 0.1 m cube sliding at 1 m/s on a plane stops after v^2 / (2 mu g): the key mu replaces the
   surfaces' mu (1 in the file) along both friction directions. QuickStep: dWorldStep's LCP fails
   on a face's four coplanar contacts ("LCP internal error") and drops friction in some steps. */
static const char sliding_box[] =
    "<?xml version='1.0'?>\n"
    "<sdf version='1.6' xmlns:impax='urn:impax:sdf:1'><world name='slide'><gravity>0 0 "
    "-9.81</gravity>\n"
    "<physics "
    "type='ode'><max_step_size>0.001</max_step_size><ode><solver><type>quick</type><iters>100</"
    "iters></solver></ode></physics>\n"
    "<model name='ground'><static>true</static><link name='plane'><collision name='plane'>\n"
    " <geometry><plane><normal>0 0 1</normal></plane></geometry></collision></link></model>\n"
    "<model name='box'><link name='box'><pose>0 0 0.05 0 0 "
    "0</pose><inertial><mass>1</mass><inertia>\n"
    " <ixx>0.00166667</ixx><iyy>0.00166667</iyy><izz>0.00166667</izz></inertia></inertial>\n"
    " <collision name='box'><geometry><box><size>0.1 0.1 0.1</size></box></geometry></collision>\n"
    " <impax:linear_velocity>1 0 0</impax:linear_velocity></link></model>\n"
    "</world></sdf>\n";

static double sliding_distance(const char *model, const char *params)
{
    char msg[256];
    ipx_scene *scene = kit_load("test_world_contact_slide.world", sliding_box, print_diag, NULL);
    ipx_sim *sim = scene ? ipx_sim_create(scene, model, params, msg, sizeof msg) : NULL;
    ENSURE(sim != NULL);
    double x = NAN;
    while (sim && ipx_sim_time(sim) < 2.0) {
        ENSURE(ipx_sim_step(sim, msg, sizeof msg) == 0);
        x = dBodyGetPosition(ipx_sim_body(sim, 0))[0];
    }
    ipx_sim_destroy(sim);
    ipx_scene_free(scene);
    return x;
}

static void test_contact_key_mu_sets_the_friction(void)
{
    const double g = 9.81;
    for (int m = 0; m < 2; m++) {
        const char *model = m ? "plus" : "ode";
        const double low = sliding_distance(model, "mu=0.2"),
                     high = sliding_distance(model, "mu=0.5");
        printf("  %s: slides %.4f m with mu=0.2 (closed form %.4f), %.4f m with mu=0.5 (%.4f)\n",
               model, low, 1.0 / (2 * 0.2 * g), high, 1.0 / (2 * 0.5 * g));
        ENSURE_NEAR(low, 1.0 / (2 * 0.2 * g), 0.02 / (2 * 0.2 * g));
        ENSURE_NEAR(high, 1.0 / (2 * 0.5 * g), 0.02 / (2 * 0.5 * g));
    }
}

/* Bad values name the key and its range, and no simulation is made; other keys still go to the
   model; ranges are what impax fit bounds its search with. */
static void test_contact_keys_reject_bad_values(void)
{
    char path[1024], msg[256];
    snprintf(path, sizeof path, "%s/gonthier_bouncing_sphere.world", worlds_dir);
    ipx_scene *scene = ipx_scene_load(path, print_diag, NULL);
    ENSURE(scene != NULL);
    if (!scene) return;
    static const char *const bad[][2] = {{"mu=nan", "mu"},
                                         {"e=1.5", "e"},
                                         {"bounce_vel=-1", "bounce_vel"},
                                         {"theta_max=0.01,e=abc", "e"},
                                         {"mu=11", "[0, 10]"}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        msg[0] = '\0';
        ipx_sim *sim = ipx_sim_create(scene, "plus", bad[i][0], msg, sizeof msg);
        printf("  %-22s -> %s\n", bad[i][0], msg);
        ENSURE(sim == NULL && strstr(msg, bad[i][1]) != NULL &&
               strstr(msg, "contact parameter") != NULL);
        ipx_sim_destroy(sim);
    }
    ipx_sim *sim = ipx_sim_create(scene, "ode", "mu=0.3,theta_max=0.01", msg,
                                  sizeof msg); /* ode takes no model keys */
    ENSURE(sim == NULL && strstr(msg, "theta_max") != NULL);
    ipx_sim_destroy(sim);
    sim = ipx_sim_create(scene, "plus", " mu = 0.3 , theta_max=0.01, e=0 ,bounce_vel=0", msg,
                         sizeof msg);
    ENSURE(sim != NULL);
    ipx_sim_destroy(sim);
    ipx_scene_free(scene);
    double lo = -1, hi = -1;
    ENSURE(ipx_contact_param_range("mu", &lo, &hi) == 1 && lo == 0 && hi == 10);
    ENSURE(ipx_contact_param_range("e", &lo, &hi) == 1 && lo == 0 && hi == 1);
    ENSURE(ipx_contact_param_range("bounce_vel", &lo, &hi) == 1 && lo == 0 && hi == 100);
    ENSURE(ipx_contact_param_range("theta_max", &lo, &hi) == 0 &&
           ipx_contact_param_range("m", NULL, NULL) == 0);
}

/* gonthier's fallbacks and the last reason, over 0.5 s of a ball sliding on a plane whose <mu>
   is `mu` (the ball's is 1: the pair takes the smaller, so a plane mu of 1000 or more is 1). */
static ipx_ode_stats ball_on_plane_under_gonthier(const char *mu)
{
    char text[2048];
    snprintf(text, sizeof text,
             "<?xml version='1.0'?>\n<sdf version='1.6'><world name='w'>\n"
             "<model name='g'><static>true</static><link name='l'><collision "
             "name='c'><geometry><plane><normal>0 0 1"
             "</normal></plane></geometry><surface><friction><ode><mu>%s</mu><mu2>%s</mu2></ode></"
             "friction></surface>"
             "</collision></link></model>\n"
             "<model name='ball'><pose>0 0 0.1 0 0 0</pose><link "
             "name='l'><inertial><mass>1</mass><inertia><ixx>0.004"
             "</ixx><iyy>0.004</iyy><izz>0.004</izz></inertia></inertial><collision "
             "name='c'><geometry><sphere><radius>"
             "0.1</radius></sphere></geometry><surface><friction><ode><mu>%s</mu><mu2>%s</mu2></"
             "ode></friction>"
             "</surface></collision></link></model>\n</world></sdf>\n",
             mu, mu, mu, mu);
    ipx_ode_stats st = {0};
    ipx_scene *scene = kit_load("test_world_contact_mu.world", text, print_diag, NULL);
    ENSURE(scene != NULL);
    char msg[256];
    ipx_sim *sim = scene ? ipx_sim_create(scene, "gonthier", NULL, msg, sizeof msg) : NULL;
    ENSURE(sim != NULL);
    for (int i = 0; sim && i < 500; i++) ENSURE(ipx_sim_step(sim, msg, sizeof msg) == 0);
    if (sim) st = ipx_ode_get_stats(ipx_sim_impax(sim));
    ipx_sim_destroy(sim);
    ipx_scene_free(scene);
    return st;
}

/* Every mu is modelled under gonthier, however large: ODE's dInfinity (never slides), which a
   world says as inf, too, as the limit of the law (no slip; docs/models/gonthier.md §5). (mu >=
   1000 was once refused as "mu = dInfinity", and dInfinity itself left to ODE.) */
static void test_any_mu_even_infinite_is_modelled(void)
{
    static const char *const mu[] = {"1000", "5000", "1e9", "inf"};
    for (int i = 0; i < 4; i++) {
        const ipx_ode_stats st = ball_on_plane_under_gonthier(mu[i]);
        printf("  mu %-5s: %ld events, %ld fallbacks %s\n", mu[i], st.impact_events, st.fallbacks,
               st.fallbacks ? st.last_message : "");
        ENSURE(st.fallbacks == 0 && st.impact_events > 0);
    }
}

int main(int argc, char **argv)
{
    worlds_dir = argc > 1 ? argv[1] : "worlds";
    RUN(test_max_vel_caps_the_push_out);
    RUN(test_contact_keys_set_restitution_and_threshold);
    RUN(test_contact_key_mu_sets_the_friction);
    RUN(test_contact_keys_reject_bad_values);
    RUN(test_any_mu_even_infinite_is_modelled);
    return ipx_test_exit();
}
