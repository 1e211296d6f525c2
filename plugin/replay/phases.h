/// The phases of a recorded toss, classified from the recording alone (never from a simulation),
/// so that every model's replay is scored on the same samples: `impax replay --phases`. A sample
/// is classified from the recorded pose and velocity of a box-shaped body above a plane:
///
/// - contact: the box's lowest vertex is at most contact_tol_m above the plane;
/// - a touch: a sample in contact whose fastest-approaching vertex among those in contact comes
///   at the plane faster than impact_speed_mps (the first sample in contact is always a touch);
/// - an impact window: the samples within window_s of a touch (either side);
/// - rest: in contact and every vertex slower than rest_speed_mps.
///
/// Precedence: the first touch's window (FIRST_IMPACT), samples before it (FLIGHT), a later
/// touch's window (LATER_IMPACT), out of contact (AIRBORNE, between touches), rest (REST), else
/// in contact and moving (SLIDING: sliding or rolling). A recording that never touches is FLIGHT
/// throughout. docs/command.md "Phases of a toss" gives the reasons for the defaults.
#ifndef IMPAX_CLI_PHASES_H
#define IMPAX_CLI_PHASES_H

#include "replay.h"

typedef enum cli_phase {
    CLI_PHASE_FLIGHT,       /* before the first impact window */
    CLI_PHASE_FIRST_IMPACT, /* within window_s of the first sample in contact */
    CLI_PHASE_LATER_IMPACT, /* within window_s of a later touch */
    CLI_PHASE_AIRBORNE,     /* out of contact after the first touch, outside impact windows */
    CLI_PHASE_SLIDING,      /* in contact, moving: sliding or rolling */
    CLI_PHASE_REST,         /* in contact, every vertex slower than rest_speed_mps */
    CLI_PHASE_COUNT
} cli_phase;

/// The recorded body's box and the plane it lands on.
typedef struct cli_phase_box {
    double half_m[3]; /* half extents along the box's axes */
    double pos_m[3];  /* the box's centre in the body frame (the recording's frame) */
    double quat[4];   /* w x y z: the box's axes in the body frame */
    double normal[3]; /* the plane's unit normal, world frame, pointing out of it */
    double offset_m;  /* the plane is normal . x = offset_m */
} cli_phase_box;

typedef struct cli_phase_limits {
    double contact_tol_m;    /* m, lowest vertex above the plane still in contact */
    double impact_speed_mps; /* m/s, approach speed of a later touch */
    double window_s;         /* s, half width of an impact window */
    double rest_speed_mps;   /* m/s, every vertex slower than this: at rest */
} cli_phase_limits;

/// The defaults for the cube-toss recordings (148 Hz motion capture): contact 2 mm, later
/// touches faster than sqrt(2 g 2 mm) = 0.198 m/s, windows of ±0.015 s, rest below 0.015 m/s.
cli_phase_limits cli_phase_default_limits(void);

/// Fills phase[k] (rec->n entries) for every sample of rec. Returns the index of the first
/// sample in contact, or -1 if the recording never touches the plane.
int cli_phases_classify(const cli_recording *rec, const cli_phase_box *box,
                        const cli_phase_limits *limits, unsigned char *phase);

/// m: the height above the plane of box's lowest vertex at sample s.
double cli_phase_lowest_m(const cli_sample *s, const cli_phase_box *box);

/// "flight", "first impact", "later impacts", "airborne", "sliding/rolling", "rest".
const char *cli_phase_name(cli_phase p);

#endif
