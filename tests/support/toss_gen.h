/// Synthetic recordings: a world's replay body simulated by impax itself, written in the
/// recording CSV format that `impax replay` and `impax fit` read (docs/command.md "Recorded
/// trajectories"), every number with 17 significant digits. The body starts through
/// cli_body_set_state and is stepped to each sample time as a replay steps it
/// (plugin/replay/replay.c), so a replay under the same model and parameters from the file's
/// first row reproduces the file to rounding. The fit tests make their tosses with toss_write;
/// bench/twin_tosses.c makes real recordings' twins with toss_twin_write.
#ifndef IMPAX_TEST_TOSS_GEN_H
#define IMPAX_TEST_TOSS_GEN_H

#include <stdio.h>

#include "recording.h"
#include "world.h"

/// One row of a recording: s's numbers in the header's order, 17 significant digits each.
void toss_write_row(FILE *f, const cli_sample *s);

/// The world at path, its errors printed on stderr; NULL if it cannot be loaded.
ipx_scene *toss_scene_load(const char *world);

/// Writes world with the pose of its first <inertial> (the cube-toss world's cube: where its
/// centre of mass sits) replaced by pose ("x y z roll pitch yaw") to out_path. 0, or -1
/// (printed why) if world has no such pose or out_path cannot be written.
int toss_world_with_com(const char *world, const char *pose, const char *out_path);

/// world loaded with that centre of mass at its link's origin (toss_world_with_com with a zero
/// pose, through a temporary file): the cube whose tracked centre is its centre of mass, as
/// the closed-form flights of the replay tests assume. NULL (printed why) if it fails.
ipx_scene *toss_scene_load_centred(const char *world);

/// Simulates world under model/params from start (its t_s is ignored: times start at 0; its
/// quaternion is normalised) for duration_s and writes samples every 1/rate_hz s to csv_path.
/// 0, or -1 (printed why).
int toss_write(const char *world, const char *model, const char *params, const cli_sample *start,
               double duration_s, double rate_hz, const char *csv_path);

/// The twin of a recording: scene under model/params simulated from rec's start
/// (cli_recording_start: its fitted start where it has one) and written at rec's sample times
/// (from 0). The first row is rec's first sample as recorded when first_recorded is nonzero,
/// else the start itself (also where rec has no fitted start: its start is that sample, written
/// with its quaternion normalised). A replay of the twin from its first row under the same model then
/// differs from the twin only by what that row differs from the start. 0, or -1 (printed why).
int toss_twin_write(const ipx_scene *scene, const char *model, const char *params,
                    const cli_recording *rec, int first_recorded, const char *csv_path);

#endif
