/* PLUS Algorithm 2 (paper appendix; spec plus.md 5.6-5.8): impact rounds. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "mathutil.h"
#include "plus_internal.h"
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

/* A contact whose normal row of W is zero (two immovable bodies) can receive no impulse. */
static void find_inert(plus_ctx *c)
{
    const int n = c->n;
    double dmax = 0.0;
    for (int i = 0; i < n; i++) dmax = fmax(dmax, c->p->W[i + (size_t)n * i]);
    for (int k = 0; k < c->k; k++) {
        int z = IPX_ROWS_PER_CONTACT * k + IPX_N;
        c->inert[k] = !(c->p->W[z + (size_t)n * z] > 1e-12 * dmax);
    }
}

/* Spec 5.1: expanding = earned a non-zero expansion impulse last round (so e > 0); observing =
   not expanding and v_n >= -eps_v (never an exact 0: round-off would cycle); compressing = the
   rest. In round 1 of the all-participate variant everything compresses; in the fallback every
   contact that is not separating (v_n < eps_v) does. Deviation 10: a held contact (it compressed
   last round, earned nothing to expand, and others expand now) compresses again unless it
   separates, with e = 0 (start_round). */
static ipx_plus_class class_of(const plus_ctx *c, int k, double tol_pi, int all, int held)
{
    double vn = c->v[IPX_ROWS_PER_CONTACT * k + IPX_N];
    if (c->inert[k]) return IPX_PLUS_OBSERVING;
    if (!c->fallback && c->pi_acc[k] > tol_pi) return IPX_PLUS_EXPANDING;
    if (all || vn < -c->cfg.eps_v || ((c->fallback || held) && vn < c->cfg.eps_v))
        return IPX_PLUS_COMPRESSING;
    return IPX_PLUS_OBSERVING;
}

/* Deviation 10 (spec 8.16): contacts that compressed together share one coupled compression;
   the expansion impulses they earned were sized for that coupled system. A contact of the
   group that earned no expansion (e = 0: the capture band, or e_min = 0) is plastic: it stays
   closed while the others deliver theirs, instead of observing and being driven into a new
   approach that would bounce with a COR of its own (three balls, u = (-2, 0, 0.005), e_min 1,
   v_capture 0.01: the paper's rounds end at +22 % kinetic energy). Marks held[k]. */
static void mark_held(plus_ctx *c, double tol_pi)
{
    int expanding = 0;
    for (int k = 0; k < c->k; k++) expanding |= !c->inert[k] && c->pi_acc[k] > tol_pi;
    for (int k = 0; k < c->k; k++)
        c->held[k] = c->cfg.hold_plastic && !c->fallback && expanding && c->round > 0 &&
                     c->cls[k] == IPX_PLUS_COMPRESSING && !(c->pi_acc[k] > tol_pi);
}

/* Classes for the round; returns the number of compressing or expanding contacts (none in the
   fallback once nothing approaches). */
static int classify(plus_ctx *c)
{
    const double tol_pi = c->cfg.eps_pi * fmax(ipx_max_abs(c->pi_total, c->n), DBL_MIN);
    const int all = c->round == 0 && c->cfg.all_participate;
    int active = 0, approaching = 0;
    mark_held(c, tol_pi);
    for (int k = 0; k < c->k; k++) {
        c->cls[k] = class_of(c, k, tol_pi, all, c->held[k]);
        active += c->cls[k] != IPX_PLUS_OBSERVING;
        approaching += !c->inert[k] && c->v[IPX_ROWS_PER_CONTACT * k + IPX_N] < -c->cfg.eps_v;
    }
    return c->fallback && !approaching ? 0 : active;
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
        c->r->slip_state[k] = c->normal_on[k] == PLUS_NORMAL_OFF ? IPX_SLIP_NONE : state[c->slip[k]];
}

static void notify(const plus_ctx *c, int interval, double alpha)
{
    if (!c->observer) return;
    ipx_plus_interval iv = {
        .round = c->round, .interval = interval, .fallback = c->fallback, .alpha = alpha,
        .k = c->k, .cls = c->cls, .slip = c->slip, .normal_active = c->normal_on,
        .step = c->pi, .impulse = c->pi_total, .v = c->v};
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
            alpha = 1.0; /* spec 5.8: alpha_min steps shrink the rest geometrically, never end */
            c->r->counts.limits_hit |= IPX_PLUS_HIT_MAX_INTERVALS;
        }
        c->r->counts.intervals++;
        apply_step(c, alpha);
        record_step(c);
        notify(c, interval, alpha);
        if (alpha == 1.0) return IPX_OK;
    }
}

/* A round that moved nothing although contacts compress would repeat forever (spec 8.8). */
static int stalled(const plus_ctx *c)
{
    double moved = 0.0;
    for (int i = 0; i < c->n; i++) moved = fmax(moved, fabs(c->pi_total[i] - c->pi_round[i]));
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

/* Deviation 1 (spec 8.16): if the kinetic energy after this round is above its value at the
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

/* Inelastic rounds of one fallback level while contacts approach, at most k + 1 of them. */
static ipx_status fallback_rounds(plus_ctx *c, int level)
{
    c->fallback = level;
    for (int extra = 0; extra <= c->k && classify(c) > 0; extra++) {
        ipx_status st = run_round(c);
        if (st != IPX_OK) return st;
        if (c->cfg.energy_cap) cap_energy(c);
    }
    return IPX_OK;
}

/* Deviation 4 (spec 5.8): inelastic rounds in which every contact that is not separating
   compresses (e = 0, leftover expansion dropped), so none of them can be pushed into approach
   by the others. If the active-set heuristic still leaves a contact approaching (a sliding
   contact whose normal impulse its own friction or its neighbours' would make pulling), the
   last resort is the same without friction, which keeps every promise but Coulomb's law for
   that last increment. */
static ipx_status fallback(plus_ctx *c)
{
    for (int k = 0; k < c->k; k++) c->pi_acc[k] = 0.0;
    ipx_status st = fallback_rounds(c, 1);
    if (st == IPX_OK && classify(c) > 0) {
        c->r->counts.limits_hit |= IPX_PLUS_HIT_FRICTIONLESS;
        st = fallback_rounds(c, 2);
    }
    if (st != IPX_OK) return st;
    for (int k = 0; k < c->k; k++) {
        double vn = c->v[IPX_ROWS_PER_CONTACT * k + IPX_N];
        if (!c->inert[k] && vn < -c->cfg.eps_v) {
            snprintf(c->r->message, sizeof c->r->message,
                     "plus: contact %d still approaches at %.3g m/s after the fallback rounds", k, vn);
            return IPX_ERR_NOT_CONVERGED;
        }
    }
    return IPX_OK;
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
            c->r->counts.limits_hit |= IPX_PLUS_HIT_STALLED;
            return fallback(c);
        }
        if (c->cfg.energy_cap) cap_energy(c);
    }
    return IPX_OK;
}

ipx_status plus_run(plus_ctx *c)
{
    memcpy(c->v, c->p->v, sizeof(double) * (size_t)c->n);
    c->slip_floor = PLUS_SLIP_FLOOR * fmax(c->cfg.v_t, ipx_max_abs(c->p->v, c->n));
    memset(c->pi_total, 0, sizeof(double) * (size_t)c->n);
    memset(c->pi_acc, 0, sizeof(double) * (size_t)c->k);
    find_inert(c);
    ipx_status st = rounds(c);
    return st != IPX_OK ? st : ipx_result_finish(c->p, c->r);
}
