/* A simulation of a scene: creation with the impax model, the host step, and what the command
   reads back (bodies, energies, penetration, impact steps). */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ranges.h"
#include "sim_internal.h"

/* NULL model: the scene's (impax:model, else plus); NULL params: the scene's when the model is
   the scene's. The contact keys go to every contact surface, the body key to the replay body,
   the rest to the model. */
static int configure(ipx_ode_context *ctx, contact_override *contact, body_override *body,
                     const ipx_scene *s, const char *model, const char *params, char *message,
                     size_t message_size)
{
    const char *scene_model = s->model ? s->model : "plus";
    if (!model) model = scene_model;
    if (!params) params = strcmp(model, scene_model) == 0 && s->params ? s->params : "";
    char other_params[1024], model_params[1024];
    if (contact_params_split(params, contact, other_params, sizeof other_params, message,
                             message_size) != 0 ||
        body_params_split(other_params, body, model_params, sizeof model_params, message,
                          message_size) != 0)
        return -1;
    if (body->set && !ipx_scene_replay_body(s)) {
        snprintf(message, message_size, "inertia_scale: world '%s' has no moving link to scale",
                 ipx_scene_name(s));
        return -1;
    }
    return ipx_ode_configure(ctx, model, model_params, message, message_size);
}

/* ODE counts dInitODE2/dCloseODE pairs in a plain global: two threads making their first
   simulation (or checking two worlds) at once raced on it, and ODE asserted in dInitColliders
   ("!colliders_initialized"). One lock for the whole process around both. */
static pthread_mutex_t ode_init_lock = PTHREAD_MUTEX_INITIALIZER;

static void ode_open(void)
{
    pthread_mutex_lock(&ode_init_lock);
    dInitODE2(0);
    pthread_mutex_unlock(&ode_init_lock);
}

static void ode_close(void)
{
    pthread_mutex_lock(&ode_init_lock);
    dCloseODE();
    pthread_mutex_unlock(&ode_init_lock);
}

int ipx_scene_check_config(const ipx_scene *scene, const char *model, const char *params,
                           char *message, size_t message_size)
{
    ode_open();
    dWorldID world = dWorldCreate();
    ipx_ode_context *ctx = ipx_ode_create(world);
    contact_override contact;
    body_override body;
    int rc = -1;
    if (!ctx) snprintf(message, message_size, "out of memory");
    else rc = configure(ctx, &contact, &body, scene, model, params, message, message_size);
    ipx_ode_destroy(ctx);
    dWorldDestroy(world);
    ode_close();
    return rc;
}

ipx_sim *ipx_sim_create(const ipx_scene *scene, const char *model, const char *params,
                        char *message, size_t message_size)
{
    ipx_sim *sim = calloc(1, sizeof *sim);
    if (!sim) {
        snprintf(message, message_size, "out of memory");
        return NULL;
    }
    ode_open();
    /* QuickStep reorders its rows by ODE's one global generator: from the same seed for every
       simulation, a model's run does not depend on what ran before it in the process (impax
       ab's models, in any order, each as alone). Simulations stepped at once in threads still
       share the generator. */
    dRandSetSeed(IPX_SIM_ODE_SEED);
    sim->scene = scene;
    sim->world = dWorldCreate();
    sim->space = dHashSpaceCreate(0);
    sim->contacts = dJointGroupCreate(0);
    sim->ipx = ipx_ode_create(sim->world);
    if (!sim->ipx) snprintf(message, message_size, "out of memory");
    if (!sim->ipx ||
        configure(sim->ipx, &sim->contact, &sim->body_keys, scene, model, params, message,
                  message_size) != 0 ||
        ipx_sim_build(sim, message, message_size) != 0) {
        ipx_sim_destroy(sim);
        return NULL;
    }
    const char *replay = ipx_scene_replay_body(scene);
    const int b = replay ? ipx_sim_body_index(sim, replay) : -1;
    if (b >= 0) body_params_apply(&sim->body_keys, sim->body[b]);
    return sim;
}

void ipx_sim_destroy(ipx_sim *sim)
{
    if (!sim) return;
    if (sim->ipx) {
        ipx_ode_empty_group(sim->ipx, sim->contacts);
        ipx_ode_destroy(sim->ipx);
    }
    dJointGroupDestroy(sim->contacts);
    dSpaceDestroy(sim->space); /* destroys its geoms */
    dWorldDestroy(sim->world); /* and its bodies and joints */
    free(sim->body);
    free(sim->body_link);
    free(sim->link_body);
    free(sim->geom);
    free(sim);
    ode_close();
}

/* Every body finite, within RANGE_RUN_POSITION of the origin (ODE's hash space turns a geom's
   AABB, in cells of 1/8 m, into ints: it asserts beyond about 2.7e8 m) and slower than
   RANGE_RUN_SPEED; else the message names the body and what left the range. */
static int bodies_in_range(const ipx_sim *sim, char *message, size_t message_size)
{
    for (int b = 0; b < sim->n_bodies; b++) {
        const dReal *x = dBodyGetPosition(sim->body[b]), *v = dBodyGetLinearVel(sim->body[b]),
                    *w = dBodyGetAngularVel(sim->body[b]);
        const double p[3] = {x[0], x[1], x[2]}, lin[3] = {v[0], v[1], v[2]},
                     ang[3] = {w[0], w[1], w[2]};
        const double far = ipx_vec3_norm(p), fast = fmax(ipx_vec3_norm(lin), ipx_vec3_norm(ang));
        const char *name = sim->scene->links[sim->body_link[b]].name;
        if (!isfinite(far) || !isfinite(fast)) {
            snprintf(message, message_size, "the state of body '%s' is no longer finite", name);
            return 0;
        }
        if (far > RANGE_RUN_POSITION || fast > RANGE_RUN_SPEED) {
            snprintf(message, message_size,
                     "body '%s' left the range ODE can simulate: %g m from the origin, "
                     "%g m/s or rad/s (at most %g m and %g m/s or rad/s)",
                     name, far, fast, RANGE_RUN_POSITION, RANGE_RUN_SPEED);
            return 0;
        }
    }
    return 1;
}

int ipx_sim_step(ipx_sim *sim, char *message, size_t message_size)
{
    const double h = sim->scene->step_size;
    ipx_sim_collide(sim);
    int ok = sim->scene->quick ? ipx_ode_quick_step(sim->ipx, h) : ipx_ode_step(sim->ipx, h);
    ipx_ode_empty_group(sim->ipx, sim->contacts);
    sim->time += h;
    if (!ok) {
        snprintf(message, message_size, "ODE's %s failed (out of memory)",
                 sim->scene->quick ? "dWorldQuickStep" : "dWorldStep");
        return -1;
    }
    return bodies_in_range(sim, message, message_size) ? 0 : -1;
}

double ipx_sim_time(const ipx_sim *sim) { return sim->time; }
int ipx_sim_body_count(const ipx_sim *sim) { return sim->n_bodies; }
const char *ipx_sim_body_name(const ipx_sim *sim, int i)
{
    return sim->scene->links[sim->body_link[i]].name;
}
dBodyID ipx_sim_body(const ipx_sim *sim, int i) { return sim->body[i]; }
double ipx_sim_penetration(const ipx_sim *sim) { return sim->penetration; }
int ipx_sim_had_impact(const ipx_sim *sim) { return sim->had_impact; }
ipx_ode_context *ipx_sim_impax(ipx_sim *sim) { return sim->ipx; }
dWorldID ipx_sim_world(ipx_sim *sim) { return sim->world; }

int ipx_sim_body_index(const ipx_sim *sim, const char *name)
{
    for (int b = 0; b < sim->n_bodies; b++)
        if (strcmp(ipx_sim_body_name(sim, b), name) == 0) return b;
    return -1;
}

/* J: 1/2 m v.v + 1/2 w.(R I R^T) w of one body. */
static double body_kinetic(dBodyID b)
{
    dMass m;
    dBodyGetMass(b, &m);
    const dReal *v = dBodyGetLinearVel(b), *w = dBodyGetAngularVel(b), *R = dBodyGetRotation(b);
    double wb[3], rot = 0; /* w in the body frame: R^T w */
    for (int i = 0; i < 3; i++) wb[i] = R[i] * w[0] + R[4 + i] * w[1] + R[8 + i] * w[2];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) rot += wb[i] * m.I[4 * i + j] * wb[j];
    return 0.5 * (m.mass * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]) + rot);
}

/* Kinematic bodies are driven, not part of the system: their energy is not counted. */
double ipx_sim_kinetic_energy(const ipx_sim *sim)
{
    double T = 0;
    for (int b = 0; b < sim->n_bodies; b++)
        if (!dBodyIsKinematic(sim->body[b])) T += body_kinetic(sim->body[b]);
    return T;
}

double ipx_sim_energy(const ipx_sim *sim)
{
    double E = ipx_sim_kinetic_energy(sim);
    const double *g = sim->scene->gravity;
    for (int b = 0; b < sim->n_bodies; b++) {
        if (!dBodyGetGravityMode(sim->body[b]) || dBodyIsKinematic(sim->body[b])) continue;
        dMass m;
        dBodyGetMass(sim->body[b], &m);
        const dReal *x = dBodyGetPosition(sim->body[b]);
        E -= m.mass * (g[0] * x[0] + g[1] * x[1] + g[2] * x[2]);
    }
    return E;
}
