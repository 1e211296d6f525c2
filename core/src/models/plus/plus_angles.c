/* PLUS impending slip (deviation 3 of impax/plus.h): Newton's method on the impending
   contacts' slip angles alone. With the impulse eliminated (each evaluation one min-norm solve
   of the rows at the given angles, as a probe of the search), the end slips' angles from the
   directions, g_k = atan2(w_k x s_k, w_k . s_k), are ni functions of the ni angles, zero
   exactly where friction opposes the end slip (never on the wrong branch, where g = pi). The
   Jacobian by forward differences (ni solves), the step min-norm, bounded by ANGLE_STEP_MAX and
   halved until sum g^2 falls.

   Used twice:
   - first, from the guesses (plus_angles_first), before Newton on impulse and angles together
     (plus_slip.c), a step of which is a fresh factorisation of m + ni unknowns;
   - after sweeps 1, 2, 4, 8 and 16 of the search (plus_search.c), where the coupled contacts'
     sweeps creep (bin capture: searches of 3 contacts at 20-30 probes a visit and 20 sweeps,
     the angles still moving 1e-3 rad a sweep).
   Its point is taken only if it is consistent or sum g^2 fell by ANGLE_NEWTON_GAIN: Newton can
   also settle at a non-zero minimum of sum g^2 far from the sweeps' path (a box's three
   corners, 6.8 -> 1.05), and the sweeps from there go back. Where it lands on consistent angles
   in the search, the next sweep confirms them at one probe a contact; the search's end is the
   same test as without it, so its answer is a root in the same sense.

   Its evaluations change all ni columns at once, which the factor cache (min_norm.h) updates
   only for ni <= ipx_min_norm_set_limit(m) (m / 4, from 8 to 32): beyond that it is not used
   (bin capture: a 42-contact impact 46 -> 239 ms with it at ni = 13 beyond the cache's
   columns). Below IPX_MIN_NORM_CACHE_MIN unknowns every solve is a factorisation, the
   search's probes as much as its evaluations, so there it runs in the search but is not
   tried first. The cache is told which columns will change (plus_expect_directions), so that
   it builds one base factor without all of them instead of one per column. Its arrays follow
   the acceleration's history in c->search_hist (plus_accel.c). */
#include <math.h>
#include <string.h>

#include "mathutil.h"
#include "numerics/min_norm.h"
#include "plus_accel.h"
#include "plus_angles.h"
#include "plus_probe.h"
#include "plus_system.h"

#define ANGLE_NEWTON_ITERS 20
#define ANGLE_NEWTON_GAIN 1e-6
#define ANGLE_FD_STEP 1e-6 /* rad: forward-difference step of the Jacobian [S] */
#define ANGLE_HALVINGS 4
#define ANGLE_STEP_MAX (IPX_PI / 4) /* rad: a longer step is scaled to this [S] */

/* Newton's six vectors of ni and its ni x ni Jacobian, for k contacts. */
size_t plus_angles_doubles(int k) { return 6 * (size_t)k + (size_t)k * (size_t)k; }

/* Each impending contact's angle g from its direction to its end slip at the current solution
   (0 without slip) into g; returns sum g^2; *all = 1 if every one is consistent. */
static double slip_angles(const plus_ctx *c, double *g, int *all)
{
    double sum = 0.0;
    *all = 1;
    for (int k = 0; k < c->k; k++) {
        const int j = c->imp[k];
        if (j < 0) continue;
        plus_probe pr;
        plus_probe_here(c, k, &pr);
        g[j] = pr.slip <= c->slip_floor ? 0.0 : atan2(pr.cross, pr.dot);
        *all &= plus_consistent(c, &pr);
        sum += g[j] * g[j];
    }
    return sum;
}

/* 1 if one base factor of the cache can leave out every impending contact's column. */
static int fits_cache(const plus_ctx *c) { return c->ni <= ipx_min_norm_set_limit(c->m); }

/* Tells the factor cache that the impending contacts' columns (their normal unknowns, which
   the friction rows' mu s enter) are the ones to change: its next base factor leaves them all
   out at once (min_norm.h), and splits each at its first change (only its two friction rows
   change). */
void plus_expect_directions(plus_ctx *c)
{
    int cols[IPX_MIN_NORM_MAX_SET];
    if (!fits_cache(c)) return;
    ipx_min_norm_expect(c->m, &c->lsq, cols, plus_impending_columns(c, cols));
}

/* Solves the linear rows at the angles phi (ni) and reads their slip angles (slip_angles). */
static ipx_status evaluate(plus_ctx *c, const double *phi, double *g, double *merit, int *all)
{
    plus_set_angles(c, phi);
    const ipx_status st = plus_solve_probe(c);
    if (st == IPX_OK) *merit = slip_angles(c, g, all);
    return st;
}

/* Newton steps on the angles from the current directions. Leaves its point as the directions
   and *moved = 1 if it is taken (above), else the directions it started from; *all_out (if not
   NULL) = 1 if the directions left are consistent (their solve the last one made). Does nothing
   where the cache cannot leave every impending column out (fits_cache). */
ipx_status plus_newton_on_angles(plus_ctx *c, int *moved, int *all_out)
{
    const int ni = c->ni;
    double *phi = c->search_hist + plus_search_history_doubles(c->k), *g = phi + ni,
           *trial = g + ni;
    double *gt = trial + ni, *step = gt + ni, *start = step + ni, *J = start + ni;
    double merit, trial_merit;
    int all, trial_all;
    *moved = 0;
    if (all_out) *all_out = 0;
    if (!fits_cache(c)) return IPX_OK;
    plus_get_angles(c, NULL, phi);
    memcpy(start, phi, sizeof(double) * (size_t)ni);
    ipx_status st = evaluate(c, phi, g, &merit, &all);
    plus_expect_directions(c);
    const double merit0 = merit;
    int fresh = 1; /* the last solve was at phi */
    for (int it = 0; st == IPX_OK && !all && it < ANGLE_NEWTON_ITERS; it++) {
        fresh = 0;
        for (int j = 0; j < ni; j++) { /* column j of the Jacobian */
            memcpy(trial, phi, sizeof(double) * (size_t)ni);
            trial[j] += ANGLE_FD_STEP;
            st = evaluate(c, trial, gt, &trial_merit, &trial_all);
            if (st != IPX_OK) break;
            for (int i = 0; i < ni; i++)
                J[i + (size_t)ni * j] = remainder(gt[i] - g[i], 2.0 * IPX_PI) / ANGLE_FD_STEP;
        }
        if (st != IPX_OK) break;
        double largest = 0.0;
        for (int i = 0; i < ni; i++) step[i] = -g[i];
        if (ipx_plus_lsq(ni, ni, J, step, c->cfg.rcond, c->newton_work, c->newton_iwork, NULL) !=
            IPX_OK)
            break;
        for (int i = 0; i < ni; i++) largest = fmax(largest, fabs(step[i]));
        double scale = largest > ANGLE_STEP_MAX ? ANGLE_STEP_MAX / largest : 1.0;
        int accepted = 0;
        for (int h = 0; st == IPX_OK && !accepted && h <= ANGLE_HALVINGS; h++, scale *= 0.5) {
            for (int i = 0; i < ni; i++) trial[i] = phi[i] + scale * step[i];
            st = evaluate(c, trial, gt, &trial_merit, &trial_all);
            accepted = st == IPX_OK && trial_merit < merit;
        }
        if (!accepted) break;
        fresh = 1;
        memcpy(phi, trial, sizeof(double) * (size_t)ni);
        memcpy(g, gt, sizeof(double) * (size_t)ni);
        merit = trial_merit;
        all = trial_all;
        *moved = 1;
    }
    if (*moved && !all && merit > ANGLE_NEWTON_GAIN * merit0) { /* not taken: back to the start */
        *moved = 0;
        memcpy(phi, start, sizeof(double) * (size_t)ni);
    }
    if (all_out) *all_out = st == IPX_OK && all && fresh;
    plus_set_angles(c, phi);
    return st;
}

/* Newton on the angles alone from the guesses, before Newton on impulse and angles together:
   each of its steps is ni + 1 solves through the factor cache, where a step of the other is a
   fresh factorisation of m + ni unknowns (bin capture, with the search's use and the cache told
   the columns: 42 -> 34 s of solves; below the cache's IPX_MIN_NORM_CACHE_MIN unknowns every
   solve is a factorisation, and it is not tried). Nor is it where the sparse path answers this
   impact's large systems: there a step of Newton on impulse and angles is a sparse solve, and
   the angles' dense ones cost more (stacks of 128 boxes, bench_plus_scale: 4.7 / 6.0 / 15.4 s
   per impact became 6.2 / 17.8 / 17.9 s with it there, 6.5 / 6.6 / 11.8 s without). Where
   it ends on consistent directions their min-norm impulse is the interval's (the search's
   answers are of that kind too); *done = 1. Otherwise the guesses and the solution are put
   back (the solution in xs, the directions in dx: Newton's scratch, free until it runs). */
ipx_status plus_angles_first(plus_ctx *c, int *done)
{
    int moved = 0, all = 0;
    *done = 0;
    if (!fits_cache(c) || c->m < IPX_MIN_NORM_CACHE_MIN || plus_sparse_paying(c, c->m + c->ni))
        return IPX_OK;
    memcpy(c->xs, c->x, sizeof(double) * (size_t)c->m);
    memcpy(c->dx, c->s, sizeof(double) * 2 * (size_t)c->k);
    ipx_status st = plus_newton_on_angles(c, &moved, &all);
    if (st != IPX_OK) return st;
    if (all) {
        *done = 1;
        return IPX_OK;
    }
    memcpy(c->x, c->xs, sizeof(double) * (size_t)c->m);
    memcpy(c->s, c->dx, sizeof(double) * 2 * (size_t)c->k);
    plus_start_angles(c);
    plus_assemble_directions(c);
    return IPX_OK;
}
