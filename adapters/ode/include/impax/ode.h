/// impax ODE adapter: impacts for an Open Dynamics Engine world (ODE 0.16, double precision).
///
/// One context per dWorldID. The application (or the LD_PRELOAD shim) reports contact joints as
/// it creates and attaches them; before each step the context finds the islands in which a
/// contact is impacting, solves each as one impact problem with the configured core model,
/// writes the joint-consistent post-impact velocities back into the bodies, and lets ODE's own
/// stepper carry on. Any failure leaves the world exactly as it was (ODE then handles the step
/// itself) and is counted as a fallback with its message.
///
/// Typical use, one line changed per call site:
///
///     ipx_ode_context *ipx = ipx_ode_create(world);
///     ipx_ode_configure(ipx, "plus", "v_plastic=0.1", msg, sizeof msg);
///     ... in the near callback:  ipx_ode_contact(ipx, world, group, &contact, b1, b2);
///     ... each step:             ipx_ode_step(ipx, h);   (or ipx_ode_quick_step)
///                                dJointGroupEmpty -> ipx_ode_empty_group(ipx, group);
///
/// Contact parameters come from each dContact with Gazebo's meaning: restitution e =
/// surface.bounce when dContactBounce is set and bounce_vel >= 0 (else 0), capture speed
/// (no bounce below it) = surface.bounce_vel, Coulomb mu = surface.mu (dInfinity = no slip:
/// given as +INFINITY to a model that takes it, PLUS, and as config.mu_infinity to the others
/// and to an elliptic cone; with dContactMu2 the elliptic cone of mu and mu2,
/// friction along one direction only where one of them is 0, impulsive models only), friction
/// directions fdir1 when dContactFDir1 is set, else dPlaneSpace(normal); the velocities are taken
/// relative to the surface motion of dContactMotion1, 2, N (docs/ode-adapter.md "What happens in
/// a step"). Joint feedback (dJointSetFeedback) includes the impacts ("Joint feedback"). The
/// model name "ode" is a pure pass-through: no impact processing at all (the A/B baseline).
#ifndef IMPAX_ODE_H
#define IMPAX_ODE_H

#include <stddef.h>
#include <stdio.h>
#include <ode/ode.h>

#include "impax/registry.h"
#include "impax/types.h"

#if !defined(dDOUBLE)
#error "impax's ODE adapter needs ODE built in double precision (dDOUBLE)"
#endif

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ipx_ode_context ipx_ode_context;

/// How penetration left by an impact is removed (issue recovery; docs/ode-adapter.md "Penetration recovery").
typedef enum ipx_ode_recovery {
    IPX_ODE_RECOVERY_POSITION = 0, ///< impax moves the bodies out (joint-consistent projection,
                                   ///< the contact's ERP fraction per step); ODE adds no push-out
    IPX_ODE_RECOVERY_VELOCITY,     ///< ODE's push-out, limited per contact to recovery_speed
    IPX_ODE_RECOVERY_ODE           ///< ODE's own ERP push-out, untouched (the behaviour for A/B)
} ipx_ode_recovery;

/// Adapter settings other than the model's own parameters.
typedef struct ipx_ode_config {
    double
        impact_threshold; ///< m/s: contacts without dContactBounce impact above this approach speed
    double
        gravity_steps; ///< the threshold grows by this many |g| h (resting contacts approach at ~|g| h)
    double jitter_steps; ///< ... or by this many |g| h times the contact's lever factor, if that is
                         ///< more: sum over its dynamic bodies of sqrt(m W_i) (docs/ode-adapter.md
                         ///< "Impact or resting contact"); 0 = the plain speed test
    int disable_separating; ///< 1: dJointDisable contacts that separate after an impact (no ERP push-out, no friction)
    double
        separating_speed; ///< m/s: a normal velocity above this + |g| h after the impact counts as separating
                          ///< (slower ones close again within the step: ODE keeps carrying them)
    double
        mu_infinity; ///< friction coefficient for surface.mu = dInfinity (a model needing it finite)
    double v_plastic; ///< m/s: per-contact v_plastic handed to the model (PLUS); 0 = constant COR
    ipx_ode_recovery recovery; ///< penetration recovery of impacted bodies' contacts
    double recovery_speed;     ///< m/s: the push-out limit of IPX_ODE_RECOVERY_VELOCITY
    double handback_bound;     ///< C of the handback's bound (IPX_ODE_HANDBACK_BOUND, below), > 0
    int recovery_switch;       ///< IPX_ODE_RECOVERY_POSITION: islands of this many contacts or more
                               ///< are projected by the iterative LCP (lcp_psd.h, W applied through
                               ///< the bodies), smaller ones by the dense Lemke; >= 1
    double accuracy_steps; ///< the velocity accuracy handed to the models (ipx_problem.v_tol), in
                           ///< |g| h: the iterative LCP solves of aplcp and routh may stop there
                           ///< (docs/ode-adapter.md "Solve accuracy"); 0 = their own tolerances
} ipx_ode_config;

/// Counters since the context was created (or since ipx_ode_reset_stats).
typedef struct ipx_ode_stats {
    long steps;              ///< pre-steps run
    long contacts_captured;  ///< contact joints registered
    long impact_events;      ///< islands solved and handed back
    long impact_contacts;    ///< contacts in those islands' problems
    long contacts_disabled;  ///< contacts disabled because they separate after an impact
    long fallbacks;          ///< islands left to ODE after a failure
    long recovered_contacts; ///< contacts whose penetration impax recovered (per step counted)
    long recovery_failures;  ///< islands whose position projection failed (recovered a step later)
    long recovery_islands;   ///< islands projected (position recovery, per step counted)
    long recovery_iterative; ///< of those, solved by the iterative LCP (recovery_switch)
    double recovery_seconds; ///< of seconds, in post-steps' projections (s)
    double seconds;          ///< wall time spent in pre-steps and post-steps' projections (s)
    double max_joint_residual; ///< largest |J_b u+| handed back (m/s or rad/s)
    char last_message[256];    ///< why the last fallback happened ("" if none)
    long resting_contacts; ///< contacts faster than gravity_steps allows that the jitter_steps term
                           ///< left to ODE as resting contact (per step counted)
    long handback_refused; ///< islands whose answer changed a contact velocity by more than
                           ///< handback_bound times the problem's speed scale: left to ODE (also
                           ///< counted in fallbacks)
    double max_handback_ratio;  ///< largest max|dv_contact| / speed scale handed back (see below)
    double ignored_restitution; ///< largest restitution an inelastic model (aplcp, routh unless
                                ///< asked) left aside at a contact approaching faster than its
                                ///< bounce_vel in an island it answered; 0 if none
                                ///< (ipx_params_ignored_restitution)
    long limits_hit_events;     ///< of impact_events, answers with counts.limits_hit not 0: the
                                ///< model reached one of its limits or answered through a fallback
                                ///< of its own (each model's header lists its bits: plus's cost
                                ///< bound and plastic finish, aplcp's dense solve after the
                                ///< iterative one, ...)
    long sleeping_islands;      ///< islands with an impacting (compliant: touching) contact whose
                                ///< bodies are all disabled: ODE's step skips them, and so does
                                ///< impax (per step counted; not events)
} ipx_ode_stats;

/// The handback's last line of defence: an island's answer is handed back only if no contact
/// velocity changes by more than C x s (C = config.handback_bound, default
/// IPX_ODE_HANDBACK_BOUND; key handback_bound=...), s = the largest contact speed of
/// the problem (approach or slip, m/s) + |g| h + recovery_speed. An impact that gains no
/// energy can still change a contact's velocity by up to 2 sqrt(2 T W_ii) (T the kinetic energy
/// of the motion the contacts see, W_ii that contact's inverse mass), which is huge on a body of
/// tiny mass or inertia for its size; ODE's own stepper then fails on such a body (its rotation
/// update, its LCP) where it runs with its own, regularised, contact answer. The impulse models
/// stay below 3 on the paper scenes and gonthier's steps below 17 (stats.max_handback_ratio); a
/// refused answer leaves the island to ODE with a message naming the contact.
#define IPX_ODE_HANDBACK_BOUND 100.0

/// The defaults: threshold 1e-3 m/s + |g| h max(2, lever factor) (the lever factor is 1 for a
/// ball on the ground, 2 at a cube's corner on the ground or between two balls, about 4 between
/// two cubes' corners; bounce contacts: the larger of that and their bounce_vel), disable
/// separating on, separating above 1e-6 m/s + |g| h, mu_infinity 1e3, v_plastic 0, recovery
/// position, recovery_speed 0.01 m/s (Gazebo's default max_vel), recovery_switch 16 contacts,
/// handback_bound 100.
ipx_ode_config ipx_ode_default_config(void);

/// A context for world, with model "plus" at its defaults (falls back to the first registered
/// model if "plus" is absent) and the default config. NULL if memory is short or world is NULL.
/// The context is also entered in a process-wide world -> context table.
ipx_ode_context *ipx_ode_create(dWorldID world);

/// Frees the context and removes it from the table. Does not touch the world.
void ipx_ode_destroy(ipx_ode_context *ctx);

/// The context registered for world, or NULL. Thread-safe (one mutex around the table).
ipx_ode_context *ipx_ode_context_for(dWorldID world);

/// 1 while the calling thread runs one of the adapter's own ODE calls (the contact copies that
/// penetration recovery makes, attaches and drops), else 0. An interposer must then pass the
/// call straight to ODE, with no hook, lookup or lock of its own: the adapter holds a context's
/// lock there, and the lock order (docs/ode-adapter.md "Threads and locks") puts an
/// interposer's lock and the table's before every context's.
int ipx_ode_own_call(void);

/// Selects the model ("ode" = pass-through, or any core model such as "aplcp", "plus") and
/// applies "key=value,..." parameters on top of its defaults. Eight keys belong to the adapter,
/// not the model (ipx_ode_config): recovery=position|velocity|ode, recovery_speed=<m/s>,
/// recovery_switch=<contacts>, impact_threshold=<m/s>, gravity_steps=<number>,
/// jitter_steps=<number>, accuracy_steps=<number> and handback_bound=<number>.
/// On an error returns non-zero, writes a message naming the bad item and leaves the previous
/// configuration in place.
int ipx_ode_configure(ipx_ode_context *ctx, const char *model_name, const char *params_text,
                      char *message, size_t message_size);

/// Takes the adapter's own keys (recovery, recovery_speed, recovery_switch, impact_threshold,
/// gravity_steps, jitter_steps, accuracy_steps, handback_bound) out of "key=value,..." text (NULL or "" for none)
/// into *config and writes the other items, the model's, into model_text (model_size bytes) as
/// "key=value,...". The text follows the rules of every parameter list (ipx_params_next in
/// impax/registry.h: commas, white space, empty items; numbers as ipx_param_number reads them).
/// Returns 0, or -1 with a message naming the bad item and *config unchanged.
int ipx_ode_split_params(const char *text, ipx_ode_config *config, char *model_text,
                         size_t model_size, char *message, size_t message_size);

/// Replaces the adapter settings. Returns non-zero (and a message) for a value out of range.
int ipx_ode_set_config(ipx_ode_context *ctx, const ipx_ode_config *config, char *message,
                       size_t message_size);
ipx_ode_config ipx_ode_get_config(const ipx_ode_context *ctx);

/// Name of the configured model ("ode", "plus", ...).
const char *ipx_ode_model_name(const ipx_ode_context *ctx);

/// The configured model with its parameter values as resolved (its defaults, then the
/// parameter string); NULL for the pass-through `ode`. What a caller reports about the model
/// (ipx_params_inelastic, a parameter's value) is read here, not re-derived from the text.
const ipx_params *ipx_ode_get_params(const ipx_ode_context *ctx);

/// 1 if the configured model acts through contact forces over each host step (gonthier): its
/// impact events are steps with contact forces. 0 for an impulsive model or the pass-through.
int ipx_ode_is_compliant(const ipx_ode_context *ctx);

/// One impact event (an island solved, or left to ODE), reported after its handback.
typedef struct ipx_ode_event {
    long step;                  /* index of the pre-step since the context was created (0-based) */
    const char *model;          /* configured model name */
    int ok;                     /* 1: handed back; 0: left to ODE (status says why) */
    const char *status;         /* "ok", or the fallback message */
    int k;                      /* contacts in the problem (0 if it failed before assembly) */
    int n_bodies;               /* bodies of the island */
    double ke_before, ke_after; /* J, kinetic energy of the island's bodies (equal on failure) */
    const double *vn_before;    /* k normal contact velocities (m/s, > 0 separating), or NULL
                                 if it failed before assembly */
    const double *vn_after;     /* k, or NULL on failure */
    const double *impulse;      /* 3k, [t1, t2, n] per contact (N s), or NULL on failure */
    ipx_counts counts;          /* the model's work counters (zero on failure) */
    const ipx_problem *problem; /* the contact-space problem solved (W, v, parameters), also when
                                   the model failed on it; NULL if it failed before assembly. W
                                   comes as blocks (problem->Ws) where the model reads them (large
                                   islands under aplcp and routh): ipx_problem_dense_W copies it.
                                   What `impax set` samples the Routh outcome set of */
    /* last, so that a program built against the earlier struct still reads its fields in place */
    const double *point;  /* 3k, m, world frame: the contact points (ODE's geom.pos), or NULL
                                 if it failed before assembly */
    const double *normal; /* 3k, unit, world frame: ODE's contact normals, or NULL likewise */
    const double *impulse_world; /* 3k, N s, world frame: the impulse on each contact's first
                                 dynamic body (the other body gets its opposite), or NULL on failure */
    /* A compliant model's event is one host step of its touching contacts (docs/ode-adapter.md
       "Trace lines"): ke_after is then the kinetic energy at the step's end, which the bodies'
       other forces (gravity, applied forces) have worked on too, and
       ke_after - ke_before = contact work + work_other, contact work = -delta_stored - losses. */
    double delta_stored; /* J, change of the energy the contacts' springs and bristles hold over
                            the event (0 for an impulsive model, and on failure) */
    double work_other;   /* J, work of the island's other forces over the step, moving a late
                            contact back to first touch included (0 for an impulsive model) */
    /* The frame ke_before, ke_after and work_other are taken in (docs/ode-adapter.md "Trace
       lines"): 0 the world; 1 relative to the rigid motion of the island's moving kinematic
       bodies, whose prescribed motion does work in the world frame (a platform carrying a box
       along); -1 the world, where they move apart (or rotate, over a compliant step) and no
       frame holds them at rest: their work is then in the balance. */
    int energy_frame;
} ipx_ode_event;

/// Called once per impact event from inside ipx_ode_pre_step (pointers valid only during the
/// call), with the context locked: it must not call the hooks or the steps of the same context.
typedef void (*ipx_ode_event_fn)(const ipx_ode_event *event, void *user);
/// Installs (or, with fn NULL, removes) the event callback.
void ipx_ode_set_event_callback(ipx_ode_context *ctx, ipx_ode_event_fn fn, void *user);

ipx_ode_stats ipx_ode_get_stats(const ipx_ode_context *ctx);
void ipx_ode_reset_stats(ipx_ode_context *ctx);

/// Hooks. Call them where ODE is called, in the same order. Each context has its own lock, so
/// worlds stepped in different threads are independent, and a broadcast (NULL ctx) is safe. A NULL ctx in the hooks that do not
/// name a world (contact attached, group emptied, joint destroyed, body destroyed) applies to
/// every context in the table, for callers that cannot tell the world (an interposer). An
/// interposer reports only calls made while ipx_ode_own_call() is 0.
///
/// After dJointCreateContact: copies *contact (a dContact cannot be read back from a joint).
void ipx_ode_on_contact_created(ipx_ode_context *ctx, dJointID joint, dJointGroupID group,
                                const dContact *contact);
/// After dJointAttach on a contact joint: the bodies in the caller's order (0 = world).
void ipx_ode_on_contact_attached(ipx_ode_context *ctx, dJointID joint, dBodyID body1,
                                 dBodyID body2);
/// BEFORE dJointGroupEmpty/dJointGroupDestroy: ODE reuses the joints' addresses afterwards.
void ipx_ode_on_group_emptied(ipx_ode_context *ctx, dJointGroupID group);
/// Before dJointDestroy.
void ipx_ode_on_joint_destroyed(ipx_ode_context *ctx, dJointID joint);
/// Before dBodyDestroy: the body's contacts are ignored from now on.
void ipx_ode_on_body_destroyed(ipx_ode_context *ctx, dBodyID body);
/// Before dWorldDestroy: forgets every contact and detaches ctx from the world.
void ipx_ode_on_world_destroyed(ipx_ode_context *ctx);

/// Finds and resolves this step's impacts (call right before dWorldStep/dWorldQuickStep with
/// the same h, in s). Returns the number of impact events handed back. Never aborts; failures
/// are counted in the stats and leave the world untouched.
int ipx_ode_pre_step(ipx_ode_context *ctx, dReal h);
/// After the step: re-enables the disabled contacts that belong to no group.
void ipx_ode_post_step(ipx_ode_context *ctx);

/// pre-step, dWorldStep / dWorldQuickStep, post-step. Return what ODE returns.
int ipx_ode_step(ipx_ode_context *ctx, dReal h);
int ipx_ode_quick_step(ipx_ode_context *ctx, dReal h);

/// Drop-in replacements with ODE's signatures: the world's context from the table (plain ODE if
/// there is none).
int ipx_ode_world_step(dWorldID world, dReal stepsize);
int ipx_ode_world_quick_step(dWorldID world, dReal stepsize);

/// dJointCreateContact + dJointAttach(body1, body2) + the two hooks, for new code. Refuses
/// (returns 0, counts nothing, writes the reason into the stats' last_message) a contact ODE
/// could not step: a normal that is not unit length or a non-finite position or depth.
dJointID ipx_ode_contact(ipx_ode_context *ctx, dWorldID world, dJointGroupID group,
                         const dContact *contact, dBodyID body1, dBodyID body2);

/// 1 if a contact between body1 and body2 (as they would be attached) approaches fast enough
/// to be an impact in a step of h seconds under ctx's configuration: the test the pre-step
/// applies, whatever the model ("ode" included), so a host can tell impact steps the same way
/// for every model. 0 when neither body is dynamic. Call it from the thread that steps the world.
int ipx_ode_contact_impacting(const ipx_ode_context *ctx, const dContact *contact, dBodyID body1,
                              dBodyID body2, dReal h);

/// ipx_ode_on_group_emptied followed by dJointGroupEmpty.
void ipx_ode_empty_group(ipx_ode_context *ctx, dJointGroupID group);

/// The Jacobian rows the adapter uses for a bilateral joint, from its public getters, in the
/// caller's attach order: row i is J[i][0..5] for dJointGetBody(joint, 0) ([linear | angular],
/// world frame) and J[i][6..11] for dJointGetBody(joint, 1); zero for an absent body. Returns
/// the row count (0 for motors and the null joint, which carry no impact impulse), or -1 with
/// a message for a type the adapter cannot represent. The rows span exactly the row space of
/// ODE 0.16's own rows (tests/adapter/test_ode_rows.c checks it against ODE's getInfo2). With
/// joint drift, fixed, PR and PU joints differ from ODE's by the order of the drift: ODE keeps a
/// body-1 offset for them that has no getter, and these rows use the current body-2 anchor.
int ipx_ode_joint_rows(dJointID joint, double J[][12], int max_rows, char *message,
                       size_t message_size);

/// The three contact rows [t1, t2, n] (core order) of a contact between body1 and body2 as
/// attached (ODE's rows: +row on body1, -row on body2; the normal points into body1).
/// Returns 0, or -1 if the normal is not unit length.
int ipx_ode_contact_rows(const dContact *contact, dBodyID body1, dBodyID body2, double J[3][12]);

/// ODE's messages (dMessage warnings such as "LCP internal error, s <= 0 (s=-1.2e-17)"), which
/// ODE prints as they happen, are caught with dSetMessageHandler from this call on and counted
/// per kind (the run's label, the message's number and format), keeping the first message of
/// each kind with its arguments filled in. echo = 1 also prints each one as ODE would (with the
/// label, if any). Process-wide (ODE's handler is); the impax command and the shim call it.
void ipx_ode_capture_messages(int echo);
/// The messages caught from now on come from the run named label (at most 63 characters kept;
/// NULL or "": no label), e.g. one model's run of several: the report names it.
void ipx_ode_label_messages(const char *label);
/// Writes, if any message was caught, one line per kind: its label, its count and its first
/// message, each line starting with prefix. Returns the number of messages caught.
long ipx_ode_report_messages(FILE *f, const char *prefix);

#ifdef __cplusplus
}
#endif
#endif
