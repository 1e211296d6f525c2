/// SDF world files for the `impax` command: load a file (libxml2) into an immutable scene,
/// instantiate the scene as an ODE world driven by an impax context, and step it with
/// Gazebo's contact rules. The subset of SDF 1.6 understood, and the `impax:` extensions
/// (namespace urn:impax:sdf:1), are documented element by element in worlds/README.md.
///
/// A scene can be instantiated any number of times (`impax ab` runs one simulation per model
/// from the same scene); simulations share nothing and may run in different threads.
#ifndef IMPAX_WORLD_H
#define IMPAX_WORLD_H

#include <stddef.h>

#include "impax/ode.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Receives one diagnostic, already formatted as "FILE:LINE: message" (errors) or
/// "FILE:LINE: warning: message" (elements impax ignores: light, scene, gui, plugins, ...).
typedef void (*ipx_diag_fn)(void *user, int is_error, const char *line);

typedef struct ipx_scene ipx_scene;

/// Parses path. Reports every problem found (not only the first) through report (may be NULL)
/// and returns NULL if there was any error; warnings alone do not fail the load. Everything a
/// simulation would refuse is an error here (values out of the documented ranges, an
/// impax:params the model rejects), so a scene that loads makes a simulation.
ipx_scene *ipx_scene_load(const char *path, ipx_diag_fn report, void *user);
void ipx_scene_free(ipx_scene *scene);

const char *ipx_scene_name(const ipx_scene *scene);   ///< the <world name="...">
const char *ipx_scene_model(const ipx_scene *scene);  ///< impax:impact/impax:model, or NULL
const char *ipx_scene_params(const ipx_scene *scene); ///< impax:impact/impax:params, "" if none
double
ipx_scene_step_size(const ipx_scene *scene);       ///< s, physics/max_step_size (SDF default 0.001)
double ipx_scene_duration(const ipx_scene *scene); ///< s, impax:duration (default 2)
/// "model::link" whose height `impax ab` plots: impax:plot_body, else the first non-static link.
const char *ipx_scene_plot_body(const ipx_scene *scene);
/// "model::link" that recorded trajectories describe (`impax replay`, `impax fit`):
/// impax:replay/impax:body, else the first non-static link (NULL if there is none).
const char *ipx_scene_replay_body(const ipx_scene *scene);
/// m/s^2, world frame: the acceleration of the replay body in free flight (the world's gravity,
/// zero if the body's link has <gravity>false</gravity>), which a replay's fitted start assumes
/// (recording_start.h). Zero if the world has no replay body.
void ipx_scene_replay_gravity(const ipx_scene *scene, double g_mps2[3]);
/// The replay body's inertial frame (its centre of mass and inertial axes: the frame ODE moves
/// it by) in its link frame (the frame its recordings track): the link's <inertial><pose>. com_m
/// in m, R row major (columns the inertial axes); zero and the identity if the world has no
/// replay body.
void ipx_scene_replay_inertial(const ipx_scene *scene, double com_m[3], double R[9]);
/// m, the reference length replay errors are reported against (impax:replay/impax:length,
/// e.g. a cube's edge), 1 if the world gives none.
double ipx_scene_replay_length(const ipx_scene *scene);

/// The contact-surface keys of a params string (`--params`, `<impax:params>`, ipx_sim_create's
/// params): `mu` (Coulomb coefficient, sets mu and mu2), `e` (restitution, ODE's bounce) and
/// `bounce_vel` (m/s, the approach speed below which nothing bounces) replace that value of
/// every contact surface, and `rolling` and `spinning` (m: ODE's rolling friction about the
/// friction directions and the normal, the torque's bound over the normal force) add it, for
/// every model including "ode"; the other keys go to the model. 1 and [*lo, *hi] if key is one
/// of them (mu [0, 10], e [0, 1], bounce_vel [0, 100], rolling and spinning [0, 1]), else 0.
int ipx_contact_param_range(const char *key, double *lo, double *hi);

/// The replay body's key of a params string: `inertia_scale` multiplies the inertia tensor (about
/// the centre of mass) of the body recordings describe (ipx_scene_replay_body), for every model
/// including "ode"; its mass and shape stay. 1 and [*lo, *hi] if key is it ([0.1, 10]), else 0.
int ipx_body_param_range(const char *key, double *lo, double *hi);

typedef struct ipx_sim ipx_sim;

/// ODE's dRandSetSeed at every ipx_sim_create.
#define IPX_SIM_ODE_SEED 1ul

/// A fresh ODE world built from scene, with an impax context configured for model and params
/// (NULL model: the scene's, impax:impact/impax:model or else "plus"; NULL params: the scene's
/// impax:params when the model is the scene's, else the model's defaults). "ode" is ODE's own
/// contact handling, untouched. The contact keys of params (ipx_contact_param_range) set every
/// contact surface, the body key (ipx_body_param_range) the replay body; the rest configure the
/// model. NULL with a message naming the bad item on a
/// configuration error. ODE's random generator (QuickStep's row order) is set to
/// IPX_SIM_ODE_SEED: a run does not depend on the simulations before it.
ipx_sim *ipx_sim_create(const ipx_scene *scene, const char *model, const char *params,
                        char *message, size_t message_size);

/// The configuration step of ipx_sim_create alone (same code, same messages), without building
/// the world's bodies: 0 if ipx_sim_create would accept model and params for scene, else -1 with
/// its message. ipx_scene_load runs it on the world's own impax:model and impax:params.
int ipx_scene_check_config(const ipx_scene *scene, const char *model, const char *params,
                           char *message, size_t message_size);
void ipx_sim_destroy(ipx_sim *sim);

/// One host step of the scene's step size: collide (Gazebo's pair rules and max_contacts),
/// impax pre-step, dWorldStep or dWorldQuickStep as the scene's solver says, post-step, empty
/// the contact group. 0, or -1 with a message if ODE failed or a body state became non-finite.
int ipx_sim_step(ipx_sim *sim, char *message, size_t message_size);

double ipx_sim_time(const ipx_sim *sim);                  ///< s since the start
int ipx_sim_body_count(const ipx_sim *sim);               ///< non-static links, in file order
const char *ipx_sim_body_name(const ipx_sim *sim, int i); ///< "model::link"
dBodyID ipx_sim_body(const ipx_sim *sim, int i);
int ipx_sim_body_index(const ipx_sim *sim, const char *name); ///< -1 if none
double ipx_sim_kinetic_energy(const ipx_sim *sim);            ///< J, all bodies
double ipx_sim_energy(const ipx_sim *sim); ///< J, kinetic + gravitational (-m g.x) of all bodies
double ipx_sim_penetration(const ipx_sim *sim); ///< m, deepest contact of the last step (0 if none)
/// 1 if the last step had a contact approaching faster than the context's impact threshold:
/// the same test for every model, "ode" included, so A/B tables compare the same step.
int ipx_sim_had_impact(const ipx_sim *sim);
ipx_ode_context *ipx_sim_impax(ipx_sim *sim); ///< statistics, event callback
dWorldID ipx_sim_world(ipx_sim *sim);

/// What a collision looks like, for viewers (`impax ab --html`).
typedef enum ipx_shape_type {
    IPX_SHAPE_BOX,
    IPX_SHAPE_SPHERE,
    IPX_SHAPE_CYLINDER,
    IPX_SHAPE_CAPSULE,
    IPX_SHAPE_PLANE
} ipx_shape_type;

typedef struct ipx_shape {
    ipx_shape_type type;
    int body;         /* the body it moves with (ipx_sim_body's index), -1 if static */
    double size[3];   /* m; box: x y z; sphere: r; cylinder, capsule: r, length along local z */
    double pos[3];    /* m; in its body's frame (centre of mass, inertial axes), else the world's */
    double quat[4];   /* w x y z, likewise; a plane: identity */
    double normal[3]; /* plane: unit normal, world frame (the plane is normal . x = offset) */
    double offset;    /* plane: m */
} ipx_shape;

/// A joint for viewers: which bodies it ties and where.
typedef struct ipx_joint_view {
    int body[2];      /* parent, child: ipx_sim_body's indices, -1 for the world */
    double anchor[3]; /* m, world frame, at t = 0 */
} ipx_joint_view;

int ipx_sim_shape_count(const ipx_sim *sim); ///< every collision of the scene, in file order
/// Shape i as built in sim's ODE world.
void ipx_sim_shape(const ipx_sim *sim, int i, ipx_shape *out);
int ipx_sim_joint_count(const ipx_sim *sim); ///< the scene's joints, in file order
void ipx_sim_joint_view(const ipx_sim *sim, int i, ipx_joint_view *out);

#ifdef __cplusplus
}
#endif
#endif
