/* Inside the ODE adapter: the context and what its files share. */
#ifndef IMPAX_ODE_INTERNAL_H
#define IMPAX_ODE_INTERNAL_H

#include <pthread.h>
#include <stddef.h>

#include "impax/constrained.h"
#include "impax/gonthier.h"
#include "impax/ode.h"
#include "impax/registry.h"

/* Contacts the model's workspace is first sized for; a larger island grows it (once per size
   reached, so the steps after the largest island allocate nothing). */
#define IPX_ODE_WORKSPACE_CONTACTS 64
/* Largest joint row count of one joint (fixed: 6). */
#define IPX_ODE_MAX_JOINT_ROWS 6
/* Default recovery_switch: islands of this many contacts or more are projected by the iterative
   LCP (recovery_project.c; the figure from bench_ode_recovery). */
#define IPX_ODE_RECOVERY_SWITCH 16
/* A contact normal may differ from unit length by this much. */
#define IPX_ODE_NORMAL_TOL 1e-5

/* A body the impact moves: attached (not the world) and not kinematic (a kinematic body keeps
   its velocity whatever touches it, like the world). */
static inline int ipx_ode_dynamic(dBodyID b) { return b && !dBodyIsKinematic(b); }

/* ---- contact store (contact_store.c) ------------------------------------------------------ */

typedef struct contact_record {
    dJointID joint;      /* NULL: a free slot */
    dJointGroupID group; /* 0: not in a group */
    dContact contact;    /* the copy made at creation */
    dBodyID body[2];     /* as attached, caller's order; 0 = world */
    int attached;        /* dJointAttach seen with at least one body */
    int dead;            /* one of its bodies was destroyed */
    int next_hash;       /* bucket chain, or the free list for free slots */
    int prev_group, next_group;
    int group_slot;        /* index into contact_store.groups */
    unsigned island_stamp; /* pre-step epoch in which it went into an island */
    int impacting;         /* classified as impacting in the current pre-step */
    int disabled_by_us;    /* the pre-step called dJointDisable on it */
} contact_record;

typedef struct group_entry {
    dJointGroupID group;
    int head; /* first record, -1 if none */
} group_entry;

typedef struct contact_store {
    contact_record *rec;
    int cap, high_water, live, free_head;
    int *bucket;
    int n_buckets; /* power of two */
    group_entry *groups;
    int n_groups, cap_groups;
} contact_store;

void ipx_ode_store_free(contact_store *r);
void ipx_ode_store_clear(contact_store *r);
/* Index of the joint's record, or -1. */
int ipx_ode_store_find(const contact_store *r, dJointID joint);
/* Adds (or, for a joint address ODE reused without our seeing the empty, replaces) a record:
   its index, or -1 if memory is short. */
int ipx_ode_store_add(contact_store *r, dJointID joint, dJointGroupID group,
                      const dContact *contact);
/* Frees record i: out of its bucket and its group, onto the free list. */
void ipx_ode_store_unlink(contact_store *r, int i);

/* ---- pointer -> index map with epochs, so it empties in O(1) (ptrmap.c) ------------------ */

typedef struct ptr_map {
    const void **key;
    int *value;
    unsigned *epoch;
    int cap; /* power of two, 0 before the first use */
    int count;
    unsigned now;
} ptr_map;

void ipx_ode_map_free(ptr_map *m);
void ipx_ode_map_reset(ptr_map *m);                          /* forget every entry */
int ipx_ode_map_get(const ptr_map *m, const void *key);      /* value, or -1 */
int ipx_ode_map_put(ptr_map *m, const void *key, int value); /* 0, or -1 if memory is short */

/* ---- one island: bodies, joints and contacts that take part in one problem (island.c) ---- */

typedef struct island {
    dBodyID *body; /* dynamic bodies first found, kinematic ones as met */
    int n_body, cap_body;
    dJointID *joint; /* bilateral joints with rows */
    int n_joint, cap_joint;
    int *contact; /* record indices */
    int n_contact, cap_contact;
    int *body_list;    /* per body (cap_body): the head of its list of problem contacts (an
                          index into contact, the last listed), or -1; a contact is listed under
                          its first body, or its second when the first is the world (island.c:
                          the twin search walks these) */
    int *contact_next; /* per problem contact (cap_contact): the next one of the same list, or -1 */
    int *twin;         /* records duplicating a problem contact (not in the problem) */
    int *twin_of;      /* the problem contact each duplicates */
    int n_twin, cap_twin;
    ptr_map body_index; /* dBodyID -> index into body */
    ptr_map joint_seen; /* joints already visited */
} island;

/* ---- assembled problem (assemble.c) ------------------------------------------------------- */

enum {
    IPX_ODE_PER_CONTACT = 24, /* doubles of assembly.per_contact per contact */
    IPX_ODE_PC_ACCEL = 19,    /* where its compliant accelerations (3k) start, in units of k */
    IPX_ODE_PC_REST = 22,     /* where the compliant springs' rest depths (k) start */
    IPX_ODE_PC_PAID = 23      /* where the compliant springs' paid-for depths (k) start */
};

typedef struct assembly {
    ipx_body *body;          /* n_body */
    double *u, *u_post, *du; /* 6 per body */
    double *du_free;         /* 6 per body: a compliant step's velocity change from the other
                                forces (gravity, applied), joints holding (compliant.c) */
    double *u_end;           /* 6 per body: a compliant step's end velocities (the trace's) */
    double work_other;       /* J, a compliant step's work of the other forces (the trace's) */
    double *dx;              /* 6 per body: m, rad, a compliant island's move back to first
                                touch (first_touch.c), made by the handback if moved */
    int moved;
    int cap_body;
    ipx_row *joint_row;
    int n_joint_row, cap_joint_row;
    int *joint_first; /* n_joint + 1: island joint k's rows are joint_first[k] .. [k + 1] - 1 */
    int cap_joint_first;
    /* per contact, sized for cap_contact contacts (ipx_ode_assembly_reserve) */
    int cap_contact;
    ipx_row *contact_row; /* 3 per contact */
    double *W;            /* (3k)^2, sized for cap_W contacts (ipx_ode_assemble), for a
                                model that reads W densely at the island's size */
    int cap_W;
    int *W_start, *W_row; /* W as blocks (W_blocks) for a model that reads them: k + 1, nnz */
    double *W_blk;        /* 9 nnz */
    int cap_W_start, cap_W_row, cap_W_blk;
    ipx_wsparse W_blocks;
    double *v;                 /* 3k */
    ipx_contact *param;        /* k */
    double *rows_a, *rows_b;   /* 3k each: impulses handed back in parts, projections */
    double *per_contact;       /* 24k: event speeds (2k), compliant depths, first-touch targets,
                                tangents (8k), event points, normals, world impulses (9k),
                                compliant accelerations (3k, from IPX_ODE_PC_ACCEL k; free as
                                scratch once the compliant step is done), the compliant
                                springs' rest depths (k, from IPX_ODE_PC_REST k) and their
                                paid-for depths (k, from IPX_ODE_PC_PAID k) */
    ipx_gonthier_state *state; /* k: compliant states */
    int *slot;                 /* k: compliant cache slots */
    double *work;              /* ipx_constrained work */
    size_t cap_work;
    ipx_constrained system;
    ipx_constrained_info info;
    ipx_problem problem;
    ipx_result result;
} assembly;

/* ---- compliant contacts: per-contact states kept between steps (compliant.c) -------------- */

typedef struct compliant_entry {
    dBodyID body[2];       /* as attached when stored; the pair in the other order flips z */
    double pos[3];         /* m, the contact point last step */
    double z[3];           /* m, bristle in the world frame */
    double s_dw, a, v_imp; /* the rest of ipx_gonthier_state */
    double rest;           /* m, the depth at which the normal spring starts (compliant.c) */
    double paid;           /* m, the spring's depth (from rest) at the last step's end */
    long seen;             /* pre-step that last used it */
} compliant_entry;

typedef struct compliant_cache {
    compliant_entry *entry;
    int n, cap;
    double *lcp; /* moving late finds back to first touch: W_nn, q, z, w, Lemke's work */
    int cap_lcp;
    int *ilcp;
    int cap_ilcp;
} compliant_cache;

/* A velocity change the post-step applies (the part of a compliant step's impulse that ODE's
   position update must not see). */
typedef struct deferred_velocity {
    dBodyID body;
    double du[6]; /* m/s, rad/s (world frame) */
} deferred_velocity;

typedef struct disabled_contact {
    int rec;
    dJointID joint; /* to tell a reused record slot */
} disabled_contact;

/* ---- joint feedback (feedback.c) ---------------------------------------------------------- */

typedef struct feedback_debt {
    dJointID joint;
    double impulse[2][6]; /* N s, N m s: on ODE's first body (f1, t1) and second (f2, t2) */
    int set;              /* 1: ODE does not step the joint (a contact the pre-step disabled) */
} feedback_debt;

typedef struct feedback_state {
    feedback_debt *debt; /* this step's impacts' shares, added by the post-step */
    int n, cap;
    double *work; /* the joints' reactions: J_b M^-1 J_b^T + cfm / h, right-hand side, scratch */
    int cap_work;
    int *iwork;
    int cap_iwork;
} feedback_state;

/* After an island's handback: its impulses' shares of the feedback of its joints that report
   one (dJointSetFeedback), contacts and bilateral joints, kept for the post-step. */
void ipx_ode_feedback_island(ipx_ode_context *ctx);
/* A contact the pre-step disabled whose feedback ODE's step writes after all: a recovery copy
   stepped in its place reports into it (recovery.c). Its share is then added, not set. */
void ipx_ode_feedback_stepped(ipx_ode_context *ctx, dJointID contact);
/* After ODE's step: adds each share, divided by the step, to the joint's feedback (sets it,
   for a contact ODE did not step), and forgets them. */
void ipx_ode_feedback_apply(ipx_ode_context *ctx);
void ipx_ode_feedback_free(feedback_state *f);

/* ---- penetration recovery (recovery.c, recovery_project.c) ------------------------------- */

typedef struct recovery_state {
    dBodyID *body; /* bodies impacted and not yet out of their contacts' penetration */
    int n_body, cap_body;
    ptr_map index; /* dBodyID -> index into body, rebuilt every pre-step */
    int *still;    /* per body: 1 if a contact still penetrates it this step */
    int cap_still;
    int *rec; /* records the projection of this step covers */
    int n_rec, cap_rec;
    dJointGroupID group; /* replacement contacts of this step (emptied by the post-step) */
    /* the projection of one island (recovery_project.c) */
    ipx_row *nrow; /* the island's normal contact rows */
    int cap_nrow;
    ipx_constrained normal; /* the island's bodies, joint rows and normal rows */
    double *lcp;            /* q, z, w, then the dense W_nn and Lemke's work, or the iterative
                                solver's diagonal, work and du scratch */
    size_t cap_lcp;
    int *ilcp;
    size_t cap_ilcp;
} recovery_state;

/* ---- the context (created, configured and destroyed by context.c) ------------------------- */

struct ipx_ode_context {
    pthread_mutex_t lock; /* held by every hook and the pre/post-step: hooks may come from
                                any thread (an interposer broadcasting to every context). Taken
                                after the table's lock; under it only leaf locks (the lock order:
                                world_table.c) */
    dWorldID world;
    ipx_ode_config config;
    int passthrough;             /* model "ode" */
    int compliant;               /* a compliant model ("gonthier"): contacts become forces */
    double step_h;               /* s, the step the current pre-step prepares */
    compliant_cache cache;       /* states of the compliant contacts */
    deferred_velocity *deferred; /* applied by the post-step */
    int n_deferred, cap_deferred;
    ipx_params params;
    ipx_workspace *ws;
    ipx_ode_stats stats;
    contact_store store;
    island isl;
    assembly as;
    disabled_contact *disabled; /* contacts the pre-step disabled, re-enabled after the step */
    int n_disabled, cap_disabled;
    unsigned epoch;          /* pre-step counter, stamps islands */
    double threshold;        /* m/s, this pre-step's effective impact threshold */
    double separating;       /* m/s, this pre-step's separating speed (config + |g| h) */
    recovery_state recovery; /* penetration recovery of impacted bodies */
    feedback_state feedback; /* the impacts' shares of the joints' feedback */
    ipx_ode_event_fn event_fn;
    void *event_user;
    ipx_ode_context *next; /* world table */
};

/* ---- the world -> context table (world_table.c) ------------------------------------------- */

/* Nonzero while this thread runs the adapter's own ODE calls, made under a context's lock: the
   hooks ignore them, and an interposer (asking ipx_ode_own_call) passes them straight to ODE
   without taking its own lock. */
extern _Thread_local int ipx_ode_internal;

/* Enters ctx into the table (ipx_ode_create); takes it out (destroyed, or its world destroyed). */
void ipx_ode_table_insert(ipx_ode_context *ctx);
void ipx_ode_table_remove(ipx_ode_context *ctx);

/* Runs fn on ctx, or on every context in the table if ctx is NULL (under the table's lock),
   each under its context's lock. */
void ipx_ode_for_each(ipx_ode_context *ctx, void (*fn)(ipx_ode_context *, const void *),
                      const void *arg);

/* ---- helpers on a context (context_access.c) ---------------------------------------------- */

/* Records a fallback: counts it and keeps its message. */
void ipx_ode_fallback(ipx_ode_context *ctx, const char *message);

/* Grows *buf (elements of size bytes) to hold at least need; 0 on success. */
int ipx_ode_grow(void **buf, int *cap, int need, size_t size);

/* Grows the model's workspace to solve p (its size and W's form: ipx_workspace_bytes_for). 0, or
   -1 with message. */
int ipx_ode_reserve_workspace(ipx_ode_context *ctx, const ipx_problem *p, char *message,
                              size_t size);

/* ---- per-step work (island.c, assemble.c, handback.c; classify.h, kinematics.h) ----------- */

/* Gathers the island around record seed. 0, or -1 with message. */
int ipx_ode_gather(ipx_ode_context *ctx, int seed, char *message, size_t size);
/* Sizes the assembly's per-contact arrays for k contacts (not W). 0, or -1 if memory is short. */
int ipx_ode_assembly_reserve(assembly *as, int k);
/* Sizes the assembly's joint-elimination work for need doubles. 0, or -1 if memory is short. */
int ipx_ode_reserve_work(assembly *as, size_t need);
void ipx_ode_assembly_free(assembly *as);
/* The gathered island's bodies (inverse masses, velocities) and joint and contact rows, into
   ctx->as (as->system: every contact's three rows); no W. 0, or -1 with message. */
/* After the bodies moved (a compliant island back to first touch): the joint rows again where
   they now are, and u_post projected onto them (scratch: 3k doubles). -1, u_post untouched, if
   the island has no joint rows or they cannot be read or factored. */
int ipx_ode_reproject_joints(ipx_ode_context *ctx, double *scratch);
int ipx_ode_assemble_rows(ipx_ode_context *ctx, char *message, size_t size);
/* Builds the problem of the gathered island (rows, joint elimination, W, v: ctx->as.problem);
   ipx_ode_solve solves it. 0, or -1 with message. */
int ipx_ode_assemble(ipx_ode_context *ctx, char *message, size_t size);
int ipx_ode_solve(ipx_ode_context *ctx, char *message, size_t size);
/* Writes the post-impact velocities and disables separating contacts. */
void ipx_ode_handback(ipx_ode_context *ctx);
/* 0 if the solved island's contact velocity changes stay within IPX_ODE_HANDBACK_BOUND times the
   problem's speed scale (ode.h); else writes why, counts it and returns -1 (nothing handed back). */
int ipx_ode_handback_bounded(ipx_ode_context *ctx, char *msg, size_t size);
/* Disables record rec until the post-step (ipx_ode_reenable). 0, or -1 if memory is short. */
int ipx_ode_disable_contact(ipx_ode_context *ctx, int rec);
/* Re-enables the contacts the last pre-step disabled. */
void ipx_ode_reenable(ipx_ode_context *ctx);

/* Compliant model: the contact impulse of the gathered island over the step (states from and
   back into the cache) into as->result, and its mean over the step into impulse_mean (3k).
   0, or -1 with message. */
int ipx_ode_compliant_solve(ipx_ode_context *ctx, double *impulse_mean, char *message, size_t size);
/* Keeps the island's velocity change of impulse - impulse_mean for the post-step. 0, or -1. */
int ipx_ode_compliant_defer(ipx_ode_context *ctx, const double *impulse_mean, char *message,
                            size_t size);
/* Applies (and forgets) the deferred velocity changes. */
void ipx_ode_compliant_apply_deferred(ipx_ode_context *ctx);
/* Keeps the cache entries of the gathered island's contacts for a step in which the island
   sleeps (no body enabled: ODE's step leaves it), so that they carry on where they were when it
   wakes instead of starting anew (a move back to first touch). */
void ipx_ode_compliant_hold(ipx_ode_context *ctx);
/* Forgets the cache entries no pre-step used for two steps (spec: keep one missed step). */
void ipx_ode_compliant_prune(ipx_ode_context *ctx);
/* The tangents [t1, t2] of a contact as the rows use them (ODE's, for the bodies as attached). */
void ipx_ode_contact_tangents(const dContact *c, dBodyID body1, dBodyID body2, double t1[3],
                              double t2[3]);

/* Penetration recovery (ipx_ode_config.recovery): the bodies of the island just handed back
   join the recovering set; the pre-step (after the impacts) replaces every contact of a
   recovering body that penetrates beyond the surface layer by a copy without push-out
   (position) or with a limited one (velocity); the post-step removes the copies, then, after
   the originals are enabled again, projects the bodies out (position). */
void ipx_ode_recovery_add_island(ipx_ode_context *ctx);
void ipx_ode_recover(ipx_ode_context *ctx);
void ipx_ode_recovery_remove_copies(ipx_ode_context *ctx);
void ipx_ode_recovery_project(ipx_ode_context *ctx); /* recovery_project.c */
void ipx_ode_recovery_forget_body(ipx_ode_context *ctx, dBodyID body);
/* m: the normal displacement the projection owes record r this step (its ERP fraction of the
   penetration beyond the surface layer), 0 if it has none to recover. */
double ipx_ode_recovery_target(const ipx_ode_context *ctx, const contact_record *r);
void ipx_ode_recovery_free(ipx_ode_context *ctx);

/* Moves the island just solved under a compliant model back so that no contact new this step
   (target[i] > 0: its depth, m) penetrates, and slows its approach by what that costs against
   the island's other forces (as->du_free); depth[i] (m) becomes the depth at the new positions.
   The displacements are left in as->dx (m, rad) for the handback to make; the velocities
   change in as->u_post and the problem's v. 1 if neither the approach nor the island's motion
   can pay the move (nothing changed); -1 if it cannot (first_touch.c). */
int ipx_ode_first_touch(ipx_ode_context *ctx, const double *target, double *depth);
/* a^T M c (kg m^2/s^2 for velocities) for body b's 6-vectors, world frame (first_touch.c). */
double ipx_ode_mass_dot(dBodyID b, const double a[6], const double c[6]);

/* ---- an event's energies (event_energy.c) ------------------------------------------------- */

/* The frame an event's kinetic energies are taken in: the world, or relative to the rigid
   motion of the island's moving kinematic bodies (velocity v of the point x, angular velocity
   w); unbalanced where they move apart (or rotate, over a compliant step): the world frame,
   whose balance their prescribed motion's work then enters. */
enum { IPX_ODE_FRAME_WORLD = 0, IPX_ODE_FRAME_KINEMATIC = 1, IPX_ODE_FRAME_UNBALANCED = -1 };
typedef struct ipx_ode_frame {
    int kind;
    double v[3], w[3], x[3]; /* m/s, rad/s, m */
} ipx_ode_frame;

/* The frame of the island's event from the velocities u (6 per island body; a kinematic
   body's are its own); whole_step: the event lasts a host step (a compliant model's). */
void ipx_ode_event_frame(const ipx_ode_context *ctx, const double *u, int whole_step,
                         ipx_ode_frame *f);
/* J: the island's dynamic bodies' kinetic energy at velocities u, in frame f. */
double ipx_ode_island_energy(const ipx_ode_context *ctx, const double *u, const ipx_ode_frame *f);
/* J: what a translating frame f takes off the work of forces that change the island's velocities
   by du (6 per body) over a step, sum m du . v_f (0 in the world frame). */
double ipx_ode_frame_momentum_work(const ipx_ode_context *ctx, const double *du,
                                   const ipx_ode_frame *f);

/* Moves body b by dx (m) and turns it by the rotation vector dtheta (rad), world frame, its
   kinetic energy unchanged (context_access.c). */
void ipx_ode_displace(dBodyID b, const double dx[3], const double dtheta[3]);
/* Turns the world-frame vector w (an angular velocity) by the rotation vector dtheta (rad), as
   ipx_ode_displace turns a body's (context_access.c). */
void ipx_ode_turn(const double dtheta[3], double w[3]);

/* Contact record validity: 1 if ODE could step it (unit normal, finite data). */
int ipx_ode_contact_valid(const dContact *c, char *message, size_t size);

/* The contact's surface motion on its rows [t1, t2, n] (m/s): motion1, motion2 and motionN where
   dContactMotion1, 2 and N are set, else 0. ODE's rows hold that relative velocity as rest
   (contact.cpp getInfo2: the friction rows' right-hand sides, the normal row's push-out and
   bounce), so the impact models are given the contact velocities less it. 1 if any is not 0. */
int ipx_ode_surface_motion(const dContact *c, double m[IPX_ROWS_PER_CONTACT]);
/* The same for contact k of the gathered island. */
int ipx_ode_island_motion(const ipx_ode_context *ctx, int k, double m[IPX_ROWS_PER_CONTACT]);

#endif
