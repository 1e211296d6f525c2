/* Gonthier et al.'s seven-parameter friction on the Bowden-Leben stick-slip machine (spec
   docs/models/gonthier.md §V3, the paper's Table I): a 1 kg block tied to the origin by a 2 N/m spring
   rests on a plate (f_n = 10 N) that moves at 0.05, 0.10 or 0.15 m/s at 45 degrees. Starting in
   stick, the block rides with the plate until the spring pulls with the full stiction
   mu_s f_n = 1.5 N (a stretch of 0.75 m), then slips back; afterwards the dwell state limits
   the peaks, lower at higher speed. Also: the force is a vector opposing the slip, the
   Coulomb level in steady sliding, and stiction that grows with dwell time. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ensure.h"
#include "impax/gonthier.h"
#include "model_test.h"

static ipx_gonthier_law table_one(void)
{
    ipx_params par = ipx_test_params("gonthier", "preset=1");
    const ipx_contact c = {.mu = 0.0, .e = 0.5};
    ipx_gonthier_law law;
    ipx_gonthier_law_for(par.value, &c, &law);
    return law;
}

typedef struct machine_run {
    double first_slip;  /* s: the block first moves against the plate faster than v_s */
    double first_peak;  /* N: largest friction before that */
    double steady_peak; /* N: largest friction over the last 20 s */
} machine_run;

static machine_run machine(double plate_speed, double duration)
{
    const ipx_gonthier_law law = table_one();
    ipx_gonthier_state st = ipx_gonthier_fresh(&law);
    st.s_dw = 1.0; /* the paper starts in stick */
    const double h = 1e-3, m = 1.0, spring = 2.0, f_n = 10.0;
    const double vp[2] = {plate_speed * sqrt(0.5), plate_speed * sqrt(0.5)};
    double x[2] = {0.0, 0.0}, u[2] = {vp[0], vp[1]};
    machine_run out = {-1.0, 0.0, 0.0};
    for (long step = 0; step * h < duration; step++) {
        const double t = step * h;
        const double v_t[2] = {u[0] - vp[0], u[1] - vp[1]};
        double f[2];
        ipx_gonthier_friction(&st, &law, f_n, v_t, h, 1.0 / m, f);
        const double f_mag = hypot(f[0], f[1]);
        if (out.first_slip < 0.0) {
            out.first_peak = fmax(out.first_peak, f_mag);
            if (hypot(v_t[0], v_t[1]) > law.v_s) out.first_slip = t;
        }
        if (t > duration - 20.0) out.steady_peak = fmax(out.steady_peak, f_mag);
        for (int j = 0; j < 2; j++) {
            u[j] += (-spring * x[j] + f[j]) / m * h;
            x[j] += u[j] * h;
        }
    }
    return out;
}

static void test_bowden_leben_first_slip_and_steady_peaks(void)
{
    const double speed[3] = {0.05, 0.10, 0.15};
    const double peak[3] = {1.495, 1.436,
                            1.300}; /* docs/models/gonthier.md §V3 (h = 1e-3 and 1e-4 agree) */
    for (int i = 0; i < 3; i++) {
        const machine_run r = machine(speed[i], 80.0);
        printf("  plate %.2f m/s: first slip %.3f s (0.75 m / v = %.3f s), first peak %.4f N, "
               "steady peak %.4f N (spec %.3f)\n",
               speed[i], r.first_slip, 0.75 / speed[i], r.first_peak, r.steady_peak, peak[i]);
        ENSURE(fabs(r.first_slip / (0.75 / speed[i]) - 1.0) < 0.02);
        ENSURE(fabs(r.first_peak / 1.5 - 1.0) < 0.02); /* the first peak reaches mu_s f_n */
        ENSURE(fabs(r.steady_peak / peak[i] - 1.0) < 0.02);
    }
}

/* Steady sliding at 1 m/s (s = 0): the force is mu_c f_n + sigma2 |v|, against the slip, and
   the dwell state decays to 0 with tau_br. */
static void test_steady_sliding_is_coulomb_against_the_slip(void)
{
    const ipx_gonthier_law law = table_one();
    ipx_gonthier_state st = ipx_gonthier_fresh(&law);
    const double v_t[2] = {0.6, -0.8}, h = 1e-4;
    double f[2] = {0.0, 0.0};
    for (int i = 0; i < 2000; i++) ipx_gonthier_friction(&st, &law, 10.0, v_t, h, 0.0, f);
    const double expect = law.mu_c * 10.0 + law.sigma2 * 1.0;
    ENSURE_NEAR(f[0], -0.6 * expect, 1e-6);
    ENSURE_NEAR(f[1], 0.8 * expect, 1e-6);
    ENSURE(st.s_dw < 1e-6);
}

/* Stuck under a tangential load just below mu_c f_n, the bristle holds it; the breakaway limit
   climbs from mu_c f_n toward mu_s f_n with the dwell time constant: after tau_dw the dwell
   state is 1 - 1/e. */
static void test_stiction_grows_with_dwell_time(void)
{
    const ipx_gonthier_law law = table_one();
    ipx_gonthier_state st = ipx_gonthier_fresh(&law); /* s_dw_onset 0: a fresh contact */
    const double v_t[2] = {0.0, 0.0}, h = 1e-3;
    double f[2];
    for (long i = 0; i < (long)(law.tau_dw / h + 0.5); i++)
        ipx_gonthier_friction(&st, &law, 10.0, v_t, h, 0.0, f);
    ENSURE_NEAR(st.s_dw, 1.0 - exp(-1.0), 1e-6);
    ENSURE(f[0] == 0.0 && f[1] == 0.0); /* no slip, no deflection: no force */
}

int main(void)
{
    RUN(test_bowden_leben_first_slip_and_steady_peaks);
    RUN(test_steady_sliding_is_coulomb_against_the_slip);
    RUN(test_stiction_grows_with_dwell_time);
    return ipx_test_exit();
}
