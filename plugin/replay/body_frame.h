/// A recording's frame and a simulator's body frame. A recording tracks a frame fixed on the body
/// (for the cube tosses, the cube's geometric centre and faces); a simulator moves the body by
/// its centre of mass and inertial axes. The two differ where the mass sits off the tracked
/// frame: an SDF link whose `<inertial><pose>` is not zero (docs/validation.md "The cube's
/// centre of mass"). These turn a sample of one into the other; no simulator behind them.
#ifndef IMPAX_CLI_BODY_FRAME_H
#define IMPAX_CLI_BODY_FRAME_H

#include "recording.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cli_body_frame {
    double com_m[3]; /* m, the centre of mass in the tracked frame */
    double q[4];     /* the inertial axes in the tracked frame: unit, inertial to tracked */
} cli_body_frame;

/// The centre of mass at the tracked frame's origin, the axes its own.
cli_body_frame cli_body_frame_identity(void);

/// From where the centre of mass sits (m) and the axes' rotation matrix (row major, columns the
/// inertial axes in the tracked frame).
cli_body_frame cli_body_frame_make(const double com_m[3], const double R[9]);

/// A tracked sample as the body's: x + r, q ⊗ q_f, v + w × r (w in the world frame, r = R com,
/// R the tracked orientation), the angular velocity in the inertial axes. The identity frame,
/// and a sample whose quaternion is zero or not finite, copy the sample as it is (a state set
/// from the latter is refused: replay.h).
void cli_body_frame_to_body(const cli_body_frame *f, const cli_sample *tracked, cli_sample *body);

/// The inverse of cli_body_frame_to_body: the tracked frame's sample of a body's state.
void cli_body_frame_to_tracked(const cli_body_frame *f, const cli_sample *body,
                               cli_sample *tracked);

#ifdef __cplusplus
}
#endif
#endif
