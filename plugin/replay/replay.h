/// Recorded rigid-body trajectories and their replay in a world: what `impax replay` reports
/// and what `impax fit` minimises. The CSV format (the cube-toss data set's, documented in
/// docs/command.md "Recorded trajectories"): header `t,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz`; SI units; position and linear
/// velocity in the world frame, orientation a unit quaternion body-to-world (scalar first),
/// angular velocity in the body frame; time strictly increasing.
#ifndef IMPAX_CLI_REPLAY_H
#define IMPAX_CLI_REPLAY_H

#include <stddef.h>

#include "world.h"

typedef struct cli_sample {
    double t_s;
    double x_m[3];          /* centre of mass, world frame */
    double q[4];            /* w x y z, body to world, unit */
    double v_mps[3];        /* world frame */
    double w_body_radps[3]; /* body frame */
} cli_sample;

typedef struct cli_recording {
    char *path;          /* as given (malloc'd) */
    int n;               /* samples, >= 2 */
    cli_sample *samples; /* malloc'd */
} cli_recording;

/// Reads one CSV file. 0, or -1 with "FILE:LINE: message" in message and nothing kept (rec
/// zeroed): missing or unknown columns, a non-finite or unparsable number, a quaternion whose
/// norm is off 1 by more than 1e-3, fewer than two samples, time not strictly increasing.
int cli_recording_load(const char *path, cli_recording *rec, char *message, size_t message_size);
/// (Numbers are kept as written, the quaternion too: a replay starts from the file's state, and
/// cli_body_set_state normalises.)
/// path is a directory (every *.csv in it, by name) or a file; appends to *recs (realloc'd),
/// *n counts them. 0, or -1 with the first bad file's message (what was loaded is kept).
int cli_recordings_load(const char *path, cli_recording **recs, int *n, char *message,
                        size_t message_size);
void cli_recording_free(cli_recording *rec);
void cli_recordings_free(cli_recording *recs, int n);

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
/// recording at every later sample. sim_states (NULL, or rec->n entries) receives the simulated
/// state at each sample time. 0; 2 for a bad model or parameter (nothing simulated); 1 if the
/// simulation failed; message says why.
int cli_replay(const ipx_scene *scene, const char *model, const char *params,
               const cli_recording *rec, cli_replay_error *err, cli_sample *sim_states,
               char *message, size_t message_size);

/// Sets body (an ODE body: its position is the centre of mass, its frame the inertial axes) to
/// sample s: position, orientation (normalised), linear velocity, and the angular velocity,
/// turned from the body frame into the world frame that dBodySetAngularVel takes. Enables it.
/// 0, or -1 (body untouched) if a number is not finite or the quaternion is zero.
int cli_body_set_state(dBodyID body, const cli_sample *s);
/// body's state as a sample at time t_s (angular velocity in the body frame).
void cli_body_get_state(dBodyID body, double t_s, cli_sample *s);
/// deg, in [0, 180]: the angle of the rotation q_a^-1 q_b between two orientations (unit
/// quaternions w x y z; q and -q are the same orientation).
double cli_orientation_error_deg(const double q_a[4], const double q_b[4]);

#endif
