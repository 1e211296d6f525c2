/// The anchors: the cube-toss replay of `impax replay` and `impax fit` in other simulators
/// (MuJoCo, Bullet), fitted and scored as impax's models are, so that impax's errors on the real
/// tosses have a reference beside them (docs/validation.md). Nothing here links impax: the
/// recordings, the metric, the folds and the minimiser are impax's own sources
/// (plugin/replay/recording.h, replay_metric.h, plugin/impax/fit_folds.h, fit_minimise.h), the
/// simulators the Debian packages' C and C++ APIs.
#ifndef IMPAX_ANCHOR_H
#define IMPAX_ANCHOR_H

#include <stddef.h>

#include "body_frame.h"
#include "recording.h"

#ifdef __cplusplus
extern "C" {
#endif

/// The scene of worlds/cube_toss.world: a cube on the table plane z = 0, under gravity along -z.
typedef struct anchor_scene {
    double edge_m;   /* the cube's collision box's edge */
    double length_m; /* the errors' reference length: the nominal edge (<impax:length>) */
    double mass_kg;
    double inertia_kgm2; /* about any axis through the centre of mass (isotropic, as a cube's) */
    double com_m[3];     /* the centre of mass in the cube's frame (the one the tosses track) */
    double gravity_mps2; /* magnitude, along -z */
    double step_s;       /* the simulators' step */
} anchor_scene;

/// The cube of the data set (docs/validation.md), as worlds/cube_toss.world has it: a 0.1025 m
/// box (the cube's size in the data's units; nominal edge 0.1048 m), 0.37 kg, g 9.81 m/s^2,
/// step 1/1480 s (ten per 1/148 s sample). Inertia m edge^2 / 6 of the nominal edge (a uniform
/// cube, as the world file and impax's fits), or with identified != 0 the data set's own
/// identification: 0.797 m a^2 with a the nominal half width (0.667 m a^2 = m edge^2 / 6 is the
/// uniform cube's). The centre of mass where the world's <inertial><pose> puts it.
anchor_scene anchor_cube_toss_scene(int identified);

#define ANCHOR_MAX_PARAMS 5

/// A simulator's parameter that can be fitted.
typedef struct anchor_param {
    const char *name, *unit;
    double lo, hi; /* bounds of the fit */
    double start;  /* where the fit starts */
    double fixed;  /* its value when not fitted */
} anchor_param;

/// A simulator, behind the few calls a replay needs. A world holds one cube and the table at
/// one set of parameter values (every one of params[], in order).
typedef struct anchor_sim {
    const char *name;             /* as --sim takes it: "mujoco" */
    const char *display;          /* "MuJoCo" */
    const char *(*version)(void); /* of the library linked: "2.2.2" */
    int n_params;                 /* of params[] */
    int n_default;                /* the first n_default are fitted unless every one is asked for */
    anchor_param params[ANCHOR_MAX_PARAMS];
    /// A world at these values, or NULL with a message.
    void *(*create)(const anchor_scene *scene, const double *values, char *message,
                    size_t message_size);
    /// Time 0, the cube at sample s (its quaternion normalised, angular velocity body frame),
    /// every contact forgotten. 0, or -1 with a message.
    int (*start)(void *world, const cli_sample *s, char *message, size_t message_size);
    void (*step)(void *world); /* one step of scene->step_s */
    /// The cube's state (t_s untouched); 0, or -1 with a message if the simulator failed.
    int (*state)(void *world, cli_sample *s, char *message, size_t message_size);
    void (*destroy)(void *world);
} anchor_sim;

extern const anchor_sim anchor_mujoco; /* anchor_mujoco.c, where MuJoCo is found */
extern const anchor_sim anchor_bullet; /* anchor_bullet.cpp, where Bullet is found */
/// Every simulator of this build (at least one: without either library nothing is built).
extern const anchor_sim *const anchor_sims[];
extern const int anchor_n_sims;

/// A replay's errors, as cli_replay_error's (plugin/replay/replay.h).
typedef struct anchor_error {
    double mean_pos_m;   /* mean over the later samples of |x_sim - x_rec| */
    double mean_ori_deg; /* mean angle of q_rec^-1 q_sim */
    double final_pos_m;  /* at the last sample */
    int samples;         /* compared */
} anchor_error;

/// The scene's cube frame against its centre of mass (body_frame.h): the frame a state turns
/// through for a simulator that moves the cube by its centre of mass.
cli_body_frame anchor_body_frame(const anchor_scene *scene);

/// Replays rec in world as `impax replay` does (plugin/replay/replay.c): the cube starts at the
/// first sample and is stepped to each later sample's time t_k (relative to the first: until
/// the time reaches t_k - step/2) and compared there. states (NULL, or rec->n entries) gets the
/// simulated state at each sample. 0, or -1 with a message naming the recording.
int anchor_replay(const anchor_sim *sim, void *world, double step_s, const cli_recording *rec,
                  anchor_error *err, cli_sample *states, char *message, size_t message_size);

#ifdef __cplusplus
}
#endif
#endif
