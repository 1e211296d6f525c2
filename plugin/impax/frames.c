#include "frames.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int cli_frames_start(cli_frames *f, ipx_sim *sim, double duration_s, double step_s, double fps)
{
    memset(f, 0, sizeof *f);
    f->fps = fps;
    f->h_s = step_s;
    f->n_bodies = ipx_sim_body_count(sim);
    const double frames = floor(duration_s * f->fps) + 2.0;
    if (!(frames < 1e7)) return -1;
    f->capacity = (int)frames;
    const size_t per_frame = CLI_FRAME_FLOATS * (size_t)(f->n_bodies > 0 ? f->n_bodies : 1);
    f->t_s = malloc((size_t)f->capacity * sizeof *f->t_s);
    f->energy_j = malloc((size_t)f->capacity * sizeof *f->energy_j);
    f->pose = malloc((size_t)f->capacity * per_frame * sizeof *f->pose);
    if (f->t_s && f->energy_j && f->pose) return 0;
    cli_frames_free(f);
    return -1;
}

int cli_frames_store(cli_frames *f, ipx_sim *sim, double t_s)
{
    if (f->n == f->capacity) return -1;
    f->t_s[f->n] = t_s;
    f->energy_j[f->n] = (float)ipx_sim_energy(sim);
    float *out = f->pose + (size_t)f->n * CLI_FRAME_FLOATS * (size_t)f->n_bodies;
    for (int b = 0; b < f->n_bodies; b++) {
        dBodyID body = ipx_sim_body(sim, b);
        const dReal *x = dBodyGetPosition(body), *q = dBodyGetQuaternion(body);
        for (int i = 0; i < 3; i++) *out++ = (float)x[i];
        for (int i = 0; i < 4; i++) *out++ = (float)q[i];
    }
    f->n++;
    return 0;
}

int cli_frames_push(cli_frames *f, ipx_sim *sim)
{
    const double t = ipx_sim_time(sim);
    while (t >= f->n / f->fps - 0.5 * f->h_s)
        if (cli_frames_store(f, sim, t) != 0) return -1;
    return 0;
}

/* Room for k more contacts: 1, or 0 past the cap or when memory is short. */
static int reserve_contacts(cli_frames *f, int k)
{
    if (f->n_contacts + k > CLI_FRAMES_MAX_CONTACTS) return 0;
    if (f->n_contacts + k <= f->cap_contacts) return 1;
    int cap = f->cap_contacts ? 2 * f->cap_contacts : 256;
    while (cap < f->n_contacts + k) cap *= 2;
    float *p = realloc(f->contact, (size_t)cap * CLI_CONTACT_FLOATS * sizeof *p);
    if (!p) return 0;
    f->contact = p;
    f->cap_contacts = cap;
    return 1;
}

void cli_frames_event(cli_frames *f, double t_s, const ipx_ode_event *ev)
{
    if (!ev->point || !ev->impulse_world) return;
    if (!reserve_contacts(f, ev->k)) {
        f->dropped_contacts += ev->k;
        return;
    }
    for (int c = 0; c < ev->k; c++) {
        float *out = f->contact + (size_t)f->n_contacts++ * CLI_CONTACT_FLOATS;
        out[0] = (float)t_s;
        for (int i = 0; i < 3; i++) {
            out[1 + i] = (float)ev->point[3 * c + i];
            out[4 + i] = (float)ev->impulse_world[3 * c + i];
        }
    }
}

void cli_frames_free(cli_frames *f)
{
    free(f->t_s);
    free(f->energy_j);
    free(f->pose);
    free(f->contact);
    memset(f, 0, sizeof *f);
}
