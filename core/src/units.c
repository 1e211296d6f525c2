#include <math.h>

#include "impax/problem.h"
#include "units.h"

/* The power of two nearest x (1 if x is not a positive finite number): multiplying by it is
   exact, so W's block keeps every digit and a problem whose units change by a power of two is
   solved to the same bits. */
static double nearest_power_of_two(double x)
{
    if (!(x > 0.0) || !isfinite(x)) return 1.0;
    int e;
    const double m = frexp(x, &e); /* x = m 2^e, m in [0.5, 1) */
    return ldexp(1.0, m < 0.70710678118654752 /* 1/sqrt 2 */ ? e - 1 : e);
}

double ipx_mass_unit(int k, const double *W)
{
    const ipx_problem p = {.k = k, .W = W};
    return ipx_problem_mass_unit(&p);
}

double ipx_problem_mass_unit(const ipx_problem *p)
{
    double sum = 0.0;
    for (int i = 0; i < p->k; i++) sum += ipx_problem_W_diag(p, IPX_ROWS_PER_CONTACT * i + IPX_N);
    return nearest_power_of_two(p->k / sum);
}

double ipx_contact_scale(double unit, double wnn)
{
    const double x = sqrt(unit / wnn);
    return x > 0.0 && isfinite(x) ? nearest_power_of_two(x) : unit;
}
