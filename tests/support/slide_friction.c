/* The friction of a recorded box's face slides (slide_friction.h). */
#include "slide_friction.h"

#include <lapacke.h>
#include <math.h>

#include "quat.h"

slide_limits slide_default_limits(void)
{
    return (slide_limits){.tilt_max_rad = 0.0141,
                          .height_tol_m = 4e-4,
                          .spin_max_radps = 1.0,
                          .speed_min_mps = 0.05,
                          .end_speed_mps = 0.01,
                          .half_window = 3,
                          .min_run = 12,
                          .min_speed_span_mps = 0.15};
}

static double dot3(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* Whether sample s lies flat on a face of box, close to that face's rest height. */
static int lies_on_face(const cli_sample *s, const cli_phase_box *box, const slide_limits *lim)
{
    double R[9], B[9], offset[3], centre[3];
    cli_quat_rotation(s->q, R);
    cli_quat_rotation(box->quat, B);
    cli_turn(R, box->pos_m, offset);
    for (int i = 0; i < 3; i++) centre[i] = s->x_m[i] + offset[i];
    const double height = dot3(box->normal, centre) - box->offset_m;
    for (int j = 0; j < 3; j++) {
        const double in_body[3] = {B[j], B[3 + j], B[6 + j]}; /* the box's axis j */
        double axis[3];
        cli_turn(R, in_body, axis);
        if (fabs(dot3(axis, box->normal)) >= cos(lim->tilt_max_rad))
            return fabs(height - box->half_m[j]) <= lim->height_tol_m;
    }
    return 0;
}

/* The parabolas x(t) = c0 + c1 t + c2 t^2 through the m points (t[k], x[k][0..2]) by least
   squares (LAPACK's QR), in place: x[j][i] becomes coordinate i's coefficient of t^j. 0, or -1
   if LAPACK fails. */
static int fit_parabolas(const double *t, double (*x)[3], int m)
{
    double A[2 * SLIDE_MAX_HALF_WINDOW + 1][3];
    for (int k = 0; k < m; k++) {
        A[k][0] = 1.0;
        A[k][1] = t[k];
        A[k][2] = t[k] * t[k];
    }
    return LAPACKE_dgels(LAPACK_ROW_MAJOR, 'N', m, 3, 3, &A[0][0], 3, &x[0][0], 3) == 0 ? 0 : -1;
}

int slide_points(const cli_recording *rec, const cli_phase_box *box, const double g_mps2[3],
                 const slide_limits *limits, slide_point *pts)
{
    const int h = limits->half_window, m = 2 * h + 1;
    if (h < 1 || h > SLIDE_MAX_HALF_WINDOW) return -1;
    const double g_n = -dot3(g_mps2, box->normal);
    int count = 0;
    for (int k = h; k + h < rec->n; k++) {
        int flat = 1;
        for (int j = k - h; j <= k + h && flat; j++) {
            const cli_sample *s = &rec->samples[j];
            flat = lies_on_face(s, box, limits) &&
                   sqrt(dot3(s->w_body_radps, s->w_body_radps)) < limits->spin_max_radps;
        }
        if (!flat) continue;
        double t[2 * SLIDE_MAX_HALF_WINDOW + 1], x[2 * SLIDE_MAX_HALF_WINDOW + 1][3];
        for (int j = 0; j < m; j++) {
            const cli_sample *s = &rec->samples[k - h + j];
            const double up = dot3(s->x_m, box->normal);
            t[j] = s->t_s - rec->samples[k].t_s;
            for (int i = 0; i < 3; i++) x[j][i] = s->x_m[i] - up * box->normal[i];
        }
        if (fit_parabolas(t, x, m) != 0) continue;
        double v[3], a[3]; /* velocity and acceleration at the sample */
        for (int i = 0; i < 3; i++) {
            v[i] = x[1][i];
            a[i] = 2.0 * x[2][i];
        }
        const double speed = sqrt(dot3(v, v));
        double first[3], last[3];
        for (int i = 0; i < 3; i++) {
            first[i] = v[i] + a[i] * t[0];
            last[i] = v[i] + a[i] * t[m - 1];
        }
        if (speed < limits->speed_min_mps || sqrt(dot3(first, first)) < limits->end_speed_mps ||
            sqrt(dot3(last, last)) < limits->end_speed_mps)
            continue;
        pts[count++] = (slide_point){k, speed, -dot3(a, v) / (speed * g_n)};
    }
    return count;
}

int slide_line(const slide_point *pts, int n, const slide_limits *limits, double ref_speed_mps,
               double *mu_ref, double *slope_s_per_m)
{
    int best = 0, best_len = 0;
    for (int i = 0; i < n;) {
        int j = i + 1;
        while (j < n && pts[j].sample == pts[j - 1].sample + 1) j++;
        if (j - i > best_len) {
            best = i;
            best_len = j - i;
        }
        i = j;
    }
    if (best_len < limits->min_run) return -1;
    double lo = INFINITY, hi = -INFINITY, sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (int i = best; i < best + best_len; i++) {
        const double x = pts[i].speed_mps - ref_speed_mps, y = pts[i].mu_eff;
        lo = fmin(lo, pts[i].speed_mps);
        hi = fmax(hi, pts[i].speed_mps);
        sx += x;
        sy += y;
        sxx += x * x;
        sxy += x * y;
    }
    if (hi - lo < limits->min_speed_span_mps) return -1;
    const double nn = best_len;
    *slope_s_per_m = (nn * sxy - sx * sy) / (nn * sxx - sx * sx);
    *mu_ref = (sy - *slope_s_per_m * sx) / nn;
    return 0;
}
