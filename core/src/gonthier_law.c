/* The Gonthier et al. force law of one contact (see impax/gonthier.h): the damping factor d(e)
   of Eq. 10, the normal force with its latched impact speed, and the seven-parameter
   dwell-time friction with its bristle and dwell states. */
#include <math.h>

#include "impax/gonthier.h"

/* G(d) = ln(1 + d/e) - ln(1 - d) - d (1 + 1/e): negative on (0, root), positive above it up to
   d = 1 (spec 2.3). log1p keeps its sign right for small d, where the first-order terms
   cancel; d that rounds to 1 gives +inf, also on the right side. */
static double eq10(double d, double e)
{
    return log1p(d / e) - log1p(-d) - d * (1.0 + 1.0 / e);
}

double ipx_gonthier_damping_factor(double e)
{
    if (!(e > 0.0) || e >= 1.0) return e >= 1.0 ? 0.0 : 1.0;
    /* bisection: 64 halvings reach the spacing of doubles below 1; d itself (not 1 - d) is
       all the force law uses, so no special small-e form is needed (spec 2.4 wants one to
       represent 1 - d, which goes below 1e-16 for e < 0.07) */
    double lo = 0.0, hi = 1.0;
    for (int i = 0; i < 64; i++) {
        const double mid = 0.5 * (lo + hi);
        if (eq10(mid, e) < 0.0)
            lo = mid;
        else
            hi = mid;
    }
    return 0.5 * (lo + hi);
}

ipx_gonthier_state ipx_gonthier_fresh(const ipx_gonthier_law *law)
{
    return (ipx_gonthier_state){.z = {0.0, 0.0}, .s_dw = law->s_dw_onset, .a = 0.0, .v_imp = 0.0};
}

double ipx_gonthier_normal(ipx_gonthier_state *s, const ipx_gonthier_law *law, double delta,
                           double delta_dot)
{
    if (!(delta > 0.0)) return 0.0;
    if (s->v_imp == 0.0) { /* onset: latch v_imp and a = d(e) / (e v_imp) (Eq. 11) */
        s->v_imp = fmax(delta_dot, law->v_floor);
        s->a = ipx_gonthier_damping_factor(law->e) / (law->e * s->v_imp);
    }
    const double f = law->k * pow(delta, law->p) * (1.0 + s->a * delta_dot);
    return f > 0.0 ? f : 0.0; /* never pulling (spec 6.5) */
}

/* Eq. 20 as printed: v / |v| above v_eps, below it (v / v_eps)(1.5 r - 0.5 r^3), r = |v| / v_eps. */
static void dir_eps(const double v[2], double v_eps, double out[2])
{
    const double norm = hypot(v[0], v[1]);
    const double scale = norm >= v_eps ? 1.0 / norm : (1.5 - 0.5 * (norm / v_eps) * (norm / v_eps)) * (norm / v_eps) / v_eps;
    out[0] = v[0] * scale;
    out[1] = v[1] * scale;
}

void ipx_gonthier_friction(ipx_gonthier_state *s, const ipx_gonthier_law *law, double f_n,
                           const double v_t[2], double h, double f_t[2])
{
    ipx_gonthier_friction_step(s, law, f_n, v_t, h, 0.0, f_t);
}

void ipx_gonthier_friction_step(ipx_gonthier_state *s, const ipx_gonthier_law *law, double f_n,
                                const double v_t[2], double h, double w_t, double f_t[2])
{
    const double vv = v_t[0] * v_t[0] + v_t[1] * v_t[1];
    const double stick = exp(-vv / (law->v_s * law->v_s)); /* s, Eq. 17 (underflows to 0: fine) */
    double dir[2], f_c[2], z_dot[2], f_br[2];
    dir_eps(v_t, law->v_eps, dir);
    for (int j = 0; j < 2; j++) f_c[j] = law->mu_c * f_n * dir[j]; /* (19) */
    /* Coulomb at the slip the step leaves (backward Euler): a force that would carry the slip
       through zero within the step (h w_t |f_c| > |v_t|) stops it instead. Taken at the slip
       the step starts with (explicit), mu_c f_n reverses the slip whenever f_n is large for the
       step, and the next step's reversed force reverses it again, larger: the friction then
       works on the bodies instead of dissipating. */
    const double f_c_norm = hypot(f_c[0], f_c[1]), reach = w_t > 0.0 ? sqrt(vv) / (h * w_t) : INFINITY;
    if (f_c_norm > reach)
        for (int j = 0; j < 2; j++) f_c[j] *= reach / f_c_norm;
    for (int j = 0; j < 2; j++) {
        z_dot[j] = stick * v_t[j] + (1.0 - stick) * (f_c[j] - law->sigma0 * s->z[j]) / law->sigma1; /* (22) */
        f_br[j] = law->sigma0 * s->z[j] + law->sigma1 * z_dot[j];                                 /* (15) */
    }
    const double f_max = f_n * (law->mu_c + (law->mu_s - law->mu_c) * s->s_dw); /* (24) */
    const double norm = hypot(f_br[0], f_br[1]);
    const double sat = norm > f_max ? (norm > 0.0 ? f_max / norm : 0.0) : 1.0; /* (25) */
    for (int j = 0; j < 2; j++) {
        f_t[j] = -(sat * f_br[j] + law->sigma2 * v_t[j]); /* (26): on body 1, against v_t */
        s->z[j] += z_dot[j] * h;
    }
    /* (23), integrated exactly over h for the rate of this step (stable for any h) */
    const double tau = stick >= s->s_dw ? law->tau_dw : law->sigma1 / law->sigma0;
    s->s_dw += (stick - s->s_dw) * -expm1(-h / tau);
}
