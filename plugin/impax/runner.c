#define _POSIX_C_SOURCE 200809L /* strdup */
#include "runner.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "progress.h"
#include "trace.h"

int cli_plot_body(const ipx_scene *scene, const ipx_sim *sim)
{
    const char *name = ipx_scene_plot_body(scene);
    return name ? ipx_sim_body_index(sim, name) : -1;
}

void cli_inelastic_note(char *buf, size_t size, const char *label, const cli_run *run)
{
    const int same = strcmp(label, run->model_used) == 0;
    snprintf(buf, size,
             "%s%s%s is inelastic unless %s=1: the surfaces' restitution (e up to %g) was ignored",
             same ? "" : label, same ? "" : ": ", run->model_used, run->restitution_flag,
             run->stats.ignored_restitution);
}

static double body_height(ipx_sim *sim, int body, const double up[3])
{
    if (body < 0) return NAN;
    const dReal *x = dBodyGetPosition(ipx_sim_body(sim, body));
    return up[0] * x[0] + up[1] * x[1] + up[2] * x[2];
}

static void csv_header(FILE *f, const ipx_sim *sim)
{
    static const char *const cols[] = {"x_m",      "y_m",      "z_m",     "qw",     "qx",
                                       "qy",       "qz",       "vx_m_s",  "vy_m_s", "vz_m_s",
                                       "wx_rad_s", "wy_rad_s", "wz_rad_s"};
    fprintf(f, "t_s");
    for (int b = 0; b < ipx_sim_body_count(sim); b++)
        for (size_t c = 0; c < sizeof cols / sizeof cols[0]; c++)
            fprintf(f, ",%s.%s", ipx_sim_body_name(sim, b), cols[c]);
    fprintf(f, ",energy_J\n");
}

static void csv_row(FILE *f, ipx_sim *sim)
{
    fprintf(f, "%.9g", ipx_sim_time(sim));
    for (int b = 0; b < ipx_sim_body_count(sim); b++) {
        dBodyID body = ipx_sim_body(sim, b);
        const dReal *parts[4] = {dBodyGetPosition(body), dBodyGetQuaternion(body),
                                 dBodyGetLinearVel(body), dBodyGetAngularVel(body)};
        const int lens[4] = {3, 4, 3, 3};
        for (int p = 0; p < 4; p++)
            for (int i = 0; i < lens[p]; i++) fprintf(f, ",%.17g", (double)parts[p][i]);
    }
    fprintf(f, ",%.17g\n", ipx_sim_energy(sim));
}

/* What the event callback needs, and what it tells the step. */
typedef struct event_sink {
    cli_run *run;
    const ipx_sim *sim;
    int pushed; /* an event of the step under way had a contact with a normal impulse */
} event_sink;

/* A compliant model's first contact, followed to its end (runner.h, compared_t_s). */
typedef struct contact_end {
    int saved;        /* velocity holds the state after the last step */
    double *velocity; /* 6 per body */
    double ke_j, t_s;
} contact_end;

static void on_event(const ipx_ode_event *ev, void *user)
{
    event_sink *sink = user;
    cli_run *run = sink->run;
    if (ev->ok) run->impact_energy_change_j += ev->ke_after - ev->ke_before;
    for (int i = 0; ev->ok && ev->impulse && i < ev->k; i++)
        if (ev->impulse[3 * i + 2] > 0.0) sink->pushed = 1;
    /* the event belongs to the step under way: the time at its start, as the shim counts it */
    if (run->trace) ipx_trace_event(run->trace, 0, ipx_sim_time(sink->sim), ev);
    if (run->frames) cli_frames_event(run->frames, ipx_sim_time(sink->sim), ev);
}

/* Every body's [vx vy vz wx wy wz] into out (6 per body). */
static void velocities(ipx_sim *sim, int n_bodies, double *out)
{
    for (int b = 0; b < n_bodies; b++) {
        dBodyID body = ipx_sim_body(sim, b);
        const dReal *v = dBodyGetLinearVel(body), *w = dBodyGetAngularVel(body);
        for (int i = 0; i < 3; i++) {
            out[6 * b + i] = v[i];
            out[6 * b + 3 + i] = w[i];
        }
    }
}

static void record_first_impact(cli_run *run, ipx_sim *sim, long fallbacks_before, contact_end *end)
{
    run->first_impact_step = (int)run->steps;
    run->first_impact_t_s = ipx_sim_time(sim);
    run->first_impact_fell_back =
        ipx_ode_get_stats(ipx_sim_impax(sim)).fallbacks > fallbacks_before;
    run->ke_after_first_j = ipx_sim_kinetic_energy(sim);
    run->compared_t_s = run->first_impact_t_s;
    velocities(sim, run->n_bodies, run->first_velocity);
    /* a compliant model's impact is still under way: followed until its contacts stop pushing */
    run->mid_contact = run->compliant && end->velocity;
}

/* After a compliant model's first impact: a step without contact force ends the contact at
   its start, the state after the step before, which is what the impulsive models' velocities
   right after their impact compare with (docs/command.md, impax ab). */
static void follow_contact(cli_run *run, ipx_sim *sim, int pushed, contact_end *end)
{
    if (pushed) {
        velocities(sim, run->n_bodies, end->velocity);
        end->ke_j = ipx_sim_kinetic_energy(sim);
        end->t_s = ipx_sim_time(sim);
        end->saved = 1;
        return;
    }
    if (end->saved) {
        memcpy(run->first_velocity, end->velocity,
               6 * (size_t)run->n_bodies * sizeof *end->velocity);
        run->ke_after_first_j = end->ke_j;
        run->compared_t_s = end->t_s;
    }
    run->mid_contact = 0;
}

/* The outputs' start: body names, first-impact storage. 0, or -1 if memory is short. */
static int prepare(cli_run *run, ipx_sim *sim)
{
    run->n_bodies = ipx_sim_body_count(sim);
    const size_t n_alloc = (size_t)(run->n_bodies > 0 ? run->n_bodies : 1);
    run->first_velocity = calloc(n_alloc, 6 * sizeof(double));
    run->body_name = calloc(n_alloc, sizeof *run->body_name);
    int ok = run->first_velocity != NULL && run->body_name != NULL;
    for (int b = 0; ok && b < run->n_bodies; b++)
        ok = (run->body_name[b] = strdup(ipx_sim_body_name(sim, b))) != NULL;
    return ok ? 0 : -1;
}

/* One step and what it adds to the outputs. 0, or 1 with run->error set. */
static int step(event_sink *sink, ipx_sim *sim, int *had_impact, contact_end *end)
{
    cli_run *run = sink->run;
    char msg[256];
    const long fallbacks_before =
        run->first_impact_step < 0 ? ipx_ode_get_stats(ipx_sim_impax(sim)).fallbacks : 0;
    sink->pushed = 0;
    if (ipx_sim_step(sim, msg, sizeof msg) != 0) {
        snprintf(run->error, sizeof run->error, "t = %.6f s: %s", ipx_sim_time(sim), msg);
        return 1;
    }
    run->steps++;
    run->max_penetration_m = fmax(run->max_penetration_m, ipx_sim_penetration(sim));
    const int impact = ipx_sim_had_impact(sim);
    run->collisions += impact && !*had_impact;
    *had_impact = impact;
    if (run->first_impact_step < 0 && impact) record_first_impact(run, sim, fallbacks_before, end);
    else if (run->mid_contact) follow_contact(run, sim, sink->pushed, end);
    if (run->csv) csv_row(run->csv, sim);
    if (run->series && cli_series_push(run->series, sim, run->steps) != 0) {
        snprintf(run->error, sizeof run->error, "out of memory for the plot series");
        return 1;
    }
    if (run->frames && cli_frames_push(run->frames, sim) != 0) {
        snprintf(run->error, sizeof run->error, "out of memory for the --html frames");
        return 1;
    }
    return 0;
}

static void start(cli_run *run)
{
    run->error[0] = '\0';
    run->first_impact_step = -1;
    run->first_impact_fell_back = 0;
    run->first_velocity = NULL;
    run->mid_contact = 0;
    run->body_name = NULL;
    run->n_bodies = 0;
    run->steps = 0;
    run->collisions = 0;
    run->impact_energy_change_j = 0.0;
    run->max_penetration_m = 0.0;
}

int cli_run_scene(const ipx_scene *scene, cli_run *run)
{
    char msg[256];
    long n_steps;
    start(run);
    if (cli_step_count(run->duration_s, ipx_scene_step_size(scene), &n_steps, msg, sizeof msg) !=
        0) {
        snprintf(run->error, sizeof run->error, "%s: give a shorter --duration", msg);
        return 2;
    }
    ipx_sim *sim = ipx_sim_create(scene, run->model, run->params, msg, sizeof msg);
    if (!sim) {
        snprintf(run->error, sizeof run->error, "%s", msg);
        return 2;
    }
    /* what the model is, as the adapter resolved it from the world and the command line */
    const ipx_ode_context *ipx = ipx_sim_impax(sim);
    const ipx_params *params = ipx_ode_get_params(ipx);
    snprintf(run->model_used, sizeof run->model_used, "%s", ipx_ode_model_name(ipx));
    run->compliant = ipx_ode_is_compliant(ipx);
    run->restitution_flag =
        params && ipx_params_inelastic(params) ? params->model->restitution_flag : NULL;
    if (prepare(run, sim) != 0 ||
        (run->series && cli_series_start(run->series, sim, n_steps) != 0) ||
        (run->frames && cli_frames_start(run->frames, sim, run->duration_s,
                                         ipx_scene_step_size(scene), run->frames->fps) != 0)) {
        ipx_sim_destroy(sim);
        snprintf(run->error, sizeof run->error, "out of memory");
        return 1;
    }
    event_sink sink = {run, sim, 0};
    contact_end end = {0};
    if (run->compliant && !(end.velocity = calloc((size_t)(run->n_bodies > 0 ? run->n_bodies : 1),
                                                  6 * sizeof(double)))) {
        ipx_sim_destroy(sim);
        snprintf(run->error, sizeof run->error, "out of memory");
        return 1;
    }
    ipx_ode_set_event_callback(ipx_sim_impax(sim), on_event, &sink);
    double up[3];
    cli_up_vector(ipx_sim_world(sim), up);
    const int plot_body = cli_plot_body(scene, sim);
    run->energy_start_j = ipx_sim_energy(sim);
    if (run->csv) {
        csv_header(run->csv, sim);
        csv_row(run->csv, sim);
    }
    if (run->series) cli_series_push(run->series, sim, 0);
    if (run->frames) cli_frames_push(run->frames, sim);

    cli_progress bar;
    cli_progress_start(&bar, run->progress_label ? run->progress_label : run->model_used,
                       run->duration_s);
    int rc = 0, had_impact = 0;
    for (long s = 0; s < n_steps && rc == 0; s++) {
        rc = step(&sink, sim, &had_impact, &end);
        cli_progress_update(&bar, ipx_sim_time(sim));
    }
    cli_progress_finish(&bar);
    run->wall_s = cli_wall_seconds() - bar.start_wall_s;
    run->t_end_s = ipx_sim_time(sim);
    run->energy_end_j = ipx_sim_energy(sim);
    run->ke_end_j = ipx_sim_kinetic_energy(sim);
    run->final_height_m = body_height(sim, plot_body, up);
    run->stats = ipx_ode_get_stats(ipx_sim_impax(sim));
    free(end.velocity);
    ipx_sim_destroy(sim);
    return rc;
}

void cli_run_free(cli_run *run)
{
    for (int b = 0; run->body_name && b < run->n_bodies; b++) free(run->body_name[b]);
    free(run->body_name);
    free(run->first_velocity);
    run->body_name = NULL;
    run->first_velocity = NULL;
    run->mid_contact = 0;
}
