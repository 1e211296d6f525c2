/* Flickinger-Bowling slip directions (docs/models/bowling.md §5): a slipping group's impulse is -c_d pi_n s with s
   the direction of the slip it leaves, w = v+ - b (slip_reference 0) or v+ (1); w depends on s,
   so s is a root of d(phi), the angle from s = (cos phi, sin phi) to w(s). Where friction
   dominates, w sweeps round much faster than s turns (d falls steeply through its root), so
   the plain fixed point phi += d overshoots and oscillates. One 2-D group keeps the last
   directions on either side of its root (|d| < pi/2) and, once it has both, closes the bracket
   by regula falsi (Illinois), with fixed-point turns damped by half whenever |d| grows until
   then. Two or more 2-D groups are coupled through the impulses: Newton on their angles, on
   the smooth residual x = s x w. A 1-D group (torsion) flips its sign to its slip; two flips
   mean no sign is consistent. */
#include <math.h>
#include <string.h>

#include "bowling_ctx.h"
#include "mathutil.h"

#define BW_SLIP_ITERATIONS 60
#define BW_DIR_SETTLED 1e-9 /* rad */

double bw_slip_velocity(const bw_ctx *c, const double *v, int i, int g, double w[2])
{
    const int ref = (int)c->param[IPX_BOWLING_SLIP_REFERENCE];
    double nn = 0.0;
    for (int j = 0; j < bw_group_dim(g); j++) {
        const int row = c->r * i + bw_group_row(g, j);
        w[j] = v[row] - (ref == 0 ? c->b[row] : 0.0);
        nn += w[j] * w[j];
    }
    return sqrt(nn);
}

/* Root search state of one 2-D group. */
typedef struct turn {
    double phi_pos, d_pos, phi_neg, d_neg; /* last directions with d > 0 and d < 0 */
    int has_pos, has_neg, kept;            /* kept: +1 / -1 end retained last (Illinois) */
    double damp, d_last;
} turn;

/* The next phi of one group from its current phi and d. */
static double next_phi(turn *t, double phi, double d)
{
    if (fabs(d) < 0.5 * IPX_PI) {
        if (d > 0.0) {
            t->phi_pos = phi, t->d_pos = d, t->has_pos = 1;
            if (t->kept == 1) t->d_neg *= 0.5;
            t->kept = 1;
        } else {
            t->phi_neg = phi, t->d_neg = d, t->has_neg = 1;
            if (t->kept == -1) t->d_pos *= 0.5;
            t->kept = -1;
        }
    }
    if (t->has_pos && t->has_neg) {
        const double span = remainder(t->phi_neg - t->phi_pos, 2.0 * IPX_PI);
        return t->phi_pos + span * t->d_pos / (t->d_pos - t->d_neg);
    }
    if (t->d_last != 0.0 && fabs(d) >= fabs(t->d_last)) t->damp *= 0.5;
    t->d_last = d;
    return phi + t->damp * d;
}

/* Flips the 1-D groups whose slip opposes them; counts the flips. Returns the groups flipped. */
static int flip_1d(bw_ctx *c, int *flips)
{
    const double tol_v = bw_tol_v(c);
    int flipped = 0;
    for (int i = 0; i < c->k; i++)
        for (int g = 1; g < c->groups; g++) {
            double w[2] = {0.0, 0.0}, *s = c->cur.dir[i][g];
            if (!c->cur.active[i] || !c->cur.slip[i][g] || bw_group_dim(g) != 1 ||
                bw_slip_limit(c, i, g) == 0.0 || bw_slip_velocity(c, c->vp, i, g, w) <= tol_v ||
                w[0] * s[0] >= 0.0)
                continue;
            s[0] = -s[0];
            c->moving[i][g] = 1;
            flipped++;
        }
    *flips += flipped;
    return flipped;
}

/* The 2-D slipping groups of c->cur: contact * BW_GROUPS + group, into list; their count. */
static int slip_groups_2d(const bw_ctx *c, int *list)
{
    int G = 0;
    for (int i = 0; i < c->k; i++)
        for (int g = 0; g < c->groups; g++)
            if (c->cur.active[i] && c->cur.slip[i][g] && bw_group_dim(g) == 2 &&
                bw_slip_limit(c, i, g) > 0.0)
                list[G++] = BW_GROUPS * i + g;
    return G;
}

/* Residual of the 2-D groups after a solve: x = s x w (smooth in the angles) into F, and the
   largest angle |d| from s to w (pi/2 or more if a slip points backwards; 0 where no slip
   is left). */
static double residual(bw_ctx *c, const int *list, int G, double *F)
{
    const double tol_v = bw_tol_v(c);
    double worst = 0.0;
    for (int a = 0; a < G; a++) {
        const int i = list[a] / BW_GROUPS, g = list[a] % BW_GROUPS;
        double w[2], *s = c->cur.dir[i][g];
        const double norm = bw_slip_velocity(c, c->vp, i, g, w);
        F[a] = norm <= tol_v ? 0.0 : s[0] * w[1] - s[1] * w[0];
        if (norm > tol_v) worst = fmax(worst, fabs(atan2(F[a], s[0] * w[0] + s[1] * w[1])));
    }
    return worst;
}

static void set_angles(bw_ctx *c, const int *list, int G, const double *theta)
{
    for (int a = 0; a < G; a++) {
        double *s = c->cur.dir[list[a] / BW_GROUPS][list[a] % BW_GROUPS];
        s[0] = cos(theta[a]);
        s[1] = sin(theta[a]);
    }
}

/* Newton on the angles of G >= 2 coupled groups: forward-difference Jacobian of x, the step
   capped at pi/2 and halved until |x| falls. Ends with c->cur solved at the best angles;
   *d_left: the largest |d| left. */
#define BW_NEWTON_ITERATIONS 30
static ipx_status newton(bw_ctx *c, const int *list, int G, double *d_left)
{
    double *theta = c->nwt, *F = theta + G, *trial = F + G, *Ft = trial + G, *step = Ft + G;
    double *J = c->jac;
    for (int a = 0; a < G; a++) {
        const double *s = c->cur.dir[list[a] / BW_GROUPS][list[a] % BW_GROUPS];
        theta[a] = atan2(s[1], s[0]);
    }
    ipx_status st = bw_solve_candidate(c);
    double d = residual(c, list, G, F);
    for (int it = 0; st == IPX_OK && d > BW_DIR_SETTLED && it < BW_NEWTON_ITERATIONS; it++) {
        c->counts->newton_iters++;
        for (int b = 0; b < G && st == IPX_OK; b++) { /* J = dF / dtheta */
            const double h = 1e-7;
            memcpy(trial, theta, sizeof(double) * (size_t)G);
            trial[b] += h;
            set_angles(c, list, G, trial);
            st = bw_solve_candidate(c);
            residual(c, list, G, Ft);
            for (int a = 0; a < G; a++) J[a + (size_t)G * b] = (Ft[a] - F[a]) / h;
        }
        for (int a = 0; a < G; a++) step[a] = -F[a];
        if (st != IPX_OK || (st = bw_lsq(c, G, J, step, NULL)) != IPX_OK) break;
        double longest = 0.0, t = 1.0;
        for (int a = 0; a < G; a++) longest = fmax(longest, fabs(step[a]));
        if (longest > 0.5 * IPX_PI) t = 0.5 * IPX_PI / longest;
        const double f0 = ipx_norm2(F, G);
        int accepted = 0;
        for (int ls = 0; ls < 12 && st == IPX_OK && !accepted; ls++, t *= 0.5) {
            for (int a = 0; a < G; a++) trial[a] = theta[a] + t * step[a];
            set_angles(c, list, G, trial);
            st = bw_solve_candidate(c);
            const double dt = residual(c, list, G, Ft);
            if (ipx_norm2(Ft, G) < f0) {
                accepted = 1;
                d = dt;
                memcpy(theta, trial, sizeof(double) * (size_t)G);
                memcpy(F, Ft, sizeof(double) * (size_t)G);
            }
        }
        if (!accepted) break;
    }
    set_angles(c, list, G, theta); /* the best angles, solved */
    if (st == IPX_OK) st = bw_solve_candidate(c);
    *d_left = d;
    return st;
}

/* One 2-D group by its bracket; *d_left: |d| left. */
#define BW_BRACKET_ITERATIONS 20
static ipx_status bracket(bw_ctx *c, const int *list, double *d_left)
{
    turn t = {.damp = 1.0};
    double *s = c->cur.dir[list[0] / BW_GROUPS][list[0] % BW_GROUPS], x;
    ipx_status st = IPX_OK;
    for (int it = 0; st == IPX_OK; it++) {
        st = bw_solve_candidate(c);
        *d_left = residual(c, list, 1, &x);
        if (*d_left <= BW_DIR_SETTLED || it == BW_BRACKET_ITERATIONS) break;
        c->counts->newton_iters++;
        double w[2];
        bw_slip_velocity(c, c->vp, list[0] / BW_GROUPS, list[0] % BW_GROUPS, w);
        const double phi = next_phi(&t, atan2(s[1], s[0]), atan2(x, s[0] * w[0] + s[1] * w[1]));
        s[0] = cos(phi);
        s[1] = sin(phi);
    }
    return st;
}

/* x = s x w and the angle d from s to w of the single group at phi, after solving. */
static ipx_status x_at(bw_ctx *c, const int *list, double phi, double *x, double *d)
{
    double *s = c->cur.dir[list[0] / BW_GROUPS][list[0] % BW_GROUPS];
    s[0] = cos(phi);
    s[1] = sin(phi);
    ipx_status st = bw_solve_candidate(c);
    *d = residual(c, list, 1, x);
    c->counts->newton_iters++;
    return st;
}

/* Regula falsi (Illinois) on x between phi_a and phi_b (x of opposite signs): a root of x is
   a slip direction if w points along s there (|d| small), not against it; x also changes sign
   through a pole of the normal impulse, where the iteration runs off. Returns the phi of a
   slip direction, or NAN.
   Near a pole or a root where w points backwards the interpolated phi often falls on an end
   of the bracket to the last bit (on piles more than half of the iterations). With
   refine_memo 1 such an end is not solved again: x there is the one this search solved at
   that same phi (x_a, x_b before the Illinois halving), which a new solve of the same system
   repeats (to round-off from IPX_MIN_NORM_CACHE_MIN unknowns on, docs/models/bowling.md §5),
   and its d did not settle (the search would have ended). What the search does next, and so
   its root, is the same; only the state left in c (read by no caller when no root is
   returned), the counts and the work charged (bw_charge) differ. */
static ipx_status refine(bw_ctx *c, const int *list, double pa, double xa, double pb, double xb,
                         double *root)
{
    *root = NAN;
    int kept = 0;
    /* x solved at pa, pb by this search (NAN: the scan's samples, not reused) */
    double solved_a = NAN, solved_b = NAN;
    const int memo = c->param[IPX_BOWLING_REFINE_MEMO] != 0.0;
    for (int it = 0; it < BW_SLIP_ITERATIONS && fabs(pb - pa) > 1e-15; it++) {
        const double phi = pa + (pb - pa) * xa / (xa - xb);
        double x, d;
        if (memo && phi == pa && !isnan(solved_a)) {
            x = solved_a;
        } else if (memo && phi == pb && !isnan(solved_b)) {
            x = solved_b;
        } else {
            ipx_status st = x_at(c, list, phi, &x, &d);
            if (st != IPX_OK) return st;
            if (d <= BW_DIR_SETTLED) {
                *root = phi;
                return IPX_OK;
            }
        }
        if ((x > 0.0) == (xa > 0.0)) {
            pa = phi;
            xa = solved_a = x;
            if (kept == 1) xb *= 0.5;
            kept = 1;
        } else {
            pb = phi;
            xb = solved_b = x;
            if (kept == -1) xa *= 0.5;
            kept = -1;
        }
    }
    return IPX_OK;
}

/* One 2-D group: the bracket search from the first guess; if it does not settle, x sampled at
   BW_SCAN directions round the circle, each interval where it changes sign refined, and of
   the slip directions found an admissible one with the least kinetic energy (maximum
   dissipation) kept, else any. */
#define BW_SCAN 16
static ipx_status scan(bw_ctx *c, const int *list, double *d_left)
{
    double *s = c->cur.dir[list[0] / BW_GROUPS][list[0] % BW_GROUPS];
    const double phi0 = atan2(s[1], s[0]);
    ipx_status st = bracket(c, list, d_left);
    if (st != IPX_OK || *d_left <= BW_DIR_SETTLED) return st;
    double phi[BW_SCAN + 1], x[BW_SCAN + 1], d, best = NAN, best_dT = INFINITY;
    int best_ok = 0;
    for (int j = 0; j < BW_SCAN && st == IPX_OK; j++) {
        phi[j] = phi0 + 2.0 * IPX_PI * j / BW_SCAN;
        st = x_at(c, list, phi[j], &x[j], &d);
        if (d <= BW_DIR_SETTLED) x[j] = 0.0;
    }
    phi[BW_SCAN] = phi0 + 2.0 * IPX_PI;
    x[BW_SCAN] = x[0];
    for (int j = 0; j < BW_SCAN && st == IPX_OK; j++) {
        double root = x[j] == 0.0 ? phi[j] : NAN;
        if (isnan(root) && x[j + 1] != 0.0 && (x[j] > 0.0) != (x[j + 1] > 0.0))
            st = refine(c, list, phi[j], x[j], phi[j + 1], x[j + 1], &root);
        if (st != IPX_OK || isnan(root)) continue;
        double xr;
        if ((st = x_at(c, list, root, &xr, &d)) != IPX_OK) break;
        const int ok = bw_admissible(c);
        if ((ok && !best_ok) || (ok == best_ok && c->dT < best_dT)) {
            best = root;
            best_dT = c->dT;
            best_ok = ok;
        }
    }
    if (st != IPX_OK) return st;
    return x_at(c, list, isnan(best) ? phi0 : best, &d, d_left);
}

ipx_status bw_solve_slip(bw_ctx *c, int *unsettled)
{
    int *list = c->slip_list, flips = 0;
    const int G = slip_groups_2d(c, list);
    for (;;) {
        double d = 0.0;
        ipx_status st = G >= 2   ? newton(c, list, G, &d)
                        : G == 1 ? scan(c, list, &d)
                                 : bw_solve_candidate(c);
        if (st != IPX_OK) return st;
        memset(c->moving, 0, (size_t)c->k * sizeof *c->moving);
        *unsettled = 0;
        if (d > BW_DIR_SETTLED) /* mark the groups still moving */
            for (int a = 0; a < G; a++) {
                double x;
                if (residual(c, list + a, 1, &x) > BW_DIR_SETTLED) {
                    c->moving[list[a] / BW_GROUPS][list[a] % BW_GROUPS] = 1;
                    (*unsettled)++;
                }
            }
        const int flipped = flip_1d(c, &flips);
        if (!flipped || flips >= 2) {
            *unsettled += flipped;
            return IPX_OK;
        }
    }
}
