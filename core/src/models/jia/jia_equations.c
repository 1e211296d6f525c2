/* The equations of Jia's model in scaled time tau, one RK4 step and the event functions (see
   jia_ctx.h for the variables). */
#include <math.h>

#include "jia_ctx.h"
#include "mathutil.h"

/* Event location: bracket width relative to the step (an error of 1e-11 h in tau moves I by
   about 1e-11 h D, below the RK4 error), and an iteration cap. */
#define LOCATE_TOL 1e-11
#define LOCATE_MAX_ITERS 200

void ipx_jia_velocity(const ipx_jia_consts *k, const double y[IPX_JIA_NY], double v[3])
{
    ipx_mat3_vec(k->W, y, v); /* y starts with I = (I_t1, I_t2, I_n) */
    for (int i = 0; i < 3; i++) v[i] += k->v0[i];
}

double ipx_jia_slip_radius(const ipx_jia_consts *k, ipx_jia_phase phase)
{
    /* text: E_u + E_w = mu^2 eta^2 E_n (46) -> |G| = rho D in both phases;
       compat: mu^2 eta0^2 E_n in restitution -> |G| = rho e D (docs/models/jia.md §5.0) */
    return k->compat && phase == IPX_JIA_RESTITUTION ? k->rho * k->e : k->rho;
}

double ipx_jia_c2(const ipx_jia_consts *k, ipx_jia_phase phase)
{
    return phase == IPX_JIA_RESTITUTION ? k->e * k->e : 1.0;
}

/* dy/dtau with the mode, phase and slip direction of s. */
static void rhs(const ipx_jia_consts *k, const ipx_jia_state *s, const double y[IPX_JIA_NY],
                double dy[IPX_JIA_NY])
{
    double v[3];
    ipx_jia_velocity(k, y, v);
    const double dD = -v[IPX_N] / (2.0 * ipx_jia_c2(k, s->phase)); /* (18) */
    dy[IPX_JIA_Y_IT1] = -k->kappa * y[IPX_JIA_Y_G1];               /* (64) */
    dy[IPX_JIA_Y_IT2] = -k->kappa * y[IPX_JIA_Y_G2];
    dy[IPX_JIA_Y_IN] = y[IPX_JIA_Y_D]; /* (17) */
    dy[IPX_JIA_Y_D] = dD;
    if (s->mode == IPX_JIA_STICK) {
        dy[IPX_JIA_Y_G1] = v[IPX_T1]; /* (38), (39) */
        dy[IPX_JIA_Y_G2] = v[IPX_T2];
        dy[IPX_JIA_Y_LOSS] = 0.0;
        return;
    }
    /* slip: the radial part of (48)/(49) keeps |G| on the circle; the turn of g is the
       separate exact update below (Strang splitting) */
    const double rs = ipx_jia_slip_radius(k, s->phase);
    const double radial = rs * dD;
    const double sliding = v[IPX_T1] * s->g[0] + v[IPX_T2] * s->g[1] - radial; /* |v_s| (32) */
    dy[IPX_JIA_Y_G1] = radial * s->g[0];
    dy[IPX_JIA_Y_G2] = radial * s->g[1];
    dy[IPX_JIA_Y_LOSS] = k->kappa * rs * y[IPX_JIA_Y_D] * sliding; /* (36): mu_s F_n |v_s| */
}

/* Classical RK4 on y with the mode, phase and g of s frozen. */
static void rk4(const ipx_jia_consts *k, const ipx_jia_state *s, double h, double y[IPX_JIA_NY])
{
    double k1[IPX_JIA_NY], k2[IPX_JIA_NY], k3[IPX_JIA_NY], k4[IPX_JIA_NY], t[IPX_JIA_NY];
    rhs(k, s, y, k1);
    for (int i = 0; i < IPX_JIA_NY; i++) t[i] = y[i] + 0.5 * h * k1[i];
    rhs(k, s, t, k2);
    for (int i = 0; i < IPX_JIA_NY; i++) t[i] = y[i] + 0.5 * h * k2[i];
    rhs(k, s, t, k3);
    for (int i = 0; i < IPX_JIA_NY; i++) t[i] = y[i] + h * k3[i];
    rhs(k, s, t, k4);
    for (int i = 0; i < IPX_JIA_NY; i++)
        y[i] += h / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]);
}

/* Turn of the slip direction over dt with v_t and D frozen. The tangential part of (48)/(49),
   with their denominator mu^2 eta^2 E_n = (rho D)^2 / (4 eta0^2), is
   dg/dtau = chi (v_t - (v_t.g) g) / |G| with chi = (|G| / (rho D))^2 = (rho_s/rho)^2: 1 in the
   text model, e^2 on the smaller compat circle (as printed (48) is used there; this is what
   reproduces the model document's compat pencil numbers). The angle psi from v_t to g obeys
   psi' = -chi (|v_t|/|G|) sin psi, solved exactly by tan(psi/2) *= exp(-chi |v_t| dt / |G|)
   (docs/models/jia.md §3.7). Stiff as |G| -> 0, where it aligns g with v_t at once. G = rho_s D g after it
   (this also puts G back on the slip circle, docs/models/jia.md §P1). */
static void turn_slip_direction(const ipx_jia_consts *k, ipx_jia_state *s, double dt)
{
    double v[3];
    ipx_jia_velocity(k, s->y, v);
    const double speed = hypot(v[IPX_T1], v[IPX_T2]);
    const double rs = ipx_jia_slip_radius(k, s->phase);
    const double radius = rs * s->y[IPX_JIA_Y_D];
    if (speed > 0.0) {
        const double t[2] = {v[IPX_T1] / speed, v[IPX_T2] / speed};
        const double c = t[0] * s->g[0] + t[1] * s->g[1], sn = t[0] * s->g[1] - t[1] * s->g[0];
        const double chi = (rs / k->rho) * (rs / k->rho);
        const double decay = radius > 0.0 ? exp(-chi * speed * dt / radius) : 0.0;
        /* (1 + cos psi, sin psi) and (sin psi, 1 - cos psi) are along (cos psi/2, sin psi/2),
           up to sign (take the one without cancellation); scale the sine by the decay of
           tan(psi/2) and double the half angle back */
        const double x = c >= 0.0 ? 1.0 + c : sn, y = (c >= 0.0 ? sn : 1.0 - c) * decay;
        const double n2 = x * x + y * y;
        if (n2 > 0.0) { /* else psi = pi exactly: an equilibrium of the turn */
            const double cn = (x * x - y * y) / n2, sw = 2.0 * x * y / n2;
            s->g[0] = cn * t[0] - sw * t[1];
            s->g[1] = cn * t[1] + sw * t[0];
        }
    }
    s->y[IPX_JIA_Y_G1] = radius * s->g[0];
    s->y[IPX_JIA_Y_G2] = radius * s->g[1];
}

void ipx_jia_advance(const ipx_jia_consts *k, const ipx_jia_state *in, double h, ipx_jia_state *out)
{
    *out = *in;
    if (out->mode == IPX_JIA_SLIP) turn_slip_direction(k, out, 0.5 * h);
    rk4(k, out, h, out->y);
    if (out->mode == IPX_JIA_SLIP) turn_slip_direction(k, out, 0.5 * h);
}

double ipx_jia_event_value(const ipx_jia_consts *k, const ipx_jia_state *s, ipx_jia_watch w)
{
    const double *y = s->y;
    double v[3];
    ipx_jia_velocity(k, y, v);
    if (w == IPX_JIA_WATCH_PHASE)
        return s->phase == IPX_JIA_COMPRESSION ? v[IPX_N] : -y[IPX_JIA_Y_D];
    if (s->mode == IPX_JIA_STICK) { /* (51): E_u + E_w < mu^2 eta^2 E_n */
        if (y[IPX_JIA_Y_D] == 0.0) {
            /* the start tau = 0, where G = D = 0 and the test below reads 0, "on the circle":
               its tau^2 coefficient (G ~ v0_t tau, D ~ -v0_n tau/2), negative exactly when
               Proposition 1 chose stick (docs/models/jia.md §P13) */
            const double rd = 0.5 * k->rho * k->v0[IPX_N];
            return k->v0[IPX_T1] * k->v0[IPX_T1] + k->v0[IPX_T2] * k->v0[IPX_T2] - rd * rd;
        }
        const double rd = k->rho * y[IPX_JIA_Y_D];
        return y[IPX_JIA_Y_G1] * y[IPX_JIA_Y_G1] + y[IPX_JIA_Y_G2] * y[IPX_JIA_Y_G2] - rd * rd;
    }
    /* (53): slip goes on while the particle slides along g, |v_s| = v_t.g - d|G|/dtau > 0 */
    const double dD = -v[IPX_N] / (2.0 * ipx_jia_c2(k, s->phase));
    const double radial = ipx_jia_slip_radius(k, s->phase) * dD;
    return -(v[IPX_T1] * s->g[0] + v[IPX_T2] * s->g[1] - radial);
}

double ipx_jia_locate(const ipx_jia_consts *k, const ipx_jia_state *s, ipx_jia_watch w, double h,
                      double f0, double f1, ipx_jia_state *out, int *steps)
{
    /* Illinois regula falsi on [lo, hi] with f(lo) < 0 <= f(hi); out keeps the state at hi */
    double lo = 0.0, hi = h, flo = f0, fhi = f1;
    int kept = 0; /* +1: hi moved last, -1: lo moved last */
    ipx_jia_state trial;
    for (int it = 0; it < LOCATE_MAX_ITERS && hi - lo > LOCATE_TOL * h && fhi > 0.0; it++) {
        double x = hi - fhi * (hi - lo) / (fhi - flo);
        if (!(x > lo && x < hi)) x = 0.5 * (lo + hi);
        ipx_jia_advance(k, s, x, &trial);
        (*steps)++;
        const double fx = ipx_jia_event_value(k, &trial, w);
        if (fx >= 0.0) { /* reached (exactly on it counts) */
            hi = x, fhi = fx, *out = trial;
            if (kept == 1) flo *= 0.5;
            kept = 1;
        } else {
            lo = x, flo = fx;
            if (kept == -1) fhi *= 0.5;
            kept = -1;
        }
    }
    return hi;
}

/* dI_t/dI_n = -kappa G / D (64); its limit (61) at the start: v0_t/(eta0^2 v0_n) in stick
   (G ~ v0_t tau, D ~ -v0_n tau/2), -mu g in slip. */
static void force_ratio(const ipx_jia_consts *k, const ipx_jia_state *s, int start, double q[2])
{
    const double D = s->y[IPX_JIA_Y_D];
    const double mu_s = k->kappa * ipx_jia_slip_radius(k, s->phase);
    for (int i = 0; i < 2; i++) {
        if (s->mode == IPX_JIA_SLIP) q[i] = -mu_s * s->g[i];
        else if (start) q[i] = 2.0 * k->kappa * k->v0[i] / k->v0[IPX_N];
        else q[i] = D > 0.0 ? -k->kappa * s->y[IPX_JIA_Y_G1 + i] / D : 0.0;
    }
}

/* v_s = v_t - udot (32), with udot = radial g + chi (v_t - (v_t.g) g) in slip (48)/(49) (see
   turn_slip_direction for chi); 0 in stick (37). */
static void slip_velocity(const ipx_jia_consts *k, const ipx_jia_state *s, double vs[2])
{
    vs[0] = vs[1] = 0.0;
    if (s->mode == IPX_JIA_STICK) return;
    double v[3];
    ipx_jia_velocity(k, s->y, v);
    const double rs = ipx_jia_slip_radius(k, s->phase), chi = (rs / k->rho) * (rs / k->rho);
    const double radial = rs * -v[IPX_N] / (2.0 * ipx_jia_c2(k, s->phase));
    const double along = v[IPX_T1] * s->g[0] + v[IPX_T2] * s->g[1];
    for (int i = 0; i < 2; i++)
        vs[i] = (along - radial) * s->g[i] + (1.0 - chi) * (v[i] - along * s->g[i]);
}

void ipx_jia_point_of(const ipx_jia_consts *k, const ipx_jia_state *s, int start, ipx_jia_point *pt)
{
    const double *y = s->y;
    for (int i = 0; i < 3; i++) pt->impulse[i] = y[IPX_JIA_Y_IT1 + i];
    force_ratio(k, s, start, pt->ratio);
    slip_velocity(k, s, pt->slip_velocity);
    pt->E_n = ipx_jia_c2(k, s->phase) * y[IPX_JIA_Y_D] * y[IPX_JIA_Y_D];
    const double G1 = y[IPX_JIA_Y_G1], G2 = y[IPX_JIA_Y_G2];
    pt->E_t = 0.5 * k->kappa * (G1 * G1 + G2 * G2);
    pt->friction_loss = y[IPX_JIA_Y_LOSS];
    pt->normal_loss = s->normal_loss;
    pt->compat_loss = s->compat_loss;
    pt->mode = s->mode;
    pt->phase = s->phase;
}
