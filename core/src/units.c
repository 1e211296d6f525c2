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
    return unit > 0.0 && isfinite(unit) ? unit : 1.0;
}
