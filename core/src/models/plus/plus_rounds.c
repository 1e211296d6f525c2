/* PLUS Algorithm 2 (paper appendix; docs/models/plus.md §5.6-5.8): impact rounds. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "impax/validate.h"
#include "mathutil.h"
#include "plus_finish.h"
#include "plus_interval.h"
#include "plus_rounds.h"
#include "result_internal.h"

/* Fig. 2 with the registry overrides applied (a negative override means "contact's value"). */
static double contact_cor(const plus_ctx *c, int k, double approach)
{
    const ipx_contact *ct = &c->p->contact[k];
    double e_min = c->cfg.e_min >= 0.0 ? c->cfg.e_min : ct->e;
    double v_cap = c->cfg.v_capture >= 0.0 ? c->cfg.v_capture : ct->v_capture;
    double v_pl = c->cfg.v_plastic >= 0.0 ? c->cfg.v_plastic : ct->v_plastic;
    return ipx_plus_cor(approach, e_min, v_cap, v_pl);
}

/* A contact whose normal row of W is zero (two immovable bodies) can receive no impulse; the
   same test as ipx_problem_unreachable_approach, which refuses such a contact if it approaches. */
static void find_inert(plus_ctx *c)
{
    const int n = c->n;
    double dmax = 0.0;
    for (int i = 0; i < n; i++) dmax = ipx_max(dmax, c->p->W[i + (size_t)n * i]);
    for (int k = 0; k < c->k; k++) {
        int z = IPX_ROWS_PER_CONTACT * k + IPX_N;
        c->inert[k] = !(c->p->W[z + (size_t)n * z] > IPX_W_NULL * dmax);
    }
}

/* Spec 5.1: expanding = earned a non-zero expansion impulse last round (so e > 0); observing =
   not expanding and v_n >= -eps_v (never an exact 0: round-off would cycle); compressing = the
   rest. In round 1 of the all-participate variant everything compresses; in the fallback every
   contact that is not separating (v_n < eps_v) does. Deviation 10: a held contact (mark_held)
   compresses again unless it separates, with e = 0 (start_round). */
static ipx_plus_class class_of(const plus_ctx *c, int k, double tol_pi, int all, int held)
{
    double vn = c->v[IPX_ROWS_PER_CONTACT * k + IPX_N];
    if (c->inert[k]) return IPX_PLUS_OBSERVING;
    if (!c->fallback && c->pi_acc[k] > tol_pi) return IPX_PLUS_EXPANDING;
    if (all || vn < -c->cfg.v_approach || ((c->fallback || held) && vn < c->cfg.eps_v))
        return IPX_PLUS_COMPRESSING;
    return IPX_PLUS_OBSERVING;
}

/* Deviation 10 (docs/models/plus.md §8.16; issue [scale]): a contact that compressed with e = 0 (the capture
   band, e_min = 0, or held already) and ended its round closed (|v_n| < eps_v) is plastic: it
   stays closed, compressing again with e = 0 in every later round that has something to do,
   until it separates. The paper's rounds let it observe instead:
   (a) beside a neighbour that expands, it is driven into a new approach that bounces with a COR
   of its own, which can create energy (three balls, u = (-2, 0, 0.005), e_min 1, v_capture
   0.01: +22 %);
   (b) beside a neighbour that compresses, it is pushed into approach, compresses alone in the
   next round, pushes the neighbour back into approach, and so on: a ping-pong whose velocities
   only decay geometrically (two 1 kg spheres dropped on the ground with e = 0: ratio 1/2 per
   two rounds, 34 rounds to eps_v; a stack of 4 spheres: the 100-round cap). The ping-pong
   alternates projections onto the contacts' constraints; holding the closed contacts projects
   onto their intersection at once, which is its limit (von Neumann's alternating projections)
   wherever the contacts stay closed: stacks and chains of 2-32 spheres end within 1e-5 m/s of
   the paper's ping-pong run to the end, in k rounds instead of 33-7191.
   A contact with e > 0 whose normal row the active set dropped also earns nothing, but it is
   not plastic: it keeps the paper's rules (holding it with e = 0 made a 5-contact scene of
   test_plus_slip gain 755 J). Settled contacts (deviation 11) are held until they separate.
   Holding can leave a round with nothing to do where the paper's rules would move on: a
   sliding contact whose normal would have to pull while its held neighbour stays closed (1 in
   150 random problems of test_plus_random). Such a round applies no impulse, and the impact
   goes on with the paper's rules, holding nothing (c->release, see rounds()): releasing for
   one round only and holding again cycled (hold, stall, release) for 100 rounds where the
   paper's rounds end in 31. Marks held[k]. */
static void mark_held(plus_ctx *c)
{
    for (int k = 0; k < c->k; k++) {
        const double vn = c->v[IPX_ROWS_PER_CONTACT * k + IPX_N];
        if (vn >= c->cfg.eps_v) c->plastic[k] = 0; /* it separates: released */
        if (c->release) c->plastic[k] = 0;
        c->held[k] = c->cfg.hold_plastic && !c->fallback && !c->release && c->round > 0 &&
                     (c->plastic[k] || (c->cls[k] == IPX_PLUS_COMPRESSING && c->e[k] == 0.0 &&
                                        vn >= -c->cfg.v_approach)); /* cls, e: last round's */
    }
}

/* Classes for the round; returns the number of compressing or expanding contacts, or 0 when
   nothing drives a round: no contact approaches and none has an expansion impulse to deliver
   (held contacts alone do not make a round; in the fallback, only approaching ones do). */
static int classify(plus_ctx *c)
{
    const double tol_pi = c->cfg.eps_pi * fmax(ipx_max_abs(c->pi_total, c->n), DBL_MIN);
    const int all = c->round == 0 && c->cfg.all_participate;
    int active = 0, driving = 0;
    mark_held(c);
    for (int k = 0; k < c->k; k++) {
        c->cls[k] = class_of(c, k, tol_pi, all, c->held[k]);
        active += c->cls[k] != IPX_PLUS_OBSERVING;
        int approaching =
            !c->inert[k] && c->v[IPX_ROWS_PER_CONTACT * k + IPX_N] < -c->cfg.v_approach;
        driving += approaching || (c->cls[k] == IPX_PLUS_EXPANDING) ||
                   (all && c->cls[k] == IPX_PLUS_COMPRESSING);
    }
    return driving ? active : 0;
}

/* Round start: COR of each compressing contact from its approach speed now (once per round,
   Algorithm 2); what was earned last round becomes this round's expansion impulse. */
static void start_round(plus_ctx *c)
{
    c->round++;
    c->r->counts.rounds++;
    for (int k = 0; k < c->k; k++) {
        double approach = -c->v[IPX_ROWS_PER_CONTACT * k + IPX_N];
        int compressing = c->cls[k] == IPX_PLUS_COMPRESSING;
        c->e[k] = compressing && !c->fallback && !c->held[k] ? contact_cor(c, k, approach) : 0.0;
        c->pi_exp[k] = c->cls[k] == IPX_PLUS_EXPANDING ? c->pi_acc[k] : 0.0;
        c->pi_acc[k] = 0.0;
        c->turn[k] = 0;
        c->chatter[k] = 0;
    }
    memcpy(c->v_round, c->v, sizeof(double) * (size_t)c->n);
    memcpy(c->pi_round, c->pi_total, sizeof(double) * (size_t)c->n);
}

/* Applies alpha * pi (Algorithm 2's inner loop): pi_total, v <- v + A pi_step, the remaining
   expansion (1 - alpha) pi_exp, and the expansion earned e * pi_step_n (2.4). c->pi and c->wpi
   become the step actually applied. */
static void apply_step(plus_ctx *c, double alpha)
{
    for (int i = 0; i < c->n; i++) {
        c->pi[i] *= alpha;
        c->wpi[i] *= alpha;
        c->pi_total[i] += c->pi[i];
        c->v[i] += c->wpi[i];
    }
    for (int k = 0; k < c->k; k++) {
        if (c->cls[k] == IPX_PLUS_EXPANDING) c->pi_exp[k] *= 1.0 - alpha;
        if (c->cls[k] == IPX_PLUS_COMPRESSING)
            c->pi_acc[k] += c->e[k] * c->pi[IPX_ROWS_PER_CONTACT * k + IPX_N];
    }
}

/* The result's record of the last interval, for the friction-direction check (check.h). */
static void record_step(plus_ctx *c)
{
    static const int state[] = {[IPX_PLUS_NO_FRICTION] = IPX_SLIP_NONE,
                                [IPX_PLUS_SLIDING] = IPX_SLIP_SLIDING,
                                [IPX_PLUS_ROLLING] = IPX_SLIP_STICKING,
                                [IPX_PLUS_IMPENDING] = IPX_SLIP_IMPENDING};
    memcpy(c->r->last_step, c->pi, sizeof(double) * (size_t)c->n);
    for (int k = 0; k < c->k; k++)
        c->r->slip_state[k] =
            c->normal_on[k] == PLUS_NORMAL_OFF ? IPX_SLIP_NONE : state[c->slip[k]];
}

static void notify(const plus_ctx *c, int interval, double alpha)
{
    if (!c->observer) return;
    ipx_plus_interval iv = {.round = c->round,
                            .interval = interval,
                            .fallback = c->fallback,
                            .alpha = alpha,
                            .k = c->k,
                            .cls = c->cls,
                            .slip = c->slip,
                            .normal_active = c->normal_on,
                            .step = c->pi,
                            .impulse = c->pi_total,
                            .v = c->v,
                            .group = c->focus_of,
                            .passes = c->passes,
                            .sparse_answered = c->sparse_answered,
                            .sparse_declined = c->sparse_declined};
    c->observer(&iv, c->user);
}

/* One round: intervals until one of them reaches alpha = 1 (every active normal at v_n = 0,
   every expansion impulse delivered). */
static ipx_status run_round(plus_ctx *c)
{
    start_round(c);
    for (int interval = 1;; interval++) {
        double alpha = 1.0;
        ipx_status st = plus_interval(c, &alpha);
        if (st != IPX_OK) return st;
        if (alpha < 1.0 && interval >= c->cfg.max_intervals) {
            alpha =
                1.0; /* docs/models/plus.md §5.8: alpha_min steps shrink the rest geometrically, never end */
            c->r->counts.limits_hit |= IPX_PLUS_HIT_MAX_INTERVALS;
        }
        c->r->counts.intervals++;
        apply_step(c, alpha);
        record_step(c);
        notify(c, interval, alpha);
        if (alpha == 1.0) return IPX_OK;
    }
}

/* A round that moved nothing although contacts compress would repeat forever (docs/models/plus.md §8.8). */
static int stalled(const plus_ctx *c)
{
    double moved = 0.0;
    for (int i = 0; i < c->n; i++) moved = ipx_max(moved, fabs(c->pi_total[i] - c->pi_round[i]));
    return moved <= c->cfg.eps_pi * fmax(ipx_max_abs(c->pi_total, c->n), DBL_MIN);
}

/* Shrinks this round's impulse to the fraction s of it (velocities and earned expansion too). */
static void scale_round(plus_ctx *c, double s)
{
    for (int i = 0; i < c->n; i++) {
        c->pi_total[i] = c->pi_round[i] + s * (c->pi_total[i] - c->pi_round[i]);
        c->v[i] = c->v_round[i] + s * (c->v[i] - c->v_round[i]);
    }
    for (int k = 0; k < c->k; k++) c->pi_acc[k] *= s;
    for (int i = 0; i < c->n; i++) c->r->last_step[i] *= s; /* keeps v_post - W last_step exact */
}

/* Deviation 1 (docs/models/plus.md §8.16): if the kinetic energy after this round is above its value at the
   start of the impact, scale the round's impulse by the largest s in [0, 1) that leaves no
   gain. With d = round impulse, dT(s) = dT_round + s d.v_round + s^2/2 d.W d (J). */
static void cap_energy(plus_ctx *c)
{
    const double *v0 = c->p->v;
    double dT_round = 0.0, g = 0.0, h = 0.0, work = 0.0, quad = 0.0;
    for (int i = 0; i < c->n; i++) {
        double d = c->pi_total[i] - c->pi_round[i];
        dT_round += 0.5 * c->pi_round[i] * (v0[i] + c->v_round[i]);
        g += d * c->v_round[i];
        h += d * (c->v[i] - c->v_round[i]);
        work += c->pi_total[i] * v0[i];
        quad += c->pi_total[i] * (c->v[i] - v0[i]);
    }
    if (dT_round + g + 0.5 * h <= 1e-11 * (fabs(work) + fabs(quad))) return;
    double room = fmax(0.0, -dT_round); /* energy the round may give back, J */
    h = fmax(h, 0.0);
    /* root of s g + s^2 h / 2 = room in [0, 1], in the form without cancellation */
    double root = sqrt(g * g + 2.0 * h * room), s = 0.0;
    if (g >= 0.0) s = g + root > 0.0 ? 2.0 * room / (g + root) : 0.0;
    else s = h > 0.0 ? (root - g) / h : 1.0;
    scale_round(c, fmin(s, 1.0));
    c->r->counts.limits_hit |= IPX_PLUS_HIT_ENERGY_CAP;
    c->r->nets |= IPX_NET_ENERGY_CAP;
}

/* Kinetic-energy change of the impact so far, J: pi.v0 + 1/2 pi.W pi = 1/2 pi.(v0 + v). */
static double energy_change(const plus_ctx *c)
{
    double dT = 0.0;
    for (int i = 0; i < c->n; i++) dT += 0.5 * c->pi_total[i] * (c->p->v[i] + c->v[i]);
    return dT;
}

/* Deviation 11 (issue [scale]): a ping-pong of persistent contacts is settled at its limit. In a
   stack or chain with e < 1 the rounds can alternate for hundreds of rounds: the same contacts
   compress and expand by turns, none of them opens (an expansion is not enough to separate a
   contact its neighbour is pushing), and the approach speeds only decay geometrically (16 spheres
   dropped on the ground, e = 0.5: ratio about 0.97 per two rounds; 1519 rounds to eps_v in the
   paper's rounds, 220 with deviation 10; 32 spheres: 5906 and 648). While the same contacts G act
   and stay closed, every impulse lies in the span of G's rows, so the kinetic-energy-metric
   projection of the velocities onto "G closed" does not change from round to round, and a ping-
   pong that goes on until its contacts stop moving relative to each other ends exactly there (von
   Neumann's alternating projections); holding G closed with e = 0 and its pending expansion
   dropped reaches that limit in one round. After settle_rounds consecutive rounds in which the
   set of compressing or expanding contacts is unchanged, none of them ends the round separating
   (v_n > eps_v), and kinetic energy was dissipated, those contacts are marked plastic: held
   closed (deviation 10) until one separates. An elastic ping-pong dissipates nothing, and a
   propagating wave changes its set of contacts, so neither is settled (Table 2, Examples 1-4
   unchanged). What is given up: a contact of G that the paper's rounds would have opened at a
   later round stays closed; the kinetic energy this can remove is at most what remained in G's
   relative motion when it was settled. */
static void watch_pingpong(plus_ctx *c)
{
    const double dT = energy_change(c);
    int same = 1, open = 0, any = 0;
    for (int k = 0; k < c->k; k++) {
        int act = c->cls[k] != IPX_PLUS_OBSERVING;
        same &= act == c->act_prev[k];
        any |= act;
        open |= act && c->v[IPX_ROWS_PER_CONTACT * k + IPX_N] > c->cfg.eps_v;
        c->act_prev[k] = act;
    }
    if (!same || open || !any) {
        c->settle = 0;
        c->settle_dT = dT;
        return;
    }
    double scale = 0.0; /* J: the work scale of the impulses so far */
    for (int i = 0; i < c->n; i++) scale += fabs(c->pi_total[i] * c->p->v[i]);
    if (++c->settle < c->cfg.settle_rounds || !(c->settle_dT - dT > 1e-9 * scale)) return;
    for (int k = 0; k < c->k; k++) {
        if (!c->act_prev[k]) continue;
        c->plastic[k] = 1;
        c->pi_acc[k] = 0.0; /* its expansion would be compressed away in the limit */
    }
    c->settle = 0;
}

/* Inelastic rounds while contacts approach, at most k + 1 of them. */
static ipx_status fallback_rounds(plus_ctx *c)
{
    c->fallback = 1;
    for (int extra = 0; extra <= c->k && classify(c) > 0; extra++) {
        ipx_status st = run_round(c);
        if (st != IPX_OK) return st;
        if (c->cfg.energy_cap) cap_energy(c);
    }
    return IPX_OK;
}

/* The plastic finish (plus_finish.c) as the impact's last round, reported by `bit`: every
   contact that can be pushed compresses with e = 0, without friction, solved exactly; leftover
   expansion is dropped. No contact approaches after it and it dissipates. */
static ipx_status plastic_finish(plus_ctx *c, unsigned bit)
{
    c->r->counts.limits_hit |= bit;
    c->fallback = 2;
    c->round++;
    c->r->counts.rounds++;
    for (int k = 0; k < c->k; k++) c->e[k] = c->pi_acc[k] = c->pi_exp[k] = 0.0;
    for (int k = 0; k < c->k; k++) c->focus_of[k] = -1;
    c->passes = 0;
    ipx_status st = plus_plastic_finish(c);
    if (st != IPX_OK) return st;
    c->r->counts.intervals++;
    apply_step(c, 1.0);
    record_step(c);
    notify(c, 1, 1.0);
    return IPX_OK;
}

/* Deviation 4 (docs/models/plus.md §5.8): inelastic rounds in which every contact that is not separating
   compresses (e = 0, leftover expansion dropped), so none of them can be pushed into approach
   by the others. If the active-set heuristic still leaves a contact approaching (a sliding
   contact whose normal impulse its own friction or its neighbours' would make pulling), the
   plastic finish ends the impact: every promise holds, Coulomb's law is given up for that last
   increment. */
static ipx_status fallback(plus_ctx *c)
{
    for (int k = 0; k < c->k; k++) c->pi_acc[k] = 0.0;
    ipx_status st = fallback_rounds(c);
    if (st == IPX_OK && classify(c) > 0) st = plastic_finish(c, IPX_PLUS_HIT_FRICTIONLESS);
    return st;
}

static ipx_status rounds(plus_ctx *c)
{
    while (classify(c) > 0) {
        if (c->round >= c->cfg.max_rounds) {
            c->r->counts.limits_hit |= IPX_PLUS_HIT_MAX_ROUNDS;
            return fallback(c);
        }
        ipx_status st = run_round(c);
        if (st != IPX_OK) return st;
        if (stalled(c)) {
            int had_held = 0;
            for (int k = 0; k < c->k; k++) had_held |= c->held[k];
            if (had_held) { /* deviation 10's hold stalled it: the paper's rules from now on */
                c->release = 1;
                continue;
            }
            c->r->counts.limits_hit |= IPX_PLUS_HIT_STALLED;
            return fallback(c);
        }
        if (c->cfg.energy_cap) cap_energy(c);
        if (c->cfg.settle_rounds > 0 && c->cfg.hold_plastic && !c->release) watch_pingpong(c);
    }
    return IPX_OK;
}

/* Deviation 12 (issue [scale]): the hard cost bound. Every min-norm solve (active-set pass or
   Newton step) counts; when max_solves are spent, plus_lsq refuses the next one, the interval
   it belonged to is abandoned (velocities and impulses stay those of the last completed
   interval), the round so far is capped like any round if the energy cap is on, and the
   plastic finish ends the impact. The cost of an impact is therefore at most max_solves
   min-norm solves of at most 4k unknowns plus one LCP of k rows. */
static ipx_status out_of_budget(plus_ctx *c)
{
    if (c->cfg.energy_cap && c->round > 0) cap_energy(c);
    return plastic_finish(c, IPX_PLUS_HIT_MAX_SOLVES);
}

/* Safety check of the end state: the finish leaves no contact approaching beyond eps_v. */
static ipx_status none_approaching(plus_ctx *c)
{
    for (int k = 0; k < c->k; k++) {
        double vn = c->v[IPX_ROWS_PER_CONTACT * k + IPX_N];
        if (!c->inert[k] && vn < -c->cfg.v_approach) {
            snprintf(c->r->message, sizeof c->r->message,
                     "plus: contact %d still approaches at %.3g m/s after the plastic finish", k,
                     vn);
            return IPX_ERR_NOT_CONVERGED;
        }
    }
    return IPX_OK;
}

ipx_status plus_run(plus_ctx *c)
{
    memcpy(c->v, c->p->v, sizeof(double) * (size_t)c->n);
    c->slip_floor = PLUS_SLIP_FLOOR * fmax(c->cfg.v_t, ipx_max_abs(c->p->v, c->n));
    memset(c->pi_total, 0, sizeof(double) * (size_t)c->n);
    memset(c->pi_acc, 0, sizeof(double) * (size_t)c->k);
    memset(c->plastic, 0, sizeof(int) * (size_t)c->k);
    memset(c->act_prev, 0, sizeof(int) * (size_t)c->k);
    c->settle = 0;
    c->settle_dT = 0.0;
    c->release = 0;
    find_inert(c);
    const int stuck = ipx_problem_unreachable_approach(c->p, c->cfg.v_approach);
    if (stuck >= 0) { /* an inert contact observes: the impact would end with it approaching */
        snprintf(c->r->message, sizeof c->r->message,
                 "plus: contact %d approaches at %.3g m/s but W_nn = 0: no impulse can separate it",
                 stuck, c->p->v[IPX_ROWS_PER_CONTACT * stuck + IPX_N]);
        return IPX_ERR_INPUT;
    }
    ipx_status st = rounds(c);
    if (st != IPX_OK && c->out_of_budget) {
        c->r->message[0] = '\0';
        st = out_of_budget(c);
    }
    if (st == IPX_OK && c->fallback) st = none_approaching(c);
    return st != IPX_OK ? st : ipx_result_finish(c->p, c->r);
}
