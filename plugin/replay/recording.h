/// Recorded rigid-body trajectories, read from CSV files: what `impax replay` and `impax fit`
/// compare their simulations with, and what the anchors (bench/anchors) replay in MuJoCo and
/// Bullet. The format (the cube-toss data set's, docs/command.md "Recorded trajectories"): header
/// `t,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz`; SI units; position and linear velocity in the world
/// frame, orientation a unit quaternion body-to-world (scalar first), angular velocity in the
/// body frame; time strictly increasing. No simulator behind it: ODE and impax stay out.
#ifndef IMPAX_CLI_RECORDING_H
#define IMPAX_CLI_RECORDING_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cli_sample {
    double t_s;
    double x_m[3];          /* origin of the tracked frame (body_frame.h), world frame */
    double q[4];            /* w x y z, body to world, unit */
    double v_mps[3];        /* world frame */
    double w_body_radps[3]; /* body frame */
} cli_sample;

typedef struct cli_recording {
    char *path;          /* as given (malloc'd) */
    int n;               /* samples, >= 2 */
    cli_sample *samples; /* malloc'd */
    int start_window;    /* samples the start was fitted to (recording_start.h); 0: none */
    cli_sample start;    /* that start, when start_window > 0 */
} cli_recording;

/// The state a replay of rec starts from: its fitted start (recording_start.h) if it has one,
/// else its first sample as recorded.
const cli_sample *cli_recording_start(const cli_recording *rec);

/// Reads one CSV file. 0, or -1 with "FILE:LINE: message" in message and nothing kept (rec
/// zeroed): missing or unknown columns, a non-finite or unparsable number, a quaternion whose
/// norm is off 1 by more than 1e-3, fewer than two samples, time not strictly increasing.
int cli_recording_load(const char *path, cli_recording *rec, char *message, size_t message_size);
/// (Numbers are kept as written, the quaternion too: a replay starts from the file's state, or
/// from a fit of it (recording_start.h), and replays normalise it.)
/// path is a directory (every *.csv in it, by name) or a file; appends to *recs (realloc'd),
/// *n counts them. 0, or -1 with the first bad file's message (what was loaded is kept).
int cli_recordings_load(const char *path, cli_recording **recs, int *n, char *message,
                        size_t message_size);
void cli_recording_free(cli_recording *rec);
void cli_recordings_free(cli_recording *recs, int n);

#ifdef __cplusplus
}
#endif
#endif
