#include "sdf_read.h"

#include <ctype.h>
#include <errno.h>
#include <libxml/parser.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* libxml2 (2.9) initialises its parser lazily on a thread's first parse, and that
   initialisation is not reentrant: its documentation asks for one xmlInitParser call before
   threads use the library. Two threads loading their first worlds at once raced inside it
   (and a thread's error handler, set before its first parse, lives in state it creates). The
   loader's every parse goes through this object, so its initialisation runs once, before
   main (pthread_once also guards a later caller); xmlCleanupParser is left to the process's
   end, as libxml2 advises for a library. */
static pthread_once_t parser_once = PTHREAD_ONCE_INIT;

static void parser_init(void) { xmlInitParser(); }

__attribute__((constructor)) static void sdf_parser_init(void) { pthread_once(&parser_once, parser_init); }

/* What a stock Gazebo world carries that does not change impax's physics. */
static const char *const harmless[] = {
    "light", "scene", "gui", "plugin", "visual", "sensor", "audio_source", "audio_sink", "battery",
    "projector", "enable_wind", "allow_auto_disable", "must_be_base_link", "laser_retro", "real_time_factor",
    "real_time_update_rate", "magnetic_field", "atmosphere", "spherical_coordinates", "wind", "population",
    "road", "actor", "self_collide_model", "max_step_size_warning"};

static void emit(sdf_ctx *ctx, int is_error, const xmlNode *node, const char *fmt, va_list ap)
{
    char text[768], line[1024];
    vsnprintf(text, sizeof text, fmt, ap);
    snprintf(line, sizeof line, "%s:%ld: %s%s", ctx->path, node ? xmlGetLineNo(node) : 0L,
             is_error ? "" : "warning: ", text);
    if (ctx->report) ctx->report(ctx->user, is_error, line);
}

void sdf_error(sdf_ctx *ctx, const xmlNode *node, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    emit(ctx, 1, node, fmt, ap);
    va_end(ap);
    ctx->errors++;
}

void sdf_warn(sdf_ctx *ctx, const xmlNode *node, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    emit(ctx, 0, node, fmt, ap);
    va_end(ap);
}

int sdf_is(const xmlNode *node, const char *name)
{
    return node && node->type == XML_ELEMENT_NODE && !node->ns && strcmp((const char *)node->name, name) == 0;
}

int sdf_is_impax(const xmlNode *node, const char *name)
{
    return node && node->type == XML_ELEMENT_NODE && node->ns && node->ns->href &&
           strcmp((const char *)node->ns->href, IMPAX_SDF_NS) == 0 && strcmp((const char *)node->name, name) == 0;
}

static const xmlNode *element_from(const xmlNode *n)
{
    while (n && n->type != XML_ELEMENT_NODE) n = n->next;
    return n;
}

const xmlNode *sdf_first(const xmlNode *parent) { return element_from(parent->children); }
const xmlNode *sdf_next(const xmlNode *node) { return element_from(node->next); }

void sdf_unhandled(sdf_ctx *ctx, const xmlNode *node, const char *parent_name)
{
    const char *name = (const char *)node->name;
    if (node->ns && node->ns->href && strcmp((const char *)node->ns->href, IMPAX_SDF_NS) == 0) {
        sdf_error(ctx, node, "unknown impax extension <impax:%s> in <%s>", name, parent_name);
        return;
    }
    for (size_t i = 0; i < sizeof harmless / sizeof harmless[0]; i++) {
        if (strcmp(name, harmless[i]) != 0) continue;
        for (int w = 0; w < ctx->n_warned; w++)
            if (strcmp(ctx->warned[w], name) == 0) return;
        if (ctx->n_warned < 32) snprintf(ctx->warned[ctx->n_warned++], sizeof ctx->warned[0], "%s", name);
        sdf_warn(ctx, node, "<%s> ignored: it does not change the physics (further ones not reported)", name);
        return;
    }
    sdf_error(ctx, node, "<%s> in <%s> is not supported by impax (it would change the physics)", name, parent_name);
}

int sdf_doubles(sdf_ctx *ctx, const xmlNode *node, double *out, int n)
{
    xmlChar *text = xmlNodeGetContent(node);
    const char *s = text ? (const char *)text : "";
    int got = 0, ok = 1;
    while (ok) {
        while (isspace((unsigned char)*s)) s++;
        if (!*s) break;
        char *end;
        errno = 0;
        double v = strtod(s, &end);
        if (end == s || errno == ERANGE || !isfinite(v) || (*end && !isspace((unsigned char)*end))) ok = 0;
        else if (got < n) out[got] = v;
        got++;
        s = end;
    }
    if (!ok || got != n)
        sdf_error(ctx, node, "<%s> needs %d finite number%s, got '%s'", (const char *)node->name, n, n > 1 ? "s" : "",
                  text ? (const char *)text : "");
    xmlFree(text);
    return ok && got == n ? 0 : -1;
}

int sdf_double(sdf_ctx *ctx, const xmlNode *node, double *out) { return sdf_doubles(ctx, node, out, 1); }

int sdf_double_in(sdf_ctx *ctx, const xmlNode *node, double lo, double hi, double *out)
{
    double v;
    if (sdf_double(ctx, node, &v) != 0) return -1;
    if (v < lo || v > hi) {
        sdf_error(ctx, node, "<%s> must be in [%g, %g], got %g", (const char *)node->name, lo, hi, v);
        return -1;
    }
    *out = v;
    return 0;
}

int sdf_int_in(sdf_ctx *ctx, const xmlNode *node, int lo, int hi, int *out)
{
    double v;
    if (sdf_double(ctx, node, &v) != 0) return -1;
    if (v != floor(v) || v < lo || v > hi) {
        sdf_error(ctx, node, "<%s> must be an integer in [%d, %d], got %g", (const char *)node->name, lo, hi, v);
        return -1;
    }
    *out = (int)v;
    return 0;
}

int sdf_text(sdf_ctx *ctx, const xmlNode *node, char *buf, size_t size)
{
    xmlChar *text = xmlNodeGetContent(node);
    const char *s = text ? (const char *)text : "";
    while (isspace((unsigned char)*s)) s++;
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1])) n--;
    int ok = n < size;
    if (ok) {
        memcpy(buf, s, n);
        buf[n] = '\0';
    } else {
        sdf_error(ctx, node, "<%s> is longer than %zu characters", (const char *)node->name, size - 1);
    }
    xmlFree(text);
    return ok ? 0 : -1;
}

int sdf_bool(sdf_ctx *ctx, const xmlNode *node, int *out)
{
    char t[16];
    if (sdf_text(ctx, node, t, sizeof t) != 0) return -1;
    if (strcmp(t, "true") == 0 || strcmp(t, "1") == 0) *out = 1;
    else if (strcmp(t, "false") == 0 || strcmp(t, "0") == 0) *out = 0;
    else {
        sdf_error(ctx, node, "<%s> must be true, false, 1 or 0, got '%s'", (const char *)node->name, t);
        return -1;
    }
    return 0;
}

void sdf_attr(const xmlNode *node, const char *name, char *buf, size_t size)
{
    xmlChar *v = xmlGetProp(node, (const xmlChar *)name);
    snprintf(buf, size, "%s", v ? (const char *)v : "");
    xmlFree(v);
}

int sdf_pose(sdf_ctx *ctx, const xmlNode *node, ipx_pose *out)
{
    char frame[64];
    sdf_attr(node, "frame", frame, sizeof frame);
    if (frame[0]) {
        sdf_error(ctx, node, "<pose frame='%s'>: pose frames (SDF 1.7) are not supported; give the pose relative "
                  "to its parent element as SDF 1.6 does", frame);
        return -1;
    }
    double v[6];
    if (sdf_doubles(ctx, node, v, 6) != 0) return -1;
    *out = ipx_pose_from_xyzrpy(v);
    return 0;
}
