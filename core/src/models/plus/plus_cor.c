/* The velocity-dependent coefficient of restitution of PLUS (paper Fig. 2; docs/models/plus.md §3). */
#include "impax/plus.h"

double ipx_plus_cor(double approach, double e_min, double v_capture, double v_plastic)
{
    /* capture band: a compliant contact stops rebounding at low speed; a separating contact
       (approach < 0, only in the all-participate variant) never bounces */
    if (approach < v_capture || approach < 0.0) return 0.0;
    /* v_plastic = 0 means "v_capture": the line below then never applies (constant COR) */
    double v_p = v_plastic > 0.0 ? v_plastic : v_capture;
    if (approach >= v_p) return e_min;
    /* linear from (0, 1) to (v_p, e_min) */
    double e = 1.0 - (1.0 - e_min) * approach / v_p;
    return e > e_min ? e : e_min;
}
