#include <math.h>

#include "units.h"

double ipx_mass_unit(int k, const double *W)
{
    const size_t n = (size_t)IPX_ROWS_PER_CONTACT * (size_t)k;
    double sum = 0.0;
    for (int i = 0; i < k; i++) {
        const size_t r = (size_t)IPX_ROWS_PER_CONTACT * (size_t)i + IPX_N;
        sum += W[r + n * r];
    }
    const double unit = k / sum;
    if (!(unit > 0.0) || !isfinite(unit)) return 1.0;
    /* the nearest power of two: multiplying by it is exact, so W's block keeps every digit and
       a problem whose units change by a power of two is solved to the same bits */
    int e;
    const double m = frexp(unit, &e); /* unit = m 2^e, m in [0.5, 1) */
    return ldexp(1.0, m < 0.70710678118654752 /* 1/sqrt 2 */ ? e - 1 : e);
}
