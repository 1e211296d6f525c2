/* The SDF parsers, one per element family, filling the scene being loaded. */
#ifndef IMPAX_WORLD_SDF_PARSE_H
#define IMPAX_WORLD_SDF_PARSE_H

#include "scene_internal.h"
#include "sdf_read.h"

/* Everything a parser needs while it walks the tree. */
typedef struct sdf_load {
    sdf_ctx diag;
    ipx_scene *scene;
    int caps[4]; /* allocated entries of models, links, collisions, joints */
} sdf_load;

/// Appends a zeroed element to one of the scene's arrays (which: 0 models, 1 links, 2
/// collisions, 3 joints); NULL if memory ran out (counted as an error).
void *sdf_append(sdf_load *ld, int which);
/// The index of the first link (model) whose full name is name ("model::link"), or -1.
int sdf_find_link(const ipx_scene *s, const char *name);
int sdf_find_model(const ipx_scene *s, const char *name);

int sdf_parse_world(sdf_load *ld, const xmlNode *world);
/// What a model passes down to its links and nested models.
typedef struct sdf_scope {
    const char *prefix; /* its full name: "outer::inner" ("" for the world) */
    ipx_pose pose;      /* its frame in the world */
    int top_model;      /* index of the top-level model (-1 for the world) */
    int is_static;
    int self_collide; /* its <self_collide>: the default of its links and nested models */
} sdf_scope;

/// A <model> (nested ones too) inside `parent` (the world or the enclosing model).
void sdf_parse_model(sdf_load *ld, const xmlNode *node, const sdf_scope *parent);
/// A <link> of the model `model`.
void sdf_parse_link(sdf_load *ld, const xmlNode *node, const sdf_scope *model);
/// The <inertial> of link link_index (mass, inertia, their ranges; ranges.h).
void sdf_parse_inertial(sdf_load *ld, const xmlNode *node, int link_index);
/// A <collision> of link link_index.
void sdf_parse_collision(sdf_load *ld, const xmlNode *node, int link_index);
/// <friction><torsional>: ODE 0.16 has no torsional friction; accepted where it has no effect.
void sdf_parse_torsional(sdf_load *ld, const xmlNode *node);
/// Gazebo's contact filters in <surface><contact> (collide_bitmask, category_bitmask,
/// collide_without_contact, collide_without_contact_bitmask): 1 if node was one of them.
int sdf_parse_contact_bits(sdf_load *ld, const xmlNode *node, scene_collision *col);
/// A <joint> of the model (after its links): parent/child names are scoped by the model's prefix.
void sdf_parse_joint(sdf_load *ld, const xmlNode *node, const sdf_scope *model);
/// The <state> of a world (Gazebo's saved poses and velocities), once every model is loaded.
void sdf_parse_state(sdf_load *ld, const xmlNode *node);
/// Once the world is read: names unique in their scope (models, links, joints, a link's
/// collisions; each duplicate is reported with both lines) and the world-frame ranges (ranges.h)
/// of links, collisions and joints.
void sdf_check_scene(sdf_load *ld);

#endif
