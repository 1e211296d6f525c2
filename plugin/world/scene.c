/* The scene: its arrays grown while the SDF parsers fill them, its links and models found by
   name, its accessors and its release (scene_load.c loads a world file into it). */
#include <stdlib.h>
#include <string.h>

#include "sdf_parse.h"

void *sdf_append(sdf_load *ld, int which)
{
    ipx_scene *s = ld->scene;
    void **arrays[4] = {(void **)&s->models, (void **)&s->links, (void **)&s->collisions,
                        (void **)&s->joints};
    int *counts[4] = {&s->n_models, &s->n_links, &s->n_collisions, &s->n_joints};
    const size_t sizes[4] = {sizeof(scene_model), sizeof(scene_link), sizeof(scene_collision),
                             sizeof(scene_joint)};
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

void ipx_scene_replay_inertial(const ipx_scene *s, double com_m[3], double R[9])
{
    const char *name = ipx_scene_replay_body(s);
    const int link = name ? sdf_find_link(s, name) : -1;
    ipx_pose rel = ipx_pose_identity();
    if (link >= 0) {
        const ipx_pose to_link = ipx_pose_inverse(&s->links[link].pose);
        rel = ipx_pose_compose(&to_link, &s->links[link].inertial);
    }
    memcpy(com_m, rel.p, sizeof rel.p);
    memcpy(R, rel.R, sizeof rel.R);
}

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

void ipx_scene_replay_gravity(const ipx_scene *s, double g_mps2[3])
{
    const char *name = ipx_scene_replay_body(s);
    const int link = name ? sdf_find_link(s, name) : -1;
    for (int i = 0; i < 3; i++)
        g_mps2[i] = link >= 0 && s->links[link].gravity ? s->gravity[i] : 0.0;
}
