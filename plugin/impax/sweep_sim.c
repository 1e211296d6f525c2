/* One job of a sweep: a fresh simulation of its world under its model and parameters, the
   seed's perturbation of the initial velocities, the run, the row. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "impax/rng.h"
#include "progress.h"
#include "sweep_jobs.h"

typedef struct outcome {
    double ke0_j, e0_j, ke1_j, e1_j;
    double impact_dke_j; /* sum over impax's events */
    double first_impact_t_s;
    double max_penetration_m;
    ipx_ode_stats stats;
    char error[300]; /* "" when the run reached the duration */
} outcome;

/* A uniform number in [-1, 1) that is a function of (seed, stream) alone: a counter-based
   generator, so a job's sample depends on its key and on nothing that ran before it. */
static double uniform_pm1(uint64_t seed, uint64_t stream)
{
    const uint64_t z =
        ipx_mix64(ipx_mix64(seed + IPX_GOLDEN_GAMMA) ^ (stream * 0xd1b54a32d192ed03ULL + 1));
    return (double)(z >> 11) * 0x1.0p-52 - 1.0;
}

/* Perturbation p draws stream p of the seed: every model and grid point of a seed gets the same
   initial state (common random numbers), so their rows compare. */
static void perturb(const sweep_spec *spec, const sweep_job *job, ipx_sim *sim)
{
    for (int p = 0; p < spec->n_perturbs; p++) {
        const sweep_perturb *pt = &spec->perturb[p];
        const int b = ipx_sim_body_index(sim, pt->body);
        if (b < 0) continue;
        dBodyID body = ipx_sim_body(sim, b);
        const dReal *now = pt->component < 3 ? dBodyGetLinearVel(body) : dBodyGetAngularVel(body);
        dReal v[3] = {now[0], now[1], now[2]};
        v[pt->component % 3] +=
            pt->range * uniform_pm1((uint64_t)spec->seed[job->seed], (uint64_t)p);
        if (pt->component < 3) dBodySetLinearVel(body, v[0], v[1], v[2]);
        else dBodySetAngularVel(body, v[0], v[1], v[2]);
        dBodyEnable(body);
    }
}

static void sum_event_energy(const ipx_ode_event *ev, void *user)
{
    if (ev->ok) *(double *)user += ev->ke_after - ev->ke_before;
}

static void simulate(ipx_sim *sim, long n_steps, outcome *o)
{
    ipx_ode_set_event_callback(ipx_sim_impax(sim), sum_event_energy, &o->impact_dke_j);
    o->ke0_j = ipx_sim_kinetic_energy(sim);
    o->e0_j = ipx_sim_energy(sim);
    o->first_impact_t_s = NAN;
    char msg[256];
    for (long s = 0; s < n_steps; s++) {
        if (ipx_sim_step(sim, msg, sizeof msg) != 0) {
            snprintf(o->error, sizeof o->error, "t = %.6f s: %s", ipx_sim_time(sim), msg);
            break;
        }
        const double depth = ipx_sim_penetration(sim);
        if (depth > o->max_penetration_m) o->max_penetration_m = depth;
        if (isnan(o->first_impact_t_s) && ipx_sim_had_impact(sim))
            o->first_impact_t_s = ipx_sim_time(sim);
    }
    o->ke1_j = ipx_sim_kinetic_energy(sim);
    o->e1_j = ipx_sim_energy(sim);
    o->stats = ipx_ode_get_stats(ipx_sim_impax(sim));
}

static int put_number(cli_buf *row, const char *name, double v, int *first)
{
    int rc = *first ? 0 : cli_buf_append(row, ",", 1);
    rc |= sweep_json_string(row, name);
    rc |= isfinite(v) ? cli_buf_printf(row, ":%.17g", v) : cli_buf_printf(row, ":null");
    *first = 0;
    return rc;
}

/* The columns of record r: the body's final state (NaN when this world has no such body). */
static void body_values(ipx_sim *sim, const sweep_record *r, double *v)
{
    const int b = ipx_sim_body_index(sim, r->body);
    const int n = sweep_record_columns(r);
    for (int c = 0; c < n; c++) v[c] = NAN;
    if (b < 0) return;
    dBodyID body = ipx_sim_body(sim, b);
    const dReal *src = r->what == SWEEP_POSITION      ? dBodyGetPosition(body)
                       : r->what == SWEEP_ORIENTATION ? dBodyGetQuaternion(body)
                       : r->what == SWEEP_VELOCITY    ? dBodyGetLinearVel(body)
                                                      : dBodyGetAngularVel(body);
    for (int c = 0; c < n; c++) v[c] = src[c];
}

static double scalar_value(const outcome *o, sweep_quantity q)
{
    switch (q) {
    case SWEEP_KE_CHANGE: return o->ke1_j - o->ke0_j;
    case SWEEP_ENERGY_CHANGE: return o->e1_j - o->e0_j;
    case SWEEP_IMPACT_KE_CHANGE: return o->impact_dke_j;
    case SWEEP_IMPACT_EVENTS: return (double)o->stats.impact_events;
    case SWEEP_IMPACT_CONTACTS: return (double)o->stats.impact_contacts;
    case SWEEP_FALLBACKS: return (double)o->stats.fallbacks;
    case SWEEP_FIRST_IMPACT_T: return o->first_impact_t_s;
    case SWEEP_MAX_PENETRATION: return o->max_penetration_m;
    default: return NAN;
    }
}

static int put_values(const sweep_spec *spec, ipx_sim *sim, const outcome *o, cli_buf *row)
{
    int rc = cli_buf_printf(row, ",\"values\":{"), first = 1;
    for (int r = 0; r < spec->n_records; r++) {
        const sweep_record *rec = &spec->record[r];
        double v[4] = {scalar_value(o, rec->what)};
        if (rec->body[0]) body_values(sim, rec, v);
        for (int c = 0; c < sweep_record_columns(rec); c++) {
            char name[SWEEP_NAME + 8];
            sweep_record_column(rec, c, name, sizeof name);
            rc |= put_number(row, name, v[c], &first);
        }
    }
    return rc | cli_buf_printf(row, "}");
}

int sweep_job_run(const sweep_spec *spec, int index, cli_buf *row)
{
    const double t0 = cli_wall_seconds();
    sweep_job job;
    sweep_job_decode(spec, index, &job);
    const ipx_scene *scene = spec->world[job.world].scene;
    char params[2048];
    outcome o;
    memset(&o, 0, sizeof o);
    ipx_sim *sim = NULL;
    if (sweep_job_params(spec, &job, params, sizeof params) != 0)
        snprintf(o.error, sizeof o.error, "parameters too long");
    else sim = ipx_sim_create(scene, spec->model[job.model].name, params, o.error, sizeof o.error);
    if (sim) {
        perturb(spec, &job, sim);
        long n_steps = 0; /* sweep_spec_check has counted them */
        cli_step_count(sweep_duration(spec, job.world), ipx_scene_step_size(scene), &n_steps,
                       o.error, sizeof o.error);
        simulate(sim, n_steps, &o);
    }
    int rc = cli_buf_printf(row, "{");
    rc |= sweep_job_key(spec, &job, row);
    rc |= cli_buf_printf(row, ",\"status\":\"%s\"", o.error[0] ? "failed" : "ok");
    if (o.error[0]) {
        rc |= cli_buf_printf(row, ",\"error\":");
        rc |= sweep_json_string(row, o.error);
    }
    if (sim) rc |= put_values(spec, sim, &o, row);
    ipx_sim_destroy(sim);
    rc |= cli_buf_printf(row, ",\"wall_s\":%.6f}\n", cli_wall_seconds() - t0);
    return rc ? -1 : 0;
}
