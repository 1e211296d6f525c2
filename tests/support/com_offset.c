/* The centre of mass from the flights of recordings (com_offset.h). */
#include "com_offset.h"

#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "quat.h"

#define UNKNOWNS 4 /* com (3), g */

com_limits com_default_limits(void) { return (com_limits){0.004, 6, 25}; }

/* The flight's length: the first samples of rec, at most limits->max_samples, while the box's
   lowest vertex is limits->clearance_m or more above the plane; 0 if fewer than min_samples. */
static int flight_length(const cli_recording *rec, const cli_phase_box *box,
                         const com_limits *limits)
{
    int m = 0;
    while (m < rec->n && m < limits->max_samples &&
           cli_phase_lowest_m(&rec->samples[m], box) >= limits->clearance_m)
        m++;
    return m >= limits->min_samples ? m : 0;
}

/* y less its least-squares line in t (m values, stride apart). */
static void less_line(double *y, const double *t, int m, int stride)
{
    double tm = 0.0, ym = 0.0, stt = 0.0, sty = 0.0;
    for (int i = 0; i < m; i++) {
        tm += t[i] / m;
        ym += y[(size_t)i * stride] / m;
    }
    for (int i = 0; i < m; i++) {
        stt += (t[i] - tm) * (t[i] - tm);
        sty += (t[i] - tm) * (y[(size_t)i * stride] - ym);
    }
    for (int i = 0; i < m; i++) y[(size_t)i * stride] -= ym + sty / stt * (t[i] - tm);
}

/* The rows of one flight of m samples, coordinate by coordinate (3 m rows), each column less
   its line in t: into A (row major, UNKNOWNS columns: -R(t) com, -t^2 n / 2 g) and b (x). */
static void flight_rows(const cli_recording *rec, int m, const cli_phase_box *box, double *t,
                        double *A, double *b)
{
    for (int i = 0; i < m; i++) t[i] = rec->samples[i].t_s - rec->samples[0].t_s;
    for (int c = 0; c < 3; c++) {
        double *block = A + (size_t)c * m * UNKNOWNS, *rhs = b + (size_t)c * m;
        for (int i = 0; i < m; i++) {
            double R[9];
            cli_quat_rotation(rec->samples[i].q, R);
            double *row = block + (size_t)i * UNKNOWNS;
            for (int k = 0; k < 3; k++) row[k] = -R[3 * c + k];
            row[3] = -0.5 * t[i] * t[i] * box->normal[c];
            rhs[i] = rec->samples[i].x_m[c];
        }
        for (int k = 0; k < UNKNOWNS; k++) less_line(block + k, t, m, UNKNOWNS);
        less_line(rhs, t, m, 1);
    }
}

int com_measure(const cli_recording *recs, const int *which, int n, const cli_phase_box *box,
                const com_limits *limits, com_estimate *out)
{
    memset(out, 0, sizeof *out);
    int *length = malloc(sizeof *length * (size_t)(n > 0 ? n : 1));
    if (!length) return -1;
    long samples = 0;
    for (int j = 0; j < n; j++) {
        length[j] = flight_length(&recs[which ? which[j] : j], box, limits);
        samples += length[j];
        out->recordings += length[j] > 0;
    }
    const long n_rows = 3 * samples;
    const int enough = out->recordings >= 2;
    double *t = malloc(sizeof *t * (size_t)(limits->max_samples > 0 ? limits->max_samples : 1));
    double *A = enough ? malloc(sizeof *A * (size_t)(n_rows * UNKNOWNS)) : NULL;
    double *b = enough ? malloc(sizeof *b * (size_t)n_rows) : NULL;
    int rc = t && A && b ? 0 : -1;
    long at = 0;
    for (int j = 0; j < n && rc == 0; j++) {
        if (length[j] == 0) continue;
        flight_rows(&recs[which ? which[j] : j], length[j], box, t, A + at * UNKNOWNS, b + at);
        at += 3L * length[j];
    }
    if (rc == 0) {
        double singular[UNKNOWNS];
        lapack_int rank = 0;
        const lapack_int info = LAPACKE_dgelsd(LAPACK_ROW_MAJOR, (lapack_int)n_rows, UNKNOWNS, 1, A,
                                               UNKNOWNS, b, 1, singular, 1e-10, &rank);
        if (info != 0 || rank < UNKNOWNS) rc = -1;
    }
    if (rc == 0) {
        /* with full rank, b's rows past the unknowns hold the residual, turned: its norm is the
           residual's (dgelsd's documentation) */
        double sum2 = 0.0;
        for (long r = UNKNOWNS; r < n_rows; r++) sum2 += b[r] * b[r];
        memcpy(out->com_m, b, sizeof out->com_m);
        out->g_mps2 = b[3];
        out->samples = (int)samples;
        out->rms_m = sqrt(sum2 / (double)n_rows);
    }
    free(length);
    free(t);
    free(A);
    free(b);
    return rc;
}
