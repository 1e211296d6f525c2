#include "world_kit.h"

#include <stdio.h>

static void print_error(void *user, int is_error, const char *line)
{
    (void)user;
    if (is_error) printf("  %s\n", line);
}

ipx_scene *kit_world(const char *file, const char *body)
{
    FILE *f = fopen(file, "w");
    if (!f) return NULL;
    fprintf(f, "<?xml version='1.0'?>\n<sdf version='1.6' xmlns:impax='urn:impax:sdf:1'><world name='w'>\n%s\n"
               "</world></sdf>\n", body);
    fclose(f);
    return ipx_scene_load(file, print_error, NULL);
}

ipx_sim *kit_sim(const ipx_scene *scene, const char *model)
{
    char msg[256];
    ipx_sim *sim = scene ? ipx_sim_create(scene, model, NULL, msg, sizeof msg) : NULL;
    if (scene && !sim) printf("  ipx_sim_create under %s: %s\n", model, msg);
    return sim;
}
