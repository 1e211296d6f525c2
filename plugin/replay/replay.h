/// The replay of recorded trajectories (recording.h) in a world: what `impax replay` reports and
/// what `impax fit` minimises, by the errors of replay_metric.h.
#ifndef IMPAX_CLI_REPLAY_H
#define IMPAX_CLI_REPLAY_H

#include <stddef.h>

#include "body_frame.h"
#include "recording.h"
#include "replay_metric.h"
#include "world.h"

typedef struct cli_replay_error {
    double mean_pos_m;   /* mean over the recorded samples of |x_sim - x_rec| */
    double final_pos_m;  /* at the last sample */
    double mean_ori_deg; /* mean angle of q_rec^-1 q_sim */
    double length_m;     /* the world's reference length (errors as fractions of it) */
    long impact_events, fallbacks;
    int samples; /* compared */
} cli_replay_error;

/// Simulates rec in a fresh simulation of scene under model/params (as ipx_sim_create takes
/// them): the world's replay body starts at the first sample's state and is compared with the
/// recording at every later sample, both in the frame the recording tracks (cli_replay_frame).
/// sim_states (NULL, or rec->n entries) receives the simulated state at each sample time, in
/// that frame. 0; 2 for a bad model or parameter (nothing simulated); 1 if the
/// simulation failed; message says why.
int cli_replay(const ipx_scene *scene, const char *model, const char *params,
               const cli_recording *rec, cli_replay_error *err, cli_sample *sim_states,
               char *message, size_t message_size);

/// cli_recordings_fit_start (recording_start.h) under the acceleration the scene's replay body
/// falls with in free flight (ipx_scene_replay_gravity), its centre of mass where the world puts
/// it (cli_replay_frame): the starts `--start fit[:N]` replays from. max_samples 0 fits nothing.
void cli_replay_fit_starts(const ipx_scene *scene, cli_recording *recs, int n, int max_samples,
                           char *summary, size_t summary_size);

/// The frame the scene's recordings track, against the replay body's centre of mass and axes:
/// the replay link's frame and its <inertial><pose> (ipx_scene_replay_inertial).
cli_body_frame cli_replay_frame(const ipx_scene *scene);

/// Sets body (an ODE body: its position is the centre of mass, its frame the inertial axes) to
/// sample s: position, orientation (normalised), linear velocity, and the angular velocity,
/// turned from the body frame into the world frame that dBodySetAngularVel takes. Enables it.
/// 0, or -1 (body untouched) if a number is not finite or the quaternion is zero.
int cli_body_set_state(dBodyID body, const cli_sample *s);
/// body's state as a sample at time t_s (angular velocity in the body frame).
void cli_body_get_state(dBodyID body, double t_s, cli_sample *s);

#endif
