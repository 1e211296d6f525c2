#include "series.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void cli_up_vector(dWorldID world, double up[3])
{
    dVector3 g;
    dWorldGetGravity(world, g);
    const double norm = sqrt(g[0] * g[0] + g[1] * g[1] + g[2] * g[2]);
    up[0] = norm > 0 ? -g[0] / norm : 0.0;
    up[1] = norm > 0 ? -g[1] / norm : 0.0;
    up[2] = norm > 0 ? -g[2] / norm : 1.0;
}

int cli_series_start(cli_series *s, ipx_sim *sim, long n_steps)
{
    memset(s, 0, sizeof *s);
    s->n_bodies = ipx_sim_body_count(sim);
    s->stride = n_steps / CLI_SERIES_MAX_SAMPLES + 1;
    s->capacity = (int)(n_steps / s->stride) + 2;
    cli_up_vector(ipx_sim_world(sim), s->up);
    const size_t per_body = 3 * (size_t)s->capacity * (size_t)(s->n_bodies > 0 ? s->n_bodies : 1);
    s->t_s = malloc((size_t)s->capacity * sizeof *s->t_s);
    s->energy_j = malloc((size_t)s->capacity * sizeof *s->energy_j);
    s->x_m = malloc(per_body * sizeof *s->x_m);
    s->v_m_s = malloc(per_body * sizeof *s->v_m_s);
    if (s->t_s && s->energy_j && s->x_m && s->v_m_s) return 0;
    cli_series_free(s);
    return -1;
}

int cli_series_push(cli_series *s, ipx_sim *sim, long step)
{
    if (step % s->stride != 0) return 0;
    if (s->n == s->capacity) return -1;
    s->t_s[s->n] = ipx_sim_time(sim);
    s->energy_j[s->n] = ipx_sim_energy(sim);
    for (int b = 0; b < s->n_bodies; b++) {
        const dReal *x = dBodyGetPosition(ipx_sim_body(sim, b)),
                    *v = dBodyGetLinearVel(ipx_sim_body(sim, b));
        const size_t at = 3 * ((size_t)s->n * (size_t)s->n_bodies + (size_t)b);
        for (int i = 0; i < 3; i++) {
            s->x_m[at + i] = x[i];
            s->v_m_s[at + i] = v[i];
        }
    }
    s->n++;
    return 0;
}

void cli_series_free(cli_series *s)
{
    free(s->t_s);
    free(s->energy_j);
    free(s->x_m);
    free(s->v_m_s);
    memset(s, 0, sizeof *s);
}
