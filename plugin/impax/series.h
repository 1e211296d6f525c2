/// What `impax ab` plots: per step (or every stride steps on long runs) the time, the total
/// energy and every body's centre-of-mass position and velocity.
#ifndef IMPAX_CLI_SERIES_H
#define IMPAX_CLI_SERIES_H

#include "world.h"

/// Samples kept per run at most: longer runs keep every stride-th step (the plots are 1000 px wide).
enum { CLI_SERIES_MAX_SAMPLES = 4000 };

typedef struct cli_series {
    int n, capacity; /* samples stored */
    int n_bodies;
    long stride;      /* steps per sample, >= 1 */
    double up[3];     /* unit vector against gravity (+z in a world without gravity) */
    double *t_s;      /* n: time, s */
    double *energy_j; /* n: total energy (kinetic + gravitational), J */
    double *x_m;      /* n x n_bodies x 3: centre of mass, world frame, m */
    double *v_m_s;    /* n x n_bodies x 3: its velocity, m/s */
} cli_series;

/// The unit vector against world's gravity ("up"; +z in a world without gravity).
void cli_up_vector(dWorldID world, double up[3]);

/// Prepares s for sim's bodies and a run of n_steps steps. 0, or -1 if memory is short.
int cli_series_start(cli_series *s, ipx_sim *sim, long n_steps);
/// Stores sim's state if step (0 = the initial state) is one the stride keeps. 0, or -1.
int cli_series_push(cli_series *s, ipx_sim *sim, long step);
void cli_series_free(cli_series *s);

#endif
