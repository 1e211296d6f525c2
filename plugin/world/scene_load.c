/* Loading a world file into a scene: libxml2 reads the file (each syntax error reported as one
   line), then the SDF parsers fill the scene from its root (sdf_world.c). */
#include <errno.h>
#include <libxml/parser.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "impax/registry.h"
#include "sdf_parse.h"

/* libxml2's own syntax errors, each as FILE:LINE: message (the first one is the cause; a few of
   the follow-on ones are kept because they often name the unclosed element). */
enum { MAX_SYNTAX_ERRORS = 5 };

static void report_xml_error(void *user, const xmlError *e)
{
    sdf_ctx *ctx = user;
    if (ctx->errors++ >= MAX_SYNTAX_ERRORS || !e || !e->message) return;
    /* one printable line: libxml2 ends its messages with a newline and puts some on two lines
       ("Input is not proper UTF-8, indicate encoding !\nBytes: 0xAB ..."); a line break becomes
       a blank, anything else a control character is escaped */
    char text[600], shown[900], line[1024];
    size_t n = strlen(e->message);
    while (n && e->message[n - 1] == '\n') n--;
    if (n >= sizeof text) n = sizeof text - 1;
    memcpy(text, e->message, n);
    text[n] = '\0';
    for (char *c = text; (c = strchr(c, '\n')) != NULL;) *c = ' ';
    ipx_printable(text, n, shown, sizeof shown);
    snprintf(line, sizeof line, "%s:%d: XML syntax error: %s", ctx->path, e->line, shown);
    if (ctx->report) ctx->report(ctx->user, 1, line);
}

static void forward_xml_error(void *user, xmlErrorPtr e) { report_xml_error(user, e); }

ipx_scene *ipx_scene_load(const char *path, ipx_diag_fn report, void *user)
{
    sdf_load ld;
    memset(&ld, 0, sizeof ld);
    ld.diag.path = path;
    ld.diag.report = report;
    ld.diag.user = user;
    FILE *probe = fopen(path, "r");
    if (!probe) {
        char line[1100];
        snprintf(line, sizeof line, "cannot open %s: %s", path, strerror(errno));
        if (report) report(user, 1, line);
        return NULL;
    }
    fclose(probe);
    xmlSetStructuredErrorFunc(&ld.diag, forward_xml_error); /* libxml2 keeps it per thread */
    xmlDocPtr doc = xmlReadFile(path, NULL, XML_PARSE_BIG_LINES | XML_PARSE_NONET);
    xmlSetStructuredErrorFunc(NULL, NULL);
    if (!doc || ld.diag.errors) {
        if (!ld.diag.errors && report) {
            char line[1100];
            snprintf(line, sizeof line, "cannot read %s as XML", path);
            report(user, 1, line);
        }
        xmlFreeDoc(doc);
        return NULL;
    }
    ld.scene = calloc(1, sizeof *ld.scene);
    if (ld.scene && (ld.scene->path = sdf_dup(&ld.diag, path)) != NULL)
        sdf_parse_world(&ld, xmlDocGetRootElement(doc));
    xmlFreeDoc(doc);
    if (!ld.scene || ld.diag.errors) {
        if ((!ld.scene || ld.diag.out_of_memory) && report)
            report(user, 1, "out of memory while loading the world");
        ipx_scene_free(ld.scene);
        return NULL;
    }
    return ld.scene;
}
