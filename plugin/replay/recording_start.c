/* A replay's start fitted to the free flight a recording's first samples record
   (recording_start.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "body_frame.h"
#include "quat.h"
#include "recording_start.h"

static const double PI = 3.14159265358979323846;

int cli_start_parse(const char *text, int *max_samples)
{
    if (strcmp(text, "recorded") == 0) {
        *max_samples = 0;
        return 0;
    }
    if (strcmp(text, "fit") == 0) {
        *max_samples = CLI_START_DEFAULT_SAMPLES;
        return 0;
    }
    if (strncmp(text, "fit:", 4) != 0) return -1;
    char *end;
    const long n = strtol(text + 4, &end, 10);
    if (end == text + 4 || *end != '\0' || n < CLI_START_MIN_SAMPLES || n > CLI_START_MAX_SAMPLES)
        return -1;
    *max_samples = (int)n;
    return 0;
}

/* The rotation vector (axis times angle, rad) of the unit quaternion q, angle in [0, pi]. */
static void quat_log(const double q[4], double r[3])
{
    const double sign = q[0] < 0.0 ? -1.0 : 1.0;
    const double s = sqrt(q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    /* angle / sin(angle / 2), its limit 2 at angle 0 */
    const double scale = s > 1e-300 ? 2.0 * atan2(s, sign * q[0]) / s : 2.0;
    for (int i = 0; i < 3; i++) r[i] = sign * scale * q[i + 1];
}

/* The unit quaternion of the rotation vector r. */
static void quat_exp(const double r[3], double q[4])
{
    const double angle = sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2]);
    const double scale = angle > 1e-300 ? sin(0.5 * angle) / angle : 0.5;
    q[0] = cos(0.5 * angle);
    for (int i = 0; i < 3; i++) q[i + 1] = scale * r[i];
}

/* r (the rotation vector of one rotation) made the one of its equivalents (the angle moved by
   a multiple of 2 pi about the same axis) nearest prev: a spin past pi within the window stays
   on one straight line. */
static void unwrap(double r[3], const double prev[3])
{
    const double angle = sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2]);
    if (angle < 1e-300) return;
    double best[3], best_d = INFINITY;
    for (int k = -2; k <= 2; k++) {
        double c[3], d = 0.0;
        for (int i = 0; i < 3; i++) {
            c[i] = r[i] * (1.0 + 2.0 * PI * k / angle);
            d += (c[i] - prev[i]) * (c[i] - prev[i]);
        }
        if (d < best_d) {
            best_d = d;
            memcpy(best, c, sizeof best);
        }
    }
    memcpy(r, best, sizeof best);
}

/* The straight line y = a + b t through y[0..n) (3-vectors) at t[0..n), least squares;
   returns the largest distance of a point from it. */
static double fit_line(int n, const double *t, const double (*y)[3], double a[3], double b[3])
{
    double tm = 0.0, stt = 0.0;
    for (int i = 0; i < n; i++) tm += t[i] / n;
    for (int i = 0; i < n; i++) stt += (t[i] - tm) * (t[i] - tm);
    for (int c = 0; c < 3; c++) {
        double ym = 0.0, sty = 0.0;
        for (int i = 0; i < n; i++) ym += y[i][c] / n;
        for (int i = 0; i < n; i++) sty += (t[i] - tm) * (y[i][c] - ym);
        b[c] = sty / stt;
        a[c] = ym - b[c] * tm;
    }
    double worst = 0.0;
    for (int i = 0; i < n; i++) {
        double d2 = 0.0;
        for (int c = 0; c < 3; c++) {
            const double d = y[i][c] - a[c] - b[c] * t[i];
            d2 += d * d;
        }
        worst = fmax(worst, sqrt(d2));
    }
    return worst;
}

/* The flight through rec's first n samples, given their times t (from the first sample), the
   centres x and the centres less gravity's part y, and the rotation vectors r from the first
   orientation; 1 and the start in *s if it fits within the tolerances and the window shows the
   fall: under gravity, a body at rest or sliding on a table fits free fall over a few samples
   too (half g t^2 stays within CLI_START_TOL_M of a line for 0.04 s), with a velocity that
   points up; a window where the centres also lie on a line without gravity cannot tell the two
   apart, and is not taken. */
static int fit_window(const cli_sample *first, int n, const double *t, const double (*x)[3],
                      const double (*y)[3], int gravity, const double (*r)[3], cli_sample *s)
{
    double x0[3], v0[3], delta[3], w_world[3], a[3], b[3];
    if (fit_line(n, t, y, x0, v0) > CLI_START_TOL_M) return 0;
    if (gravity && fit_line(n, t, x, a, b) <= CLI_START_TOL_M) return 0;
    if (fit_line(n, t, r, delta, w_world) > CLI_START_TOL_RAD) return 0;
    double q0[4], dq[4], q[4];
    cli_quat_unit(first->q, q0);
    quat_exp(delta, dq);
    cli_quat_product(dq, q0, q);
    cli_quat_unit(q, s->q);
    s->t_s = first->t_s;
    memcpy(s->x_m, x0, sizeof x0);
    memcpy(s->v_mps, v0, sizeof v0);
    cli_quat_turn_back(s->q, w_world, s->w_body_radps);
    return 1;
}

int cli_recording_fit_start(cli_recording *rec, int max_samples, const double g_mps2[3],
                            const cli_body_frame *frame)
{
    const cli_body_frame identity = cli_body_frame_identity();
    if (!frame) frame = &identity;
    rec->start_window = 0;
    const int most = rec->n < max_samples ? rec->n : max_samples;
    if (most < CLI_START_MIN_SAMPLES) return 0;
    double *t = malloc(sizeof(double) * (size_t)most);
    double(*x)[3] = malloc(sizeof *x * (size_t)most), (*y)[3] = malloc(sizeof *y * (size_t)most),
    (*r)[3] = malloc(sizeof *r * (size_t)most);
    if (!t || !x || !y || !r) {
        free(t);
        free(x);
        free(y);
        free(r);
        return 0;
    }
    const int gravity = g_mps2[0] != 0.0 || g_mps2[1] != 0.0 || g_mps2[2] != 0.0;
    /* the centre of mass falls freely, wherever the tracked frame is */
    cli_sample first, fitted;
    cli_body_frame_to_body(frame, &rec->samples[0], &first);
    double q0_inverse[4];
    cli_quat_unit(first.q, q0_inverse);
    for (int i = 1; i < 4; i++) q0_inverse[i] = -q0_inverse[i];
    for (int i = 0; i < most; i++) {
        cli_sample body;
        cli_body_frame_to_body(frame, &rec->samples[i], &body);
        const cli_sample *s = &body;
        t[i] = s->t_s - first.t_s;
        for (int c = 0; c < 3; c++) {
            x[i][c] = s->x_m[c];
            y[i][c] = s->x_m[c] - 0.5 * g_mps2[c] * t[i] * t[i];
        }
        double q[4], turn[4];
        cli_quat_unit(s->q, q);
        cli_quat_product(q, q0_inverse, turn); /* the world-frame turn from the first sample */
        quat_log(turn, r[i]);
        if (i > 0) unwrap(r[i], r[i - 1]);
    }
    for (int n = most; n >= CLI_START_MIN_SAMPLES && rec->start_window == 0; n--)
        if (fit_window(&first, n, t, (const double(*)[3])x, (const double(*)[3])y, gravity,
                       (const double(*)[3])r, &fitted)) {
            cli_body_frame_to_tracked(frame, &fitted, &rec->start);
            rec->start_window = n;
        }
    free(t);
    free(x);
    free(y);
    free(r);
    return rec->start_window;
}

void cli_recordings_fit_start(cli_recording *recs, int n, int max_samples, const double g_mps2[3],
                              const cli_body_frame *frame, char *summary, size_t summary_size)
{
    if (max_samples == 0) {
        if (summary)
            snprintf(summary, summary_size, "every recording starts from its first sample");
        return;
    }
    int fitted = 0, least = 0, most = 0;
    for (int i = 0; i < n; i++) {
        const int w = cli_recording_fit_start(&recs[i], max_samples, g_mps2, frame);
        if (w == 0) continue;
        least = fitted == 0 || w < least ? w : least;
        most = w > most ? w : most;
        fitted++;
    }
    if (summary)
        snprintf(summary, summary_size,
                 "%d of %d recordings start from a fit of their free flight (%d to %d samples); "
                 "%d from their first sample",
                 fitted, n, least, most, n - fitted);
}
