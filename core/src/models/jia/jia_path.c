/* The impulse curve of Jia's model with the default integrator: RK4 in scaled time tau per
   contact mode and impact phase, events located inside the step (Algorithm 1, lines 13-24). */
#include <math.h>
#include <string.h>

#include "jia_ctx.h"
#include "mathutil.h"

/* The run and its state. */
typedef struct tau_run {
    ipx_jia_run *u;
    ipx_jia_state s;
} tau_run;

static void observe(const tau_run *t, int start)
{
    if (!t->u->observer) return;
    ipx_jia_point pt;
    ipx_jia_point_of(&t->u->k, &t->s, start, &pt);
    t->u->observer(&pt, t->u->user);
}

static void record(tau_run *t, ipx_jia_event_kind kind)
{
    ipx_jia_record(t->u, kind, t->s.y[IPX_JIA_Y_IN]);
}

/* tau step per phase and mode: `steps` per quarter period of the fastest oscillation. In stick
   the springs and bodies are linear: d2(G, D)/dtau2 = -M (G, D) with M similar to
   N^1/2 W N^1/2, N = diag(kappa, kappa, 1/(2 c^2)), whose eigenvalues are bounded by its trace.
   In slip G = rho_s D g, so dI_t/dtau = -mu_s D g (mu_s = kappa rho_s) and friction feeds the
   normal spring: d2D/dtau2 = -(W_nn - mu_s W_nt.g) D / (2 c^2), an oscillation (or, where
   friction re-compresses, a growth) at a rate of at most sqrt((W_nn + mu_s |W_nt|) / (2 c^2)).
   With a large mu that rate is far above the stick one: a step sized for stick lets D overshoot
   zero and back inside one step, unseen by the event test (docs/models/jia.md §P12). */
static void step_sizes(ipx_jia_consts *k, int steps)
{
    const double W_nt = hypot(k->W[6], k->W[7]);
    for (int ph = 0; ph < 2; ph++) {
        const double c2 = ipx_jia_c2(k, (ipx_jia_phase)ph);
        if (c2 == 0.0) { /* e = 0: the impact ends with compression */
            k->h[ph][IPX_JIA_STICK] = k->h[IPX_JIA_COMPRESSION][IPX_JIA_STICK];
            k->h[ph][IPX_JIA_SLIP] = k->h[IPX_JIA_COMPRESSION][IPX_JIA_SLIP];
            continue;
        }
        const double mu_s = k->kappa * ipx_jia_slip_radius(k, (ipx_jia_phase)ph);
        const double stick = k->kappa * (k->W[0] + k->W[4]) + k->W[8] / (2.0 * c2);
        const double slip = (k->W[8] + mu_s * W_nt) / (2.0 * c2);
        k->h[ph][IPX_JIA_STICK] = 0.5 * IPX_PI / (steps * sqrt(stick));
        k->h[ph][IPX_JIA_SLIP] = 0.5 * IPX_PI / (steps * sqrt(fmax(stick, slip)));
    }
}

/* (71): I = G = E_n = 0 at tau = 0, where the paper's singular start (73) is regular; the mode
   from Proposition 1, in slip against v0_t (57)-(61). */
static void start(tau_run *t)
{
    const ipx_jia_consts *k = &t->u->k;
    ipx_jia_state *s = &t->s;
    memset(s, 0, sizeof *s);
    s->phase = IPX_JIA_COMPRESSION;
    s->mode = t->u->rep->initial_mode;
    if (s->mode == IPX_JIA_SLIP) {
        const double vt = hypot(k->v0[IPX_T1], k->v0[IPX_T2]);
        s->g[0] = k->v0[IPX_T1] / vt;
        s->g[1] = k->v0[IPX_T2] / vt;
    }
}

/* G onto the slip circle |G| = rho_s D (46); in the compat variant the energy above the
   smaller restitution circle is lost. */
static void put_on_slip_circle(tau_run *t)
{
    const ipx_jia_consts *k = &t->u->k;
    ipx_jia_state *s = &t->s;
    double *G = s->y + IPX_JIA_Y_G1;
    const double before = 0.5 * k->kappa * (G[0] * G[0] + G[1] * G[1]);
    const double radius = ipx_jia_slip_radius(k, s->phase) * s->y[IPX_JIA_Y_D];
    G[0] = radius * s->g[0];
    G[1] = radius * s->g[1];
    if (k->compat) s->compat_loss += before - 0.5 * k->kappa * radius * radius;
}

static void switch_mode(tau_run *t)
{
    ipx_jia_state *s = &t->s;
    t->u->switches++;
    if (s->mode == IPX_JIA_SLIP) { /* (53): v_s = 0 */
        s->mode = IPX_JIA_STICK;
        record(t, IPX_JIA_SLIP_TO_STICK);
        return;
    }
    /* (52): on the Coulomb circle; the spring rates may jump (docs/models/jia.md §P3), G does not */
    const double *G = s->y + IPX_JIA_Y_G1;
    const double norm = hypot(G[0], G[1]);
    s->g[0] = G[0] / norm;
    s->g[1] = G[1] / norm;
    s->mode = IPX_JIA_SLIP;
    put_on_slip_circle(t);
    record(t, IPX_JIA_STICK_TO_SLIP);
}

/* v_n = 0: the normal stiffness becomes k0/e^2 and E_n drops to e^2 E_n (Stronge, section 2);
   D and mu^2 eta^2 E_n are continuous (4.5). Returns 1 if the impact ends here (e = 0, P6). */
static int end_compression(tau_run *t)
{
    ipx_jia_state *s = &t->s;
    const double e = t->u->k.e;
    const double E_c = s->y[IPX_JIA_Y_D] * s->y[IPX_JIA_Y_D];
    s->normal_loss = (1.0 - e * e) * E_c;
    s->phase = IPX_JIA_RESTITUTION;
    record(t, IPX_JIA_COMPRESSION_END);
    if (e == 0.0) {
        record(t, IPX_JIA_IMPACT_END);
        return 1;
    }
    if (s->mode == IPX_JIA_SLIP) put_on_slip_circle(t);
    return 0;
}

/* Returns 1 when the impact is over. */
static int apply_event(tau_run *t, ipx_jia_watch w)
{
    if (w == IPX_JIA_WATCH_MODE) {
        switch_mode(t);
        return 0;
    }
    if (t->s.phase == IPX_JIA_COMPRESSION) return end_compression(t);
    record(t, IPX_JIA_IMPACT_END); /* E_n = 0 in restitution */
    return 1;
}

/* The first event inside the step from t->s to *next (length h): moves *next there and returns
   the event, or -1 if the step has none. */
static int earliest_event(const tau_run *t, double h, ipx_jia_state *next, int *steps)
{
    const ipx_jia_consts *k = &t->u->k;
    ipx_jia_state at[IPX_JIA_N_WATCH];
    double when[IPX_JIA_N_WATCH];
    int first = -1;
    for (int w = 0; w < IPX_JIA_N_WATCH; w++) {
        const double f1 = ipx_jia_event_value(k, next, (ipx_jia_watch)w);
        if (!(f1 > 0.0)) continue;
        const double f0 = ipx_jia_event_value(k, &t->s, (ipx_jia_watch)w);
        at[w] = *next;
        if (f0 >= 0.0) { /* already past it: a zero-length segment */
            at[w] = t->s;
            when[w] = 0.0;
        } else {
            when[w] = ipx_jia_locate(k, &t->s, (ipx_jia_watch)w, h, f0, f1, &at[w], steps);
        }
        if (first < 0 || when[w] < when[first]) first = w;
    }
    if (first >= 0) *next = at[first];
    return first;
}

static ipx_status integrate(tau_run *t)
{
    ipx_jia_run *u = t->u;
    int *steps = &u->r->counts.steps;
    observe(t, 1);
    for (;;) {
        if (*steps >= u->max_steps)
            return ipx_jia_limit_hit(u, IPX_JIA_LIMIT_STEPS, "max_steps", u->max_steps,
                                     t->s.y[IPX_JIA_Y_IN]);
        const double h = u->k.h[t->s.phase][t->s.mode];
        ipx_jia_state next;
        ipx_jia_advance(&u->k, &t->s, h, &next);
        (*steps)++;
        const int w = earliest_event(t, h, &next, steps);
        t->s = next;
        const int over = w >= 0 && apply_event(t, (ipx_jia_watch)w);
        observe(t, 0);
        if (over) return IPX_OK;
        if (u->switches > u->max_switches)
            return ipx_jia_limit_hit(u, IPX_JIA_LIMIT_SWITCHES, "max_switches", u->max_switches,
                                     t->s.y[IPX_JIA_Y_IN]);
    }
}

ipx_status ipx_jia_tau_path(ipx_jia_run *u, int steps)
{
    tau_run t = {.u = u};
    step_sizes(&u->k, steps);
    start(&t);
    const ipx_status st = integrate(&t);
    if (st != IPX_OK) return st;
    for (int i = 0; i < 3; i++) u->r->impulse[i] = t.s.y[IPX_JIA_Y_IT1 + i];
    u->rep->friction_loss = t.s.y[IPX_JIA_Y_LOSS];
    u->rep->normal_loss = t.s.normal_loss;
    u->rep->compat_loss = t.s.compat_loss;
    return IPX_OK;
}
