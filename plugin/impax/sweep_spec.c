/* `impax sweep`'s spec as data: the recorded quantities' names and columns, its arrays grown and
   freed, a world's duration (sweep_load.c reads the file). */
#include "sweep_spec.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const quantity_names[SWEEP_QUANTITIES] = {
    "position",       "orientation",      "velocity",      "angular_velocity", "ke_change",
    "energy_change",  "impact_ke_change", "impact_events", "impact_contacts",  "fallbacks",
    "first_impact_t", "max_penetration",  "wall_s"};

const char *sweep_quantity_name(sweep_quantity q) { return quantity_names[q]; }

int sweep_record_columns(const sweep_record *r)
{
    switch (r->what) {
    case SWEEP_ORIENTATION: return 4;
    case SWEEP_POSITION:
    case SWEEP_VELOCITY:
    case SWEEP_ANGULAR_VELOCITY: return 3;
    case SWEEP_WALL_S: return 0;
    default: return 1;
    }
}

void sweep_record_column(const sweep_record *r, int c, char *name, size_t name_size)
{
    static const char *const suffix[][4] = {[SWEEP_POSITION] = {"x", "y", "z"},
                                            [SWEEP_ORIENTATION] = {"qw", "qx", "qy", "qz"},
                                            [SWEEP_VELOCITY] = {"vx", "vy", "vz"},
                                            [SWEEP_ANGULAR_VELOCITY] = {"wx", "wy", "wz"}};
    if (r->body[0]) snprintf(name, name_size, "%s.%s", r->body, suffix[r->what][c]);
    else snprintf(name, name_size, "%s", quantity_names[r->what]);
}

void *sweep_grow(void *array, size_t n, size_t elem, char *message, size_t message_size)
{
    void *grown = n <= SIZE_MAX / elem ? realloc(array, n ? n * elem : elem) : NULL;
    if (!grown) snprintf(message, message_size, "out of memory");
    return grown;
}

void sweep_spec_free(sweep_spec *spec)
{
    for (int i = 0; i < spec->n_worlds; i++) {
        free(spec->world[i].name);
        free(spec->world[i].path);
        ipx_scene_free(spec->world[i].scene);
    }
    for (int i = 0; i < spec->n_models; i++) free(spec->model[i].params);
    for (int i = 0; i < spec->n_axes; i++) {
        free(spec->axis[i].text);
        free(spec->axis[i].value);
    }
    free(spec->world);
    free(spec->model);
    free(spec->axis);
    free(spec->seed);
    free(spec->perturb);
    free(spec->record);
    free(spec->path);
    memset(spec, 0, sizeof *spec);
}

double sweep_duration(const sweep_spec *spec, int w)
{
    return spec->duration_s > 0 ? spec->duration_s : ipx_scene_duration(spec->world[w].scene);
}
