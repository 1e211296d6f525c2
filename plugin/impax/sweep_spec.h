/// `impax sweep`'s spec file: which worlds, models, parameter grids, seeds, initial-state
/// perturbations, duration and recorded quantities make up a batch of simulations. The format
/// (key = value lines, '#' comments) is documented in docs/command.md "impax sweep".
#ifndef IMPAX_CLI_SWEEP_SPEC_H
#define IMPAX_CLI_SWEEP_SPEC_H

#include <stddef.h>

#include "world.h"

enum { SWEEP_NAME = 128, SWEEP_VALUE = 32 };

typedef struct sweep_world {
    char *name; /* as rows name it: the path relative to the spec's directory */
    char *path; /* as opened */
    ipx_scene *scene;
    int line; /* of the spec */
} sweep_world;

typedef struct sweep_model {
    char name[32]; /* "ode" or a registered model */
    char *params;  /* its own key=value,... ("" if none) */
    int has_seed;  /* the model has a `seed` parameter (routh): the job's seed goes there */
    int line;
} sweep_model;

/// One parameter of the grid: a key and its values (as text: what rows and the simulation get).
typedef struct sweep_axis {
    char key[64];
    int n;
    char (*text)[SWEEP_VALUE]; /* n values, printed with 15 significant digits */
    double *value;             /* the same, as numbers */
    int line;
} sweep_axis;

typedef enum sweep_quantity {
    SWEEP_POSITION,         /* m, final centre of mass: BODY.x, .y, .z */
    SWEEP_ORIENTATION,      /* final quaternion: BODY.qw, .qx, .qy, .qz */
    SWEEP_VELOCITY,         /* m/s, final: BODY.vx, .vy, .vz */
    SWEEP_ANGULAR_VELOCITY, /* rad/s, final, world frame: BODY.wx, .wy, .wz */
    SWEEP_KE_CHANGE,        /* J, kinetic energy at the end minus at the start */
    SWEEP_ENERGY_CHANGE,    /* J, kinetic + gravitational, end minus start */
    SWEEP_IMPACT_KE_CHANGE, /* J, sum over impax's impact events of ke_after - ke_before */
    SWEEP_IMPACT_EVENTS,
    SWEEP_IMPACT_CONTACTS,
    SWEEP_FALLBACKS,       /* islands left to ODE's own solver */
    SWEEP_FIRST_IMPACT_T,  /* s, end of the first step with an impact (null if none) */
    SWEEP_MAX_PENETRATION, /* m, deepest contact over the run */
    SWEEP_WALL_S,          /* s: always in the row; recording it puts it in the plot */
    SWEEP_QUANTITIES
} sweep_quantity;

typedef struct sweep_record {
    sweep_quantity what;
    char body[SWEEP_NAME]; /* "model::link" for the per-body quantities, else "" */
    int line;
} sweep_record;

/// An initial-velocity perturbation: component (0..5: vx vy vz wx wy wz, world frame) of body
/// gets a uniform sample from [-range, range] added, drawn from the job's seed.
typedef struct sweep_perturb {
    char body[SWEEP_NAME];
    int component;
    double range;
    int line;
} sweep_perturb;

typedef struct sweep_spec {
    char *path; /* the spec file as given */
    sweep_world *world;
    int n_worlds;
    sweep_model *model;
    int n_models;
    sweep_axis *axis; /* in file order: the last varies fastest */
    int n_axes;
    long long *seed; /* default: one seed, 0 */
    int n_seeds, seed_line;
    sweep_perturb *perturb;
    int n_perturbs;
    sweep_record *record; /* default: ke_change, impact_events, fallbacks */
    int n_records;
    double duration_s; /* 0: each world's <impax:duration> */
} sweep_spec;

/// Reads path, loads its worlds and checks everything a job will use (models, keys and values
/// for every model, bodies), so that a bad spec runs nothing (sweep_load.c). 0; or, with "SPEC:LINE: message"
/// in message and the spec freed, 1 (the spec or a world file cannot be read or has errors)
/// or 2 (the spec is wrong: unknown model, key or body, a bad value or range).
int sweep_spec_load(const char *path, sweep_spec *spec, char *message, size_t message_size);
void sweep_spec_free(sweep_spec *spec);

/// Name of a quantity as the spec and the rows write it ("velocity", "ke_change", ...).
const char *sweep_quantity_name(sweep_quantity q);
/// Columns of a record (3 for a position, 1 for a scalar, 0 for wall_s, which is not a value)
/// and the name of column c into name (e.g. "cradle::ball5.vx", "ke_change").
int sweep_record_columns(const sweep_record *r);
void sweep_record_column(const sweep_record *r, int c, char *name, size_t name_size);

/// Parsing of one value line (sweep_values.c). Each parses text (the part after '='), appends
/// to the spec and returns 0, or -1 with the message (without file and line).
int sweep_parse_axis(sweep_spec *spec, const char *key, const char *text, int line, char *message,
                     size_t message_size);
int sweep_parse_seeds(sweep_spec *spec, const char *text, int line, char *message,
                      size_t message_size);
int sweep_parse_perturb(sweep_spec *spec, const char *text, int line, char *message,
                        size_t message_size);
int sweep_parse_record(sweep_spec *spec, const char *text, int line, char *message,
                       size_t message_size);

/// The checks against the registry and the worlds (sweep_check.c): 0, or -1 with
/// "SPEC:LINE: message".
int sweep_spec_check(const sweep_spec *spec, char *message, size_t message_size);

/// array (elements of elem bytes) reallocated for n elements: the new pointer, or NULL (array
/// untouched, "out of memory" in message) when memory is short.
void *sweep_grow(void *array, size_t n, size_t elem, char *message, size_t message_size);

/// s, what a job of world w simulates: the spec's duration, else the world's own.
double sweep_duration(const sweep_spec *spec, int w);

#endif
