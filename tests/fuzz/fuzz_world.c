/* libFuzzer target: any bytes as an SDF world file. Checks the loader's promises (world.h), not
   only that nothing crashes: every diagnostic is one printable "FILE:LINE: [warning: ]message"
   line; the load fails exactly when an error was reported; a scene that loads has its values in
   the documented ranges, passes its own configuration check and makes a simulation (as `impax
   check` does, without stepping) whose plot and replay bodies are bodies of it. */
#define _GNU_SOURCE /* memfd_create */
#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz_promise.h"
#include "world.h"

typedef struct diag_count {
    const char *path;
    int errors, warnings;
} diag_count;

/* "PATH:DIGITS: " then "warning: " exactly for warnings, then a message; no control character. */
static void check_line(void *user, int is_error, const char *line)
{
    diag_count *d = user;
    const size_t n = strlen(d->path);
    PROMISE(line && strncmp(line, d->path, n) == 0 && line[n] == ':',
            "'%s' does not start with the path", line ? line : "(null)");
    const char *s = line + n + 1;
    PROMISE(isdigit((unsigned char)*s), "'%s' has no line number", line);
    while (isdigit((unsigned char)*s)) s++;
    PROMISE(s[0] == ':' && s[1] == ' ' && s[2], "'%s' has no message after the line number", line);
    const int says_warning = strncmp(s + 2, "warning: ", 9) == 0;
    PROMISE(says_warning == !is_error, "'%s' is reported as %s", line,
            is_error ? "an error" : "a warning");
    promise_message("a diagnostic", line);
    if (is_error) d->errors++;
    else d->warnings++;
}

static void check_body(const ipx_sim *sim, const char *what, const char *name)
{
    if (name)
        PROMISE(ipx_sim_body_index(sim, name) >= 0, "the %s '%s' is not a body of the simulation",
                what, name);
}

/* What `impax check` does with a loaded scene: its configuration, then its simulation, unstepped. */
static void check_scene(const ipx_scene *scene)
{
    const double h = ipx_scene_step_size(scene), T = ipx_scene_duration(scene);
    PROMISE(ipx_scene_name(scene) && ipx_scene_params(scene),
            "a loaded scene without a name or params");
    PROMISE(h >= 1e-7 && h <= 1.0, "step size %g s out of [1e-7, 1]", h);
    PROMISE(T >= 1e-6 && T <= 1e6, "duration %g s out of [1e-6, 1e6]", T);
    char message[512] = "";
    PROMISE(ipx_scene_check_config(scene, NULL, NULL, message, sizeof message) == 0,
            "a loaded scene fails its configuration check: %s", message);
    ipx_sim *sim = ipx_sim_create(scene, NULL, NULL, message, sizeof message);
    PROMISE(sim, "a loaded scene makes no simulation: %s", message);
    check_body(sim, "plot body", ipx_scene_plot_body(scene));
    check_body(sim, "replay body", ipx_scene_replay_body(scene));
    for (int b = 0; b < ipx_sim_body_count(sim); b++)
        PROMISE(ipx_sim_body_index(sim, ipx_sim_body_name(sim, b)) == b,
                "body %d '%s' is not found by its name", b, ipx_sim_body_name(sim, b));
    PROMISE(isfinite(ipx_sim_energy(sim)), "initial energy %g J", ipx_sim_energy(sim));
    ipx_sim_destroy(sim);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int fd = -1;
    static char path[64];
    if (fd < 0) {
        fd = memfd_create("fuzz.world", 0);
        PROMISE(fd >= 0, "memfd_create failed");
        snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    }
    PROMISE(ftruncate(fd, 0) == 0 && pwrite(fd, data, size, 0) == (ssize_t)size,
            "cannot write the input");
    diag_count d = {path, 0, 0};
    ipx_scene *scene = ipx_scene_load(path, check_line, &d);
    PROMISE((scene != NULL) == (d.errors == 0), "load %s with %d error(s) reported",
            scene ? "succeeded" : "failed", d.errors);
    if (scene) check_scene(scene);
    ipx_scene_free(scene);
    return 0;
}
