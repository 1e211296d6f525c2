/// `impax replay --html`: the shown trajectory recorded and as each model simulated it, as one
/// page (html_view.h), the recording as one more model ("recorded").
#ifndef IMPAX_CLI_REPLAY_HTML_H
#define IMPAX_CLI_REPLAY_HTML_H

#include "replay_report.h"

/// Writes the page of set's shown trajectory to path at fps frames a second. 0, or -1 after
/// printing why on stderr.
int replay_write_html(const char *path, const ipx_scene *scene, const replay_set *set, double fps);

#endif
