/// The data an --html page plays, as JavaScript: one object IMPAX_DATA whose strings are base64
/// (safe inside a <script>, whatever the world's names hold): meta, JSON of the world's bodies,
/// shapes, joints and models (each with its colour "#rrggbb" from model_colours.h, the page's
/// only source of colours); per model t (float64, s), pose (float32 x y z qw qx qy qz per body
/// and frame), energy (float32, J) and contact (float32 t, point, impulse per contact), all
/// little-endian.
#ifndef IMPAX_CLI_HTML_DATA_H
#define IMPAX_CLI_HTML_DATA_H

#include "frames.h"
#include "job_pool.h"
#include "world.h"

/// One trajectory the page shows: a model's run, or a recording.
typedef struct html_model {
    const char *label;
    const cli_frames *frames;
} html_model;

/// Appends `window.IMPAX_DATA = {...};` for sim's world (its shapes, joints and body names) and
/// the n models to out. 0, or -1 if memory is short.
int html_data_append(cli_buf *out, ipx_sim *sim, int n, const html_model *models);

#endif
