/// What `--html` pages play: every body's pose at a fixed frame rate (float32, compact), the
/// world's energy per frame, and the impacts' contact points and impulses. Filled while a run
/// steps (runner.c) or from the samples of a replay.
#ifndef IMPAX_CLI_FRAMES_H
#define IMPAX_CLI_FRAMES_H

#include "world.h"

/// Contact points kept per run at most (7 floats each); later ones are counted, not kept.
enum { CLI_FRAMES_MAX_CONTACTS = 50000, CLI_FRAME_FLOATS = 7, CLI_CONTACT_FLOATS = 7 };

typedef struct cli_frames {
    double fps;      /* frames per simulated second, > 0 */
    double h_s;      /* the world's step, s: a frame takes the step nearest its time */
    int n, capacity; /* frames stored */
    int n_bodies;
    double *t_s;     /* n: the simulated time of each frame, s */
    float *pose;     /* n x n_bodies x 7: centre of mass x y z (m, world), quaternion w x y z */
    float *energy_j; /* n: kinetic + gravitational energy of the world, J */
    int n_contacts, cap_contacts;
    long dropped_contacts; /* past CLI_FRAMES_MAX_CONTACTS */
    float *
        contact; /* n_contacts x 7: t (s), point x y z (m), impulse on the first body x y z (N s) */
} cli_frames;

/// Prepares f for sim's bodies and duration_s simulated seconds in steps of step_s at fps frames
/// a second (> 0). 0, or -1 if memory is short.
int cli_frames_start(cli_frames *f, ipx_sim *sim, double duration_s, double step_s, double fps);
/// Stores sim's state as every frame whose time the simulation has reached (within half a
/// step). 0, or -1 if the frames are full.
int cli_frames_push(cli_frames *f, ipx_sim *sim);
/// Stores sim's state as the next frame, at time t_s. 0, or -1 if the frames are full.
int cli_frames_store(cli_frames *f, ipx_sim *sim, double t_s);
/// Keeps the contacts of an impact event at time t_s (points and impulses; none if it failed).
void cli_frames_event(cli_frames *f, double t_s, const ipx_ode_event *ev);
void cli_frames_free(cli_frames *f);

#endif
