/* A recording replayed in another simulator, scored as `impax replay` scores it (anchor.h). */
#include "anchor.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "replay_metric.h"

static int sample_finite(const cli_sample *s)
{
    int ok = 1;
    for (int i = 0; i < 3; i++)
        ok &= isfinite(s->x_m[i]) && isfinite(s->v_mps[i]) && isfinite(s->w_body_radps[i]);
    for (int i = 0; i < 4; i++) ok &= isfinite(s->q[i]);
    return ok;
}

/* The state at sample k of rec (its time relative to the first sample). */
static int read_state(const anchor_sim *sim, void *world, const cli_recording *rec, int k,
                      cli_sample *s, char *message, size_t message_size)
{
    char why[256] = "";
    if (sim->state(world, s, why, sizeof why) != 0 || !sample_finite(s)) {
        snprintf(message, message_size, "%s: %s failed by t = %.6f s%s%s", rec->path, sim->display,
                 rec->samples[k].t_s - rec->samples[0].t_s, why[0] ? ": " : "",
                 why[0] ? why : "a state that is not finite");
        return -1;
    }
    s->t_s = rec->samples[k].t_s;
    return 0;
}

int anchor_replay(const anchor_sim *sim, void *world, double step_s, const cli_recording *rec,
                  anchor_error *err, cli_sample *states, char *message, size_t message_size)
{
    memset(err, 0, sizeof *err);
    if (rec->n < 2 || !sample_finite(cli_recording_start(rec))) {
        snprintf(message, message_size, "%s: a replay needs two samples and a finite start",
                 rec->path);
        return -1;
    }
    char why[256];
    if (sim->start(world, cli_recording_start(rec), why, sizeof why) != 0) {
        snprintf(message, message_size, "%s: %s", rec->path, why);
        return -1;
    }
    if (states && read_state(sim, world, rec, 0, &states[0], message, message_size) != 0) return -1;
    const double t0_s = rec->samples[0].t_s;
    long steps = 0; /* the time is counted in steps: no sum of rounded step sizes */
    double sum_pos_m = 0.0, sum_ori_deg = 0.0;
    for (int k = 1; k < rec->n; k++) {
        const cli_sample *r = &rec->samples[k];
        while ((double)steps * step_s < r->t_s - t0_s - 0.5 * step_s) {
            sim->step(world);
            steps++;
        }
        cli_sample s;
        if (read_state(sim, world, rec, k, &s, message, message_size) != 0) return -1;
        err->final_pos_m = cli_position_error_m(s.x_m, r->x_m);
        sum_pos_m += err->final_pos_m;
        sum_ori_deg += cli_orientation_error_deg(r->q, s.q);
        err->samples++;
        if (states) states[k] = s;
    }
    err->mean_pos_m = sum_pos_m / err->samples;
    err->mean_ori_deg = sum_ori_deg / err->samples;
    return 0;
}
