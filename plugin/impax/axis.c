#include "axis.h"

#include <math.h>

enum { MARGIN_PERCENT = 5 };
/* Below this magnitude values are zero for any plot (and keep the tick arithmetic away from
   denormals). */
static const double TINY = 1e-200;

void cli_axis_range(double lo, double hi, double *axis_lo, double *axis_hi)
{
    const double margin = MARGIN_PERCENT / 100.0;
    const double span = hi - lo, scale = fmax(fabs(lo), fabs(hi));
    if (scale > TINY && span > CLI_AXIS_MIN_RELATIVE_SPAN * scale) {
        *axis_lo = lo - margin * span;
        *axis_hi = hi + margin * span;
        return;
    }
    /* No usable span: centre the axis on the data (on 0 for values that are zero). */
    const double mid = scale > TINY ? 0.5 * lo + 0.5 * hi : 0.0;
    const double half = scale > TINY ? margin * scale : 1.0;
    *axis_lo = mid - half;
    *axis_hi = mid + half;
}
