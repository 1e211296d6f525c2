/* The Gonthier et al. force law of one contact (see impax/gonthier.h): the damping factor d(e)
   of Eq. 10, the normal force with its latched impact speed, and the seven-parameter
   dwell-time friction with its bristle and dwell states. */
#include <math.h>

#include "gonthier_internal.h"
#include "impax/gonthier.h"
#include "mathutil.h" /* ipx_length2 */

/* G(d) = ln(1 + d/e) - ln(1 - d) - d (1 + 1/e): negative on (0, root), positive above it up to
   d = 1 (docs/models/gonthier.md §2.3). log1p keeps its sign right for small d, where the first-order terms
   cancel; d that rounds to 1 gives +inf, also on the right side. */
static double eq10(double d, double e) { return log1p(d / e) - log1p(-d) - d * (1.0 + 1.0 / e); }

double ipx_gonthier_damping_factor(double e)
{
    if (!(e > 0.0) || e >= 1.0) return e >= 1.0 ? 0.0 : 1.0;
    /* bisection: 64 halvings reach the spacing of doubles below 1; d itself (not 1 - d) is
       all the force law uses, so no special small-e form is needed (docs/models/gonthier.md §2.4 wants one to
       represent 1 - d, which goes below 1e-16 for e < 0.07) */
    double lo = 0.0, hi = 1.0;
    for (int i = 0; i < 64; i++) {
        const double mid = 0.5 * (lo + hi);
        if (eq10(mid, e) < 0.0) lo = mid;
        else hi = mid;
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
    const double f = law->k * ipx_gonthier_depth_power(delta, law->p) * (1.0 + s->a * delta_dot);
    return f > 0.0 ? f : 0.0; /* never pulling (docs/models/gonthier.md §6.5) */
}

/* Eq. 20 as printed: v / |v| above v_eps, below it (v / v_eps)(1.5 r - 0.5 r^3), r = |v| / v_eps. */
static void dir_eps(const double v[2], double v_eps, double out[2])
{
    const double norm = ipx_length2(v[0], v[1]);
    const double scale =
        norm >= v_eps ? 1.0 / norm
                      : (1.5 - 0.5 * (norm / v_eps) * (norm / v_eps)) * (norm / v_eps) / v_eps;
    out[0] = v[0] * scale;
    out[1] = v[1] * scale;
}

/* One step of h of the friction law (Eqs. 15-26) for a contact of tangential inverse mass w
   (1/kg): stable for any mu and any bristle time constant, and it never gives back energy the
   slip did not put in. With the slip v at the step's start (body 1 relative to body 2), F the
   force against it (the force on body 1 is -F) and the end slip v+ = v - h w F:
   (a) Dampers and the bristle's stretch at the slip they leave (backward Euler): the stick
       damper s sigma1, the viscous sigma2 and the bristle spring's increment over the step
       (its force at z+ less its force at z: s h sigma0 v_d / D by (c) and (e)) act on
       v_d = v / (1 + h w c), c = s sigma1 + sigma2 + s h sigma0 / D, so h w c |v_d| < |v|:
       however large sigma0, sigma1, sigma2 (or h), they slow the slip, never reverse it.
       (Taken at v, as in the paper's explicit form, the dampers reverse it and grow once
       h w c > 2.)
   (b) Coulomb (19) at the slip the step leaves (backward Euler): F_C = mu_c f_n dir(v) unless
       that, with the dampers, carries the slip through zero within the step; then it stops it:
       |F_C| <= |v_d| / (h w), so h w ((1 - s)|F_C| + c |v_d|) <= |v|. Taken at v instead, a
       Coulomb force with h w mu_c f_n > 2 |v| reverses the slip, larger at every step.
   (c) Bristle (22) by backward Euler: z+ = z + h (s v_d + (1 - s)(F_C - sigma0 z+) / sigma1),
       z+ = (z + h s v_d + h (1 - s) F_C / sigma1) / D, D = 1 + (1 - s) h / tau_br: the
       relaxation toward F_C / sigma0 (tau_br = sigma1 / sigma0) is monotone for any h / tau_br.
   (d) Passivity: in slip the paper's bristle moves toward F_C / sigma0 at a rate that does not
       depend on the slip, so its elastic energy sigma0 |z|^2 / 2 can grow faster than friction
       takes energy from the bodies (when mu f_n > 4 sigma1 |v|: any slip at mu = 1000), and a
       stick then hands that energy to the bodies. So z+ is kept no longer than both |z| and
       |z + h v_d|, the bristle stretched by the slip itself: it stores only what the slip put
       in. At the paper's values (mu f_n < 4 sigma1 v_s) it binds only inside the Stribeck band
       (V3's peaks do not move). At mu f_n >> sigma1 |v| it makes the friction the bristle's
       spring-damper, sigma0 z + sigma1 z_dot <= mu_c f_n: a tangential compliance, as in the
       LuGre model the paper starts from (whose bristle follows the slip, so it is passive).
   (e) Force (15) with the same z_dot = (z+ - z) / h: f_br = sigma0 z+ + sigma1 z_dot
       (= s (sigma0 z+ + sigma1 v_d) + (1 - s) F_C while (d) does not bind), saturated at f_max
       (24, 25), F = sat(f_br) + sigma2 v_d (26).
   (f) A saturated bristle slides at its tip: z+ is kept within f_max / sigma0. The paper lets
       z grow on (docs/models/gonthier.md §6.10) while sat() holds the force; but a bristle stretched beyond
       what it can push back stores sigma0 |z|^2 / 2 it can never return, and then its elastic
       energy no longer measures what the contact holds (ipx_check's energy test counts it).
   (g) The bristles' spring and the bodies' motion are reconciled after the step, once its end
       slip v+ is known (keep_bristles_passive in gonthier.c): they give no energy they did not
       hold.
   With (a)-(c) the only term held at the step's start is the bristle's start stretch, its
   force s sigma0 z / D; its stretch over the step is taken at the slip the step leaves. That
   is symplectic Euler's rule for the bristle's spring (z+ from the end slip, the force at z+):
   for one contact of exact w in stick its step (z, v) -> (z+, v+) has determinant
   (1 + (omega h)^2) / (1 + (omega h)^2 + h w sigma1) <= 1 and trace in (1, 2], omega^2 =
   w sigma0, so it is stable at any step; for contacts coupled through W_tt with w their
   Gershgorin bounds w_i (friction_force in gonthier.c), the undamped step's
   h^2 sigma0 rho(A W_tt) <= max_i h^2 w_i sigma0 / (1 + h^2 w_i sigma0) < 1,
   A = diag(1 / (1 + h^2 w_i sigma0)), stays below symplectic Euler's bound 4
   (tests/unit/test_gonthier_coupled_bristles.c). Held at its
   start stretch with only the dampers in (a), the spring was stable while
   (omega h)^2 < 4 + 2 h w sigma1, and the sub-step was kept below 0.2 / sqrt(w sigma0) on the
   Gershgorin w: 869 sub-steps a 10 ms step on ODE's house of cards. The start stretch is not
   taken at the end slip too (backward Euler): the end slip (a) predicts leaves out the loads
   the friction holds (a host's spring, gravity, the other contacts' friction through W), so
   the bristle's own pull on the slip, h w sigma0 z, unloaded it each step until the stick
   crept at h w |load|: V3's block slid at its first peak of 0.98 N (of 1.5 N), a load held
   on a slope crept at 0.19 mm/s (test_gonthier_bristle_energy). w = 0 (an immovable
   body, or a slip the host imposes) leaves (a) and (b) out: the forces at the slip v, as the
   paper has them. (a) and (b) act on the slip
   the friction alone would leave: a host's other forces of the same step (a spring pulling,
   gravity) are not in v+, so a slip slower than h w mu_c f_n under such a load is stopped each
   step and started again by the load: V3's steady peak at 0.15 m/s is 1.284 N at h = 1 ms
   with w = 1 / (1 kg) (1.300 N with w = 0 or at h = 0.1 ms). Given the load's rate a_t
   (ipx_gonthier_friction_loaded), (b) may also stop the slip h a_t adds along v within the
   step: a load static friction holds then sticks, where it crept at h w |load| for good
   (faster than v_s it never sticks again: tests/unit/test_gonthier_held_load.c). */
/* s of Eq. 17 for the slip v_t: 0 where exp underflows (past 745, through libm's slow path). */
static double stick_weight(const ipx_gonthier_law *law, const double v_t[2])
{
    const double x = (v_t[0] * v_t[0] + v_t[1] * v_t[1]) / (law->v_s * law->v_s);
    return x < 745.0 ? exp(-x) : 0.0;
}

/* (c)'s divisor of the bristle: 1 + (1 - s) h / tau_br, tau_br = sigma1 / sigma0. */
static double relaxation_divisor(const ipx_gonthier_law *law, double stick, double h)
{
    return 1.0 + (1.0 - stick) * h * law->sigma0 / law->sigma1;
}

/* (a)'s divisor of the slip: 1 + h w (s sigma1 + sigma2 + s h sigma0 / D), the dampers and
   the bristle spring's stretch over the step h (s), w (1/kg), D: relaxation_divisor. */
static double damper_divisor(const ipx_gonthier_law *law, double stick, double h, double w,
                             double D)
{
    return 1.0 + h * w * (stick * (law->sigma1 + h * law->sigma0 / D) + law->sigma2);
}

void ipx_gonthier_friction(ipx_gonthier_state *s, const ipx_gonthier_law *law, double f_n,
                           const double v_t[2], double h, double w_t, double f_t[2])
{
    ipx_gonthier_friction_loaded(s, law, f_n, v_t, NULL, h, w_t, f_t);
}

void ipx_gonthier_friction_loaded(ipx_gonthier_state *s, const ipx_gonthier_law *law, double f_n,
                                  const double v_t[2], const double a_t[2], double h, double w_t,
                                  double f_t[2])
{
    const double vv = v_t[0] * v_t[0] + v_t[1] * v_t[1];
    const double stick = stick_weight(law, v_t), slip = 1.0 - stick, hw = h * w_t;
    const double D = relaxation_divisor(law, stick, h);        /* (c) */
    const double damp = damper_divisor(law, stick, h, w_t, D); /* (a) */
    double C[2], v_d[2], z1[2], f_br[2];
    dir_eps(v_t, law->v_eps, C);
    for (int j = 0; j < 2; j++) {
        C[j] *= law->mu_c * f_n; /* (19) */
        v_d[j] = v_t[j] / damp;
    }
    /* (b), out of what the dampers leave: h w ((1 - s)|F_C| + (s sigma1 + sigma2)|v_d|) <= |v|
       plus what the load adds to the slip along it within the step */
    const double push = a_t && vv > 0.0 ? fmax(h * (a_t[0] * v_t[0] + a_t[1] * v_t[1]), 0.0)
                                        : 0.0; /* m^2/s^2: h a.v */
    const double c_norm = ipx_length2(C[0], C[1]),
                 reach = hw > 0.0 ? (sqrt(vv) / damp + push / sqrt(vv)) / hw : INFINITY;
    if (c_norm > reach)
        for (int j = 0; j < 2; j++) C[j] *= reach / c_norm;
    for (int j = 0; j < 2; j++)
        z1[j] = (s->z[j] + h * stick * v_d[j] + h * slip * C[j] / law->sigma1) / D;
    const double len = ipx_length2(z1[0], z1[1]); /* (d) */
    const double room = fmax(ipx_length2(s->z[0], s->z[1]),
                             ipx_length2(s->z[0] + h * v_d[0], s->z[1] + h * v_d[1]));
    if (len > room)
        for (int j = 0; j < 2; j++) z1[j] *= room / len;
    for (int j = 0; j < 2; j++)
        f_br[j] = law->sigma0 * z1[j] + law->sigma1 * (z1[j] - s->z[j]) / h;    /* (e) */
    const double f_max = f_n * (law->mu_c + (law->mu_s - law->mu_c) * s->s_dw); /* (24) */
    const double norm = ipx_length2(f_br[0], f_br[1]);
    const double sat = norm > f_max ? (norm > 0.0 ? f_max / norm : 0.0) : 1.0; /* (25) */
    const double z_len = ipx_length2(z1[0], z1[1]), z_max = f_max / law->sigma0;
    const double tip = sat < 1.0 && z_len > z_max ? z_max / z_len : 1.0; /* (f) */
    for (int j = 0; j < 2; j++) {
        f_t[j] = -(sat * f_br[j] + law->sigma2 * v_d[j]); /* (26): on body 1, against the slip */
        s->z[j] = tip * z1[j];
    }
    /* (23), integrated exactly over h for the rate of this step (stable for any h) */
    const double tau = stick >= s->s_dw ? law->tau_dw : law->sigma1 / law->sigma0;
    s->s_dw += (stick - s->s_dw) * -expm1(-h / tau);
}

/* The part of ipx_gonthier_friction's force (on body 1) that does not depend on f_n: the
   bristle and the dampers with the Coulomb pull F_C left out, before (d) and the saturation.
   In stick (s = 1) it is the whole unsaturated force, the bristle's spring-damper
   sigma0 (z + h v_d) + sigma1 v_d; in slip (s = 0) the bristle's spring and its relaxation
   cancel (z+ = z / D, D = 1 + h sigma0 / sigma1) and only the viscous sigma2 v_d is left. */
void ipx_gonthier_friction_stick(const ipx_gonthier_state *s, const ipx_gonthier_law *law,
                                 const double v_t[2], double h, double w_t, double f_t[2])
{
    const double stick = stick_weight(law, v_t);
    const double D = relaxation_divisor(law, stick, h); /* (c) */
    const double damp = damper_divisor(law, stick, h, w_t, D);
    for (int j = 0; j < 2; j++) {
        const double v_d = v_t[j] / damp, z1 = (s->z[j] + h * stick * v_d) / D;
        f_t[j] = -(law->sigma0 * z1 + law->sigma1 * (z1 - s->z[j]) / h + law->sigma2 * v_d);
    }
}
