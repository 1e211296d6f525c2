/// cli_axis_range, the axis every `impax` plot uses: a margin around a real span, and a usable
/// span around values that are equal or equal to round-off (PLplot loops forever on a span of a
/// few ulps: `impax set` on a one-point outcome set hung there).
#include <float.h>
#include <math.h>

#include "axis.h"
#include "ensure.h"

static void test_a_real_span_gets_five_percent_each_side(void)
{
    double lo, hi;
    cli_axis_range(-1.0, 3.0, &lo, &hi);
    ENSURE_NEAR(lo, -1.2, 1e-15);
    ENSURE_NEAR(hi, 3.2, 1e-15);
}

static void test_values_equal_to_round_off_get_a_span_around_them(void)
{
    const double v = 2.2171;
    double lo, hi;
    cli_axis_range(v, v + 2 * v * DBL_EPSILON, &lo, &hi); /* the outcome set that hung */
    ENSURE(hi - lo > 0.09 * v && lo < v && hi > v);
    ENSURE_NEAR(0.5 * (lo + hi), v, 1e-12);
    cli_axis_range(-v, -v, &lo, &hi); /* exactly constant, negative */
    ENSURE(lo < -v && hi > -v && hi - lo > 0.09 * v);
    cli_axis_range(v, v * (1 + 0.5 * CLI_AXIS_MIN_RELATIVE_SPAN), &lo, &hi);
    ENSURE(hi - lo > 0.09 * v);
}

static void test_zero_gets_a_unit_span(void)
{
    double lo, hi;
    cli_axis_range(0.0, 0.0, &lo, &hi);
    ENSURE(lo == -1.0 && hi == 1.0);
    cli_axis_range(-1e-300, 1e-300, &lo, &hi); /* denormal-sized: zero for any plot */
    ENSURE(lo == -1.0 && hi == 1.0);
}

static void test_a_small_but_real_span_is_kept(void)
{
    double lo, hi;
    cli_axis_range(1e-6, 3e-6, &lo, &hi); /* small numbers, a real spread */
    ENSURE_NEAR(lo, 0.9e-6, 1e-18);
    ENSURE_NEAR(hi, 3.1e-6, 1e-18);
    cli_axis_range(1.0, 1.0 + 1e-6, &lo, &hi); /* a ppm spread is data, not round-off */
    ENSURE(hi - lo < 2e-6);
}

int main(void)
{
    RUN(test_a_real_span_gets_five_percent_each_side);
    RUN(test_values_equal_to_round_off_get_a_span_around_them);
    RUN(test_zero_gets_a_unit_span);
    RUN(test_a_small_but_real_span_is_kept);
    return ipx_test_exit();
}
