/* The parsed world: plain data, world frame, SI units. Private to plugin/world. */
#ifndef IMPAX_WORLD_SCENE_INTERNAL_H
#define IMPAX_WORLD_SCENE_INTERNAL_H

#include "pose.h"
#include "world.h"

typedef enum geom_type { GEOM_BOX, GEOM_SPHERE, GEOM_CYLINDER, GEOM_CAPSULE, GEOM_PLANE } geom_type;

/* <surface>, with SDF 1.6's defaults (Gazebo's ODE meaning, docs/ode-host.md §7). */
typedef struct scene_surface {
    double bounce;           /* restitution coefficient, [0, 1] */
    double bounce_threshold; /* m/s: no bounce below this approach speed */
    double mu, mu2;          /* Coulomb coefficients along fdir1 and the second direction */
    int has_fdir1;
    double fdir1[3];     /* first friction direction, collision frame (unit) */
    double slip1, slip2; /* force-dependent slip, m/(N s) */
    double kp, kd;       /* contact stiffness N/m and damping N s/m (soft_erp, soft_cfm) */
    double max_vel;      /* m/s, push-out cap of this surface (< 0: the world's) */
    double min_depth;    /* m, depth at which push-out starts */
} scene_surface;

typedef struct scene_collision {
    char *name; /* owned; unique within its link */
    int line;
    geom_type type;
    double size[3];             /* box: x y z; sphere: r; cylinder/capsule: r, length (m) */
    double normal[3];           /* plane: unit normal, collision frame */
    ipx_pose pose;              /* in the world at t = 0 */
    int link;                   /* the link it belongs to */
    int max_contacts;           /* per collision, 0 = unlimited */
    unsigned long collide_bits; /* <collide_bitmask> (ODE's collide bits) */
    unsigned long
        category_bits; /* <category_bitmask>, else the collide bitmask (ODE's category bits):
                                    two collisions touch if (cat1 & col2) | (cat2 & col1) != 0 */
    scene_surface surface;
} scene_collision;

typedef struct scene_link {
    char *name; /* owned; "model::link" (nested models: "outer::inner::link"), unique */
    int line;
    int model;           /* index of its top-level model (self-collision rule) */
    int is_static;       /* a static model's link: geoms in the world, no body */
    int kinematic;       /* <kinematic>: a body that moves with its velocity, whatever acts on it */
    int self_collide;    /* touches the other links of its model (either of two suffices) */
    int gravity;         /* 0: <gravity>false</gravity> */
    double damping[2];   /* <velocity_decay> linear and angular: ODE's per-step damping scales */
    ipx_pose pose;       /* link frame in the world */
    ipx_pose inertial;   /* inertial frame (COM, principal or not) in the world */
    double mass;         /* kg */
    double inertia[9];   /* kg m^2, about the COM in the inertial frame, row-major */
    double v0[3], w0[3]; /* initial velocity of the COM and angular velocity, world, m/s, rad/s */
    double force[3],
        torque[3];      /* world, N and N m, acting during the first step (<state> wrench) */
    int has_v0, has_w0; /* given by impax:linear_velocity, impax:angular_velocity */
    int first_collision, n_collisions;
} scene_link;

typedef enum joint_type {
    JOINT_REVOLUTE,
    JOINT_CONTINUOUS,
    JOINT_PRISMATIC,
    JOINT_BALL,
    JOINT_FIXED,
    JOINT_UNIVERSAL,
    JOINT_REVOLUTE2
} joint_type;

typedef struct scene_axis {
    double xyz[3]; /* unit, world frame at t = 0 */
    int has_limits;
    double lower, upper; /* rad or m */
} scene_axis;

typedef struct scene_joint {
    char *name; /* owned; "model::joint", unique */
    int line;
    joint_type type;
    int parent, child;  /* link indices; parent -1 = the world */
    double anchor[3];   /* joint frame origin in the world, m */
    scene_axis axis[2]; /* axis, axis2 */
} scene_joint;

typedef struct scene_model {
    char *name; /* owned; "outer::inner" for a nested model, unique */
    int line;
    int top;       /* index of its top-level model (itself for a top-level one) */
    ipx_pose pose; /* its frame in the world */
} scene_model;

struct ipx_scene {
    char *path; /* owned, as every string below */
    char *name;
    double gravity[3];         /* m/s^2 */
    double step_size;          /* s */
    int quick;                 /* 1: dWorldQuickStep */
    int iters;                 /* QuickStep iterations */
    double sor;                /* QuickStep over-relaxation */
    double cfm, erp;           /* world constraint force mixing, error reduction */
    double max_correcting_vel; /* m/s */
    double surface_layer;      /* m */
    int max_contacts;          /* per pair of collisions */
    char *model;               /* impax:model, NULL if none */
    char *params;              /* impax:params, NULL if none */
    int params_line;           /* its line (0 if none) */
    double duration;           /* s */
    char *plot_body;           /* impax:plot_body, NULL = first non-static link */
    char *replay_body;         /* impax:replay/impax:body, NULL = first non-static link */
    double replay_length;      /* m, impax:replay/impax:length (default 1) */
    int n_models, n_links, n_collisions, n_joints;
    scene_model *models;
    scene_link *links;
    scene_collision *collisions;
    scene_joint *joints;
};

#endif
