/// Where a tossed box's centre of mass sits in the frame its recordings track, measured from the
/// recordings' free flights alone (bench/com_offset.c; docs/validation.md "The cube's centre of
/// mass"). In free flight the centre of mass falls on a parabola, c0 + v0 t - g t^2 n / 2 (n the
/// plane's normal), while the tracked origin is the centre of mass less R(t) com, R the recorded
/// orientation: x(t) = c0 + v0 t - g t^2 n / 2 - R(t) com. Over each recording's flight (its first
/// samples while the box's lowest vertex stays clearance_m or more above the plane, at most
/// max_samples of them) c0 and v0 are the recording's own, com and g shared by all: a linear
/// least-squares problem. Each recording's c0 and v0 are projected out of its rows (exactly: a
/// line in t per coordinate), and LAPACK's dgelsd solves the four unknowns left. com shows only
/// where the bodies turn in flight, and a flight spinning about one body axis leaves com's part
/// along that axis unseen: flights that do not turn, or that all spin about the same body axis,
/// leave it undetermined (refused).
#ifndef IMPAX_TEST_COM_OFFSET_H
#define IMPAX_TEST_COM_OFFSET_H

#include "phases.h"

typedef struct com_limits {
    double clearance_m; /* lowest vertex above the plane for a sample to count as flight */
    int min_samples;    /* a recording's flight counts with this many samples or more */
    int max_samples;    /* the first samples of a flight taken, at most */
} com_limits;

/// For the cube tosses (148 Hz): 4 mm, 6 samples, 25 samples (0.17 s).
com_limits com_default_limits(void);

typedef struct com_estimate {
    double com_m[3]; /* the centre of mass in the tracked frame */
    double g_mps2;   /* the flights' acceleration along -n */
    int recordings;  /* whose flights were taken */
    int samples;     /* in those flights */
    double rms_m;    /* of the residuals, per coordinate */
} com_estimate;

/// The estimate from recordings recs[which[0..n)] (which NULL: recs[0..n)); box: the recorded
/// body's box and the plane (cli_phase_box_of_scene). 0, or -1 if fewer than two flights count,
/// out of memory, or the flights leave com or g undetermined (rank below 4).
int com_measure(const cli_recording *recs, const int *which, int n, const cli_phase_box *box,
                const com_limits *limits, com_estimate *out);

#endif
