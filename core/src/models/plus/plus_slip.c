/* PLUS impending slip (paper 2d, (2.9b), Table 1; docs/models/plus.md §5.5): friction opposes the slip
   velocity at the END of the interval, w_k = v_t[k] + A_t[k] pi, which makes the system
   implicit. Newton's method with an analytic Jacobian on the unknowns of the linear system plus,
   per impending contact, the angle phi_k of its slip direction s_k = (cos phi_k, sin phi_k):
     - the linear rows of Table 1 (normal, rolling, sliding) as assembled;
     - its friction rows (2.8) with that direction:  pi_t[k] + mu_k pi_n[k] s_k = 0;
     - one row for (2.9b), the end slip along s_k:   w_k x s_k = w_x sin phi - w_y cos phi = 0.
   A root with w_k . s_k < 0 has friction along the slip (the wrong branch): phi_k turns by pi
   and Newton goes on. Where w_k = 0 (other rolling contacts forbid slip) every angle solves the
   last row and the guess is kept. The impulse is then the min-norm solve with the final s_k,
   so the cone holds exactly (deviation 3). Before it, Newton on the angles alone (plus_angles.c),
   cheaper where the factor cache serves its solves; after it, where it fails or leaves an angle
   off, the search one contact at a time (plus_search.c). The angles' numbering and the end slips
   all three read are in plus_probe.c. The top of the impending-slip stage: plus_impending is what
   an interval's candidate calls (plus_interval.c). */
#include <float.h>
#include <math.h>
#include <string.h>

#include "mathutil.h"
#include "plus_angles.h"
#include "plus_probe.h"
#include "plus_search.h"
#include "plus_slip.h"
#include "plus_system.h"

#define MIN_STEP 0.01      /* backtracking: halve the step down to this fraction [S] */
#define POOR_PROGRESS 0.95 /* after 3 iterations, stop if the residual fell by less than 5 % [S] */

/* Impending contact and row t of friction row r, or -1 if r is not one. */
static int friction_row_of(const plus_ctx *c, int r, int *t)
{
    int i = c->col[r], k = i / IPX_ROWS_PER_CONTACT;
    *t = i % IPX_ROWS_PER_CONTACT;
    return *t != IPX_N && c->imp[k] >= 0 ? k : -1;
}

/* Row weights that give every residual the unit (m/s)(N*s): velocity rows (which B holds times
   the mass unit, plus_system.c) times the impulse scale P over that unit, impulse rows
   (expansion, Painleve, sliding, impending friction) times the velocity scale V. */
static double row_weight(const plus_ctx *c, int r, double V, double P)
{
    int i = c->col[r], k = i / IPX_ROWS_PER_CONTACT;
    const double Pv = P / c->mass_unit;
    if (i % IPX_ROWS_PER_CONTACT == IPX_N)
        return c->cls[k] == IPX_PLUS_EXPANDING || c->normal_on[k] == PLUS_NORMAL_SLIDE ? V : Pv;
    return c->slip[k] == IPX_PLUS_ROLLING ? Pv : V;
}

/* Weighted residual into g (m + ni rows); returns its 2-norm. */
static double residual(const plus_ctx *c, const double *x, double *g, double V, double P)
{
    const int m = c->m;
    double sum = 0.0;
    for (int r = 0; r < m; r++) {
        int t, k = friction_row_of(c, r, &t);
        if (k >= 0) {
            double phi = x[m + c->imp[k]], q = x[c->pos[IPX_ROWS_PER_CONTACT * k + IPX_N]];
            g[r] = V * (x[r] + plus_mu(c, k) * q * (t == IPX_T1 ? cos(phi) : sin(phi)));
        } else {
            double res = -c->rhs[r];
            for (int j = 0; j < m; j++) res += c->B[r + (size_t)m * j] * x[j];
            g[r] = row_weight(c, r, V, P) * res;
        }
        sum += g[r] * g[r];
    }
    for (int k = 0; k < c->k; k++) {
        if (c->imp[k] < 0) continue;
        double w[2], phi = x[m + c->imp[k]];
        plus_end_slip(c, k, x, w);
        double *gk = g + m + c->imp[k];
        *gk = P * (w[0] * sin(phi) - w[1] * cos(phi));
        sum += *gk * *gk;
    }
    return sqrt(sum);
}

/* Rows of the m linear and friction equations of the Jacobian J (mm x mm). */
static void jacobian_rows(const plus_ctx *c, const double *x, double *J, int mm, double V, double P)
{
    const int m = c->m;
    for (int r = 0; r < m; r++) {
        for (int j = 0; j < mm; j++) J[r + (size_t)mm * j] = 0.0;
        int t, k = friction_row_of(c, r, &t);
        if (k < 0) {
            double wgt = row_weight(c, r, V, P);
            for (int j = 0; j < m; j++) J[r + (size_t)mm * j] = wgt * c->B[r + (size_t)m * j];
            continue;
        }
        int rz = c->pos[IPX_ROWS_PER_CONTACT * k + IPX_N], a = m + c->imp[k];
        double mu = plus_mu(c, k), phi = x[a], q = x[rz];
        J[r + (size_t)mm * r] = V;
        J[r + (size_t)mm * rz] = V * mu * (t == IPX_T1 ? cos(phi) : sin(phi));
        J[r + (size_t)mm * a] = V * mu * q * (t == IPX_T1 ? -sin(phi) : cos(phi));
    }
}

/* Rows of the (2.9b) equations: d(w x s)/dpi = sin phi A_x - cos phi A_y, d/dphi = w . s. */
static void jacobian_slip_rows(const plus_ctx *c, const double *x, double *J, int mm, double P)
{
    const int m = c->m, n = c->n;
    for (int k = 0; k < c->k; k++) {
        if (c->imp[k] < 0) continue;
        int R = m + c->imp[k];
        double w[2], phi = x[R];
        plus_end_slip(c, k, x, w);
        const double *Wx = c->p->W + (size_t)n * (size_t)(IPX_ROWS_PER_CONTACT * k + IPX_T1);
        const double *Wy = c->p->W + (size_t)n * (size_t)(IPX_ROWS_PER_CONTACT * k + IPX_T2);
        for (int j = 0; j < mm; j++) J[R + (size_t)mm * j] = 0.0;
        for (int j = 0; j < m; j++)
            J[R + (size_t)mm * j] = P * (sin(phi) * Wx[c->col[j]] - cos(phi) * Wy[c->col[j]]);
        J[R + (size_t)mm * R] = P * (w[0] * cos(phi) + w[1] * sin(phi));
    }
}

/* Backtracking line search along -dx from the current iterate; returns the new residual. */
static double line_search(plus_ctx *c, int mm, double merit, double V, double P)
{
    double step = 1.0, trial = merit;
    memcpy(c->xs, c->x, sizeof(double) * (size_t)mm);
    for (;;) {
        for (int j = 0; j < mm; j++) c->x[j] = c->xs[j] - step * c->dx[j];
        trial = residual(c, c->x, c->g, V, P);
        if (trial < merit || step * 0.5 < MIN_STEP) return trial; /* stuck: accept [S] */
        step *= 0.5;
    }
}

/* The Newton step dx = J^+ g (min-norm; g: the residual) into c->dx, with the Jacobian at the
   current iterate, solved in Newton's own arrays (plus_lsq_newton: bin capture, 587 impacts of
   10-78 contacts whose paths were unchanged, 1.7 % less time than through the factor cache). */
static ipx_status newton_step(plus_ctx *c, int mm, double V, double P)
{
    jacobian_rows(c, c->x, c->fac, mm, V, P);
    jacobian_slip_rows(c, c->x, c->fac, mm, P);
    memcpy(c->dx, c->g, sizeof(double) * (size_t)mm);
    return plus_lsq_newton(c, mm, c->fac, c->dx);
}

/* Newton iterations from the current iterate until the residual is below tol (returns 1) or
   progress stops ([S]: less than 5 % after 3 iterations, or the iteration limit; returns 0). */
static int iterate(plus_ctx *c, double V, double P, int *iters, ipx_status *st)
{
    const int mm = c->m + c->ni;
    const double tol = c->cfg.newton_tol * V * P;
    double merit = residual(c, c->x, c->g, V, P);
    *st = IPX_OK;
    for (int local = 1; merit > tol; local++) {
        if (*iters >= c->cfg.newton_max_iters) return 0;
        ++*iters;
        c->r->counts.newton_iters++;
        *st = newton_step(c, mm, V, P); /* J dx = g: min-norm step */
        if (*st != IPX_OK) return 0;
        double prev = merit;
        merit = line_search(c, mm, merit, V, P);
        if (local >= 3 && merit > POOR_PROGRESS * prev && merit > tol) return 0; /* infeasible */
    }
    return 1;
}

/* w . s of impending contact k at the current iterate: < 0 is the wrong branch (friction along
   the end slip); *w_norm receives |w|. */
static double branch(const plus_ctx *c, int k, double *w_norm)
{
    double w[2], phi = c->x[c->m + c->imp[k]];
    plus_end_slip(c, k, c->x, w);
    *w_norm = hypot(w[0], w[1]);
    return w[0] * cos(phi) + w[1] * sin(phi);
}

/* Turns phi_k by pi where the root is on the wrong branch; returns how many turned. */
static int flip_wrong_branch(plus_ctx *c)
{
    int flipped = 0;
    for (int k = 0; k < c->k; k++) {
        double w_norm;
        if (c->imp[k] < 0 || branch(c, k, &w_norm) >= -c->slip_floor) continue;
        c->x[c->m + c->imp[k]] += IPX_PI;
        flipped++;
    }
    return flipped;
}

/* Newton, with up to 2 ni branch turns; returns 1 if it ended on a root of the right branch. */
static int solve_directions(plus_ctx *c, double V, double P, int *iters, ipx_status *st)
{
    for (int turns = 0;; turns++) {
        if (!iterate(c, V, P, iters, st)) return 0;
        if (!flip_wrong_branch(c)) return 1;
        if (turns >= 2 * c->ni) return 0;
    }
}

/* The friction rows of every impending contact exactly on its cone, along its direction:
   Newton ends with them satisfied to its tolerance only. */
static void friction_on_cone(plus_ctx *c)
{
    for (int k = 0; k < c->k; k++) {
        if (c->imp[k] < 0 || c->slip_failed[k]) continue;
        const int base = IPX_ROWS_PER_CONTACT * k;
        const double q = c->x[c->pos[base + IPX_N]], mu = plus_mu(c, k);
        for (int t = IPX_T1; t <= IPX_T2; t++) c->x[c->pos[base + t]] = -mu * q * c->s[2 * k + t];
    }
}

ipx_status plus_impending(plus_ctx *c)
{
    double P = 0.0;
    for (int j = 0; j < c->m; j++) P = fmax(P, fabs(c->x[j]));
    P = fmax(P, DBL_MIN);
    const double V = fmax(c->v_scale, DBL_MIN);
    plus_start_angles(c);
    int iters = 0, done;
    ipx_status st = plus_angles_first(c, &done);
    if (st != IPX_OK || done) return st;
    int converged = solve_directions(c, V, P, &iters, &st);
    if (st != IPX_OK) return st;
    /* Newton failed (docs/models/plus.md §5.5: the iteration limit, a stall, the wrong branch):
       there is no root of its to follow, and the search keeps the min-norm one of all */
    if (!converged) return plus_search_directions(c, 0);
    /* converged, possibly at once (the guess solved (2.9b) to Newton's tolerance): the same
       directions, cone and angle checks either way */
    plus_set_angles(c, c->x + c->m); /* the directions of Newton's root */
    /* Newton's root is the impulse: its end slips are the ones the directions were solved for.
       A minimum-norm re-solve with the same directions would move the impulse within the null
       space of redundant rows (four corners of a face), change the end slips and leave
       friction off them. */
    friction_on_cone(c);
    /* Newton's tolerance bounds w x s, not the angle: a slow end slip can be left off its
       friction, which the search then settles, from the root Newton reached (slip_root =
       newton) or choosing afresh among all roots (min_norm) */
    const int refine = c->cfg.slip_root == PLUS_SLIP_ROOT_NEWTON;
    for (int k = 0; k < c->k; k++) {
        plus_probe pr;
        if (c->imp[k] < 0) continue;
        plus_probe_here(c, k, &pr);
        if (!plus_consistent(c, &pr)) return plus_search_directions(c, refine);
    }
    return IPX_OK;
}
