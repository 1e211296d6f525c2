/// The friction a recorded box meets while it slides flat on a face: the deceleration of its
/// slides read from the recording alone, as an effective friction coefficient against the slip
/// speed (bench/slide_friction.c; docs/validation.md "The slides' friction rises with their
/// speed"). A sample counts when the box lies on one face (that face's axis within tilt_max_rad
/// of the plane's normal, the centre within height_tol_m of that face's rest height), spins
/// slower than spin_max_radps, and a parabola fitted to the centre's motion in the plane over
/// the 2 half_window + 1 samples around it keeps the slide going: faster than speed_min_mps at
/// the sample and than end_speed_mps at both ends of the window. Its coefficient is then
/// mu_eff = -a . v / (|v| g_n): the deceleration along the slip over the normal part of gravity.
/// The parabola is exact for a slide at a constant coefficient; for one whose coefficient
/// changes with the speed it reads the coefficient at the centre sample's speed to O(window^2).
#ifndef IMPAX_TEST_SLIDE_FRICTION_H
#define IMPAX_TEST_SLIDE_FRICTION_H

#include "phases.h"

/// The widest window slide_points takes, in samples either side.
#define SLIDE_MAX_HALF_WINDOW 32

typedef struct slide_limits {
    double tilt_max_rad;       /* face axis to plane normal */
    double height_tol_m;       /* centre to the face's rest height */
    double spin_max_radps;     /* |w| of the sample */
    double speed_min_mps;      /* fitted slip speed at the sample */
    double end_speed_mps;      /* fitted slip speed at both ends of the window */
    int half_window;           /* samples either side, 1 to SLIDE_MAX_HALF_WINDOW */
    int min_run;               /* slide_line: fewest consecutive points of one slide */
    double min_speed_span_mps; /* slide_line: fastest less slowest point of the slide */
} slide_limits;

/// The defaults for the cube tosses (148 Hz): tilt 0.81 deg (cos = 0.9999), height 0.4 mm,
/// spin 1 rad/s, 0.05 m/s at the sample, 0.01 m/s at the window's ends, 3 samples either side
/// (0.041 s); a slide line takes at least 12 points over at least 0.15 m/s.
slide_limits slide_default_limits(void);

typedef struct slide_point {
    int sample;       /* index in the recording */
    double speed_mps; /* fitted slip speed */
    double mu_eff;    /* -a . v / (|v| g_n) */
} slide_point;

/// The sliding samples of rec (pts: room for rec->n), in order; box: the recorded body's box and
/// the plane (cli_phase_box_of_scene), g_mps2 the world's gravity. Returns how many, or -1 if
/// limits->half_window is out of its range.
int slide_points(const cli_recording *rec, const cli_phase_box *box, const double g_mps2[3],
                 const slide_limits *limits, slide_point *pts);

/// The least-squares line mu_eff = mu_ref + slope (speed - ref_speed_mps) through the longest run
/// of consecutive samples among pts (one slide). 0, or -1 if that run is shorter than min_run or
/// spans less than min_speed_span_mps.
int slide_line(const slide_point *pts, int n, const slide_limits *limits, double ref_speed_mps,
               double *mu_ref, double *slope_s_per_m);

#endif
