/* Loading a world file into a scene, the scene's accessors, and its release. */
#include <errno.h>
#include <libxml/parser.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "impax/registry.h"
#include "sdf_parse.h"

void *sdf_append(sdf_load *ld, int which)
{
    ipx_scene *s = ld->scene;
    void **arrays[4] = {(void **)&s->models, (void **)&s->links, (void **)&s->collisions, (void **)&s->joints};
    int *counts[4] = {&s->n_models, &s->n_links, &s->n_collisions, &s->n_joints};
    const size_t sizes[4] = {sizeof(scene_model), sizeof(scene_link), sizeof(scene_collision), sizeof(scene_joint)};
    if (*counts[which] == ld->caps[which]) {
        int cap = ld->caps[which] ? 2 * ld->caps[which] : 8;
        void *grown = realloc(*arrays[which], (size_t)cap * sizes[which]);
        if (!grown) return sdf_out_of_memory(&ld->diag);
        *arrays[which] = grown;
        ld->caps[which] = cap;
    }
    char *slot = (char *)*arrays[which] + (size_t)(*counts[which])++ * sizes[which];
    memset(slot, 0, sizes[which]);
    return slot;
}

int sdf_find_link(const ipx_scene *s, const char *name)
{
    for (int i = 0; i < s->n_links; i++)
        if (strcmp(sdf_s(s->links[i].name), name) == 0) return i;
    return -1;
}

int sdf_find_model(const ipx_scene *s, const char *name)
{
    for (int i = 0; i < s->n_models; i++)
        if (strcmp(sdf_s(s->models[i].name), name) == 0) return i;
    return -1;
}

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
        snprintf(line, sizeof line, "%s:0: cannot open the file: %s", path, strerror(errno));
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
            snprintf(line, sizeof line, "%s:0: cannot read the file", path);
            report(user, 1, line);
        }
        xmlFreeDoc(doc);
        return NULL;
    }
    ld.scene = calloc(1, sizeof *ld.scene);
    if (ld.scene && (ld.scene->path = sdf_dup(&ld.diag, path)) != NULL) sdf_parse_world(&ld, xmlDocGetRootElement(doc));
    xmlFreeDoc(doc);
    if (!ld.scene || ld.diag.errors) {
        if ((!ld.scene || ld.diag.out_of_memory) && report) report(user, 1, "out of memory while loading the world");
        ipx_scene_free(ld.scene);
        return NULL;
    }
    return ld.scene;
}

void ipx_scene_free(ipx_scene *scene)
{
    if (!scene) return;
    for (int i = 0; i < scene->n_models; i++) free(scene->models[i].name);
    for (int i = 0; i < scene->n_links; i++) free(scene->links[i].name);
    for (int i = 0; i < scene->n_collisions; i++) free(scene->collisions[i].name);
    for (int i = 0; i < scene->n_joints; i++) free(scene->joints[i].name);
    free(scene->path);
    free(scene->name);
    free(scene->model);
    free(scene->params);
    free(scene->plot_body);
    free(scene->replay_body);
    free(scene->models);
    free(scene->links);
    free(scene->collisions);
    free(scene->joints);
    free(scene);
}

const char *ipx_scene_name(const ipx_scene *s) { return s->name; }
const char *ipx_scene_model(const ipx_scene *s) { return s->model; }
const char *ipx_scene_params(const ipx_scene *s) { return s->params ? s->params : ""; }
double ipx_scene_step_size(const ipx_scene *s) { return s->step_size; }
double ipx_scene_duration(const ipx_scene *s) { return s->duration; }

double ipx_scene_replay_length(const ipx_scene *s) { return s->replay_length; }

static const char *first_dynamic_link(const ipx_scene *s)
{
    for (int i = 0; i < s->n_links; i++)
        if (!s->links[i].is_static) return s->links[i].name;
    return NULL;
}

const char *ipx_scene_plot_body(const ipx_scene *s)
{
    return s->plot_body && s->plot_body[0] ? s->plot_body : first_dynamic_link(s);
}

const char *ipx_scene_replay_body(const ipx_scene *s)
{
    return s->replay_body && s->replay_body[0] ? s->replay_body : first_dynamic_link(s);
}
