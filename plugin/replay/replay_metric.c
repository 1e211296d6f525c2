/* The errors of a replay against its recording (replay_metric.h). */
#include "replay_metric.h"

#include <math.h>

double cli_position_error_m(const double a[3], const double b[3])
{
    const double dx = a[0] - b[0], dy = a[1] - b[1], dz = a[2] - b[2];
    return sqrt(dx * dx + dy * dy + dz * dz);
}

double cli_orientation_error_deg(const double a[4], const double b[4])
{
    /* d = conj(a) b; its angle 2 atan2(|d_v|, |d_w|) is accurate near 0 (acos is not), and |d_w|
       folds the double cover */
    const double w = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
    const double x = a[0] * b[1] - a[1] * b[0] - a[2] * b[3] + a[3] * b[2];
    const double y = a[0] * b[2] - a[2] * b[0] - a[3] * b[1] + a[1] * b[3];
    const double z = a[0] * b[3] - a[3] * b[0] - a[1] * b[2] + a[2] * b[1];
    return 2.0 * atan2(sqrt(x * x + y * y + z * z), fabs(w)) * (180.0 / 3.14159265358979323846);
}
