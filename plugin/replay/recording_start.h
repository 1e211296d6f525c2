/// The state a replay starts from (`impax replay`, `impax fit`, the anchors: `--start`). A
/// recording's first sample is a noisy estimate of it: motion capture's positions and
/// orientations carry noise, and a recorded velocity is often a backward difference of them,
/// half a sample late (the cube-toss data set's is). A start fitted to the free flight the first
/// samples record averages the noise out and takes the velocities at the first sample's time.
///
/// The flight: the centre moves under constant gravity g, x(t) = x0 + v0 t + g t^2 / 2, and the
/// body turns at a constant angular velocity w in the world frame, q(t) = exp(w t / 2) q0. The
/// second is exact for a body whose inertia is isotropic (a uniform cube or sphere: no
/// gyroscopic torque); for another body it is the mean rotation rate over the window. Both are
/// linear in their unknowns (x0, v0; the rotation vectors of q(t) q(0)^-1 against t), so each is
/// a straight-line least-squares fit.
#ifndef IMPAX_CLI_RECORDING_START_H
#define IMPAX_CLI_RECORDING_START_H

#include "body_frame.h"
#include "recording.h"

#ifdef __cplusplus
extern "C" {
#endif

/// A window of samples counts as free flight while every sample's position lies within this
/// of the fit (m) and its orientation within CLI_START_TOL_RAD. The cube tosses' flights fit to
/// 0.22 mm and 0.085 deg (medians; 0.42 mm and 0.22 deg at the 90th percentile); three samples
/// after the first touch, to 6 mm and 1.4 deg or worse (docs/validation.md).
#define CLI_START_TOL_M 1e-3
#define CLI_START_TOL_RAD 8.7266462599716478e-3 /* 0.5 deg */
/// The fewest samples a fit takes: a line through two points leaves no residual to judge.
#define CLI_START_MIN_SAMPLES 3
/// The most samples `--start fit` takes (0.135 s at the tosses' 148 Hz).
#define CLI_START_DEFAULT_SAMPLES 20
/// The most samples `--start fit:N` may ask for.
#define CLI_START_MAX_SAMPLES 1000

#define CLI_START_TEXT(x) #x
#define CLI_START_NUMBER(x) CLI_START_TEXT(x)
/// What `--start` accepts, for the commands' usage errors (the bounds from the constants above).
#define CLI_START_VALUES                                                                          \
    "recorded, fit or fit:N (N " CLI_START_NUMBER(CLI_START_MIN_SAMPLES) " to " CLI_START_NUMBER( \
        CLI_START_MAX_SAMPLES) ")"

/// Reads a `--start` value: "recorded" (*max_samples = 0: the first sample as recorded),
/// "fit" (CLI_START_DEFAULT_SAMPLES) or "fit:N" (N in [CLI_START_MIN_SAMPLES,
/// CLI_START_MAX_SAMPLES]). 0, or -1 if text is none of these.
int cli_start_parse(const char *text, int *max_samples);

/// Fits the free flight (above) under gravity g_mps2 (world frame) to the longest window of rec's
/// first n <= max_samples samples whose residuals stay within CLI_START_TOL_M and
/// CLI_START_TOL_RAD and whose centres, under non-zero gravity, do not also lie within
/// CLI_START_TOL_M of a line (a window that cannot tell a fall from rest or a slide on a table is
/// not taken), and makes the flight's state at the first sample's time rec's start
/// (cli_recording_start): position, orientation, velocity and angular velocity (body frame).
/// The flight fitted is the centre of mass's, where frame (NULL: the tracked origin) puts it
/// (body_frame.h); the start is the tracked frame's.
/// Returns the window's size, or 0 if no window of CLI_START_MIN_SAMPLES fits (the recording
/// then starts from its first sample as recorded). The samples themselves stay as recorded.
int cli_recording_fit_start(cli_recording *rec, int max_samples, const double g_mps2[3],
                            const cli_body_frame *frame);

/// Applies cli_recording_fit_start to every recording (nothing if max_samples is 0) and
/// summarises it in summary (NULL: none): how many were fitted, the windows' sizes, how many
/// kept their first sample.
void cli_recordings_fit_start(cli_recording *recs, int n, int max_samples, const double g_mps2[3],
                              const cli_body_frame *frame, char *summary, size_t summary_size);

#ifdef __cplusplus
}
#endif
#endif
