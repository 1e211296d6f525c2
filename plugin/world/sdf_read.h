/* Reading SDF elements with libxml2: diagnostics with FILE:LINE, typed values read from an
   element's own text, and the rule for elements impax does not use (harmless ones warn, known
   physics ones are not supported, anything else is unknown). */
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
    int out_of_memory;
    char warned[32][32]; /* ignored element names already reported (one warning per name) */
    int n_warned;
} sdf_ctx;

/// An error "FILE:LINE: ..." at node's line (control characters in it are written as escapes).
void sdf_error(sdf_ctx *ctx, const xmlNode *node, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/// The same at a line number.
void sdf_error_at(sdf_ctx *ctx, long line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/// A warning: "FILE:LINE: warning: ...".
void sdf_warn(sdf_ctx *ctx, const xmlNode *node, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/// Counts an out-of-memory error (reported once by ipx_scene_load); returns NULL.
void *sdf_out_of_memory(sdf_ctx *ctx);
/// A copy of s (NULL: ""), or NULL after counting an out-of-memory error.
char *sdf_dup(sdf_ctx *ctx, const char *s);
/// "prefix::name" ("name" when prefix is ""), or NULL after counting an out-of-memory error.
char *sdf_scoped(sdf_ctx *ctx, const char *prefix, const char *name);
/// s, or "" for NULL (a name lost to an out-of-memory error).
const char *sdf_s(const char *s);

/// 1 if node is the SDF element `name` (no namespace); sdf_is_impax: the impax: element.
int sdf_is(const xmlNode *node, const char *name);
int sdf_is_impax(const xmlNode *node, const char *name);
const xmlNode *sdf_first(const xmlNode *parent); /* first element child */
const xmlNode *sdf_next(const xmlNode *node);    /* next element sibling */

/// An element this parser does not handle inside its parent: a warning if it is one of the
/// elements a Gazebo world carries for rendering, sensing or plugins; "not supported" if SDF
/// 1.6 defines it there; "unknown element" (a typo, or another SDF version's) otherwise.
void sdf_unhandled(sdf_ctx *ctx, const xmlNode *node);
/// The element's own text (its text and CDATA children; comments split it like white space)
/// with the white space around it removed, as a new string. An element or entity inside it is
/// an error (NULL), as is running out of memory.
char *sdf_text_dup(sdf_ctx *ctx, const xmlNode *node);

/// The element's own text as exactly n numbers (errors name the element and its line). 0 or -1.
int sdf_doubles(sdf_ctx *ctx, const xmlNode *node, double *out, int n);
int sdf_double(sdf_ctx *ctx, const xmlNode *node, double *out);
/// A number in [lo, hi]; the message names the element and the range (unit appended).
int sdf_double_in(sdf_ctx *ctx, const xmlNode *node, double lo, double hi, const char *unit,
                  double *out);
int sdf_int_in(sdf_ctx *ctx, const xmlNode *node, int lo, int hi, int *out);
int sdf_bool(sdf_ctx *ctx, const xmlNode *node, int *out);
/// The trimmed own text into buf. 0, or -1 if it does not fit or is not text.
int sdf_text(sdf_ctx *ctx, const xmlNode *node, char *buf, size_t size);
/// The attribute into buf ("" when absent), cut to fit: for short keywords (type, version).
void sdf_attr(const xmlNode *node, const char *name, char *buf, size_t size);
/// The attribute as a new string ("" when absent; NULL only after an out-of-memory error).
char *sdf_attr_dup(sdf_ctx *ctx, const xmlNode *node, const char *name);
/// A <pose>: six numbers, no frame attribute other than "" (SDF 1.7 frames are not supported).
int sdf_pose(sdf_ctx *ctx, const xmlNode *node, ipx_pose *out);

#endif
