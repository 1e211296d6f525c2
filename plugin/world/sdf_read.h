/* Reading SDF elements with libxml2: diagnostics with FILE:LINE, typed values, and the rule for
   elements impax does not use (harmless ones warn, physics ones fail). */
#ifndef IMPAX_WORLD_SDF_READ_H
#define IMPAX_WORLD_SDF_READ_H

#include <libxml/tree.h>

#include "pose.h"
#include "world.h"

#define IMPAX_SDF_NS "urn:impax:sdf:1"

typedef struct sdf_ctx {
    const char *path;
    ipx_diag_fn report;
    void *user;
    int errors;
    char warned[32][32]; /* ignored element names already reported (one warning per name) */
    int n_warned;
} sdf_ctx;

void sdf_error(sdf_ctx *ctx, const xmlNode *node, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/// A warning: "FILE:LINE: warning: ...".
void sdf_warn(sdf_ctx *ctx, const xmlNode *node, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/// 1 if node is the SDF element `name` (no namespace); sdf_is_impax: the impax: element.
int sdf_is(const xmlNode *node, const char *name);
int sdf_is_impax(const xmlNode *node, const char *name);
const xmlNode *sdf_first(const xmlNode *parent); /* first element child */
const xmlNode *sdf_next(const xmlNode *node);    /* next element sibling */

/// An element inside `parent_name` that this parser does not handle: a warning if it is one of
/// the elements a Gazebo world carries for rendering, sensing or plugins, an error otherwise.
void sdf_unhandled(sdf_ctx *ctx, const xmlNode *node, const char *parent_name);

/// The element's text as exactly n numbers (errors name the element and its line). 0 or -1.
int sdf_doubles(sdf_ctx *ctx, const xmlNode *node, double *out, int n);
int sdf_double(sdf_ctx *ctx, const xmlNode *node, double *out);
/// A number >= lo (and <= hi); the message names the element and the range.
int sdf_double_in(sdf_ctx *ctx, const xmlNode *node, double lo, double hi, double *out);
int sdf_int_in(sdf_ctx *ctx, const xmlNode *node, int lo, int hi, int *out);
int sdf_bool(sdf_ctx *ctx, const xmlNode *node, int *out);
/// The trimmed text into buf. 0, or -1 if it does not fit.
int sdf_text(sdf_ctx *ctx, const xmlNode *node, char *buf, size_t size);
/// The attribute into buf ("" when absent).
void sdf_attr(const xmlNode *node, const char *name, char *buf, size_t size);
/// A <pose>: six numbers, no frame attribute (SDF 1.7 frames are not supported).
int sdf_pose(sdf_ctx *ctx, const xmlNode *node, ipx_pose *out);

#endif
