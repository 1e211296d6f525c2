/* Replay errors per phase of a toss (phase_errors.h). */
#include "phase_errors.h"

#include "quat.h"
#include "replay.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The one shape of kind type on body (ipx_sim_body's index; -1: static), or -1 if there are
   none or several; a body must have no other shape, the static world may. */
static int only_shape(const ipx_sim *sim, int body, ipx_shape_type type, ipx_shape *out)
{
    int found = -1, of_type = 0, on_body = 0;
    for (int i = 0; i < ipx_sim_shape_count(sim); i++) {
        ipx_shape s;
        ipx_sim_shape(sim, i, &s);
        if (s.body != body) continue;
        on_body++;
        if (s.type == type) {
            of_type++;
            found = i;
            *out = s;
        }
    }
    return of_type == 1 && (body < 0 || on_body == 1) ? found : -1;
}

int cli_phase_box_of_scene(const ipx_scene *scene, cli_phase_box *box, char *message,
                           size_t message_size)
{
    ipx_sim *sim = ipx_sim_create(scene, "ode", "", message, message_size);
    if (!sim) return -1;
    const char *name = ipx_scene_replay_body(scene);
    const int b = name ? ipx_sim_body_index(sim, name) : -1;
    ipx_shape cube = {0}, plane = {0};
    int rc = 0;
    if (b < 0 || only_shape(sim, b, IPX_SHAPE_BOX, &cube) < 0) {
        snprintf(message, message_size,
                 "phases: the replay body of world '%s' must have one collision, a box",
                 ipx_scene_name(scene));
        rc = -1;
    } else if (only_shape(sim, -1, IPX_SHAPE_PLANE, &plane) < 0) {
        snprintf(message, message_size, "phases: world '%s' has no static plane to land on",
                 ipx_scene_name(scene));
        rc = -1;
    } else {
        /* the box in the body's frame (its centre of mass) placed in the recording's frame */
        const cli_body_frame frame = cli_replay_frame(scene);
        double R[9], turned[3];
        cli_quat_rotation(frame.q, R);
        cli_turn(R, cube.pos, turned);
        for (int i = 0; i < 3; i++) {
            box->half_m[i] = 0.5 * cube.size[i];
            box->pos_m[i] = frame.com_m[i] + turned[i];
            box->normal[i] = plane.normal[i];
        }
        cli_quat_product(frame.q, cube.quat, box->quat);
        box->offset_m = plane.offset;
    }
    ipx_sim_destroy(sim);
    return rc;
}

void cli_phase_errors_add(const cli_recording *rec, const unsigned char *phase,
                          const cli_sample *sim, int compared, cli_phase_error err[CLI_PHASE_COUNT])
{
    double before_m = 0.0; /* the replay starts at the first sample's state */
    for (int k = 1; k <= compared && k < rec->n; k++) {
        const double *a = sim[k].x_m, *b = rec->samples[k].x_m;
        const double pos_m = sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) +
                                  (a[2] - b[2]) * (a[2] - b[2]));
        cli_phase_error *e = &err[phase[k]];
        e->samples++;
        e->sum_pos_m += pos_m;
        e->sum_ori_deg += cli_orientation_error_deg(rec->samples[k].q, sim[k].q);
        e->growth_m += pos_m - before_m;
        before_m = pos_m;
    }
}
