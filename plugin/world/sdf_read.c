#include "sdf_read.h"

#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <libxml/parser.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "impax/registry.h"

/* libxml2 (2.9) initialises its parser lazily on a thread's first parse, and that
   initialisation is not reentrant: its documentation asks for one xmlInitParser call before
   threads use the library. Two threads loading their first worlds at once raced inside it
   (and a thread's error handler, set before its first parse, lives in state it creates). The
   loader's every parse goes through this object, so its initialisation runs once, before
   main (pthread_once also guards a later caller); xmlCleanupParser is left to the process's
   end, as libxml2 advises for a library. */
static pthread_once_t parser_once = PTHREAD_ONCE_INIT;

static void parser_init(void) { xmlInitParser(); }

__attribute__((constructor)) static void sdf_parser_init(void)
{
    pthread_once(&parser_once, parser_init);
}

/* "FILE:LINE: [warning: ]text", one printable line whatever the text quotes from the file. */
static void emit(sdf_ctx *ctx, int is_error, long line, const char *fmt, va_list ap)
{
    va_list again;
    va_copy(again, ap);
    const int n = vsnprintf(NULL, 0, fmt, ap);
    char *text = n >= 0 ? malloc((size_t)n + 1) : NULL;
    char *shown = text ? malloc(4 * (size_t)n + 1) : NULL; /* an escape is at most 4 bytes */
    if (shown) {
        vsnprintf(text, (size_t)n + 1, fmt, again);
        ipx_printable(text, (size_t)n, shown, 4 * (size_t)n + 1);
    }
    va_end(again);
    const char *body = shown ? shown : "(out of memory formatting the message)";
    const size_t size = strlen(ctx->path) + strlen(body) + 48;
    char *out = malloc(size);
    if (out)
        snprintf(out, size, "%s:%ld: %s%s", ctx->path, line, is_error ? "" : "warning: ", body);
    if (ctx->report) ctx->report(ctx->user, is_error, out ? out : body);
    free(out);
    free(shown);
    free(text);
}

static long line_of(const xmlNode *node) { return node ? xmlGetLineNo(node) : 0L; }

void sdf_error(sdf_ctx *ctx, const xmlNode *node, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    emit(ctx, 1, line_of(node), fmt, ap);
    va_end(ap);
    ctx->errors++;
}

void sdf_error_at(sdf_ctx *ctx, long line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    emit(ctx, 1, line, fmt, ap);
    va_end(ap);
    ctx->errors++;
}

void sdf_warn(sdf_ctx *ctx, const xmlNode *node, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    emit(ctx, 0, line_of(node), fmt, ap);
    va_end(ap);
}

void *sdf_out_of_memory(sdf_ctx *ctx)
{
    ctx->out_of_memory = 1;
    ctx->errors++;
    return NULL;
}

char *sdf_dup(sdf_ctx *ctx, const char *s)
{
    const size_t n = s ? strlen(s) : 0;
    char *copy = malloc(n + 1);
    if (!copy) return sdf_out_of_memory(ctx);
    if (n) memcpy(copy, s, n);
    copy[n] = '\0';
    return copy;
}

char *sdf_scoped(sdf_ctx *ctx, const char *prefix, const char *name)
{
    const size_t size = strlen(prefix) + strlen(name) + 3;
    char *out = malloc(size);
    if (!out) return sdf_out_of_memory(ctx);
    snprintf(out, size, "%s%s%s", prefix, prefix[0] ? "::" : "", name);
    return out;
}

const char *sdf_s(const char *s) { return s ? s : ""; }

int sdf_is(const xmlNode *node, const char *name)
{
    return node && node->type == XML_ELEMENT_NODE && !node->ns &&
           strcmp((const char *)node->name, name) == 0;
}

int sdf_is_impax(const xmlNode *node, const char *name)
{
    return node && node->type == XML_ELEMENT_NODE && node->ns && node->ns->href &&
           strcmp((const char *)node->ns->href, IMPAX_SDF_NS) == 0 &&
           strcmp((const char *)node->name, name) == 0;
}

static const xmlNode *element_from(const xmlNode *n)
{
    while (n && n->type != XML_ELEMENT_NODE) n = n->next;
    return n;
}

const xmlNode *sdf_first(const xmlNode *parent) { return element_from(parent->children); }
const xmlNode *sdf_next(const xmlNode *node) { return element_from(node->next); }

/* The text and CDATA children of node, joined by a blank where a comment or processing
   instruction stood between them (so that "0.<!-- -->5" is two tokens, never 0.5). NULL after an
   error: an element or entity among the children, or no memory. */
static char *own_text(sdf_ctx *ctx, const xmlNode *node)
{
    size_t size = 1;
    for (const xmlNode *c = node->children; c; c = c->next) {
        if (c->type == XML_TEXT_NODE || c->type == XML_CDATA_SECTION_NODE)
            size += strlen((const char *)c->content);
        else if (c->type == XML_COMMENT_NODE || c->type == XML_PI_NODE) size++;
        else {
            sdf_error(ctx, c, "<%s> holds %s%s%s: its value is its own text only",
                      (const char *)node->name,
                      c->type == XML_ELEMENT_NODE ? "the element <" : "the entity ",
                      (const char *)c->name, c->type == XML_ELEMENT_NODE ? ">" : "");
            return NULL;
        }
    }
    char *text = malloc(size);
    if (!text) return sdf_out_of_memory(ctx);
    size_t used = 0;
    for (const xmlNode *c = node->children; c; c = c->next) {
        const char *piece = c->type == XML_TEXT_NODE || c->type == XML_CDATA_SECTION_NODE
                                ? (const char *)c->content
                                : " ";
        const size_t n = strlen(piece);
        memcpy(text + used, piece, n);
        used += n;
    }
    text[used] = '\0';
    return text;
}

char *sdf_text_dup(sdf_ctx *ctx, const xmlNode *node)
{
    char *text = own_text(ctx, node);
    if (!text) return NULL;
    const char *s = text;
    while (isspace((unsigned char)*s)) s++;
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1])) n--;
    memmove(text, s, n);
    text[n] = '\0';
    return text;
}

/* One number of an element's text at *s, moving *s past it: 0, or 1 not a number, 2 underflow,
   3 overflow or not finite. */
static int one_number(const char **s, double *out)
{
    char *end;
    errno = 0;
    const double v = strtod(*s, &end);
    const int syntax = end == *s || (*end && !isspace((unsigned char)*end));
    const int range = errno == ERANGE;
    *s = end == *s ? *s + 1 : end;
    if (syntax) return 1;
    if (range && fabs(v) <= DBL_MIN) return 2;
    if (range || !isfinite(v)) return 3;
    *out = v;
    return 0;
}

int sdf_doubles(sdf_ctx *ctx, const xmlNode *node, double *out, int n)
{
    char *text = sdf_text_dup(ctx, node);
    if (!text) return -1;
    const char *s = text;
    int got = 0, why = 0;
    while (!why) {
        while (isspace((unsigned char)*s)) s++;
        if (!*s) break;
        double v = 0;
        why = one_number(&s, &v);
        if (!why && got < n) out[got] = v;
        got++;
    }
    const char *name = (const char *)node->name;
    if (why == 2)
        sdf_error(
            ctx, node,
            "<%s>: '%s' underflows (a nonzero magnitude below %g is not representable; write 0 "
            "if zero is meant)",
            name, text, DBL_MIN);
    else if (why == 3)
        sdf_error(ctx, node, "<%s>: '%s' overflows or is not finite (numbers must be finite)", name,
                  text);
    else if (why || got != n)
        sdf_error(ctx, node, "<%s> needs %d finite number%s, got '%s'", name, n, n > 1 ? "s" : "",
                  text);
    free(text);
    return !why && got == n ? 0 : -1;
}

int sdf_double(sdf_ctx *ctx, const xmlNode *node, double *out)
{
    return sdf_doubles(ctx, node, out, 1);
}

int sdf_double_in(sdf_ctx *ctx, const xmlNode *node, double lo, double hi, const char *unit,
                  double *out)
{
    double v;
    if (sdf_double(ctx, node, &v) != 0) return -1;
    if (v < lo || v > hi) {
        sdf_error(ctx, node, "<%s> must be in [%g, %g]%s%s, got %g", (const char *)node->name, lo,
                  hi, unit[0] ? " " : "", unit, v);
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
        sdf_error(ctx, node, "<%s> must be an integer in [%d, %d], got %g",
                  (const char *)node->name, lo, hi, v);
        return -1;
    }
    *out = (int)v;
    return 0;
}

int sdf_text(sdf_ctx *ctx, const xmlNode *node, char *buf, size_t size)
{
    char *text = sdf_text_dup(ctx, node);
    if (!text) return -1;
    const size_t n = strlen(text);
    if (n >= size) {
        sdf_error(ctx, node, "<%s> is longer than %zu characters", (const char *)node->name,
                  size - 1);
        free(text);
        return -1;
    }
    memcpy(buf, text, n + 1);
    free(text);
    return 0;
}

int sdf_bool(sdf_ctx *ctx, const xmlNode *node, int *out)
{
    char t[16];
    if (sdf_text(ctx, node, t, sizeof t) != 0) return -1;
    if (strcmp(t, "true") == 0 || strcmp(t, "1") == 0) *out = 1;
    else if (strcmp(t, "false") == 0 || strcmp(t, "0") == 0) *out = 0;
    else {
        sdf_error(ctx, node, "<%s> must be true, false, 1 or 0, got '%s'", (const char *)node->name,
                  t);
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

char *sdf_attr_dup(sdf_ctx *ctx, const xmlNode *node, const char *name)
{
    xmlChar *v = xmlGetProp(node, (const xmlChar *)name);
    char *copy = sdf_dup(ctx, v ? (const char *)v : "");
    xmlFree(v);
    return copy;
}

int sdf_pose(sdf_ctx *ctx, const xmlNode *node, ipx_pose *out)
{
    char frame[64];
    sdf_attr(node, "frame", frame, sizeof frame);
    if (frame[0]) {
        sdf_error(
            ctx, node,
            "<pose frame='%s'>: pose frames (SDF 1.7) are not supported; give the pose relative "
            "to its parent element as SDF 1.6 does",
            frame);
        return -1;
    }
    double v[6];
    if (sdf_doubles(ctx, node, v, 6) != 0) return -1;
    *out = ipx_pose_from_xyzrpy(v);
    return 0;
}
