/* Replay of a recorded trajectory in a world: the replay body starts at the first sample and the
   simulation is compared with the recording at every later sample time (replay.h). */
#include "replay.h"

#include "recording_start.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Every number of s finite (never write NaN into an ODE body). */
static int sample_finite(const cli_sample *s)
{
    int ok = isfinite(s->t_s);
    for (int i = 0; i < 3; i++)
        ok &= isfinite(s->x_m[i]) && isfinite(s->v_mps[i]) && isfinite(s->w_body_radps[i]);
    for (int i = 0; i < 4; i++) ok &= isfinite(s->q[i]);
    return ok;
}

int cli_body_set_state(dBodyID body, const cli_sample *s)
{
    const double *q = s->q;
    const double norm = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    if (!sample_finite(s) || !(norm > 0) || !isfinite(norm)) return -1;
    const dQuaternion unit = {q[0] / norm, q[1] / norm, q[2] / norm, q[3] / norm};
    dBodySetPosition(body, s->x_m[0], s->x_m[1], s->x_m[2]);
    dBodySetQuaternion(body, unit);
    dBodySetLinearVel(body, s->v_mps[0], s->v_mps[1], s->v_mps[2]);
    dVector3 w; /* R w_body with the rotation just set: ODE takes the world frame */
    dBodyVectorToWorld(body, s->w_body_radps[0], s->w_body_radps[1], s->w_body_radps[2], w);
    dBodySetAngularVel(body, w[0], w[1], w[2]);
    dBodyEnable(body);
    return 0;
}

void cli_body_get_state(dBodyID body, double t_s, cli_sample *s)
{
    const dReal *x = dBodyGetPosition(body), *q = dBodyGetQuaternion(body),
                *v = dBodyGetLinearVel(body), *w = dBodyGetAngularVel(body);
    dVector3 wb; /* R^T w */
    dBodyVectorFromWorld(body, w[0], w[1], w[2], wb);
    s->t_s = t_s;
    for (int i = 0; i < 3; i++) {
        s->x_m[i] = x[i];
        s->v_mps[i] = v[i];
        s->w_body_radps[i] = wb[i];
    }
    for (int i = 0; i < 4; i++) s->q[i] = q[i];
}

/* Steps sim to each later sample time t_k (relative to the first sample: until its time reaches
   t_k - h/2, so a step that divides the sample period lands on it) and compares. */
static int compare(ipx_sim *sim, dBodyID body, const cli_body_frame *frame, double h,
                   const cli_recording *rec, cli_replay_error *err, cli_sample *sim_states,
                   char *message, size_t message_size)
{
    const double t0 = rec->samples[0].t_s;
    double sum_pos = 0.0, sum_ori = 0.0;
    for (int k = 1; k < rec->n; k++) {
        const cli_sample *r = &rec->samples[k];
        while (ipx_sim_time(sim) < r->t_s - t0 - 0.5 * h) {
            char why[256];
            if (ipx_sim_step(sim, why, sizeof why) != 0) {
                snprintf(message, message_size, "%s: the simulation failed at t = %.6f s: %s",
                         rec->path, t0 + ipx_sim_time(sim), why);
                return 1;
            }
        }
        cli_sample b, s;
        cli_body_get_state(body, r->t_s, &b);
        cli_body_frame_to_tracked(frame, &b, &s);
        const double pos = cli_position_error_m(s.x_m, r->x_m);
        sum_pos += pos;
        sum_ori += cli_orientation_error_deg(r->q, s.q);
        err->final_pos_m = pos;
        err->samples++;
        if (sim_states) sim_states[k] = s;
    }
    err->mean_pos_m = sum_pos / err->samples;
    err->mean_ori_deg = sum_ori / err->samples;
    return 0;
}

int cli_replay(const ipx_scene *scene, const char *model, const char *params,
               const cli_recording *rec, cli_replay_error *err, cli_sample *sim_states,
               char *message, size_t message_size)
{
    memset(err, 0, sizeof *err);
    err->length_m = ipx_scene_replay_length(scene);
    if (!rec || rec->n < 2) {
        snprintf(message, message_size, "a recording needs at least two samples");
        return 2;
    }
    ipx_sim *sim = ipx_sim_create(scene, model, params, message, message_size);
    if (!sim) return 2;
    const char *name = ipx_scene_replay_body(scene);
    const int b = name ? ipx_sim_body_index(sim, name) : -1;
    if (b < 0) {
        snprintf(message, message_size, "world '%s' has no moving link to replay",
                 ipx_scene_name(scene));
        ipx_sim_destroy(sim);
        return 2;
    }
    dBodyID body = ipx_sim_body(sim, b);
    const cli_body_frame frame = cli_replay_frame(scene);
    cli_sample start;
    cli_body_frame_to_body(&frame, cli_recording_start(rec), &start);
    if (cli_body_set_state(body, &start) != 0) {
        snprintf(message, message_size,
                 "%s: the start state is not finite or its quaternion is zero", rec->path);
        ipx_sim_destroy(sim);
        return 2;
    }
    if (sim_states) {
        cli_sample set;
        cli_body_get_state(body, rec->samples[0].t_s, &set);
        cli_body_frame_to_tracked(&frame, &set, &sim_states[0]);
    }
    const int rc = compare(sim, body, &frame, ipx_scene_step_size(scene), rec, err, sim_states,
                           message, message_size);
    const ipx_ode_stats st = ipx_ode_get_stats(ipx_sim_impax(sim));
    err->impact_events = st.impact_events;
    err->fallbacks = st.fallbacks;
    ipx_sim_destroy(sim);
    return rc;
}

void cli_replay_fit_starts(const ipx_scene *scene, cli_recording *recs, int n, int max_samples,
                           char *summary, size_t summary_size)
{
    double g_mps2[3];
    ipx_scene_replay_gravity(scene, g_mps2);
    const cli_body_frame frame = cli_replay_frame(scene);
    cli_recordings_fit_start(recs, n, max_samples, g_mps2, &frame, summary, summary_size);
}

cli_body_frame cli_replay_frame(const ipx_scene *scene)
{
    double com_m[3], R[9];
    ipx_scene_replay_inertial(scene, com_m, R);
    return cli_body_frame_make(com_m, R);
}
