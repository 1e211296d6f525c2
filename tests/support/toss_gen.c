#include "toss_gen.h"

#include "replay.h"

#include <math.h>
#include <stdio.h>

static void print_diag(void *user, int is_error, const char *line)
{
    (void)user;
    if (is_error) fprintf(stderr, "%s\n", line);
}

static void write_row(FILE *f, const cli_sample *s)
{
    const double *x = s->x_m, *q = s->q, *v = s->v_mps, *w = s->w_body_radps;
    fprintf(f,
            "%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g\n",
            s->t_s, x[0], x[1], x[2], q[0], q[1], q[2], q[3], v[0], v[1], v[2], w[0], w[1], w[2]);
}

/* The sample times of a run: every 1/rate_hz s, or those of a recording (from 0). */
typedef struct sample_times {
    long n; /* samples after the first */
    double rate_hz;
    const cli_recording *rec; /* NULL: the rate's */
} sample_times;

static double time_of(const sample_times *times, long k)
{
    return times->rec ? times->rec->samples[k].t_s - times->rec->samples[0].t_s
                      : (double)k / times->rate_hz;
}

/* Simulates from start, writes first_row (at time 0) and then the body's state at each time. */
static int write_run(const char *world, const char *model, const char *params,
                     const cli_sample *start, const cli_sample *first_row,
                     const sample_times *times, const char *csv_path)
{
    char message[512] = "cannot load the world or write the file";
    ipx_scene *scene = ipx_scene_load(world, print_diag, NULL);
    ipx_sim *sim = scene ? ipx_sim_create(scene, model, params, message, sizeof message) : NULL;
    FILE *f = sim ? fopen(csv_path, "w") : NULL;
    int rc = f ? 0 : -1;
    if (f) {
        dBodyID b = ipx_sim_body(sim, ipx_sim_body_index(sim, ipx_scene_replay_body(scene)));
        cli_sample s = *start, row = *first_row;
        s.t_s = row.t_s = 0;
        const double n =
            sqrt(s.q[0] * s.q[0] + s.q[1] * s.q[1] + s.q[2] * s.q[2] + s.q[3] * s.q[3]);
        for (int i = 0; i < 4; i++) s.q[i] /= n; /* the file's quaternion must be unit */
        if (first_row == start) row = s;
        rc = cli_body_set_state(b, &s);
        fprintf(f, "t,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz\n");
        write_row(f, &row);
        const double h = ipx_scene_step_size(scene);
        for (long k = 1; k <= times->n && rc == 0; k++) {
            const double t = time_of(times, k);
            while (rc == 0 && ipx_sim_time(sim) < t - 0.5 * h)
                rc = ipx_sim_step(sim, message, sizeof message);
            cli_body_get_state(b, t, &s);
            if (rc == 0) write_row(f, &s);
        }
        if (fclose(f) != 0) rc = -1;
    }
    if (rc != 0) fprintf(stderr, "toss_gen %s under %s: %s\n", csv_path, model, message);
    if (sim) ipx_sim_destroy(sim);
    if (scene) ipx_scene_free(scene);
    return rc;
}

int toss_write(const char *world, const char *model, const char *params, const cli_sample *start,
               double duration_s, double rate_hz, const char *csv_path)
{
    const sample_times times = {lround(duration_s * rate_hz), rate_hz, NULL};
    return write_run(world, model, params, start, start, &times, csv_path);
}

int toss_twin_write(const char *world, const char *model, const char *params,
                    const cli_recording *rec, int first_recorded, const char *csv_path)
{
    const cli_sample *start = cli_recording_start(rec);
    const sample_times times = {rec->n - 1, 0, rec};
    return write_run(world, model, params, start, first_recorded ? &rec->samples[0] : start, &times,
                     csv_path);
}
