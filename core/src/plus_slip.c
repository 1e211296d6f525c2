/* PLUS impending slip (paper 2d, (2.9b), Table 1; spec plus.md 5.5): friction opposes the slip
   velocity at the END of the interval, w_k = v_t[k] + A_t[k] pi, which makes the system
   implicit. Newton's method with an analytic Jacobian on the unknowns of the linear system plus,
   per impending contact, the angle phi_k of its slip direction s_k = (cos phi_k, sin phi_k):
     - the linear rows of Table 1 (normal, rolling, sliding) as assembled;
     - its friction rows (2.8) with that direction:  pi_t[k] + mu_k pi_n[k] s_k = 0;
     - one row for (2.9b), the end slip along s_k:   w_k x s_k = w_x sin phi - w_y cos phi = 0.
   A root with w_k . s_k < 0 has friction along the slip (the wrong branch): phi_k turns by pi
   and Newton goes on. Where w_k = 0 (other rolling contacts forbid slip) every angle solves the
   last row and the guess is kept. The impulse is then the min-norm solve with the final s_k,
   so the cone holds exactly (deviation 3). */
#include <float.h>
#include <math.h>
#include <string.h>

#include "mathutil.h"
#include "plus_internal.h"

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

static void end_slip(const plus_ctx *c, int k, const double *x, double w[2])
{
    w[0] = plus_tangent_velocity(c, k, x, IPX_T1);
    w[1] = plus_tangent_velocity(c, k, x, IPX_T2);
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
            g[r] = V * (x[r] + c->p->contact[k].mu * q * (t == IPX_T1 ? cos(phi) : sin(phi)));
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
        end_slip(c, k, x, w);
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
        double mu = c->p->contact[k].mu, phi = x[a], q = x[rz];
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
        end_slip(c, k, x, w);
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

/* Numbers the impending contacts and starts their angles from the direction guesses. */
static void start_angles(plus_ctx *c)
{
    c->ni = 0;
    for (int k = 0; k < c->k; k++) {
        int impending = plus_solving(c, k) && c->slip[k] == IPX_PLUS_IMPENDING;
        c->imp[k] = impending ? c->ni++ : -1;
        c->slip_failed[k] = 0;
        if (impending) c->x[c->m + c->imp[k]] = atan2(c->s[2 * k + 1], c->s[2 * k]);
    }
}

/* w . s of impending contact k at the current iterate: < 0 is the wrong branch (friction along
   the end slip); *w_norm receives |w|. */
static double branch(const plus_ctx *c, int k, double *w_norm)
{
    double w[2], phi = c->x[c->m + c->imp[k]];
    end_slip(c, k, c->x, w);
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

/* The directions of Newton's root: s_k = (cos phi_k, sin phi_k). */
static void take_directions(plus_ctx *c)
{
    for (int k = 0; k < c->k; k++) {
        if (c->imp[k] < 0) continue;
        double phi = c->x[c->m + c->imp[k]];
        c->s[2 * k] = cos(phi);
        c->s[2 * k + 1] = sin(phi);
    }
}

/* ---- When Newton stalls: the directions one contact at a time ---------------------------

   With the other directions fixed, the impulse is linear in the rows and the end slip w_k of
   one impending contact is a function of its angle alone. A root of w x s with w . s >= 0 is a
   consistent impending state (friction against the end slip); the angles are scanned and each
   sign change is bisected. Of several roots the one without a pulling normal impulse and then
   the smallest impulse norm (the min-norm principle of Table 1) is kept. A root whose normal
   impulse pulls is still a root: the active set then drops that normal. Several impending
   contacts are swept in turn (nonlinear Gauss-Seidel) until their directions agree. */

#define SCAN_ANGLES 12     /* scan step 30 degrees */
#define ANGLE_TOL 1e-10    /* rad: bisection stops below this bracket */
#define MAX_SWEEPS 20      /* Gauss-Seidel sweeps over several impending contacts */
#define JUMP_WIDTH 1e-6    /* rad: a bracket this narrow, both ends with ... */
#define JUMP_SLIP 1e-3     /* ... this fraction of the bracket's first end slip and ... */
#define JUMP_SINE 1e-2     /* ... this far off their end slips (sine) holds a jump [S] */

typedef struct probe {
    double phi, cross, dot, slip; /* rad; w x s, w . s, |w| (m/s) */
    double norm, pn;              /* |pi| and the contact's pi_n (N*s) */
} probe;

/* The probe of contact k at the current solution x and direction s_k. */
static void probe_here(const plus_ctx *c, int k, probe *pr)
{
    double w[2];
    end_slip(c, k, c->x, w);
    pr->phi = atan2(c->s[2 * k + 1], c->s[2 * k]);
    pr->cross = w[0] * c->s[2 * k + 1] - w[1] * c->s[2 * k];
    pr->dot = w[0] * c->s[2 * k] + w[1] * c->s[2 * k + 1];
    pr->slip = hypot(w[0], w[1]);
    pr->norm = ipx_norm2(c->x, c->m);
    pr->pn = c->x[c->pos[IPX_ROWS_PER_CONTACT * k + IPX_N]];
}

/* Solves the linear rows with contact k's direction at angle phi. */
static ipx_status probe_at(plus_ctx *c, int k, double phi, probe *pr)
{
    c->s[2 * k] = cos(phi);
    c->s[2 * k + 1] = sin(phi);
    plus_assemble_directions(c); /* the rest of B is the candidate's, as assembled */
    c->probing = 1;
    ipx_status st = plus_solve_linear(c);
    c->probing = 0;
    probe_here(c, k, pr);
    pr->phi = phi;
    return st;
}

/* Friction at contact k opposes the end slip (or there is none) to within ANGLE_TOL. */
static int consistent(const plus_ctx *c, const probe *pr)
{
    if (pr->slip <= c->slip_floor) return 1;
    return pr->dot > 0.0 && fabs(pr->cross) <= 1e3 * ANGLE_TOL * pr->slip;
}

/* 1 if a is a better root than b: no pulling normal first, then the smaller impulse. */
static int better(const probe *a, const probe *b, double tol_pn)
{
    int a_ok = a->pn >= -tol_pn, b_ok = b->pn >= -tol_pn;
    return a_ok != b_ok ? a_ok : a->norm < b->norm;
}

/* A bracket narrower than JUMP_WIDTH whose ends both keep more than JUMP_SLIP of the slip at
   its start and are both more than JUMP_SINE off it: w x s changes sign by a jump of the end
   slip's direction (the rows turn singular, or change rank, at an angle between them), not
   through a root (there w x s shrinks with the bracket) nor through w = 0 (there w does). The
   end slip turns faster than 1e4 rad per rad of s there: no angle of the bracket can end within
   the consistency bound, and narrowing it to ANGLE_TOL cost some 60 probes (bins, piles). */
static int jump(const probe *lo, const probe *hi, double slip0)
{
    return hi->phi - lo->phi <= JUMP_WIDTH && fmin(lo->slip, hi->slip) > JUMP_SLIP * slip0 &&
           fabs(lo->cross) > JUMP_SINE * lo->slip && fabs(hi->cross) > JUMP_SINE * hi->slip;
}

/* The root of w x s between lo and hi (angles, lo < hi, a sign change between them) by the
   Illinois variant of regula falsi: bracketing like bisection, superlinear like the secant.
   Gives up at a jump, returning its last probe (off the end slip unless below the floor). */
static ipx_status bracket_root(plus_ctx *c, int k, probe lo, probe hi, probe *root)
{
    probe mid = lo;
    int side = 0; /* which end the last two steps kept: halve its value (Illinois) */
    const double slip0 = fmax(lo.slip, hi.slip); /* m/s */
    double f_lo = lo.cross, f_hi = hi.cross;
    while (hi.phi - lo.phi > ANGLE_TOL && !jump(&lo, &hi, slip0)) {
        double phi = (lo.phi * f_hi - hi.phi * f_lo) / (f_hi - f_lo);
        if (!(phi > lo.phi && phi < hi.phi)) phi = 0.5 * (lo.phi + hi.phi);
        ipx_status st = probe_at(c, k, phi, &mid);
        if (st != IPX_OK) return st;
        if (mid.cross == 0.0 || fabs(mid.cross) <= ANGLE_TOL * 1e-3 * mid.slip) break;
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

/* The best consistent angle of contact k with the other directions fixed; *found = 0 if none.
   Only sign changes with w . s > 0 at an end can hold a root with friction against the slip.
   Leaves s_k at the root found (else unchanged); *kept = 1 if its current angle was one. */
static ipx_status search_angle(plus_ctx *c, int k, int *found, int *kept)
{
    const double s0 = c->s[2 * k], s1 = c->s[2 * k + 1], phi0 = atan2(s1, s0);
    const double tol_pn = c->cfg.eps_pi * fmax(ipx_max_abs(c->x, c->m), DBL_MIN);
    probe prev, cur, root, best = {0};
    *found = *kept = 0;
    ipx_status st = probe_at(c, k, phi0, &prev);
    if (st == IPX_OK && consistent(c, &prev)) {
        *found = *kept = 1;
        return IPX_OK;
    }
    for (int i = 1; st == IPX_OK && i <= SCAN_ANGLES; i++) {
        st = probe_at(c, k, phi0 + 2.0 * IPX_PI * i / SCAN_ANGLES, &cur);
        int change = (prev.cross < 0.0) != (cur.cross < 0.0) && (prev.dot > 0.0 || cur.dot > 0.0);
        if (st == IPX_OK && change) {
            st = bracket_root(c, k, prev, cur, &root);
            if (st == IPX_OK && consistent(c, &root) && (!*found || better(&root, &best, tol_pn))) {
                best = root;
                *found = 1;
            }
        }
        prev = cur;
    }
    double phi = *found ? best.phi : phi0;
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

/* The sweeps converge linearly where they converge: in the bins and piles of issue [scale] often
   by a ratio of 0.7-0.9 per sweep (three corners of a box on a box: 20 sweeps, 1 261 min-norm
   solves, and the angles still 2e-4 rad from their limit, so the contacts were pruned). A sweep
   is a map phi -> G(phi) of the impending contacts' angles; Anderson's acceleration (the method
   of lcp_block.c's sweeps too) takes as the next point the combination of the last
   SEARCH_AA_DEPTH + 1 outputs whose residuals G(phi) - phi combine to the least, instead of the
   last output alone. Nothing else changes: the search still ends only where every angle is a
   root with the others fixed, so it ends on consistent directions, sooner. */
#define SEARCH_AA_DEPTH 3
#define SEARCH_AA_STEP (IPX_PI / 4) /* rad: a combination farther than this from the last
                                       output is not taken; the history restarts there [S] */

/* Doubles of the acceleration's history for k contacts (plus_workspace_bytes). */
size_t plus_search_doubles(int k)
{
    return (size_t)(3 * SEARCH_AA_DEPTH + 3) * (size_t)k + SEARCH_AA_DEPTH;
}

/* The impending contacts' angles into phi (ni), each the one nearest ref's (NULL: atan2's). */
static void get_angles(const plus_ctx *c, const double *ref, double *phi)
{
    for (int k = 0; k < c->k; k++) {
        const int j = c->imp[k];
        if (j < 0) continue;
        const double a = atan2(c->s[2 * k + 1], c->s[2 * k]);
        phi[j] = ref ? ref[j] + remainder(a - ref[j], 2.0 * IPX_PI) : a;
    }
}

static void set_angles(plus_ctx *c, const double *phi)
{
    for (int k = 0; k < c->k; k++) {
        const int j = c->imp[k];
        if (j < 0) continue;
        c->s[2 * k] = cos(phi[j]);
        c->s[2 * k + 1] = sin(phi[j]);
    }
}

/* After a sweep from the point X[len] (its output G[len] is read from the directions now): the
   next point, set as the directions. X, G: the points and outputs since the history began
   (SEARCH_AA_DEPTH + 1 slots of ni each, oldest first; *len + 1 in use). Returns 1 if the next
   point is not the sweep's output. */
static int accelerate(plus_ctx *c, int *len)
{
    const int ni = c->ni, D = SEARCH_AA_DEPTH, m = *len;
    double *X = c->search_hist, *G = X + (size_t)(D + 1) * ni, *A = G + (size_t)(D + 1) * ni;
    double *gamma = A + (size_t)D * ni, *next = A; /* next: A's room, once gamma is solved */
    const double *x = X + (size_t)m * ni;
    double *g = G + (size_t)m * ni;
    get_angles(c, x, g);
    if (m == 0) { /* one pair so far: the output is the next point */
        memcpy(X + ni, g, sizeof(double) * (size_t)ni);
        *len = 1;
        return 0;
    }
    /* min |f_m - dF gamma|, f_i = G_i - X_i, dF's columns f_(i+1) - f_i */
    for (int i = 0; i < m; i++)
        for (int j = 0; j < ni; j++) {
            const size_t a = (size_t)i * ni + j, b = a + (size_t)ni;
            A[a] = (G[b] - X[b]) - (G[a] - X[a]);
        }
    for (int j = 0; j < ni; j++) gamma[j] = g[j] - x[j];
    double step = INFINITY; /* rad: how far the combination is from the output g */
    const double rcond = c->cfg.rcond;
    if (ipx_plus_lsq(ni, m, A, gamma, rcond, c->newton_work, c->newton_iwork, NULL) == IPX_OK) {
        step = 0.0;
        for (int j = 0; j < ni; j++) { /* next = g - dG gamma */
            double mix = 0.0;
            for (int i = 0; i < m; i++)
                mix += gamma[i] * (G[(size_t)(i + 1) * ni + j] - G[(size_t)i * ni + j]);
            next[j] = g[j] - mix;
            step = fmax(step, fabs(mix));
        }
    }
    if (!(step <= SEARCH_AA_STEP)) { /* the output itself, from which a new history starts */
        memcpy(X, g, sizeof(double) * (size_t)ni);
        *len = 0;
        return 0;
    }
    if (m == D) { /* full: the oldest pair goes */
        memmove(X, X + ni, sizeof(double) * (size_t)(D * ni));
        memmove(G, G + ni, sizeof(double) * (size_t)(D * ni));
    }
    *len = m < D ? m + 1 : D;
    memcpy(X + (size_t)*len * ni, next, sizeof(double) * (size_t)ni);
    if (step == 0.0) return 0; /* the output itself, as the directions have it */
    set_angles(c, next);
    return 1;
}

/* Visits the impending contacts in turn (nonlinear Gauss-Seidel) until the search is over; a
   contact without a consistent direction ends it and is marked failed (the active set prunes
   it). Ends with the linear solve at the final directions. */
static ipx_status search_directions(plus_ctx *c)
{
    ipx_status st = IPX_OK;
    int failed = 0, visits = 0, kept_run = 0; /* kept_run: visits since a contact last moved */
    int len = 0; /* pairs in the acceleration's history */
    get_angles(c, NULL, c->search_hist);
    for (int k = 0; st == IPX_OK && !failed && !search_over(visits, kept_run, c->ni); k = (k + 1) % c->k) {
        if (c->imp[k] < 0) continue;
        int found, kept;
        st = search_angle(c, k, &found, &kept);
        failed = c->slip_failed[k] = !found;
        visits++;
        kept_run = kept ? kept_run + 1 : 0;
        if (c->ni > 1 && visits % c->ni == 0 && !failed && !search_over(visits, kept_run, c->ni) &&
            accelerate(c, &len))
            kept_run = 0;
    }
    if (st != IPX_OK) return st;
    plus_assemble(c);
    st = plus_solve_linear(c);
    for (int k = 0; st == IPX_OK && k < c->k; k++) {
        probe pr;
        if (c->imp[k] < 0 || c->slip_failed[k]) continue;
        probe_here(c, k, &pr);
        c->slip_failed[k] = !consistent(c, &pr);
    }
    for (int k = 0; k < c->k; k++)
        if (c->imp[k] >= 0 && c->slip_failed[k]) c->r->counts.limits_hit |= IPX_PLUS_HIT_NEWTON;
    return st;
}

/* The friction rows of every impending contact exactly on its cone, along its direction:
   Newton ends with them satisfied to its tolerance only. */
static void friction_on_cone(plus_ctx *c)
{
    for (int k = 0; k < c->k; k++) {
        if (c->imp[k] < 0 || c->slip_failed[k]) continue;
        const int base = IPX_ROWS_PER_CONTACT * k;
        const double q = c->x[c->pos[base + IPX_N]], mu = c->p->contact[k].mu;
        for (int t = IPX_T1; t <= IPX_T2; t++) c->x[c->pos[base + t]] = -mu * q * c->s[2 * k + t];
    }
}

ipx_status plus_impending(plus_ctx *c)
{
    double P = 0.0;
    for (int j = 0; j < c->m; j++) P = fmax(P, fabs(c->x[j]));
    P = fmax(P, DBL_MIN);
    const double V = fmax(c->v_scale, DBL_MIN);
    start_angles(c);
    int iters = 0;
    ipx_status st = IPX_OK;
    int converged = solve_directions(c, V, P, &iters, &st);
    if (st != IPX_OK) return st;
    if (!converged) return search_directions(c);
    /* converged, possibly at once (the guess solved (2.9b) to Newton's tolerance): the same
       directions, cone and angle checks either way */
    take_directions(c);
    /* Newton's root is the impulse: its end slips are the ones the directions were solved for.
       A minimum-norm re-solve with the same directions would move the impulse within the null
       space of redundant rows (four corners of a face), change the end slips and leave
       friction off them. */
    friction_on_cone(c);
    /* Newton's tolerance bounds w x s, not the angle: a slow end slip can be left off its
       friction, which the bisection of the search then settles */
    for (int k = 0; k < c->k; k++) {
        probe pr;
        if (c->imp[k] < 0) continue;
        probe_here(c, k, &pr);
        if (!consistent(c, &pr)) return search_directions(c);
    }
    return IPX_OK;
}
