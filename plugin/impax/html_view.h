/// `--html FILE`: one self-contained page (no network, no server) that plays the models' runs in
/// a browser with three.js (Debian's libjs-three, inlined): a lane per model side by side (or all
/// in one view), each model in its colour (model_colours.h), a camera fitted to the bodies, a
/// ground grid with its scale, joints, impacts' contact points and impulses, and the energy
/// against time. The page's template is html_view.html, compiled into the binary; html_data.h
/// describes its data.
#ifndef IMPAX_CLI_HTML_VIEW_H
#define IMPAX_CLI_HTML_VIEW_H

#include "html_data.h"

/// Where three.js is read from when a page is written.
#define HTML_VIEW_THREE_JS "/usr/share/javascript/three/three.min.js"
/// Frames a second of a page unless --html-fps says otherwise.
#define HTML_VIEW_FPS 60.0

/// Before anything is simulated: path can be written and three.js read. 0, or CLI_FAILED after
/// printing why on stderr ("impax CMD: cannot write --html 'PATH': ...", or three.js's path and
/// the package that has it).
int html_view_check(const char *cmd, const char *path);
/// Parses --html-fps's value (1 to 1000 frames a second). 0, or CLI_USAGE after saying why.
int html_view_parse_fps(const char *text, double *fps);

/// Writes the page of n models of scene to path and prints "page: PATH" on stdout. 0, or -1 after
/// printing "impax CMD: ..." on stderr.
int html_view_write(const char *cmd, const char *path, const ipx_scene *scene, int n,
                    const html_model *models);

#endif
