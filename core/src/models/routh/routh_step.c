/* The impulse-step machinery of the Routh model: the step LCP (75), Algorithm 1, the simulation
   fallback and the Poisson restitution extension (see impax/routh.h, routh_step.h). */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "impax/problem.h"
#include "impax/lcp.h"
#include "result_internal.h"
#include "routh_step.h"
#include "workspace_internal.h"

static int directions(const double *param)
{
    int nd = (int)param[IPX_ROUTH_FRICTION_DIRECTIONS];
    return nd + (nd & 1); /* an odd count would make the polygon lopsided: round up to even */
}

/* The dense Lemke's memory for k contacts: the step LCP (75), the AP LCP, Lemke's work. */
static size_t dense_bytes(int k, int nd)
{
    size_t ap = (size_t)ipx_ap_max_size(k, nd);
    size_t n = (size_t)k + ap;
    return ipx_ws_doubles_bytes(n * n) + ipx_ws_doubles_bytes(ap * ap) +
           3 * ipx_ws_doubles_bytes(n) + ipx_ws_doubles_bytes(ipx_lemke_work_doubles((int)n)) +
           ipx_ws_ints_bytes(ipx_lemke_work_ints((int)n)) + ipx_ws_ints_bytes((size_t)k);
}

static int min_int(int a, int b) { return a < b ? a : b; }

/* ipx_routh_ctx_init's layout scales, and take_memory's v, dpi and caps. */
static size_t common_bytes(int k)
{
    return 2 * ipx_ws_doubles_bytes((size_t)IPX_ROWS_PER_CONTACT * (size_t)k) +
           2 * ipx_ws_doubles_bytes((size_t)k);
}

size_t ipx_routh_workspace_bytes(int k, const double *param)
{
    const int nd = directions(param), sw = (int)fmin(param[IPX_ROUTH_LCP_SWITCH], 1e9);
    const int fb = (int)fmin(param[IPX_ROUTH_LCP_FALLBACK], 1e9);
    const size_t common = common_bytes(k);
    /* monotone in k: a workspace for k_max serves every smaller problem. Below the switch the
       iterative solver may be set up too, to answer an LCP the dense Lemke fails on */
    const size_t small =
        sw > 1 ? dense_bytes(min_int(k, sw - 1), nd) + ipx_nsgs_bytes(min_int(k, sw - 1), nd, 0)
               : 0;
    size_t large = 0;
    if (k >= sw) large = ipx_nsgs_bytes(k, nd, 0) + (fb > 0 ? dense_bytes(min_int(k, fb), nd) : 0);
    return common + (small > large ? small : large);
}

size_t ipx_routh_blocks_workspace_bytes(int k, const double *param)
{
    /* the layout's friction flags (dense_bytes holds them above), and the iterative solver on the
       problem's own blocks: no dense Lemke above lcp_fallback */
    return common_bytes(k) + ipx_ws_ints_bytes((size_t)k) + ipx_nsgs_bytes(k, directions(param), 1);
}

/* m/s: the smallest normal velocity (most negative = fastest approach). */
static double min_normal(const double *v, int k)
{
    double vmin = INFINITY;
    for (int i = 0; i < k; i++) vmin = fmin(vmin, v[IPX_ROWS_PER_CONTACT * i + IPX_N]);
    return vmin;
}

/* N*s: the normal impulse that would stop the fastest-approaching contact alone without
   friction, max_i -v_n,i / W_nn,i. */
static double stop_impulse(const ipx_problem *p)
{
    double best = 0.0;
    for (int i = 0; i < p->k; i++) {
        const int r = IPX_ROWS_PER_CONTACT * i + IPX_N;
        double vn = p->v[r], wnn = ipx_problem_W_diag(p, r);
        if (vn < 0.0 && wnn > 0.0) best = fmax(best, -vn / wnn);
    }
    return best;
}

/* W_q of (75b), rows and columns [beta; lambda_n; lambda_D; gamma]. The lower-right block is
   the Anitescu-Potra LCP; the beta rows and columns enforce the cap (73)-(74). */
static void build_step_matrix(ipx_routh_ctx *c)
{
    const int m = c->m, n = c->n;
    memset(c->M, 0, sizeof(double) * (size_t)n * (size_t)n);
    for (int i = 0; i < m; i++) {
        c->M[i + (size_t)n * (size_t)(m + i)] = -1.0; /* (73): lambda_max - lambda_n >= 0 */
        c->M[(m + i) + (size_t)n * (size_t)i] = 1.0;  /* (74): Jn v' + beta >= 0 */
    }
    ipx_ap_fill(&c->L, c->p, c->p->v, c->M, n, m, c->q);
}

static ipx_status take_memory(ipx_routh_ctx *c, ipx_workspace *ws)
{
    const size_t n = (size_t)c->n, s = (size_t)c->L.size;
    const size_t rows = (size_t)IPX_ROWS_PER_CONTACT * (size_t)c->m;
    c->v = ipx_ws_doubles(ws, rows);
    c->dpi = ipx_ws_doubles(ws, rows);
    c->caps = ipx_ws_doubles(ws, (size_t)c->m);
    int ok = c->v && c->dpi && c->caps;
    if (ok && c->iterative)
        ok = c->nsgs_ready = ipx_nsgs_init(&c->nsgs, c->p, c->L.nd, ws) == IPX_OK;
    if (ok && (!c->iterative || c->fallback)) {
        c->M = ipx_ws_doubles(ws, n * n);
        c->M_ap = ipx_ws_doubles(ws, s * s);
        c->q = ipx_ws_doubles(ws, n);
        c->z = ipx_ws_doubles(ws, n);
        c->w = ipx_ws_doubles(ws, n);
        c->dwork = ipx_ws_doubles(ws, ipx_lemke_work_doubles(c->n));
        c->iwork = ipx_ws_ints(ws, ipx_lemke_work_ints(c->n));
        ok = c->M && c->M_ap && c->q && c->z && c->w && c->dwork && c->iwork;
    }
    if (!ok) {
        snprintf(c->message, IPX_MESSAGE_SIZE, "routh: workspace too small for k = %d", c->m);
        return IPX_ERR_WORKSPACE;
    }
    return IPX_OK;
}

/* The caps of a step, h U(0,1] per contact (Algorithm 1, line 3), or h itself when random caps
   are off; the dense path's q of (75a), [lambda_max; Jn v; JD v; 0], is made from them. */
static void draw_caps(ipx_routh_ctx *c)
{
    for (int i = 0; i < c->m; i++)
        c->caps[i] = c->random_caps ? c->h * ipx_rng_uniform_open0(c->rng) : c->h;
}

/* 1 if unknown i of an LCP whose Anitescu-Potra block starts at off is an impulse (lambda_n,
   lambda_D, N*s); 0 if it is velocity-like (beta, gamma, m/s). Its w_i has the other kind. */
static int is_impulse(const ipx_ap_layout *L, int off, int i)
{
    return i >= off && i < off + L->k + L->nd * L->kf;
}

/* Largest relative violation of 0 <= z _|_ w = M z + q >= 0, with w recomputed from z (into
   w). Each z_i and w_i is measured against the largest magnitude of its kind (impulses,
   velocities; both scaled per contact, anitescu_potra.h) among z and q, so that rows of different units
   are judged fairly. */
static double lcp_violation(const ipx_ap_layout *L, int off, int n, const double *M,
                            const double *q, const double *z, double *w)
{
    double scale[2] = {DBL_MIN, DBL_MIN}; /* [velocity, impulse] */
    for (int i = 0; i < n; i++) {
        int imp = is_impulse(L, off, i);
        scale[imp] = fmax(scale[imp], fabs(z[i]));
        scale[!imp] = fmax(scale[!imp], fabs(q[i]));
        w[i] = q[i];
    }
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) w[i] += M[i + (size_t)n * (size_t)j] * z[j];
    double worst = 0.0;
    for (int i = 0; i < n; i++) {
        int imp = is_impulse(L, off, i);
        double zr = z[i] / scale[imp], wr = w[i] / scale[!imp];
        worst = fmax(worst, fmax(fmax(-zr, -wr), fmin(zr, wr)));
    }
    return worst;
}

/* Solves LCP(M, c->q) of size n into c->z, counts it and checks its residual. The
   Anitescu-Potra block of the LCP starts at unknown off (m for a step, 0 for the fallback). */
static ipx_status solve_lcp(ipx_routh_ctx *c, int n, int off, const double *M, const char *what)
{
    int pivots = 0;
    ipx_status st = ipx_lemke(n, M, c->q, c->z, c->w, c->max_pivots, c->dwork, c->iwork, &pivots);
    c->counts->lcp_solves++;
    c->counts->pivots += pivots;
    if (st != IPX_OK) {
        c->lcp_failed = 1;
        snprintf(c->message, IPX_MESSAGE_SIZE, "routh: %s LCP failed (%s) after %d pivots, size %d",
                 what, ipx_status_name(st), pivots, n);
        return st;
    }
    double viol = lcp_violation(&c->L, off, n, M, c->q, c->z, c->w);
    if (!(viol <= c->tol_lcp)) {
        c->lcp_failed = 1;
        snprintf(c->message, IPX_MESSAGE_SIZE,
                 "routh: %s LCP residual %.3g exceeds tol_lcp %.3g (size %d)", what, viol,
                 c->tol_lcp, n);
        return IPX_ERR_NUMERIC;
    }
    return IPX_OK;
}

/* The AP LCP (31) from velocities v (capped = 0) or the step LCP (75) with c->caps (capped = 1)
   by the dense Lemke, its impulse into c->dpi. */
static ipx_status solve_dense(ipx_routh_ctx *c, const double *v, int capped, const char *what)
{
    ipx_status st;
    if (capped) {
        if (!c->dense_built) {
            build_step_matrix(c);
            c->dense_built = 1;
        }
        /* the caps in the LCP's impulse unit of each contact (anitescu_potra.h): the cap row
           cap_i - lambda_n,i is multiplied by 1 / c_i, and beta_i (a velocity, added to the
           normal row that is multiplied by r_i) is r_i beta_i, so the matrix keeps its 1s */
        for (int i = 0; i < c->m; i++) c->q[i] = c->caps[i] / c->L.scale[i];
        ipx_ap_fill_q(&c->L, v, c->q + c->m);
        st = solve_lcp(c, c->n, c->m, c->M, what);
        if (st == IPX_OK)
            ipx_ap_impulse(&c->L, c->z + c->m, c->dpi); /* z = [beta; lambda_n; ...] */
    } else {
        const int s = c->L.size;
        ipx_ap_fill(&c->L, c->p, v, c->M_ap, s, 0, c->q);
        st = solve_lcp(c, s, 0, c->M_ap, what);
        if (st == IPX_OK) ipx_ap_impulse(&c->L, c->z, c->dpi);
    }
    c->dpi_slack = 0.0;
    return st;
}

/* The iterative solver's impulse (its answer, or its best iterate) into c->dpi. Thm 7's
   K(v') <= K(v) holds for the exact LCP; this answer may gain up to the work its impulse rows
   do against complementarity (nsgs.h, ipx_nsgs_scales), which the solver measured on it. */
static void take_iterate(ipx_routh_ctx *c)
{
    memcpy(c->dpi, c->nsgs.pi, sizeof(double) * (size_t)IPX_ROWS_PER_CONTACT * (size_t)c->m);
    c->dpi_slack = c->nsgs.scales.work;
}

/* The same LCP by the iterative solver. dense_after: the dense Lemke takes over if it does not
   reach lcp_tol (its sweeps are budgeted to about one dense solve); else the best iterate within
   lcp_accept is taken (IPX_ROUTH_HIT_LOOSE_LCP). blocks: the exact blocks may end an uncapped
   solve before that (above lcp_fallback; not in the rescue of a failed dense Lemke, which they
   would redo where it is small). IPX_ERR_NOT_CONVERGED (lcp_failed, message) when neither. */
static ipx_status solve_iterative(ipx_routh_ctx *c, const double *v, int capped, const char *what,
                                  int dense_after, int blocks)
{
    ipx_nsgs_options opt = c->nsgs_opt;
    if (dense_after) opt.max_sweeps = ipx_nsgs_fallback_sweeps(c->m, opt.max_sweeps);
    if (!blocks) opt.block_rounds = 0;
    opt.stall_accept = dense_after ? INFINITY : c->lcp_accept;
    ipx_status st = ipx_nsgs_solve(&c->nsgs, v, NULL, capped ? c->caps : NULL, c->warm, &opt);
    c->counts->lcp_solves++;
    c->counts->pivots += (int)c->nsgs.pivots;
    c->warm = 0;
    if (st == IPX_OK) {
        take_iterate(c);
        c->warm = capped; /* the next step starts from this step's impulse */
        return IPX_OK;
    }
    if (dense_after) return st;
    if (c->nsgs.residual <= c->lcp_accept) {
        take_iterate(c);
        c->counts->limits_hit |= IPX_ROUTH_HIT_LOOSE_LCP;
        return IPX_OK;
    }
    c->lcp_failed = 1;
    snprintf(
        c->message, IPX_MESSAGE_SIZE,
        "routh: %s LCP: iterative solver reached residual %.3g, not lcp_tol %.3g nor lcp_accept "
        "%.3g, in %d sweeps",
        what, c->nsgs.residual, opt.tol, c->lcp_accept, c->nsgs.sweeps);
    return st;
}

/* After the dense Lemke failed on an LCP that has a solution (a degenerate one: st is a ray, the
   pivot limit or an inaccurate basis), the iterative solver answers it with its full sweeps and
   lcp_accept, as above lcp_fallback (IPX_ROUTH_HIT_ITERATIVE_RESCUE); warm: from its own best
   iterate, when it ran before the Lemke. Returns st (message kept) if it cannot. */
static ipx_status rescue(ipx_routh_ctx *c, const double *v, int capped, const char *what,
                         ipx_status st, int warm)
{
    if (!ipx_lemke_rescuable(st)) return st;
    if (!c->nsgs_ready) {
        if (ipx_nsgs_init(&c->nsgs, c->p, c->L.nd, c->ws) != IPX_OK) return st;
        c->nsgs_ready = 1;
    }
    char why[IPX_MESSAGE_SIZE];
    memcpy(why, c->message, sizeof why);
    c->warm = warm;
    if (solve_iterative(c, v, capped, what, 0, 0) == IPX_OK) {
        c->lcp_failed = 0;
        c->message[0] = '\0';
        c->counts->limits_hit |= IPX_ROUTH_HIT_ITERATIVE_RESCUE;
        return IPX_OK;
    }
    memcpy(c->message, why, sizeof why);
    return st;
}

/* The AP LCP (31) from velocities v (capped = 0) or the step LCP (75) with c->caps (capped = 1),
   its impulse into c->dpi: the iterative solver from lcp_switch contacts on (the dense Lemke when
   it does not settle and k <= lcp_fallback, unless rough and its best iterate is within
   lcp_accept), else the dense Lemke; where the Lemke fails, the iterative solver (rescue). */
static ipx_status solve_ap(ipx_routh_ctx *c, const double *v, int capped, const char *what,
                           int rough)
{
    if (c->iterative) {
        ipx_status st = solve_iterative(c, v, capped, what, c->fallback, !c->fallback);
        if (st == IPX_OK || !c->fallback) return st;
        if (rough && c->nsgs.residual <= c->lcp_accept) {
            take_iterate(c);
            return IPX_OK;
        }
        c->counts->limits_hit |= IPX_ROUTH_HIT_DENSE_FALLBACK;
        return rescue(c, v, capped, what, solve_dense(c, v, capped, what), 1);
    }
    return rescue(c, v, capped, what, solve_dense(c, v, capped, what), 0);
}

/* N*s: the reference of the automatic step, the total normal impulse of the Anitescu-Potra
   solution from v0 (31) (the simultaneous outcome, which one step with unbounded caps gives);
   if that LCP fails, the impulse that stops the fastest-approaching contact alone. It only sets
   h, so an iterative solve that does not settle in its budget is not redone by the dense Lemke
   when its best iterate is within lcp_accept: its total normal impulse is then off by about
   that residual, h by as much (a step of 0.68 .. 2 p_ref suits the paper's scenes). */
static double reference_impulse(ipx_routh_ctx *c)
{
    if (solve_ap(c, c->p->v, 0, "reference", 1) == IPX_OK) {
        double total = 0.0;
        for (int i = 0; i < c->m; i++) total += c->dpi[IPX_ROWS_PER_CONTACT * i + IPX_N];
        if (total > 0.0) return total;
    }
    c->lcp_failed = 0;
    c->message[0] = '\0';
    return stop_impulse(c->p);
}

ipx_status ipx_routh_ctx_init(ipx_routh_ctx *c, const ipx_problem *p, const double *param,
                              ipx_rng *rng, ipx_workspace *ws, ipx_counts *counts, char *message)
{
    memset(c, 0, sizeof *c);
    c->p = p;
    c->rng = rng;
    c->counts = counts;
    c->message = message;
    int *fric = ipx_ws_ints(ws, (size_t)p->k);
    double *scale = ipx_ws_doubles(ws, (size_t)p->k);
    if (!fric || !scale) {
        snprintf(message, IPX_MESSAGE_SIZE, "routh: workspace too small for k = %d", p->k);
        return IPX_ERR_WORKSPACE;
    }
    ipx_ap_layout_init(&c->L, p, directions(param), fric, scale);
    c->m = p->k;
    c->n = c->m + c->L.size;
    c->max_steps = (int)param[IPX_ROUTH_MAX_STEPS];
    c->max_pivots = param[IPX_ROUTH_MAX_PIVOTS] > 0.0 ? (int)param[IPX_ROUTH_MAX_PIVOTS]
                                                      : ipx_lemke_default_max_pivots(c->n);
    c->random_caps = param[IPX_ROUTH_RANDOM_CAPS] != 0.0;
    c->poisson = param[IPX_ROUTH_POISSON_RESTITUTION] != 0.0;
    double vmin = min_normal(p->v, p->k);
    /* the host's accuracy (types.h v_tol): the step LCPs are answered to it, so an approach
       below it ends the impact (docs/models/routh.md §4) */
    c->tol_v_abs = fmax(param[IPX_ROUTH_TOL_V] * fmax(0.0, -vmin), p->v_tol);
    c->tol_lcp = param[IPX_ROUTH_TOL_LCP];
    c->iterative = p->k >= ipx_lcp_iterative_from(p->v_tol, param[IPX_ROUTH_LCP_SWITCH],
                                                  param[IPX_ROUTH_LCP_SWITCH_HOST]);
    c->fallback = p->k <= param[IPX_ROUTH_LCP_FALLBACK];
    const int max_sweeps = (int)param[IPX_ROUTH_MAX_SWEEPS];
    c->nsgs_opt.tol = param[IPX_ROUTH_LCP_TOL];
    c->nsgs_opt.max_sweeps = max_sweeps;
    c->ws = ws;
    c->nsgs_opt.accelerate = 1;
    c->nsgs_opt.stall_sweeps = (int)param[IPX_ROUTH_STALL_SWEEPS];
    c->nsgs_opt.v_tol = p->v_tol; /* the host's accuracy (types.h) */
    c->nsgs_opt.cone = 0; /* its cost on the step LCPs of a pile (nsgs.h, cone) is not paid */
    c->nsgs_opt.block_rounds = (int)param[IPX_ROUTH_BLOCK_ROUNDS]; /* uncapped LCPs only */
    c->lcp_accept = param[IPX_ROUTH_LCP_ACCEPT];
    ipx_status st = take_memory(c, ws);
    if (st != IPX_OK) return st;
    if (!(vmin < -c->tol_v_abs)) return IPX_OK; /* nothing approaches: no step is taken */
    double step = param[IPX_ROUTH_STEP];
    c->h = step > 0.0 ? step : param[IPX_ROUTH_STEP_RELATIVE] * reference_impulse(c);
    if (!(c->h > 0.0)) {
        snprintf(message, IPX_MESSAGE_SIZE,
                 "routh: a contact approaches but no approaching contact can take a normal "
                 "impulse (W_nn = 0), so the step h is 0");
        return IPX_ERR_INPUT;
    }
    return IPX_OK;
}

/* pi += c->dpi and c->v = v0 + W pi (75c). Returns K(v') - K(v) in J, computed in contact space
   as dpi . (v + v') / 2, and in *scale the size of its terms. */
static double add_impulse(ipx_routh_ctx *c, double *pi, double *scale)
{
    const ipx_problem *p = c->p;
    const int rows = IPX_ROWS_PER_CONTACT * p->k;
    double before = 0.0, after = 0.0;
    for (int i = 0; i < rows; i++) {
        before += c->dpi[i] * c->v[i];
        pi[i] += c->dpi[i];
    }
    if (c->iterative) {
        ipx_wblocks_apply(&c->nsgs.W, p->v, pi, c->v); /* O(blocks of W) */
    } else {
        ipx_problem_apply_W(p, pi, c->v);
        for (int i = 0; i < rows; i++) c->v[i] += p->v[i];
    }
    for (int i = 0; i < rows; i++) after += c->dpi[i] * c->v[i];
    *scale = fabs(before) + fabs(after);
    return 0.5 * (before + after);
}

/* Adds a dissipative impulse (a step or the AP fallback) and checks Thm 7: K(v') <= K(v) (76),
   to round-off and to what its LCP's residual allows (c->dpi_slack). */
static ipx_status add_dissipative(ipx_routh_ctx *c, double *pi)
{
    double scale = 0.0;
    double dk = add_impulse(c, pi, &scale);
    if (!(dk <= c->tol_lcp * scale + c->dpi_slack)) {
        snprintf(c->message, IPX_MESSAGE_SIZE,
                 "routh: impulse step %d gained %.3g J of kinetic energy (Thm 7 violated)",
                 c->counts->steps, dk);
        return IPX_ERR_NUMERIC;
    }
    return IPX_OK;
}

/* Algorithm 1: impulse steps until no contact approaches (*ended = 1) or max_steps. */
static ipx_status run(ipx_routh_ctx *c, double *pi, int *ended)
{
    for (int i = 0;; i++) {
        *ended = !(min_normal(c->v, c->m) < -c->tol_v_abs); /* v not in C(q0) (28) */
        if (*ended || i == c->max_steps) return IPX_OK;
        draw_caps(c);
        ipx_status st = solve_ap(c, c->v, 1, "step", 0);
        if (st != IPX_OK) return st;
        c->counts->steps++;
        st = add_dissipative(c, pi);
        if (st != IPX_OK) return st;
    }
}

/* Simulation fallback (docs/models/routh.md §4.3): one Anitescu-Potra LCP (31) from the current velocity. */
static ipx_status ap_finish(ipx_routh_ctx *c, double *pi)
{
    c->warm = 0;
    ipx_status st = solve_ap(c, c->v, 0, "fallback", 0);
    if (st != IPX_OK) return st;
    return add_dissipative(c, pi);
}

/* Ends the inelastic impact from the current velocity: Algorithm 1, then the fallback. */
static ipx_status finish_inelastic(ipx_routh_ctx *c, double *pi, int fallback)
{
    int ended = 0;
    ipx_status st = run(c, pi, &ended);
    if (st == IPX_OK && ended) return IPX_OK;
    if (st != IPX_OK && !c->lcp_failed) return st; /* an energy gain is never patched over */
    if (st == IPX_OK)
        snprintf(c->message, IPX_MESSAGE_SIZE, "routh: impact not ended after %d impulse steps",
                 c->max_steps);
    if (!fallback) return st != IPX_OK ? st : IPX_ERR_NOT_CONVERGED;
    c->counts->limits_hit |= c->lcp_failed ? IPX_ROUTH_HIT_LCP_FAILURE : IPX_ROUTH_HIT_MAX_STEPS;
    c->lcp_failed = 0;
    st = ap_finish(c, pi);
    if (st == IPX_OK) c->message[0] = '\0'; /* the fallback answered: limits_hit says so */
    return st;
}

/* Extension beyond the paper: Poisson restitution after the inelastic impact. Every contact
   whose pre-impact approach speed exceeds v_capture gets a further normal impulse
   e_i Lambda_n,i (Lambda_n,i its inelastic normal impulse). Multi-contact Poisson restitution
   can gain energy, so the restitution impulse is scaled by the largest s in [0, 1] with
   dK(pi + s delta) = dK(pi) + a s + b s^2 <= 0, a = delta . v, b = delta^T W delta / 2. */
static void restitute(ipx_routh_ctx *c, double *pi)
{
    const ipx_problem *p = c->p;
    const int rows = IPX_ROWS_PER_CONTACT * p->k;
    double dk = 0.0, a = 0.0, b = 0.0; /* J */
    for (int i = 0; i < rows; i++) {
        dk += pi[i] * (p->v[i] + 0.5 * (c->v[i] - p->v[i]));
        c->dpi[i] = 0.0;
    }
    for (int i = 0; i < p->k; i++) {
        const int r = IPX_ROWS_PER_CONTACT * i + IPX_N;
        if (-p->v[r] > p->contact[i].v_capture) c->dpi[r] = p->contact[i].e * pi[r];
        a += c->dpi[r] * c->v[r];
    }
    if (c->iterative) { /* b from the blocks of W (the solver's pi_old is free between solves) */
        ipx_wblocks_apply(&c->nsgs.W, NULL, c->dpi, c->nsgs.pi_old);
        for (int i = 0; i < rows; i++) b += 0.5 * c->dpi[i] * c->nsgs.pi_old[i];
    } else {
        for (int i = 0; i < p->k; i++)
            for (int j = 0; j < p->k; j++) {
                const int ri = IPX_ROWS_PER_CONTACT * i + IPX_N,
                          rj = IPX_ROWS_PER_CONTACT * j + IPX_N;
                b += 0.5 * c->dpi[ri] * p->W[ri + (size_t)rows * (size_t)rj] * c->dpi[rj];
            }
    }
    if (dk + a + b > 0.0) {
        double den = a + sqrt(fmax(0.0, a * a - 4.0 * b * dk));
        double s = den > 0.0 ? fmax(0.0, -2.0 * dk / den) : 0.0; /* stable root of the quadratic */
        for (int i = 0; i < rows; i++) c->dpi[i] *= s;
        c->counts->limits_hit |= IPX_ROUTH_HIT_RESTITUTION_CAP;
    }
    double scale = 0.0;
    add_impulse(c, pi, &scale);
}

ipx_status ipx_routh_resolve(ipx_routh_ctx *c, double *pi, int fallback)
{
    const ipx_problem *p = c->p;
    const int rows = IPX_ROWS_PER_CONTACT * p->k;
    for (int i = 0; i < rows; i++) {
        pi[i] = 0.0;
        c->v[i] = p->v[i];
    }
    c->lcp_failed = 0;
    c->warm = 0;
    ipx_status st = finish_inelastic(c, pi, fallback);
    if (st != IPX_OK || !c->poisson) return st;
    restitute(c, pi);
    /* the restitution impulse may drive other contacts into approach: resolve them inelastically */
    return finish_inelastic(c, pi, fallback);
}
