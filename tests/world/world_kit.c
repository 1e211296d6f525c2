#include "world_kit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void print_error(void *user, int is_error, const char *line)
{
    (void)user;
    if (is_error) printf("  %s\n", line);
}

ipx_scene *kit_load(const char *file, const char *text, ipx_diag_fn report, void *user)
{
    FILE *f = fopen(file, "w");
    if (!f) return NULL;
    fputs(text, f);
    fclose(f);
    return ipx_scene_load(file, report ? report : print_error, user);
}

ipx_scene *kit_world(const char *file, const char *body)
{
    static const char head[] =
        "<?xml version='1.0'?>\n<sdf version='1.6' xmlns:impax='urn:impax:sdf:1'>"
        "<world name='w'>\n",
                      tail[] = "\n</world></sdf>\n";
    const size_t size = sizeof head + strlen(body) + sizeof tail;
    char *text = malloc(size);
    if (!text) return NULL;
    snprintf(text, size, "%s%s%s", head, body, tail);
    ipx_scene *scene = kit_load(file, text, NULL, NULL);
    free(text);
    return scene;
}

ipx_sim *kit_sim(const ipx_scene *scene, const char *model)
{
    char msg[256];
    ipx_sim *sim = scene ? ipx_sim_create(scene, model, NULL, msg, sizeof msg) : NULL;
    if (scene && !sim) printf("  ipx_sim_create under %s: %s\n", model, msg);
    return sim;
}
