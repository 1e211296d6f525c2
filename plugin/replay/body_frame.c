/* A recording's tracked frame and a simulator's body frame (body_frame.h). */
#include "body_frame.h"

#include <math.h>

#include "quat.h"

cli_body_frame cli_body_frame_identity(void)
{
    return (cli_body_frame){{0.0, 0.0, 0.0}, {1.0, 0.0, 0.0, 0.0}};
}

cli_body_frame cli_body_frame_make(const double com_m[3], const double R[9])
{
    cli_body_frame f = {{com_m[0], com_m[1], com_m[2]}, {0.0, 0.0, 0.0, 0.0}};
    cli_quat_from_rotation(R, f.q);
    return f;
}

/* w_world × r */
static void cross(const double a[3], const double b[3], double out[3])
{
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}

/* f the identity: a sample passes through it exactly, unrounded. */
static int is_identity(const cli_body_frame *f)
{
    return f->com_m[0] == 0.0 && f->com_m[1] == 0.0 && f->com_m[2] == 0.0 && f->q[0] == 1.0 &&
           f->q[1] == 0.0 && f->q[2] == 0.0 && f->q[3] == 0.0;
}

/* The quaternion usable: finite and not zero. */
static int quat_usable(const double q[4])
{
    const double n2 = q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3];
    return n2 > 0.0 && isfinite(n2);
}

void cli_body_frame_to_body(const cli_body_frame *f, const cli_sample *tracked, cli_sample *body)
{
    *body = *tracked;
    if (is_identity(f) || !quat_usable(tracked->q)) return;
    double q[4], R[9], r[3], w_world[3], w_x_r[3];
    cli_quat_unit(tracked->q, q);
    cli_quat_rotation(q, R);
    cli_turn(R, f->com_m, r);
    cli_turn(R, tracked->w_body_radps, w_world);
    cross(w_world, r, w_x_r);
    for (int i = 0; i < 3; i++) {
        body->x_m[i] = tracked->x_m[i] + r[i];
        body->v_mps[i] = tracked->v_mps[i] + w_x_r[i];
    }
    cli_quat_product(q, f->q, body->q);
    cli_quat_turn_back(f->q, tracked->w_body_radps, body->w_body_radps);
}

void cli_body_frame_to_tracked(const cli_body_frame *f, const cli_sample *body, cli_sample *tracked)
{
    *tracked = *body;
    if (is_identity(f) || !quat_usable(body->q)) return;
    const double f_inverse[4] = {f->q[0], -f->q[1], -f->q[2], -f->q[3]};
    double q[4], R[9], r[3], w_world[3], w_x_r[3];
    cli_quat_unit(body->q, q);
    cli_quat_product(q, f_inverse, tracked->q);
    cli_quat_rotation(tracked->q, R);
    cli_turn(R, f->com_m, r);
    double Rb[9];
    cli_quat_rotation(q, Rb);
    cli_turn(Rb, body->w_body_radps, w_world);
    cross(w_world, r, w_x_r);
    for (int i = 0; i < 3; i++) {
        tracked->x_m[i] = body->x_m[i] - r[i];
        tracked->v_mps[i] = body->v_mps[i] - w_x_r[i];
    }
    cli_quat_turn_back(f_inverse, body->w_body_radps, tracked->w_body_radps);
}
