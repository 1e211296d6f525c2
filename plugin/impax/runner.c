#define _POSIX_C_SOURCE 200809L /* strdup */
#include "runner.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "progress.h"

/* Unit vector "up" (against gravity); +z in a world without gravity. */
static void up_vector(dWorldID world, double up[3])
{
    dVector3 g;
    dWorldGetGravity(world, g);
    double norm = sqrt(g[0] * g[0] + g[1] * g[1] + g[2] * g[2]);
    if (norm == 0.0) {
        up[0] = up[1] = 0.0;
        up[2] = 1.0;
        return;
    }
    for (int i = 0; i < 3; i++) up[i] = -g[i] / norm;
}

int cli_plot_body(const ipx_scene *scene, const ipx_sim *sim)
{
    const char *name = ipx_scene_plot_body(scene);
    return name ? ipx_sim_body_index(sim, name) : -1;
}

static double body_height(ipx_sim *sim, int body, const double up[3])
{
    if (body < 0) return NAN;
    const dReal *x = dBodyGetPosition(ipx_sim_body(sim, body));
    return up[0] * x[0] + up[1] * x[1] + up[2] * x[2];
}

static int series_push(cli_series *s, double t, double e, double h)
{
    if (s->n == s->capacity) {
        int cap = s->capacity ? 2 * s->capacity : 1024;
        double *nt = realloc(s->t_s, (size_t)cap * sizeof *nt);
        if (nt) s->t_s = nt;
        double *ne = realloc(s->energy_j, (size_t)cap * sizeof *ne);
        if (ne) s->energy_j = ne;
        double *nh = realloc(s->height_m, (size_t)cap * sizeof *nh);
        if (nh) s->height_m = nh;
        if (!nt || !ne || !nh) return -1;
        s->capacity = cap;
    }
    s->t_s[s->n] = t;
    s->energy_j[s->n] = e;
    s->height_m[s->n] = h;
    s->n++;
    return 0;
}

void cli_series_free(cli_series *s)
{
    free(s->t_s);
    free(s->energy_j);
    free(s->height_m);
    memset(s, 0, sizeof *s);
}

static void csv_header(FILE *f, const ipx_sim *sim)
{
    static const char *const cols[] = {"x_m", "y_m", "z_m", "qw", "qx", "qy", "qz", "vx_m_s",
                                       "vy_m_s", "vz_m_s", "wx_rad_s", "wy_rad_s", "wz_rad_s"};
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

static void sum_event_energy(const ipx_ode_event *ev, void *user)
{
    if (ev->ok) *(double *)user += ev->ke_after - ev->ke_before;
}

static void record_first_impact(cli_run *run, ipx_sim *sim)
{
    run->first_impact_step = (int)run->steps;
    run->first_impact_t_s = ipx_sim_time(sim);
    run->ke_after_first_j = ipx_sim_kinetic_energy(sim);
    for (int b = 0; b < run->n_bodies; b++) {
        dBodyID body = ipx_sim_body(sim, b);
        const dReal *v = dBodyGetLinearVel(body), *w = dBodyGetAngularVel(body);
        for (int i = 0; i < 3; i++) {
            run->first_velocity[6 * b + i] = v[i];
            run->first_velocity[6 * b + 3 + i] = w[i];
        }
    }
}

int cli_run_scene(const ipx_scene *scene, cli_run *run)
{
    char msg[256];
    run->error[0] = '\0';
    run->first_impact_step = -1;
    run->first_velocity = NULL;
    run->body_name = NULL;
    run->n_bodies = 0;
    run->steps = 0;
    run->impact_energy_change_j = 0.0;
    run->max_penetration_m = 0.0;
    ipx_sim *sim = ipx_sim_create(scene, run->model, run->params, msg, sizeof msg);
    if (!sim) {
        snprintf(run->error, sizeof run->error, "%s", msg);
        return 2;
    }
    snprintf(run->model_used, sizeof run->model_used, "%s", ipx_ode_model_name(ipx_sim_impax(sim)));
    run->n_bodies = ipx_sim_body_count(sim);
    size_t n_alloc = (size_t)(run->n_bodies > 0 ? run->n_bodies : 1);
    run->first_velocity = calloc(n_alloc, 6 * sizeof(double));
    run->body_name = calloc(n_alloc, sizeof *run->body_name);
    int names_ok = run->body_name != NULL;
    for (int b = 0; names_ok && b < run->n_bodies; b++)
        names_ok = (run->body_name[b] = strdup(ipx_sim_body_name(sim, b))) != NULL;
    if (!run->first_velocity || !names_ok) {
        ipx_sim_destroy(sim);
        snprintf(run->error, sizeof run->error, "out of memory");
        return 1;
    }
    ipx_ode_set_event_callback(ipx_sim_impax(sim), sum_event_energy, &run->impact_energy_change_j);
    double up[3];
    up_vector(ipx_sim_world(sim), up);
    int plot_body = cli_plot_body(scene, sim);
    run->energy_start_j = ipx_sim_energy(sim);
    if (run->csv) {
        csv_header(run->csv, sim);
        csv_row(run->csv, sim);
    }
    if (run->series) series_push(run->series, 0.0, run->energy_start_j, body_height(sim, plot_body, up));

    cli_progress bar;
    cli_progress_start(&bar, run->model_used, run->duration_s);
    double h = ipx_scene_step_size(scene);
    long n_steps = (long)ceil(run->duration_s / h - 1e-9);
    int rc = 0;
    for (long s = 0; s < n_steps; s++) {
        if (ipx_sim_step(sim, msg, sizeof msg) != 0) {
            snprintf(run->error, sizeof run->error, "t = %.6f s: %s", ipx_sim_time(sim), msg);
            rc = 1;
            break;
        }
        run->steps++;
        double depth = ipx_sim_penetration(sim);
        if (depth > run->max_penetration_m) run->max_penetration_m = depth;
        if (run->first_impact_step < 0 && ipx_sim_had_impact(sim)) record_first_impact(run, sim);
        if (run->csv) csv_row(run->csv, sim);
        if (run->series &&
            series_push(run->series, ipx_sim_time(sim), ipx_sim_energy(sim), body_height(sim, plot_body, up)) != 0) {
            snprintf(run->error, sizeof run->error, "out of memory for the plot series");
            rc = 1;
            break;
        }
        cli_progress_update(&bar, ipx_sim_time(sim));
    }
    cli_progress_finish(&bar);
    run->wall_s = cli_wall_seconds() - bar.start_wall_s;
    run->t_end_s = ipx_sim_time(sim);
    run->energy_end_j = ipx_sim_energy(sim);
    run->ke_end_j = ipx_sim_kinetic_energy(sim);
    run->final_height_m = body_height(sim, plot_body, up);
    run->stats = ipx_ode_get_stats(ipx_sim_impax(sim));
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
}
