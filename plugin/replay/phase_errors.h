/// Replay errors per phase of a toss (phases.h): the world's box and plane the classifier needs,
/// and the sums a replay's samples add to their phase.
#ifndef IMPAX_CLI_PHASE_ERRORS_H
#define IMPAX_CLI_PHASE_ERRORS_H

#include "phases.h"

typedef struct cli_phase_error {
    long samples;       /* compared samples in the phase (the first sample is never compared) */
    double sum_pos_m;   /* sum over them of |x_sim - x_rec| */
    double sum_ori_deg; /* sum of the orientation errors (cli_orientation_error_deg) */
    /* sum of the position error's increments |e_k| - |e_k-1| over them: summed over the phases
       it is the error at the last sample (the first sample's is 0), so it tells which phase
       the final error grew in */
    double growth_m;
} cli_phase_error;

/// The box of scene's replay body (its only collision) and the scene's static plane, from a
/// simulation of it as built. 0, or -1 with a message naming what is missing.
int cli_phase_box_of_scene(const ipx_scene *scene, cli_phase_box *box, char *message,
                           size_t message_size);

/// Adds samples 1..compared of rec (sim[k]: the simulated state at sample k, as cli_replay
/// fills it) to err by phase[k].
void cli_phase_errors_add(const cli_recording *rec, const unsigned char *phase,
                          const cli_sample *sim, int compared,
                          cli_phase_error err[CLI_PHASE_COUNT]);

#endif
