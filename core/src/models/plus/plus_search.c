/* PLUS impending slip where Newton stalls or leaves an angle off (plus_slip.c; deviation 3 of
   impax/plus.h): the directions one contact at a time.

   With the other directions fixed, the impulse is linear in the rows and the end slip w_k of
   one impending contact is a function of its angle alone. A root of w x s with w . s >= 0 is a
   consistent impending state (friction against the end slip); the angles are scanned and sign
   changes are refined. Which root a contact takes (slip_root, docs/models/plus.md §5.5):
   - where Newton reached a root but left an angle off it (its tolerance bounds w x s, not the
     angle), with slip_root = newton (the default), the root nearest the current direction:
     Newton's, refined;
   - where Newton failed, and always with slip_root = min_norm, of all roots the one without a
     pulling normal impulse and then the smallest impulse norm (the min-norm principle of
     Table 1).
   A root whose normal impulse pulls is still a root: the active set then drops that normal.
   Several impending contacts are swept in turn (nonlinear Gauss-Seidel) until their directions
   agree; the sweeps are accelerated (Anderson mixing, plus_accel.c, and Newton on the angles,
   plus_angles.c). Its probes read the end slips at the angles tried (plus_probe.c). */
#include <float.h>
#include <math.h>
#include <string.h>

#include "mathutil.h"
#include "plus_accel.h"
#include "plus_angles.h"
#include "plus_probe.h"
#include "plus_search.h"
#include "plus_system.h"

#define SCAN_ANGLES 12  /* scan step 30 degrees */
#define MAX_SWEEPS 20   /* Gauss-Seidel sweeps over several impending contacts */
#define JUMP_WIDTH 1e-6 /* rad: a bracket this narrow, both ends with ... */
#define JUMP_SLIP 1e-3  /* ... this fraction of the bracket's first end slip and ... */
#define JUMP_SINE 1e-2  /* ... this far off their end slips (sine) holds a jump [S] */

/* Solves the linear rows with contact k's direction at angle phi. */
static ipx_status probe_at(plus_ctx *c, int k, double phi, plus_probe *pr)
{
    c->s[2 * k] = cos(phi);
    c->s[2 * k + 1] = sin(phi);
    const ipx_status st = plus_solve_probe(c);
    plus_probe_here(c, k, pr);
    pr->phi = phi;
    return st;
}

/* 1 if a is a better root than b: no pulling normal first, then the smaller impulse. */
static int better(const plus_probe *a, const plus_probe *b, double tol_pn)
{
    int a_ok = a->pn >= -tol_pn, b_ok = b->pn >= -tol_pn;
    return a_ok != b_ok ? a_ok : a->norm < b->norm;
}

/* A bracket narrower than JUMP_WIDTH whose ends both keep more than JUMP_SLIP of the slip at
   its start and are both more than JUMP_SINE off it: w x s changes sign by a jump of the end
   slip's direction (the rows turn singular, or change rank, at an angle between them), not
   through a root (there w x s shrinks with the bracket) nor through w = 0 (there w does). The
   end slip turns faster than 1e4 rad per rad of s there: no angle of the bracket can end within
   the consistency bound, and narrowing it to PLUS_ANGLE_TOL cost some 60 probes (bins,
   piles). */
static int jump(const plus_probe *lo, const plus_probe *hi, double slip0)
{
    return hi->phi - lo->phi <= JUMP_WIDTH && fmin(lo->slip, hi->slip) > JUMP_SLIP * slip0 &&
           fabs(lo->cross) > JUMP_SINE * lo->slip && fabs(hi->cross) > JUMP_SINE * hi->slip;
}

/* The root of w x s between lo and hi (angles, lo < hi, a sign change between them) by the
   Illinois variant of regula falsi: bracketing like bisection, superlinear like the secant.
   Gives up at a jump, returning its last probe (off the end slip unless below the floor). */
static ipx_status bracket_root(plus_ctx *c, int k, plus_probe lo, plus_probe hi, plus_probe *root)
{
    plus_probe mid = lo;
    int side = 0; /* which end the last two steps kept: halve its value (Illinois) */
    const double slip0 = fmax(lo.slip, hi.slip); /* m/s */
    double f_lo = lo.cross, f_hi = hi.cross;
    while (hi.phi - lo.phi > PLUS_ANGLE_TOL && !jump(&lo, &hi, slip0)) {
        double phi = (lo.phi * f_hi - hi.phi * f_lo) / (f_hi - f_lo);
        if (!(phi > lo.phi && phi < hi.phi)) phi = 0.5 * (lo.phi + hi.phi);
        ipx_status st = probe_at(c, k, phi, &mid);
        if (st != IPX_OK) return st;
        if (mid.cross == 0.0 || fabs(mid.cross) <= PLUS_ANGLE_TOL * 1e-3 * mid.slip) break;
        if ((mid.cross < 0.0) == (f_lo < 0.0)) {
            lo = mid;
            f_lo = mid.cross;
            if (side == -1) f_hi *= 0.5;
            side = -1;
        } else {
            hi = mid;
            f_hi = mid.cross;
            if (side == 1) f_lo *= 0.5;
            side = 1;
        }
    }
    *root = mid;
    return IPX_OK;
}

/* 1 if w x s changes sign between the probes a and b and w . s > 0 at one of them: only
   there can a root with friction against the slip lie. */
static int sign_change(const plus_probe *a, const plus_probe *b)
{
    return (a->cross < 0.0) != (b->cross < 0.0) && (a->dot > 0.0 || b->dot > 0.0);
}

/* The min-norm choice: every direction scanned, every sign change refined, and of the roots
   the one without a pulling normal (beyond tol_pn, N*s), then with the smallest impulse, kept
   in *best. */
static ipx_status min_norm_root(plus_ctx *c, int k, const plus_probe *at0, double tol_pn,
                                plus_probe *best, int *found)
{
    plus_probe prev = *at0, cur, root;
    ipx_status st = IPX_OK;
    for (int i = 1; st == IPX_OK && i <= SCAN_ANGLES; i++) {
        st = probe_at(c, k, at0->phi + 2.0 * IPX_PI * i / SCAN_ANGLES, &cur);
        if (st == IPX_OK && sign_change(&prev, &cur)) {
            st = bracket_root(c, k, prev, cur, &root);
            if (st == IPX_OK && plus_consistent(c, &root) &&
                (!*found || better(&root, best, tol_pn))) {
                *best = root;
                *found = 1;
            }
        }
        prev = cur;
    }
    return st;
}

/* The nearest choice (refining Newton's root): the root nearest the current direction. The
   same SCAN_ANGLES brackets as min_norm_root, taken outward from the current angle, on both
   sides in turn (first the side the end slip lies on), and the first that holds a consistent
   root ends the scan; it finds a root wherever min_norm_root finds one. */
static ipx_status nearest_root(plus_ctx *c, int k, const plus_probe *at0, plus_probe *root,
                               int *found)
{
    const double step = 2.0 * IPX_PI / SCAN_ANGLES, first = at0->cross > 0.0 ? -1.0 : 1.0;
    plus_probe edge[2] = {*at0, *at0}; /* the last probe on each side */
    ipx_status st = IPX_OK;
    for (int i = 1; st == IPX_OK && 2 * i <= SCAN_ANGLES; i++) {
        for (int side = 0; side < 2 && st == IPX_OK; side++) {
            const double sense = side == 0 ? first : -first, phi = at0->phi + sense * step * i;
            plus_probe cur = edge[1 - side];
            if (2 * i == SCAN_ANGLES && side == 1) /* opposite the start: probed already */
                cur.phi = phi;
            else st = probe_at(c, k, phi, &cur);
            const plus_probe *lo = sense > 0.0 ? &edge[side] : &cur;
            const plus_probe *hi = sense > 0.0 ? &cur : &edge[side];
            if (st == IPX_OK && sign_change(lo, hi)) {
                st = bracket_root(c, k, *lo, *hi, root);
                if (st == IPX_OK && plus_consistent(c, root)) {
                    *found = 1;
                    return IPX_OK;
                }
            }
            edge[side] = cur;
        }
    }
    return st;
}

/* A consistent angle of contact k with the other directions fixed: the root nearest its
   current angle if nearest, else the min-norm one; *found = 0 if none. Leaves s_k at the root
   found (else unchanged); *kept = 1 if its current angle was one. */
static ipx_status search_angle(plus_ctx *c, int k, int nearest, int *found, int *kept)
{
    const double s0 = c->s[2 * k], s1 = c->s[2 * k + 1], phi0 = atan2(s1, s0);
    const double tol_pn = c->cfg.eps_pi * fmax(ipx_max_abs(c->x, c->m), DBL_MIN);
    plus_probe at0, root = {0};
    *found = *kept = 0;
    ipx_status st = probe_at(c, k, phi0, &at0);
    if (st == IPX_OK && plus_consistent(c, &at0)) {
        *found = *kept = 1;
        return IPX_OK;
    }
    if (st == IPX_OK)
        st = nearest ? nearest_root(c, k, &at0, &root, found)
                     : min_norm_root(c, k, &at0, tol_pn, &root, found);
    double phi = *found ? root.phi : phi0;
    c->s[2 * k] = *found ? cos(phi) : s0;
    c->s[2 * k + 1] = *found ? sin(phi) : s1;
    return st;
}

/* The search ends after MAX_SWEEPS sweeps, or once it has settled: every impending contact has
   been visited and, since the last one that moved, the ni - 1 others have kept their angles
   (each of those probes saw the final directions, and the last mover's root was found with
   them). */
static int search_over(int visits, int kept_run, int ni)
{
    return visits >= MAX_SWEEPS * ni || (visits >= ni && kept_run >= ni - 1);
}

/* The search's doubles for k contacts (plus_workspace_bytes): the acceleration's history
   (plus_accel.c), then Newton's on the angles (plus_angles.c). */
size_t plus_search_doubles(int k)
{
    return plus_search_history_doubles(k) + plus_angles_doubles(k);
}

/* Visits the impending contacts in turn (nonlinear Gauss-Seidel) until the search is over; a
   contact without a consistent direction ends it and is marked failed (the active set prunes
   it). Ends with the linear solve at the final directions. */
ipx_status plus_search_directions(plus_ctx *c, int nearest)
{
    ipx_status st = IPX_OK;
    int failed = 0, visits = 0, kept_run = 0; /* kept_run: visits since a contact last moved */
    int len = 0;                              /* pairs in the acceleration's history */
    plus_get_angles(c, NULL, c->search_hist);
    plus_expect_directions(c);
    for (int k = 0; st == IPX_OK && !failed && !search_over(visits, kept_run, c->ni);
         k = (k + 1) % c->k) {
        if (c->imp[k] < 0) continue;
        int found, kept, moved = 0;
        st = search_angle(c, k, nearest, &found, &kept);
        failed = c->slip_failed[k] = !found;
        visits++;
        kept_run = kept ? kept_run + 1 : 0;
        if (st != IPX_OK || c->ni < 2 || visits % c->ni != 0 || failed ||
            search_over(visits, kept_run, c->ni))
            continue;
        const int sweeps = visits / c->ni;
        if ((sweeps & (sweeps - 1)) == 0) /* after sweeps 1, 2, 4, 8 and 16 */
            st = plus_newton_on_angles(c, &moved, NULL);
        if (moved) { /* every contact confirms the new angles; the history starts there */
            kept_run = -1;
            len = 0;
            plus_get_angles(c, NULL, c->search_hist);
        } else if (st == IPX_OK && plus_accelerate(c, &len)) {
            kept_run = 0;
        }
    }
    if (st != IPX_OK) return st;
    plus_assemble(c);
    st = plus_solve_linear(c);
    for (int k = 0; st == IPX_OK && k < c->k; k++) {
        plus_probe pr;
        if (c->imp[k] < 0 || c->slip_failed[k]) continue;
        plus_probe_here(c, k, &pr);
        c->slip_failed[k] = !plus_consistent(c, &pr);
    }
    for (int k = 0; k < c->k; k++)
        if (c->imp[k] >= 0 && c->slip_failed[k]) c->r->counts.limits_hit |= IPX_PLUS_HIT_NEWTON;
    return st;
}
