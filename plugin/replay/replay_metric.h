/// The errors of a replay against its recording, sample by sample: `impax replay`'s and
/// `impax fit`'s, and the anchors' (bench/anchors), so that every simulator is scored alike.
#ifndef IMPAX_CLI_REPLAY_METRIC_H
#define IMPAX_CLI_REPLAY_METRIC_H

#ifdef __cplusplus
extern "C" {
#endif

/// m: the distance |a - b| between two positions.
double cli_position_error_m(const double a[3], const double b[3]);
/// deg, in [0, 180]: the angle of the rotation q_a^-1 q_b between two orientations (unit
/// quaternions w x y z; q and -q are the same orientation).
double cli_orientation_error_deg(const double q_a[4], const double q_b[4]);

#ifdef __cplusplus
}
#endif
#endif
