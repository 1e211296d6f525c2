/* PLUS Algorithm 1 (paper 3b and appendix; docs/models/plus.md §5.4): one interval. Tangential states
   from the start velocities, then the active-set search over Table 1, then the length alpha. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mathutil.h"
#include "plus_interval.h"
#include "plus_slip.h"
#include "plus_step.h"
#include "plus_system.h"

/* Relative width within which violations count as tied (docs/models/plus.md §5.4 [D]; deviation 2). */
#define TIE 1e-6

/* Sliding if |v_t| >= v_transition (2.9a): an oblique impact always starts sliding; otherwise
   rolling (2.7) until the cone rejects it. */
static void start_states(plus_ctx *c)
{
    double v_scale = c->cfg.v_t;
    for (int k = 0; k < c->k; k++) {
        const double *vk = c->v + IPX_ROWS_PER_CONTACT * k;
        double speed = hypot(vk[IPX_T1], vk[IPX_T2]);
        v_scale = ipx_max(v_scale, ipx_max(speed, fabs(vk[IPX_N])));
        c->normal_on[k] = c->cls[k] != IPX_PLUS_OBSERVING ? PLUS_NORMAL_ON : PLUS_NORMAL_OFF;
        c->chatter[k] = c->chatter[k] < 0 ? -1 : 0;
        c->from_rolling[k] = 0;
        if (!c->normal_on[k] || plus_mu(c, k) == 0.0) {
            c->slip[k] = IPX_PLUS_NO_FRICTION;
            continue;
        }
        const int slides = speed > 0.0 && speed >= c->cfg.v_t && !plus_never_slides(c, k);
        c->slip[k] = slides ? IPX_PLUS_SLIDING : IPX_PLUS_ROLLING;
        /* the slip direction; for a rolling contact only a first guess should it turn impending */
        c->s[2 * k] = speed > 0.0 ? vk[IPX_T1] / speed : 1.0;
        c->s[2 * k + 1] = speed > 0.0 ? vk[IPX_T2] / speed : 0.0;
    }
    c->v_scale = v_scale;
}

/* The largest violation of contact k (Table 1): a pulling normal impulse at an active
   compressing contact, a rolling impulse outside the cone (2.6); an impending contact with no
   direction in which friction opposes its end slip violates (2.9b) outright and is pruned
   first. -inf if none applies. */
static inline double violation(const plus_ctx *c, int k)
{
    const double *pk = c->pi + IPX_ROWS_PER_CONTACT * k;
    double worst = -INFINITY;
    if (!plus_solving(c, k)) return worst;
    if (c->slip[k] == IPX_PLUS_IMPENDING && c->slip_failed[k]) return INFINITY;
    if (c->cls[k] == IPX_PLUS_COMPRESSING && c->normal_on[k] == PLUS_NORMAL_ON) worst = -pk[IPX_N];
    if (c->slip[k] == IPX_PLUS_ROLLING && !plus_never_slides(c, k))
        worst = ipx_max(worst, ipx_length2(pk[IPX_T1], pk[IPX_T2]) - plus_mu(c, k) * pk[IPX_N]);
    return worst;
}

static double worst_violation(const plus_ctx *c)
{
    double worst = -INFINITY;
    for (int i = 0; i < c->members; i++) worst = ipx_max(worst, violation(c, c->member[i]));
    return worst;
}

/* Deviation 7 (docs/models/plus.md §8.8, Painleve): a sliding compressing contact whose own sliding normal
   compliance A_nn - mu s_hat.A_tn is not positive cannot end its compression while it slides:
   (2.11) asks for a pulling pi_n, and dropping its normal row repeats forever. As in the
   Darboux-Keller picture the paper builds on, it then slides on the edge of its cone with a
   growing normal impulse until its slip stops: the interval prescribes pi_n = P, twice the
   impulse that stops the slip at the contact's own deceleration -s_hat.(A_tn - mu A_tt s_hat),
   and (2.12)-(2.14) cut the interval where the contact starts to roll. Returns 0 (drop the
   normal as the paper does) unless the contact is in that configuration and decelerates. */
static int painleve_slide(plus_ctx *c, int k)
{
    const int n = c->n, b = IPX_ROWS_PER_CONTACT * k;
    const double *W = c->p->W, *s = c->s + 2 * k, mu = plus_mu(c, k);
    const double *Wz = W + (size_t)n * (size_t)(b + IPX_N); /* row n of contact k */
    if (Wz[b + IPX_N] - mu * (s[0] * Wz[b + IPX_T1] + s[1] * Wz[b + IPX_T2]) > 0.0) return 0;
    double decel = 0.0;
    for (int t = IPX_T1; t <= IPX_T2; t++) {
        const double *Wt = W + (size_t)n * (size_t)(b + t);
        double rate = Wt[b + IPX_N] - mu * (Wt[b + IPX_T1] * s[0] + Wt[b + IPX_T2] * s[1]);
        decel -= s[t] * rate;
    }
    double speed = hypot(c->v[b + IPX_T1], c->v[b + IPX_T2]);
    if (!(decel > 0.0)) return 0;
    c->p_slide[k] = 2.0 * speed / decel;
    c->r->counts.limits_hit |= IPX_PLUS_HIT_PAINLEVE;
    return 1;
}

/* An impending contact for which no direction has friction against its end slip (2.9b) (the
   search of plus_search.c found none). One that was made impending against chatter slides
   explicitly again (2.9a) for the rest of the round: its slip is above v_transition. One that
   left rolling has its normal row dropped, as Algorithm 1 drops any non-rolling contact that
   violates: no impulse at it in this interval, and the rest of its approach is left to the
   next round (docs/models/plus.md §5.7), when the other contacts have moved on. Returns 1 if the normal was
   dropped. */
static int no_direction(plus_ctx *c, int k)
{
    if (c->chatter[k] != 1) {
        c->normal_on[k] = PLUS_NORMAL_OFF;
        return 1;
    }
    const double *vk = c->v + IPX_ROWS_PER_CONTACT * k;
    double speed = hypot(vk[IPX_T1], vk[IPX_T2]);
    c->slip[k] = IPX_PLUS_SLIDING;
    c->s[2 * k] = vk[IPX_T1] / speed;
    c->s[2 * k + 1] = vk[IPX_T2] / speed;
    c->chatter[k] = -1;
    return 0;
}

/* Root of contact a's group (path halving). */
static int group_root(int *group, int a)
{
    while (group[a] != a) a = group[a] = group[group[a]];
    return a;
}

/* The candidate's groups: contacts with unknowns (plus_solving) that W couples, directly or
   through others with unknowns, share a root in c->group. A contact whose normal row is off
   has no unknown and couples nothing. The candidate's rows and unknowns fall apart into these
   groups, and its min-norm solution with them: each group's impulse depends on that group's
   states alone. */
static void find_groups(plus_ctx *c)
{
    for (int i = 0; i < c->members; i++) c->group[c->member[i]] = c->member[i];
    for (int i = 0; i < c->members; i++) {
        const int a = c->member[i];
        if (!plus_solving(c, a)) continue;
        for (int j = i + 1; j < c->members; j++) {
            const int b = c->member[j];
            if (plus_solving(c, b) && ipx_w_block_nonzero(c->p->W, (size_t)c->n, a, b))
                c->group[group_root(c->group, b)] = group_root(c->group, a);
        }
    }
}

/* 1 if a normal row this prune dropped (c->dropped) is one that contact k rolls again after
   (deviation 9): with reset_scope = beside, one of a contact that shares a body with k (W
   couples the two directly), or k's own; with group, one of k's group. */
static int reset_by_drop(plus_ctx *c, int k)
{
    for (int j = 0; j < c->n_dropped; j++) {
        const int d = c->dropped[j];
        if (c->cfg.reset_scope == PLUS_RESET_BESIDE
                ? ipx_w_block_nonzero(c->p->W, (size_t)c->n, k, d)
                : group_root(c->group, k) == group_root(c->group, d))
            return 1;
    }
    return 0;
}

/* Prunes, in every group whose worst violation is above tol, each contact tied with that worst
   violation (deviation 2): a rolling contact turns impending, its
   first guess of the slip direction opposite the rejected rolling impulse (so that friction
   keeps that impulse's direction, scaled to the cone); an impending contact without a
   direction goes to no_direction; otherwise the compressing contact's normal row is dropped
   (all three components fixed at 0 for this interval), unless it is a Painleve sliding
   contact. A dropped normal changes what the other contacts of its group can hold, and most
   directly what those that share a body with it can: those of them this search made impending
   roll again and are decided anew (deviation 9: a contact stays impending only while rolling
   does not fit its cone; reset_scope = group: every one of the group, each then turned
   impending again one pass at a time, which on the crash demo's walls was most of the passes).
   Other groups keep their states: their impulses do not depend on the dropped row, and deciding
   them anew repeated the same passes (a bin's impact of 70 contacts: the same six passes after
   each of seven drops elsewhere). For the same reason each group's sequence of passes is the
   one it would have alone, and the groups are pruned side by side instead of one after the
   other. */
static void prune(plus_ctx *c, double tol)
{
    c->n_dropped = 0;
    find_groups(c);
    for (int i = 0; i < c->members; i++) {
        c->group_worst[c->member[i]] = -INFINITY;
    }
    for (int i = 0; i < c->members; i++) {
        const int a = c->member[i], r = group_root(c->group, a);
        c->group_worst[r] = ipx_max(c->group_worst[r], violation(c, a));
    }
    for (int i = 0; i < c->members; i++) {
        const int k = c->member[i];
        const double worst = c->group_worst[group_root(c->group, k)];
        if (worst <= tol || violation(c, k) < worst * (1.0 - TIE)) continue;
        if (c->slip[k] == IPX_PLUS_IMPENDING && c->slip_failed[k]) {
            if (no_direction(c, k)) c->dropped[c->n_dropped++] = k;
            continue;
        }
        /* Deviation 15: a contact that never slides violates only by a pulling normal. Every
           infinite mu of the impact then takes PLUS_MU_FINITE for the rest of it, and the
           interval starts again (sets): the paper's path there slides or slips with friction
           alone stopping the approach (test_plus_infinite_mu.c). All of them, not that contact
           alone: a contact held rolling beside one sliding with mu = 1000 made an interval that
           gained 5.7 J (a captured island of bench_piles seed 17, caught by the energy cap). */
        if (plus_never_slides(c, k)) {
            c->mu_finite = 1;
            return;
        }
        if (c->slip[k] != IPX_PLUS_ROLLING) {
            int slide = c->slip[k] == IPX_PLUS_SLIDING && painleve_slide(c, k);
            c->normal_on[k] = slide ? PLUS_NORMAL_SLIDE : PLUS_NORMAL_OFF;
            c->dropped[c->n_dropped++] = k;
            continue;
        }
        c->slip[k] = IPX_PLUS_IMPENDING;
        c->from_rolling[k] = 1;
        const double *pk = c->pi + IPX_ROWS_PER_CONTACT * k;
        double len = hypot(pk[IPX_T1], pk[IPX_T2]);
        if (len > 0.0) {
            c->s[2 * k] = -pk[IPX_T1] / len;
            c->s[2 * k + 1] = -pk[IPX_T2] / len;
        }
    }
    if (c->n_dropped == 0) return;
    for (int i = 0; i < c->members; i++) {
        const int k = c->member[i];
        if (!c->from_rolling[k] || !reset_by_drop(c, k)) continue;
        c->slip[k] = IPX_PLUS_ROLLING;
        c->from_rolling[k] = 0;
    }
}

static int any_impending(const plus_ctx *c)
{
    for (int i = 0; i < c->members; i++)
        if (plus_solving_impending(c, c->member[i])) return 1;
    return 0;
}

/* pi for the current active set: min-norm solve of B pi = w, Newton if a contact is impending. */
static ipx_status solve_candidate(plus_ctx *c)
{
    plus_columns(c);
    plus_assemble(c);
    ipx_status st = plus_solve_linear(c);
    if (st == IPX_OK && any_impending(c)) st = plus_impending(c);
    if (st == IPX_OK) plus_scatter(c);
    return st;
}

/* +1 if the slip v0 turns counter-clockwise under the change d, else -1. */
static int turn_sense(const double v0[2], const double d[2])
{
    return v0[0] * d[1] - v0[1] * d[0] >= 0.0 ? 1 : -1;
}

/* Deviation 8: the explicit sliding direction (2.9a) chatters where the slip direction is
   strongly attracted to an equilibrium: every interval turns it by theta_max past that
   direction, the next one turns it back, alpha stays tiny and the round never ends. A sliding
   contact whose direction-limited turn would reverse the sense of its previous one for the
   second time in a row is treated as impending in this interval instead (friction against the
   end slip, (2.9b): the implicit step). Smoothly turning slips never reverse, and a slip that
   passes the origin at a distance reverses once (Example 1, mu = 0.225, theta_max = 0.25).
   Returns 1 if it switched a contact. */
static int stop_chatter(plus_ctx *c)
{
    int switched = 0;
    for (int k = 0; k < c->k; k++) {
        if (c->slip[k] != IPX_PLUS_SLIDING || c->normal_on[k] == PLUS_NORMAL_OFF) continue;
        if (abs(c->turn[k]) < 2 || c->chatter[k] < 0) continue; /* not reversed, or no root */
        const double *vk = c->v + IPX_ROWS_PER_CONTACT * k, *dk = c->wpi + IPX_ROWS_PER_CONTACT * k;
        int limit;
        plus_slide_alpha(vk, dk, c->cfg.v_t, c->cfg.cos_theta, c->cfg.alpha_min, &limit);
        if (limit != PLUS_LIMIT_DIRECTION || turn_sense(vk, dk) * c->turn[k] > 0) continue;
        c->slip[k] = IPX_PLUS_IMPENDING; /* first guess: the start slip direction, already in s */
        c->chatter[k] = 1;
        switched = 1;
    }
    return switched;
}

/* Spec 4 items 4-5: alpha = min over sliding contacts that carry a normal impulse (those whose
   normal row was dropped carry no friction; rolling and impending contacts never limit it).
   Records every direction-limited turn for stop_chatter: its sense (+-1), doubled if it
   reversed the previous one; an impending contact keeps its record, so a contact taken out of
   chatter goes back to the implicit form as soon as its explicit turn reverses again. */
static double step_length(plus_ctx *c)
{
    double alpha = 1.0;
    for (int k = 0; k < c->k; k++) {
        int limit = PLUS_LIMIT_NONE;
        const double *vk = c->v + IPX_ROWS_PER_CONTACT * k, *dk = c->wpi + IPX_ROWS_PER_CONTACT * k;
        if (c->slip[k] == IPX_PLUS_IMPENDING) continue;
        if (c->slip[k] == IPX_PLUS_SLIDING && c->normal_on[k] != PLUS_NORMAL_OFF)
            alpha = fmin(alpha, plus_slide_alpha(vk, dk, c->cfg.v_t, c->cfg.cos_theta,
                                                 c->cfg.alpha_min, &limit));
        int sense = turn_sense(vk, dk), reversed = c->turn[k] * sense < 0;
        c->turn[k] = limit == PLUS_LIMIT_DIRECTION ? (reversed ? 2 * sense : sense) : 0;
    }
    return alpha > 1.0 - sqrt(DBL_EPSILON) ? 1.0 : alpha; /* snap [S] */
}

/* The active-set search (Algorithm 1's loop) from the current states. */
static ipx_status active_set(plus_ctx *c)
{
    /* normal rows are only ever dropped (at most k times); between two drops each pass turns
       at least one of at most k rolling contacts impending: (k + 1)^2 + 1 passes suffice */
    const int max_passes = c->cfg.max_passes > 0 ? c->cfg.max_passes : (c->k + 1) * (c->k + 1) + 1;
    const int finite = c->mu_finite;
    for (int pass = 1;; pass++) {
        c->passes++;
        ipx_status st = solve_candidate(c);
        if (st != IPX_OK) return st;
        double scale = 0.0; /* N*s: the group's largest impulse */
        for (int i = 0; i < c->members; i++)
            for (int t = 0; t < IPX_ROWS_PER_CONTACT; t++)
                scale = ipx_max(scale, fabs(c->pi[IPX_ROWS_PER_CONTACT * c->member[i] + t]));
        const double tol = c->cfg.eps_pi * ipx_max(scale, DBL_MIN), worst = worst_violation(c);
        if (worst <= tol) return IPX_OK;
        if (pass >= max_passes) {
            c->r->counts.limits_hit |= IPX_PLUS_HIT_MAX_PASSES;
            return IPX_OK;
        }
        prune(c, tol);
        if (c->mu_finite != finite) return IPX_OK; /* deviation 15: the interval starts again */
    }
}

/* Deviation 13 (issue [scale]): the interval's groups solved one by one. Contacts whose normal
   rows are on fall into groups that W couples (find_groups): no body is shared between two
   groups, so B is block-diagonal over them, its min-norm solution is the groups' own, and so
   are their violations, prunes and impending-slip directions. Each group runs its own active
   set (a dropped normal can split a group further: prune keeps its parts apart) on its own
   unknowns, judged against its own largest impulse; W pi is formed once all are solved. In a
   bin of boxes an interval's 40-50 active contacts fall into a few groups (boxes on boxes):
   one system of 120-150 unknowns became several of up to 60 (some bins' piles stay one group
   of 100 and more), and a group no longer repeats its passes while another one's are made.
   Exact arithmetic gives Algorithm 1's answer, with deviation 2's ties and deviation 9's
   resets taken within a group (Table 2, Examples 1-4: one group). */
static ipx_status active_sets(plus_ctx *c)
{
    /* between intervals the member list holds every contact (plus_ctx_init sets it) */
    ipx_status st = IPX_OK;
    const int finite = c->mu_finite;
    int groups = 1;
    if (c->k == 1) { /* one contact, one group: Example 1's hundred intervals the shortest way */
        c->focus_of[0] = c->normal_on[0] != PLUS_NORMAL_OFF ? 0 : -1;
        for (int i = 0; i < IPX_ROWS_PER_CONTACT; i++) c->pi[i] = 0.0;
    } else {
        groups = 0;
        find_groups(c);
        for (int k = 0; k < c->k; k++) {
            c->focus_of[k] = c->normal_on[k] != PLUS_NORMAL_OFF ? group_root(c->group, k) : -1;
            groups += c->focus_of[k] == k;
        }
        memset(c->pi, 0, sizeof(double) * (size_t)c->n);
    }
    if (groups <= 1) { /* one group: all contacts, without the focus tests */
        st = active_set(c);
    } else {
        for (int r = 0; r < c->k && st == IPX_OK && c->mu_finite == finite; r++) {
            if (c->focus_of[r] != r) continue; /* one visit per group: at its root */
            c->focus = r;
            c->members = 0;
            for (int k = 0; k < c->k; k++)
                if (c->focus_of[k] == r) c->member[c->members++] = k;
            st = active_set(c);
        }
        c->focus = -1;
        c->members = c->k;
        for (int k = 0; k < c->k; k++) c->member[k] = k;
    }
    plus_velocity_change(c);
    return st;
}

/* The active sets; where the infinite mu took PLUS_MU_FINITE in them (deviation 15, once an
   impact), again from the start states. */
static ipx_status sets(plus_ctx *c)
{
    const int finite = c->mu_finite;
    ipx_status st = active_sets(c);
    if (st != IPX_OK || c->mu_finite == finite) return st;
    start_states(c);
    return active_sets(c);
}

ipx_status plus_interval(plus_ctx *c, double *alpha)
{
    c->passes = 0;
    start_states(c);
    ipx_status st = sets(c);
    if (st == IPX_OK && stop_chatter(c)) st = sets(c);
    if (st != IPX_OK) return st;
    *alpha = step_length(c);
    return IPX_OK;
}
