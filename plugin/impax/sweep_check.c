/* `impax sweep`'s spec checked before anything runs: every key and value against every model
   (a contact key, an adapter key, or the model's parameter in its range), every world under
   every model, every body named somewhere. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "impax/registry.h"
#include "cli.h"
#include "sweep_jobs.h"

static const char other_keys[] = "not a contact key (mu, e, bounce_vel, rolling, spinning), the "
                                 "body key inertia_scale, an adapter key "
                                 "(recovery, recovery_speed, "
                                 "impact_threshold, gravity_steps, jitter_steps, accuracy_steps)";

/* key = value for model. 0, or -1 with a message. */
static int check_item(const char *model, const char *key, const char *value, char *message,
                      size_t message_size)
{
    double lo, hi;
    if (ipx_contact_param_range(key, &lo, &hi) || ipx_body_param_range(key, &lo, &hi)) {
        char *end;
        const double v = strtod(value, &end);
        if (end == value || *end != '\0' || !isfinite(v) || v < lo || v > hi) {
            snprintf(message, message_size, "%.64s = %.64s is outside its range [%g, %g]", key,
                     value, lo, hi);
            return -1;
        }
        return 0;
    }
    char text[256], rest[256];
    snprintf(text, sizeof text, "%.64s=%.160s", key, value);
    ipx_ode_config config = ipx_ode_default_config();
    if (ipx_ode_split_params(text, &config, rest, sizeof rest, message, message_size) != 0)
        return -1;
    if (!rest[0]) return 0; /* the adapter's */
    const ipx_model *m = strcmp(model, "ode") == 0 ? NULL : ipx_model_find(model);
    if (!m) {
        snprintf(message, message_size,
                 "unknown key '%.64s': %s nor a parameter of model ode (it has none)", key,
                 other_keys);
        return -1;
    }
    ipx_params p;
    ipx_params_default(&p, m);
    char why[512];
    if (ipx_params_parse(&p, rest, why, sizeof why) == IPX_OK) return 0;
    if (ipx_param_index(m, key) < 0)
        snprintf(message, message_size,
                 "unknown key '%.64s': %s nor a parameter of model %s: %.300s", key, other_keys,
                 model, why);
    else snprintf(message, message_size, "%s", why);
    return -1;
}

static int axis_key(const sweep_spec *spec, const char *key)
{
    for (int a = 0; a < spec->n_axes; a++)
        if (strcmp(spec->axis[a].key, key) == 0) return a;
    return -1;
}

/* A model's own key=value,... items. */
static int check_model_params(const sweep_spec *spec, const sweep_model *m, char *message,
                              size_t message_size)
{
    char items[1024], problem[768];
    snprintf(items, sizeof items, "%s", m->params);
    for (char *item = items; *item;) {
        char *end = item + strcspn(item, ",");
        const int last = *end == '\0';
        *end = '\0';
        char *eq = strchr(item, '=');
        int rc = 0;
        if (!eq) {
            snprintf(problem, sizeof problem, "'%.200s' is not key=value", item);
            rc = -1;
        } else {
            *eq = '\0';
            const int a = axis_key(spec, item);
            if (strcmp(item, "seed") == 0)
                snprintf(problem, sizeof problem, "give seeds with a line seed = ...");
            else if (a >= 0)
                snprintf(problem, sizeof problem, "%.200s is also a grid (line %d)", item,
                         spec->axis[a].line);
            rc = strcmp(item, "seed") == 0 || a >= 0
                     ? -1
                     : check_item(m->name, item, eq + 1, problem, sizeof problem);
        }
        if (rc != 0) {
            snprintf(message, message_size, "%s:%d: model %s: %s", spec->path, m->line, m->name,
                     problem);
            return -1;
        }
        item = last ? end : end + 1;
    }
    return 0;
}

static int check_axes(const sweep_spec *spec, char *message, size_t message_size)
{
    char problem[768];
    for (int a = 0; a < spec->n_axes; a++) {
        const sweep_axis *ax = &spec->axis[a];
        if (a == SWEEP_MAX_AXES) {
            snprintf(message, message_size, "%s:%d: at most %d grid keys", spec->path, ax->line,
                     SWEEP_MAX_AXES);
            return -1;
        }
        for (int m = 0; m < spec->n_models; m++)
            for (int i = 0; i < ax->n; i++)
                if (check_item(spec->model[m].name, ax->key, ax->text[i], problem,
                               sizeof problem) != 0) {
                    snprintf(message, message_size, "%s:%d: %s (model %s, line %d)", spec->path,
                             ax->line, problem, spec->model[m].name, spec->model[m].line);
                    return -1;
                }
    }
    return 0;
}

/* Every world under every model at the first grid point and seed; *found gets a bit per
   record and perturbation whose body some world has (bit i: records first, then perturbs). */
static int check_worlds(const sweep_spec *spec, unsigned char *found, char *message,
                        size_t message_size)
{
    char params[2048], problem[512];
    for (int w = 0; w < spec->n_worlds; w++) {
        long steps;
        if (cli_step_count(sweep_duration(spec, w), ipx_scene_step_size(spec->world[w].scene),
                           &steps, problem, sizeof problem) != 0) {
            snprintf(message, message_size, "%s:%d: world %s: %s", spec->path, spec->world[w].line,
                     spec->world[w].name, problem);
            return -1;
        }
        for (int m = 0; m < spec->n_models; m++) {
            sweep_job job = {.world = w, .model = m};
            if (sweep_job_params(spec, &job, params, sizeof params) != 0) {
                snprintf(message, message_size, "%s:%d: model %s: too many parameters", spec->path,
                         spec->model[m].line, spec->model[m].name);
                return -1;
            }
            ipx_sim *sim = ipx_sim_create(spec->world[w].scene, spec->model[m].name, params,
                                          problem, sizeof problem);
            if (!sim) {
                snprintf(message, message_size, "%s:%d: world %s under model %s (%s): %s",
                         spec->path, spec->model[m].line, spec->world[w].name, spec->model[m].name,
                         params, problem);
                return -1;
            }
            for (int r = 0; r < spec->n_records; r++)
                found[r] |=
                    !spec->record[r].body[0] || ipx_sim_body_index(sim, spec->record[r].body) >= 0;
            for (int p = 0; p < spec->n_perturbs; p++)
                found[spec->n_records + p] |= ipx_sim_body_index(sim, spec->perturb[p].body) >= 0;
            ipx_sim_destroy(sim);
        }
    }
    return 0;
}

static void unknown_body(const sweep_spec *spec, const char *body, int line, char *message,
                         size_t message_size)
{
    char bodies[512] = "";
    size_t used = 0;
    ipx_sim *sim = ipx_sim_create(spec->world[0].scene, "ode", "", bodies, sizeof bodies);
    bodies[0] = '\0';
    for (int b = 0; sim && b < ipx_sim_body_count(sim) && used < sizeof bodies; b++)
        used += (size_t)snprintf(bodies + used, sizeof bodies - used, "%s%s", b ? ", " : "",
                                 ipx_sim_body_name(sim, b));
    ipx_sim_destroy(sim);
    snprintf(message, message_size, "%s:%d: unknown body '%s' (bodies of %s: %s)", spec->path, line,
             body, spec->world[0].name, bodies[0] ? bodies : "none");
}

int sweep_spec_check(const sweep_spec *spec, char *message, size_t message_size)
{
    for (int m = 0; m < spec->n_models; m++)
        if (check_model_params(spec, &spec->model[m], message, message_size) != 0) return -1;
    if (check_axes(spec, message, message_size) != 0) return -1;
    if (sweep_job_count(spec) < 0) {
        snprintf(message, message_size, "%s: more than %d jobs", spec->path, SWEEP_MAX_JOBS);
        return -1;
    }
    unsigned char *found = calloc((size_t)(spec->n_records + spec->n_perturbs) + 1, 1);
    if (!found) {
        snprintf(message, message_size, "out of memory");
        return -1;
    }
    int rc = check_worlds(spec, found, message, message_size);
    for (int r = 0; r < spec->n_records && rc == 0; r++)
        if (!found[r]) {
            unknown_body(spec, spec->record[r].body, spec->record[r].line, message, message_size);
            rc = -1;
        }
    for (int p = 0; p < spec->n_perturbs && rc == 0; p++)
        if (!found[spec->n_records + p]) {
            unknown_body(spec, spec->perturb[p].body, spec->perturb[p].line, message, message_size);
            rc = -1;
        }
    free(found);
    return rc;
}
