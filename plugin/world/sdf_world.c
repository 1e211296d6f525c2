/* <sdf>, <world>, <physics> and the world-level impax: extensions. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "impax/registry.h"
#include "ranges.h"
#include "sdf_parse.h"

/* SDF 1.6 defaults (physics.sdf, world.sdf) and impax's own. */
static void scene_defaults(ipx_scene *s)
{
    s->gravity[2] = -9.8;
    s->step_size = 0.001;
    s->quick = 1; /* <solver><type> default "quick" */
    s->iters = 50;
    s->sor = 1.3;
    s->cfm = 0.0;
    s->erp = 0.2;
    s->max_correcting_vel = 100.0;
    s->surface_layer = 0.001;
    s->max_contacts = 20;
    s->duration = 2.0;
    s->replay_length = 1.0;
}

/* Options of Gazebo's ODE fork: accepted at the values that are plain ODE 0.16. */
static void parse_gazebo_solver_option(sdf_load *ld, const xmlNode *node)
{
    if (sdf_is(node, "use_dynamic_moi_rescaling")) {
        int on = 0;
        if (sdf_bool(&ld->diag, node, &on) == 0 && on)
            sdf_error(
                &ld->diag, node,
                "<use_dynamic_moi_rescaling> true is not supported: it is Gazebo's ODE fork's "
                "(ODE 0.16 has no inertia rescaling)");
        return;
    }
    char model[32];
    if (sdf_text(&ld->diag, node, model, sizeof model) == 0 && strcmp(model, "pyramid_model") != 0)
        sdf_error(&ld->diag, node,
                  "<friction_model> '%s' is not supported: ODE 0.16 has the pyramid_model only "
                  "(cone_model and box_model are Gazebo's ODE fork's)",
                  model);
}

static void parse_solver(sdf_load *ld, const xmlNode *node)
{
    ipx_scene *s = ld->scene;
    for (const xmlNode *c = sdf_first(node); c; c = sdf_next(c)) {
        if (sdf_is(c, "type")) {
            char t[16];
            if (sdf_text(&ld->diag, c, t, sizeof t) != 0) continue;
            if (strcmp(t, "quick") == 0) s->quick = 1;
            else if (strcmp(t, "world") == 0) s->quick = 0;
            else
                sdf_error(&ld->diag, c, "<type> of the ODE solver must be quick or world, got '%s'",
                          t);
        } else if (sdf_is(c, "iters")) {
            sdf_int_in(&ld->diag, c, 1, 100000, &s->iters);
        } else if (sdf_is(c, "sor")) {
            sdf_double_in(&ld->diag, c, 1e-6, 2.0, "", &s->sor);
        } else if (sdf_is(c, "use_dynamic_moi_rescaling") || sdf_is(c, "friction_model")) {
            parse_gazebo_solver_option(ld, c);
        } else if (!sdf_is(c, "min_step_size") && !sdf_is(c, "precon_iters") &&
                   !sdf_is(c, "island_threads") &&
                   !sdf_is(c, "thread_position_correction")) { /* step control and threading only */
            sdf_unhandled(&ld->diag, c);
        }
    }
}

static void parse_constraints(sdf_load *ld, const xmlNode *node)
{
    ipx_scene *s = ld->scene;
    for (const xmlNode *c = sdf_first(node); c; c = sdf_next(c)) {
        if (sdf_is(c, "cfm")) sdf_double_in(&ld->diag, c, 0.0, 1e9, "", &s->cfm);
        else if (sdf_is(c, "erp")) sdf_double_in(&ld->diag, c, 0.0, 1.0, "", &s->erp);
        else if (sdf_is(c, "contact_max_correcting_vel"))
            sdf_double_in(&ld->diag, c, 0.0, INFINITY, "m/s", &s->max_correcting_vel);
        else if (sdf_is(c, "contact_surface_layer"))
            sdf_double_in(&ld->diag, c, 0.0, 1.0, "m", &s->surface_layer);
        else sdf_unhandled(&ld->diag, c);
    }
}

static void parse_physics(sdf_load *ld, const xmlNode *node)
{
    char type[32];
    sdf_attr(node, "type", type, sizeof type);
    if (type[0] && strcmp(type, "ode") != 0) {
        sdf_error(&ld->diag, node, "<physics type='%s'>: impax runs ODE only (type='ode')", type);
        return;
    }
    ipx_scene *s = ld->scene;
    for (const xmlNode *c = sdf_first(node); c; c = sdf_next(c)) {
        if (sdf_is(c, "max_step_size")) {
            sdf_double_in(&ld->diag, c, 1e-7, 1.0, "s", &s->step_size);
        } else if (sdf_is(c, "max_contacts")) {
            sdf_int_in(&ld->diag, c, 1, 10000, &s->max_contacts);
        } else if (sdf_is(c, "ode")) {
            for (const xmlNode *o = sdf_first(c); o; o = sdf_next(o)) {
                if (sdf_is(o, "solver")) parse_solver(ld, o);
                else if (sdf_is(o, "constraints")) parse_constraints(ld, o);
                else sdf_unhandled(&ld->diag, o);
            }
        } else {
            sdf_unhandled(&ld->diag, c);
        }
    }
}

static void parse_impact(sdf_load *ld, const xmlNode *node)
{
    ipx_scene *s = ld->scene;
    for (const xmlNode *c = sdf_first(node); c; c = sdf_next(c)) {
        if (sdf_is_impax(c, "model")) {
            free(s->model);
            s->model = sdf_text_dup(&ld->diag, c);
            if (s->model && strcmp(s->model, "ode") != 0 && !ipx_model_find(s->model)) {
                char names[256];
                ipx_model_names(names, sizeof names);
                sdf_error(&ld->diag, c, "unknown impact model '%s' (accepted: ode, %s)", s->model,
                          names);
            }
        } else if (sdf_is_impax(c, "params")) {
            free(s->params);
            s->params = sdf_text_dup(&ld->diag, c);
            s->params_line = (int)xmlGetLineNo(c);
        } else {
            sdf_unhandled(&ld->diag, c);
        }
    }
}

/* <impax:replay>: the body recorded trajectories describe and the length errors are measured in. */
static const xmlNode *parse_replay(sdf_load *ld, const xmlNode *node)
{
    ipx_scene *s = ld->scene;
    const xmlNode *body = NULL;
    for (const xmlNode *c = sdf_first(node); c; c = sdf_next(c)) {
        if (sdf_is_impax(c, "body")) {
            free(s->replay_body);
            if ((s->replay_body = sdf_text_dup(&ld->diag, c)) != NULL) body = c;
        } else if (sdf_is_impax(c, "length")) {
            double v;
            if (sdf_double(&ld->diag, c, &v) != 0) continue;
            if (!(v > 0))
                sdf_error(&ld->diag, c, "<impax:length> of <impax:replay> must be > 0 m, got %g",
                          v);
            else s->replay_length = v;
        } else {
            sdf_unhandled(&ld->diag, c);
        }
    }
    return body;
}

/* <include>: Gazebo's sun is harmless; any other model would have to be resolved. */
static void parse_include(sdf_load *ld, const xmlNode *node)
{
    char *uri = NULL;
    for (const xmlNode *c = sdf_first(node); c; c = sdf_next(c))
        if (sdf_is(c, "uri")) {
            free(uri);
            uri = sdf_text_dup(&ld->diag, c);
        }
    if (uri && strcmp(uri, "model://sun") == 0)
        sdf_warn(&ld->diag, node,
                 "<include> of model://sun ignored: a light does not change the physics");
    else
        sdf_error(&ld->diag, node,
                  "<include> of '%s' is not supported: impax does not search Gazebo's model path; "
                  "write the model into the world file",
                  sdf_s(uri));
    free(uri);
}

/* The elements read once every model is: the impax: ones that name a link, and the state. */
typedef struct deferred {
    const xmlNode *plot_body, *replay_body, *state;
} deferred;

/* <gravity>: at most RANGE_GRAVITY in magnitude. */
static void parse_gravity(sdf_load *ld, const xmlNode *node)
{
    double g[3];
    if (sdf_doubles(&ld->diag, node, g, 3) != 0) return;
    const double norm = ipx_vec3_norm(g);
    if (norm > RANGE_GRAVITY)
        sdf_error(&ld->diag, node,
                  "<gravity> of magnitude %g m/s^2 is out of range: at most %g m/s^2", norm,
                  RANGE_GRAVITY);
    else memcpy(ld->scene->gravity, g, sizeof g);
}

static void parse_world_children(sdf_load *ld, const xmlNode *world, deferred *later)
{
    ipx_scene *s = ld->scene;
    const sdf_scope top = {"", ipx_pose_identity(), -1, 0, 0};
    for (const xmlNode *c = sdf_first(world); c; c = sdf_next(c)) {
        if (sdf_is(c, "gravity")) parse_gravity(ld, c);
        else if (sdf_is(c, "physics")) parse_physics(ld, c);
        else if (sdf_is(c, "model")) sdf_parse_model(ld, c, &top);
        else if (sdf_is(c, "include")) parse_include(ld, c);
        else if (sdf_is(c, "state") && !later->state) later->state = c;
        else if (sdf_is(c, "state"))
            sdf_warn(&ld->diag, c, "a second <state> ignored (Gazebo applies the first)");
        else if (sdf_is_impax(c, "impact")) parse_impact(ld, c);
        else if (sdf_is_impax(c, "duration"))
            sdf_double_in(&ld->diag, c, 1e-6, 1e6, "s", &s->duration);
        else if (sdf_is_impax(c, "replay")) later->replay_body = parse_replay(ld, c);
        else if (sdf_is_impax(c, "plot_body")) {
            free(s->plot_body);
            if ((s->plot_body = sdf_text_dup(&ld->diag, c)) != NULL) later->plot_body = c;
        } else sdf_unhandled(&ld->diag, c);
    }
}

/* The world's <impax:model> with its <impax:params> must make a simulation: the same
   configuration ipx_sim_create makes (model parameters, adapter keys, contact keys), so that
   `check` accepts exactly what `run` does. */
static void check_configuration(sdf_load *ld)
{
    const ipx_scene *s = ld->scene;
    if (!s->params || !s->params[0]) return;
    if (s->model && strcmp(s->model, "ode") != 0 && !ipx_model_find(s->model))
        return; /* reported */
    char message[512];
    if (ipx_scene_check_config(s, NULL, NULL, message, sizeof message) != 0)
        sdf_error_at(&ld->diag, s->params_line, "<impax:params> for model %s: %s",
                     s->model ? s->model : "plus", message);
}

/* node's text, name, must be a link of a non-static model. */
static void check_dynamic_link(sdf_load *ld, const xmlNode *node, const char *name)
{
    ipx_scene *s = ld->scene;
    if (!node || !name || !name[0]) return;
    for (int i = 0; i < s->n_links; i++)
        if (strcmp(sdf_s(s->links[i].name), name) == 0 && !s->links[i].is_static) return;
    sdf_error(&ld->diag, node,
              "<impax:%s> '%s' is not a link of a non-static model (write model::link)",
              (const char *)node->name, name);
}

int sdf_parse_world(sdf_load *ld, const xmlNode *root)
{
    scene_defaults(ld->scene);
    if (!sdf_is(root, "sdf")) {
        sdf_error(&ld->diag, root, "the root element must be <sdf>, not <%s>",
                  (const char *)root->name);
        return -1;
    }
    char version[16];
    sdf_attr(root, "version", version, sizeof version);
    if (strcmp(version, "1.6") != 0 && strcmp(version, "1.5") != 0 && strcmp(version, "1.4") != 0)
        sdf_error(&ld->diag, root,
                  "<sdf version='%s'>: impax reads SDF 1.4 to 1.6 (1.7 changed pose frames)",
                  version);
    const xmlNode *world = NULL;
    for (const xmlNode *c = sdf_first(root); c; c = sdf_next(c)) {
        if (sdf_is(c, "world") && !world) world = c;
        else if (sdf_is(c, "world"))
            sdf_error(&ld->diag, c, "a second <world>: one world per file");
        else sdf_unhandled(&ld->diag, c);
    }
    if (!world) {
        sdf_error(&ld->diag, root, "no <world> in <sdf>");
        return -1;
    }
    char *name = sdf_attr_dup(&ld->diag, world, "name");
    ld->scene->name = name && name[0] ? name : sdf_dup(&ld->diag, "world");
    if (ld->scene->name != name) free(name);
    deferred later = {NULL, NULL, NULL};
    parse_world_children(ld, world, &later);
    if (later.state) sdf_parse_state(ld, later.state);
    sdf_check_scene(ld);
    check_dynamic_link(ld, later.plot_body, ld->scene->plot_body);
    check_dynamic_link(ld, later.replay_body, ld->scene->replay_body);
    check_configuration(ld);
    return ld->diag.errors ? -1 : 0;
}
