/* The paper's Algorithm 1 for Jia's model, written as the loop of docs/models/jia.md §3.7: forward Euler in
   the normal impulse I_n with a fixed step delta (N*s). It is kept to reproduce the published
   tables (compat = 1, delta = 5e-5): where the tangential springs load from zero
   (G ~ sqrt(I_n) at a stick start, (73)) its error is O(sqrt(delta)), which the default
   integrator (jia_path.c) avoids. Tangential quantities are 2-vectors in [t1, t2]. */
#include <math.h>

#include "jia_ctx.h"
#include "mathutil.h"

typedef struct euler {
    ipx_jia_run *u;
    double delta; /* N*s */
    double I[3];  /* N*s */
    double ab[2]; /* sqrt(J), (a, b) = G/(2 eta0): E_u + E_w = |ab|^2 (66) */
    double E_n;   /* J */
    double loss, normal_loss, compat_loss; /* J */
    ipx_jia_mode mode;
    ipx_jia_phase phase;
    int armed; /* stick: inside the circle since the start or since phi < 0 (P2, P14) */
} euler;

static double eta(const euler *s) /* (14) */
{
    const ipx_jia_consts *k = &s->u->k;
    return s->phase == IPX_JIA_RESTITUTION ? k->eta0 / k->e : k->eta0;
}

static void velocity(const euler *s, double v[3]) /* (63) */
{
    ipx_mat3_vec(s->u->k.W, s->I, v);
    for (int i = 0; i < 3; i++) v[i] += s->u->k.v0[i];
}

/* Spring rates in slip (68)/(69), time derivatives in m/s, with (48)'s denominator. */
static void slip_rates(const euler *s, const double v[3], double ud[2])
{
    const double mu = s->u->k.mu, et = eta(s);
    const double den = mu * mu * et * et * s->E_n;
    const double radial = -mu * mu * et * et * et * v[IPX_N] * sqrt(s->E_n);
    const double p[2] = {-s->ab[1], s->ab[0]};
    const double pv = p[0] * v[IPX_T1] + p[1] * v[IPX_T2];
    for (int i = 0; i < 2; i++) ud[i] = (radial * s->ab[i] + p[i] * pv) / den;
}

/* Spring rates of the current mode: in stick the tangential velocity (37). */
static void rates(const euler *s, const double v[3], double ud[2])
{
    if (s->mode == IPX_JIA_SLIP) {
        slip_rates(s, v, ud);
        return;
    }
    ud[0] = v[IPX_T1];
    ud[1] = v[IPX_T2];
}

/* I += (I_t', 1) dIn with I_t' = -(a, b)/(eta sqrt(E_n)) (64). */
static void add_impulse(euler *s, double dIn)
{
    const double f = -dIn / (eta(s) * sqrt(s->E_n));
    s->I[IPX_T1] += f * s->ab[0];
    s->I[IPX_T2] += f * s->ab[1];
    s->I[IPX_N] += dIn;
}

/* Spec 3.5: the first step by Taylor series, E_n = -v0_n delta (72), I_t = I_t'(0) delta (61),
   G from (73) (slip: the sign of (73); Appendix B (102) drops it). */
static void start(euler *s)
{
    const ipx_jia_consts *k = &s->u->k;
    const double d = s->delta, vn = k->v0[IPX_N];
    const double vt = hypot(k->v0[IPX_T1], k->v0[IPX_T2]);
    s->mode = s->u->rep->initial_mode;
    /* a stick start lies inside the circle by Proposition 1: the hysteresis (P2) is for a slip
       that stops on the circle, and unarmed a start near its edge stuck outside the cone */
    s->armed = s->mode == IPX_JIA_STICK;
    s->phase = IPX_JIA_COMPRESSION;
    s->E_n = -vn * d;
    s->I[IPX_N] = d;
    for (int i = 0; i < 2; i++) {
        if (s->mode == IPX_JIA_STICK) {
            s->I[i] = k->v0[i] / (k->eta0 * k->eta0 * vn) * d;
            s->ab[i] = k->v0[i] * sqrt(d / -vn) / k->eta0;
        } else {
            s->I[i] = -k->mu * k->v0[i] / vt * d;
            s->ab[i] = k->mu * k->eta0 * sqrt(-vn * d) * k->v0[i] / vt;
        }
    }
}

/* Slip: (a, b) back onto the circle E_u + E_w = mu^2 rho^2 E_n (46), rho = eta (text) or eta0
   in compat restitution (docs/models/jia.md §P1, 5.0). */
static void rescale(euler *s)
{
    const ipx_jia_consts *k = &s->u->k;
    const double c = s->phase == IPX_JIA_RESTITUTION ? k->e : 1.0;
    const double target = ipx_jia_slip_radius(k, s->phase) * sqrt(s->E_n) / (2.0 * k->eta0 * c);
    const double before = hypot(s->ab[0], s->ab[1]);
    if (!(before > 0.0)) return; /* no direction to keep */
    s->ab[0] *= target / before;
    s->ab[1] *= target / before;
    if (k->compat && s->phase == IPX_JIA_RESTITUTION)
        s->compat_loss += before * before - target * target;
}

static void switch_to(euler *s, ipx_jia_mode mode)
{
    s->mode = mode;
    s->armed = 0;
    s->u->switches++;
    const ipx_jia_event_kind kind =
        mode == IPX_JIA_SLIP ? IPX_JIA_STICK_TO_SLIP : IPX_JIA_SLIP_TO_STICK;
    ipx_jia_record(s->u, kind, s->I[IPX_N]);
}

/* The sliding velocity along (a, b) (53) with slip's spring rates, times |(a, b)|. */
static double sliding(const euler *s, const double v[3])
{
    double ud[2];
    slip_rates(s, v, ud);
    return (v[IPX_T1] - ud[0]) * s->ab[0] + (v[IPX_T2] - ud[1]) * s->ab[1];
}

/* Algorithm 1 lines 13-18: stick -> slip on the circle (51)/(52) after being inside it, or, not
   yet inside, where slip would slide (a stick left on the circle by a slip that stopped there,
   whose springs then load outward: held in stick by the hysteresis alone it broke Coulomb's
   cone); slip -> stick when the sliding velocity along (a, b) vanishes (53). */
static void test_mode(euler *s, const double v[3])
{
    if (s->mode == IPX_JIA_STICK) {
        const double mu_eta = s->u->k.mu * eta(s);
        const double phi = s->ab[0] * s->ab[0] + s->ab[1] * s->ab[1] - mu_eta * mu_eta * s->E_n;
        if (phi < 0.0) s->armed = 1;
        else if (s->armed || sliding(s, v) > 0.0) switch_to(s, IPX_JIA_SLIP);
        return;
    }
    if (sliding(s, v) <= 0.0) switch_to(s, IPX_JIA_STICK);
}

/* Lines 19-21: v_n = 0 ends compression, E_n drops to e^2 E_n. Returns 1 if e = 0 ends it all. */
static int test_phase(euler *s, const double v[3])
{
    if (s->phase != IPX_JIA_COMPRESSION || v[IPX_N] < 0.0) return 0;
    const double e = s->u->k.e;
    s->normal_loss = (1.0 - e * e) * s->E_n;
    ipx_jia_record(s->u, IPX_JIA_COMPRESSION_END, s->I[IPX_N]);
    if (e == 0.0) {
        ipx_jia_record(s->u, IPX_JIA_IMPACT_END, s->I[IPX_N]);
        return 1;
    }
    s->E_n *= e * e;
    s->phase = IPX_JIA_RESTITUTION;
    return 0;
}

/* One pass of the loop (lines 4-24). Returns 1 at the end of the impact. */
static int step(euler *s)
{
    const ipx_jia_consts *k = &s->u->k;
    const double d = s->delta;
    double v[3], ud[2];
    velocity(s, v);
    rates(s, v, ud);
    if (s->mode == IPX_JIA_SLIP) { /* (36) with friction mu_s F_n */
        const double mu_s = k->kappa * ipx_jia_slip_radius(k, s->phase);
        s->loss += mu_s * hypot(v[IPX_T1] - ud[0], v[IPX_T2] - ud[1]) * d;
    }
    const double c = s->phase == IPX_JIA_RESTITUTION ? k->e : 1.0;
    for (int i = 0; i < 2; i++)
        s->ab[i] += c * ud[i] / (2.0 * k->eta0 * sqrt(s->E_n)) * d; /* (67) */
    if (s->phase == IPX_JIA_RESTITUTION && s->E_n - v[IPX_N] * d <= 0.0) {
        /* in slip, on the circle of this E_n first, as every other step's impulse (P1): the
           update above grows as 1/sqrt(E_n) near the end and left off it the last impulse
           broke Coulomb's cone */
        if (s->mode == IPX_JIA_SLIP) rescale(s);
        add_impulse(s, s->E_n / v[IPX_N]); /* the partial last step to E_n = 0 (P5) */
        ipx_jia_record(s->u, IPX_JIA_IMPACT_END, s->I[IPX_N]);
        return 1;
    }
    s->E_n -= v[IPX_N] * d; /* (18) */
    if (s->mode == IPX_JIA_SLIP) rescale(s);
    add_impulse(s, d);
    velocity(s, v);
    test_mode(s, v);
    return test_phase(s, v);
}

static void observe(const euler *s)
{
    const ipx_jia_run *u = s->u;
    if (!u->observer) return;
    ipx_jia_point pt = {.E_n = s->E_n,
                        .friction_loss = s->loss,
                        .normal_loss = s->normal_loss,
                        .compat_loss = s->compat_loss,
                        .mode = s->mode,
                        .phase = s->phase};
    double v[3], ud[2];
    velocity(s, v);
    rates(s, v, ud);
    const double f = s->E_n > 0.0 ? -1.0 / (eta(s) * sqrt(s->E_n)) : 0.0;
    for (int i = 0; i < 3; i++) pt.impulse[i] = s->I[i];
    for (int i = 0; i < 2; i++) {
        pt.ratio[i] = f * s->ab[i];
        pt.slip_velocity[i] = s->mode == IPX_JIA_SLIP ? v[i] - ud[i] : 0.0;
    }
    pt.E_t = s->ab[0] * s->ab[0] + s->ab[1] * s->ab[1];
    u->observer(&pt, u->user);
}

ipx_status ipx_jia_paper_path(ipx_jia_run *u, double delta)
{
    euler s = {.u = u, .delta = delta};
    int *steps = &u->r->counts.steps;
    start(&s);
    observe(&s);
    /* a slow approach (W_nn delta > -v0_n) is past compression after the first step already:
       a step from there would take E_n below zero (docs/models/jia.md §P14) */
    double v[3];
    velocity(&s, v);
    for (int over = test_phase(&s, v); !over;) {
        if (*steps >= u->max_steps)
            return ipx_jia_limit_hit(u, IPX_JIA_LIMIT_STEPS, "max_steps", u->max_steps, s.I[IPX_N]);
        over = step(&s);
        (*steps)++;
        observe(&s);
        if (u->switches > u->max_switches)
            return ipx_jia_limit_hit(u, IPX_JIA_LIMIT_SWITCHES, "max_switches", u->max_switches,
                                     s.I[IPX_N]);
    }
    for (int i = 0; i < 3; i++) u->r->impulse[i] = s.I[i];
    u->rep->friction_loss = s.loss;
    u->rep->normal_loss = s.normal_loss;
    u->rep->compat_loss = s.compat_loss;
    return IPX_OK;
}
