#define _POSIX_C_SOURCE 200809L /* mkstemp */
#include "toss_gen.h"

#include "quat.h"
#include "replay.h"
#include "text_file.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void print_diag(void *user, int is_error, const char *line)
{
    (void)user;
    if (is_error) fprintf(stderr, "%s\n", line);
}

ipx_scene *toss_scene_load(const char *world) { return ipx_scene_load(world, print_diag, NULL); }

int toss_world_with_com(const char *world, const char *pose, const char *out_path)
{
    char *text = read_file(world, NULL);
    char *inertial = text ? strstr(text, "<inertial>") : NULL;
    char *end = inertial ? strstr(inertial, "</inertial>") : NULL;
    char *open = inertial ? strstr(inertial, "<pose>") : NULL;
    char *close = open ? strstr(open, "</pose>") : NULL;
    FILE *f = close && close < end ? fopen(out_path, "w") : NULL;
    int rc = -1;
    if (f) {
        fwrite(text, 1, (size_t)(open - text), f);
        fprintf(f, "<pose>%s", pose);
        fputs(close, f);
        rc = fclose(f) == 0 ? 0 : -1;
    }
    if (rc != 0)
        fprintf(stderr, "toss_gen: %s: no <inertial><pose> to replace, or %s not written\n", world,
                out_path);
    free(text);
    return rc;
}

ipx_scene *toss_scene_load_centred(const char *world)
{
    char path[] = "/tmp/impax_centred_XXXXXX";
    const int fd = mkstemp(path);
    if (fd < 0) return NULL;
    close(fd);
    ipx_scene *scene =
        toss_world_with_com(world, "0 0 0 0 0 0", path) == 0 ? toss_scene_load(path) : NULL;
    unlink(path);
    return scene;
}

void toss_write_row(FILE *f, const cli_sample *s)
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

/* Simulates scene from start and writes its first row at time 0, recorded_first (NULL: the
   start, its quaternion normalised), then the body's state at each later time. */
static int write_run(const ipx_scene *scene, const char *model, const char *params,
                     const cli_sample *start, const cli_sample *recorded_first,
                     const sample_times *times, const char *csv_path)
{
    char message[512] = "cannot write the file";
    ipx_sim *sim = ipx_sim_create(scene, model, params, message, sizeof message);
    FILE *f = sim ? fopen(csv_path, "w") : NULL;
    int rc = f ? 0 : -1;
    if (f) {
        dBodyID b = ipx_sim_body(sim, ipx_sim_body_index(sim, ipx_scene_replay_body(scene)));
        cli_sample s = *start;
        s.t_s = 0;
        cli_quat_unit(s.q, s.q); /* the file's quaternion must be unit */
        cli_sample first = recorded_first ? *recorded_first : s;
        first.t_s = 0;
        const cli_body_frame frame = cli_replay_frame(scene);
        cli_sample body;
        cli_body_frame_to_body(&frame, &s, &body);
        rc = cli_body_set_state(b, &body);
        fprintf(f, "t,x,y,z,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz\n");
        toss_write_row(f, &first);
        const double h = ipx_scene_step_size(scene);
        for (long k = 1; k <= times->n && rc == 0; k++) {
            const double t = time_of(times, k);
            while (rc == 0 && ipx_sim_time(sim) < t - 0.5 * h)
                rc = ipx_sim_step(sim, message, sizeof message);
            cli_body_get_state(b, t, &body);
            cli_body_frame_to_tracked(&frame, &body, &s);
            if (rc == 0) toss_write_row(f, &s);
        }
        if (fclose(f) != 0) rc = -1;
    }
    if (rc != 0) fprintf(stderr, "toss_gen %s under %s: %s\n", csv_path, model, message);
    if (sim) ipx_sim_destroy(sim);
    return rc;
}

int toss_write(const char *world, const char *model, const char *params, const cli_sample *start,
               double duration_s, double rate_hz, const char *csv_path)
{
    ipx_scene *scene = toss_scene_load(world);
    if (!scene) return -1;
    const sample_times times = {lround(duration_s * rate_hz), rate_hz, NULL};
    const int rc = write_run(scene, model, params, start, NULL, &times, csv_path);
    ipx_scene_free(scene);
    return rc;
}

int toss_twin_write(const ipx_scene *scene, const char *model, const char *params,
                    const cli_recording *rec, int first_recorded, const char *csv_path)
{
    const sample_times times = {rec->n - 1, 0, rec};
    const int apart = first_recorded && rec->start_window > 0; /* else the start is the sample */
    return write_run(scene, model, params, cli_recording_start(rec),
                     apart ? &rec->samples[0] : NULL, &times, csv_path);
}
