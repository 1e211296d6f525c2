/* The cube toss in MuJoCo (anchor.h): a model built from MJCF text, loaded with mj_loadXML from a
   virtual file. Everything MuJoCo 2.2.2 does by default is kept: the semi-implicit Euler
   integrator, the Newton solver, pyramidal friction cones, condim 3 (sliding friction only),
   solimp 0.9 0.95 0.001. The body's frame is the cube's (the one the tosses track), its centre
   of mass the scene's (<inertial pos>); what is fitted is the sliding friction and the
   contact's solref (timeconst, dampratio), set on both geoms so that MuJoCo's mixing of the two
   gives them, and if asked the cube's inertia (a factor on the scene's, as impax's
   inertia_scale). */
#include <math.h>
#include <mujoco/mujoco.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "anchor.h"

enum { MU, TIMECONST, DAMPRATIO, INERTIA };

typedef struct mujoco_world {
    mjModel *model;
    mjData *data;
} mujoco_world;

static const char mjcf_format[] =
    "<mujoco model=\"cube_toss\">\n"
    "  <option timestep=\"%.17g\" gravity=\"0 0 %.17g\"/>\n"
    "  <default><geom friction=\"%.17g 0.005 0.0001\" solref=\"%.17g %.17g\"/></default>\n"
    "  <worldbody>\n"
    "    <geom name=\"table\" type=\"plane\" size=\"4 4 0.1\"/>\n"
    "    <body name=\"cube\">\n"
    "      <freejoint/>\n"
    "      <inertial pos=\"%.17g %.17g %.17g\" mass=\"%.17g\" diaginertia=\"%.17g %.17g %.17g\"/>\n"
    "      <geom name=\"cube\" type=\"box\" size=\"%.17g %.17g %.17g\"/>\n"
    "    </body>\n"
    "  </worldbody>\n"
    "</mujoco>\n";

/* mj_loadXML on text, through a virtual file system (2 MB: on the heap). */
static mjModel *load_text(const char *text, char *message, size_t message_size)
{
    static const char name[] = "cube_toss.xml";
    mjVFS *vfs = malloc(sizeof *vfs);
    if (!vfs) {
        snprintf(message, message_size, "out of memory for MuJoCo's virtual file system");
        return NULL;
    }
    mj_defaultVFS(vfs);
    const int size = (int)strlen(text);
    mjModel *model = NULL;
    char error[512] = "";
    if (mj_makeEmptyFileVFS(vfs, name, size) != 0) {
        snprintf(message, message_size, "MuJoCo's virtual file system refused the model file");
    } else {
        memcpy(vfs->filedata[mj_findFileVFS(vfs, name)], text, (size_t)size);
        model = mj_loadXML(name, vfs, error, sizeof error);
        if (!model) snprintf(message, message_size, "MuJoCo rejected the model: %s", error);
    }
    mj_deleteVFS(vfs);
    free(vfs);
    return model;
}

static void *mujoco_create(const anchor_scene *scene, const double *values, char *message,
                           size_t message_size)
{
    char text[2048];
    const double half_m = 0.5 * scene->edge_m, inertia = scene->inertia_kgm2 * values[INERTIA];
    snprintf(text, sizeof text, mjcf_format, scene->step_s, -scene->gravity_mps2, values[MU],
             values[TIMECONST], values[DAMPRATIO], scene->com_m[0], scene->com_m[1],
             scene->com_m[2], scene->mass_kg, inertia, inertia, inertia, half_m, half_m, half_m);
    mujoco_world *w = calloc(1, sizeof *w);
    if (!w) {
        snprintf(message, message_size, "out of memory");
        return NULL;
    }
    w->model = load_text(text, message, message_size);
    if (w->model && !(w->data = mj_makeData(w->model)))
        snprintf(message, message_size, "MuJoCo could not allocate its data");
    if (!w->data) {
        if (w->model) mj_deleteModel(w->model);
        free(w);
        return NULL;
    }
    return w;
}

static int mujoco_start(void *world, const cli_sample *s, char *message, size_t message_size)
{
    mujoco_world *w = world;
    const double norm =
        sqrt(s->q[0] * s->q[0] + s->q[1] * s->q[1] + s->q[2] * s->q[2] + s->q[3] * s->q[3]);
    if (!(norm > 0)) {
        snprintf(message, message_size, "the first sample's quaternion is zero");
        return -1;
    }
    mj_resetData(w->model, w->data);
    /* the free joint: qpos = position, quaternion w x y z; qvel = linear velocity (world frame),
       angular velocity (body frame), as the recording has them */
    for (int i = 0; i < 3; i++) {
        w->data->qpos[i] = s->x_m[i];
        w->data->qvel[i] = s->v_mps[i];
        w->data->qvel[3 + i] = s->w_body_radps[i];
    }
    for (int i = 0; i < 4; i++) w->data->qpos[3 + i] = s->q[i] / norm;
    mj_forward(w->model, w->data);
    return 0;
}

static void mujoco_step(void *world)
{
    mujoco_world *w = world;
    mj_step(w->model, w->data);
}

static int mujoco_state(void *world, cli_sample *s, char *message, size_t message_size)
{
    const mujoco_world *w = world;
    /* MuJoCo resets the data to the model's initial state when its accelerations go bad: that
       is a failed replay, not a cube back at the origin */
    if (w->data->warning[mjWARN_BADQACC].number > 0) {
        snprintf(message, message_size, "MuJoCo reset a diverging simulation (bad qacc)");
        return -1;
    }
    for (int i = 0; i < 3; i++) {
        s->x_m[i] = w->data->qpos[i];
        s->v_mps[i] = w->data->qvel[i];
        s->w_body_radps[i] = w->data->qvel[3 + i];
    }
    for (int i = 0; i < 4; i++) s->q[i] = w->data->qpos[3 + i];
    return 0;
}

static void mujoco_destroy(void *world)
{
    mujoco_world *w = world;
    if (!w) return;
    mj_deleteData(w->data);
    mj_deleteModel(w->model);
    free(w);
}

/* Bounds: friction as impax's fits bound mu; the time constant from twice the step of the
   scene (1/1480 s: MuJoCo clamps a stiffer one to that) to 0.1 s, the damping ratio from 0.1
   (bouncy) to 2 (overdamped). The fit starts from the middle of mu's bounds, as impax's fits of
   mu do, and at MuJoCo's own solref defaults (0.02 s, 1), as impax's start at a model's
   defaults; the inertia's factor within impax's bounds for inertia_scale, from 1. (A first
   bound of 0.002 s held the fit: it stopped there.) */
const anchor_sim anchor_mujoco = {
    .name = "mujoco",
    .display = "MuJoCo",
    .version = mj_versionString,
    .n_params = 4,
    .n_default = 3,
    .params = {{"mu", "", 0.0, 1.0, 0.5, 1.0},
               {"timeconst", "s", 2.0 / 1480, 0.1, 0.02, 0.02},
               {"dampratio", "", 0.1, 2.0, 1.0, 1.0},
               {"inertia_scale", "", 0.5, 2.0, 1.0, 1.0}},
    .create = mujoco_create,
    .start = mujoco_start,
    .step = mujoco_step,
    .state = mujoco_state,
    .destroy = mujoco_destroy,
};
