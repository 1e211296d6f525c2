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
    int failed_alloc;
} sdf_load;

/// Appends a zeroed element to one of the scene's arrays (which: 0 models, 1 links, 2
/// collisions, 3 joints); NULL if memory ran out (counted as an error).
void *sdf_append(sdf_load *ld, int which);

int sdf_parse_world(sdf_load *ld, const xmlNode *world);
/// A <model> (nested ones too) whose parent frame is `parent` in the world.
void sdf_parse_model(sdf_load *ld, const xmlNode *node, const ipx_pose *parent, const char *prefix,
                     int top_model, int parent_static);
/// A <link> of the model at `model_pose`.
void sdf_parse_link(sdf_load *ld, const xmlNode *node, const ipx_pose *model_pose, const char *prefix,
                    int top_model, int is_static);
/// A <collision> of link (its frame `link_pose`).
void sdf_parse_collision(sdf_load *ld, const xmlNode *node, const ipx_pose *link_pose, scene_link *link);
/// A <joint> of the model (after its links): parent/child names are scoped by prefix.
void sdf_parse_joint(sdf_load *ld, const xmlNode *node, const ipx_pose *model_pose, const char *prefix);

#endif
