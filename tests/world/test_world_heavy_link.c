/// A jointed world with one link of 1e12 kg among 1 kg ones (tests/world/heavy/heavy_link.world:
/// the robot arm strike with its middle link 1e12 times heavier). The joint impulses that move
/// only the heavy link are 1e-15 of the joint-space matrix's largest eigenvalue; when the
/// elimination dropped them as redundant, every impact fell back to ODE (1 724 fallbacks in 2 s,
/// "W_nn = 0", LCP rays). bowling then still fell back on two-contact problems whose W spans 12
/// orders of magnitude ("the polygonal LCP failed (LCP ray termination)", 4 in 2 s, all after
/// 0.5 s) until the Anitescu-Potra LCP was scaled per contact (anitescu_potra.h). Under plus, aplcp and
/// routh over 0.5 s, bowling over 2 s: impacts are solved with no fallback, the bodies' states
/// stay finite, and no event gains kinetic energy (beyond 1e-9 of it: the invariant checker's
/// round-off).
/// argv[1]: the directory holding heavy_link.world.
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ensure.h"
#include "world.h"

static const char *dir;

typedef struct event_log {
    long events, fallbacks, gains;
    double worst_gain; /* J, largest ke_after - ke_before */
    char last[256];
} event_log;

static void log_event(const ipx_ode_event *ev, void *user)
{
    event_log *log = user;
    log->events++;
    if (!ev->ok) {
        log->fallbacks++;
        snprintf(log->last, sizeof log->last, "%s", ev->status);
        return;
    }
    const double gain = ev->ke_after - ev->ke_before;
    log->worst_gain = fmax(log->worst_gain, gain);
    if (gain > 1e-9 * fabs(ev->ke_before) + 1e-12) log->gains++;
}

static int states_finite(ipx_sim *sim)
{
    for (int i = 0; i < ipx_sim_body_count(sim); i++) {
        dBodyID b = ipx_sim_body(sim, i);
        const dReal *x[3] = {dBodyGetPosition(b), dBodyGetLinearVel(b), dBodyGetAngularVel(b)};
        for (int k = 0; k < 3; k++)
            for (int a = 0; a < 3; a++)
                if (!isfinite(x[k][a])) return 0;
    }
    return 1;
}

static void run_heavy(const char *model, double duration /* s */)
{
    char path[1024], msg[256];
    snprintf(path, sizeof path, "%s/heavy_link.world", dir);
    ipx_scene *scene = ipx_scene_load(path, NULL, NULL);
    ENSURE(scene != NULL);
    if (!scene) return;
    ipx_sim *sim = ipx_sim_create(scene, model, NULL, msg, sizeof msg);
    ENSURE(sim != NULL);
    if (!sim) {
        printf("  %s: %s\n", model, msg);
        ipx_scene_free(scene);
        return;
    }
    event_log log = {0};
    ipx_ode_set_event_callback(ipx_sim_impax(sim), log_event, &log);
    const long steps = lround(duration / ipx_scene_step_size(scene));
    int failed = 0, finite = 1;
    for (long s = 0; s < steps && !failed && finite; s++) {
        failed = ipx_sim_step(sim, msg, sizeof msg) != 0;
        finite = states_finite(sim) && isfinite(ipx_sim_energy(sim));
    }
    printf("  %-6s events %ld, fallbacks %ld, events gaining energy %ld (largest gain %.3g J)\n",
           model, log.events, log.fallbacks, log.gains, log.worst_gain);
    if (log.fallbacks) printf("    last fallback: %s\n", log.last);
    if (failed) printf("    step failed: %s\n", msg);
    ENSURE(!failed);
    ENSURE(finite);
    ENSURE(log.events >= 10); /* the arm strikes the table */
    ENSURE(log.fallbacks == 0);
    ENSURE(log.gains == 0);
    ipx_sim_destroy(sim);
    ipx_scene_free(scene);
}

static void test_heavy_link_arm_strikes_without_fallbacks(void)
{
    run_heavy("plus", 0.5);
    run_heavy("aplcp", 0.5);
    run_heavy("routh", 0.5);
    run_heavy("bowling", 2.0);
}

int main(int argc, char **argv)
{
    if (argc != 2) return 2;
    dir = argv[1];
    RUN(test_heavy_link_arm_strikes_without_fallbacks);
    return ipx_test_exit();
}
