/// Small worlds for the world tests: an SDF 1.6 file around a <world>'s body, loaded, and its
/// simulation made, each printing why when it fails.
#ifndef IMPAX_TEST_WORLD_KIT_H
#define IMPAX_TEST_WORLD_KIT_H

#include "world.h"

/// Writes text to file (in the working directory) and loads it, reporting through report
/// (NULL: the errors are printed); NULL if the file cannot be written or does not load.
ipx_scene *kit_load(const char *file, const char *text, ipx_diag_fn report, void *user);
/// Writes "<sdf version='1.6' xmlns:impax=...><world name='w'>BODY</world></sdf>" to file (in the
/// working directory) and loads it; NULL (the diagnostics printed) if it does not load.
ipx_scene *kit_world(const char *file, const char *body);
/// ipx_sim_create(scene, model, NULL), printing its message when it fails.
ipx_sim *kit_sim(const ipx_scene *scene, const char *model);

#endif
