/// PLUS interval length (plus_step.c): how far an interval (plus_interval.c) may go for one
/// sliding contact.
#ifndef IMPAX_PLUS_STEP_H
#define IMPAX_PLUS_STEP_H

/* alpha of one sliding contact (v0, d: start slip and its change, m/s); *limit says which rule
   gave it. */
enum { PLUS_LIMIT_NONE = 0, PLUS_LIMIT_END, PLUS_LIMIT_CLOSEST, PLUS_LIMIT_DIRECTION };
double plus_slide_alpha(const double v0[2], const double d[2], double v_t, double cos_theta,
                        double alpha_min, int *limit);

#endif
