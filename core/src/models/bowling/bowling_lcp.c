/* The Flickinger-Bowling model's polygonal LCP (the model document's "else LCP/PGS" of 3.3): the
   Anitescu-Potra LCP on the [t1, t2, n] rows with the law's targets (v+ - b >= 0
   complementary to the impulse) and the dynamic friction coefficient; if it is not solved, the
   same LCP without targets (inelastic). Solved by the dense Lemke or the iterative solver
   (core/src/numerics/nsgs.h) by size, each taking over where the other fails (solve_lcp). Its
   solution seeds the active-set loop (loop_seed 1), is the outcome when no admissible set is
   found (lcp_fallback), and is the law's outcome above loop_max contacts. Angular rows take no
   impulse in it. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bowling_ctx.h"
#include "impax/lcp.h"
#include "mathutil.h"

void bw_gather3(bw_ctx *c)
{
    const int n3 = 3 * c->k;
    for (int b = 0; b < n3; b++) { /* column by column: both matrices are column-major */
        const int rb = c->r * (b / 3) + b % 3;
        c->v3[b] = c->p->v[rb];
        const double *col = c->p->W + (size_t)c->n * (size_t)rb;
        for (int a = 0; a < n3; a++) c->W3[a + (size_t)n3 * b] = col[c->r * (a / 3) + a % 3];
    }
}

/* One Lemke solve of the AP LCP of p3 with contact velocities q_v (3k); its impulses into
   c->rel3 (q_v may be c->rel3: it is read first). Its tableau (size rows of 2 size + 2) and
   each pivot, which may change all of it, are charged size (2 size + 2) work units; Lemke gets
   no more pivots than the units left pay for, so a dense LCP too large for the bound ends with
   its pivot limit instead of running on (ODE's crash demo: 7 000 rows, 1e8 units a pivot, a
   default cap of 351 000 pivots). */
static ipx_status solve_dense(bw_ctx *c, const double *q_v)
{
    const int size = c->lcp.layout.size;
    const double per_pivot = (double)size * (2.0 * size + 2.0);
    const double afford = floor((c->max_work - c->work) / per_pivot) - 1.0; /* - the tableau */
    int max_pivots = ipx_lemke_default_max_pivots(size);
    if (afford < 1.0 || !bw_charge(c, per_pivot)) {
        c->out_of_work = 1;
        return IPX_ERR_NOT_CONVERGED;
    }
    if (afford < max_pivots) max_pivots = (int)afford;
    ipx_ap_fill(&c->lcp.layout, &c->p3, q_v, c->M, size, 0, c->q);
    int pivots = 0;
    ipx_status st =
        ipx_lemke(size, c->M, c->q, c->z, c->w, max_pivots, c->lcp_work, c->lcp_iwork, &pivots);
    bw_charge(c, per_pivot * pivots);
    if (st == IPX_ERR_LCP_PIVOTS && max_pivots < ipx_lemke_default_max_pivots(size))
        c->out_of_work = 1; /* cut by the bound, not by Lemke's own cap */
    c->counts->lcp_solves++;
    c->counts->pivots += pivots;
    if (st == IPX_OK) {
        ipx_ap_impulse(&c->lcp.layout, c->z, c->rel3);
        c->lcp.pi3 = c->rel3;
        c->lcp.iterative = 0;
    }
    return st;
}

/* Work units of one sweep of the iterative solver, up to a constant factor: the change of each
   contact's impulse passed down its block column (9 multiply-adds a block of W), each contact's
   local problem (the case it took last, O(nd^2) at most) and the acceleration's vectors. */
static double sweep_units(const bw_ctx *c)
{
    const double nd = (double)c->nsgs.nd;
    return 9.0 * (double)c->nsgs.W.nnz + (nd * nd + 64.0) * (double)c->k;
}

/* The AP LCP of p3 with contact velocities q_v by the iterative solver (nsgs.h), warm from its
   previous answer in this impact, for at most `sweeps` sweeps. dense_next: the dense Lemke
   redoes an unconverged solve, so a stall (BW_LCP_STALL_SWEEPS plain sweeps without the best
   residual halving) ends it there, the dense solve not waiting for a plateau to end (PyODE's
   tutorial3, mu = 5000: 5 000 sweeps of a 58-contact island ended at 0.061 from 0.064); else a
   stall goes on with the fixed friction bounds and their damped fixed point, which settled
   the crash demo's wall islands the plain sweeps cycle on (stall_accept 0: an unconverged
   iterate is never the answer here). Its sweeps are charged before it (as many as the units
   left pay for) and those it did not make are given back. IPX_OK when it reaches the relative
   residual tol or the host's accuracy v_tol; else IPX_ERR_NOT_CONVERGED. */
static ipx_status iterate(bw_ctx *c, const double *q_v, double sweeps, int dense_next)
{
    if (!c->nsgs_ready) {
        const ipx_status st = ipx_nsgs_init(&c->nsgs, &c->p3, bw_lcp_directions(c->param), c->ws);
        if (st != IPX_OK) return st;
        c->nsgs_ready = 1;
    }
    const double per_sweep = sweep_units(c);
    sweeps = fmin(sweeps, floor((c->max_work - c->work) / per_sweep));
    if (sweeps < 1.0 || !bw_charge(c, per_sweep * sweeps)) {
        c->out_of_work = 1;
        return IPX_ERR_NOT_CONVERGED;
    }
    const ipx_nsgs_options opt = {c->param[IPX_BOWLING_TOL],   (int)sweeps, 1, BW_LCP_STALL_SWEEPS,
                                  dense_next ? INFINITY : 0.0, c->p->v_tol, 0, 0};
    const ipx_status st = ipx_nsgs_solve(&c->nsgs, q_v, NULL, NULL, c->lcp.warm, &opt);
    c->work -= per_sweep * (sweeps - (double)c->nsgs.sweeps);
    c->lcp.warm = 1;
    c->counts->lcp_solves++;
    c->counts->pivots += (int)c->nsgs.pivots;
    c->counts->limits_hit |= IPX_BOWLING_ITERATIVE_LCP;
    return st;
}

/* The iterative solver's answer as the LCP's where it converged (tol or v_tol). */
static ipx_status take_iterate(bw_ctx *c, ipx_status st)
{
    if (st == IPX_OK) {
        c->lcp.pi3 = c->nsgs.pi;
        c->lcp.iterative = 1;
    }
    return st;
}

/* 1 if the work left pays for a dense Lemke solve of the polygonal LCP: its tableau and as many
   pivots as it has rows L, about what one makes; 2 L^3 units, so with the default bound up to
   about 100 contacts (L = 10 k with 8 directions; aplcp's lcp_fallback is 96). Beyond, the
   dense Lemke could only end at the bound (ODE's crash demo: islands of 153 to 331 contacts,
   L = 3 310 rows, 2.2e7 units a pivot, 90 pivots left), so the iterative solver is not stopped
   for it. */
static int dense_affordable(const bw_ctx *c)
{
    const double size = c->lcp.layout.size;
    return c->work + (size + 1.0) * size * (2.0 * size + 2.0) <= c->max_work;
}

/* The AP LCP of p3 with contact velocities q_v, as aplcp solves its own: below lcp_switch
   contacts the dense Lemke; from there on the iterative solver, and the dense Lemke where it
   does not reach its tolerance in about a dense solve's work (ipx_nsgs_fallback_sweeps; PyODE's
   tutorial3, mu = 5000: islands of 16 to 58 contacts it does not settle) and the work left pays
   for that solve; where it does not, the iterative solver has its full sweeps. Where Lemke fails
   on an LCP that has a solution (a false ray, its pivot limit, an inaccurate basis: degenerate
   piles) the iterative solver has its full sweeps (ODE's house of cards: "numerical failure"
   at 48 and 76 contacts). An unconverged iterate is never the answer: its contacts may still
   approach. */
static ipx_status solve_lcp(bw_ctx *c, const double *q_v)
{
    const double max_sweeps = c->param[IPX_BOWLING_MAX_SWEEPS];
    ipx_status st;
    if (c->k >= c->param[IPX_BOWLING_LCP_SWITCH]) {
        const int dense_next = dense_affordable(c);
        st = iterate(c, q_v,
                     dense_next ? ipx_nsgs_fallback_sweeps(c->k, (int)max_sweeps) : max_sweeps,
                     dense_next);
        if (st != IPX_ERR_NOT_CONVERGED || c->out_of_work || !dense_next)
            return take_iterate(c, st);
    }
    st = solve_dense(c, q_v);
    if (!ipx_lemke_rescuable(st) || c->out_of_work) return st;
    return take_iterate(c, iterate(c, q_v, max_sweeps, 0));
}

ipx_status bw_lcp_solve(bw_ctx *c)
{
    bw_gather3(c);
    ipx_contact *dyn = c->dyn;
    for (int i = 0; i < c->k; i++) {
        dyn[i] = c->p->contact[i];
        dyn[i].mu = bw_slip_limit(c, i, 0);
    }
    c->p3 = (ipx_problem){.k = c->k, .W = c->W3, .v = c->v3, .contact = dyn, .v_tol = c->p->v_tol};
    ipx_ap_layout_init(&c->lcp.layout, &c->p3, bw_lcp_directions(c->param), c->ap_fric,
                       c->ap_scale);
    double *rel = c->rel3; /* v - b on the [t1, t2, n] rows: the targets shift q */
    for (int a = 0; a < 3 * c->k; a++) rel[a] = c->v3[a] - c->b[c->r * (a / 3) + a % 3];
    c->lcp.used = IPX_BOWLING_LCP_USED;
    ipx_status st = solve_lcp(c, rel);
    if (st != IPX_OK) {
        c->lcp.used |= IPX_BOWLING_INELASTIC_USED;
        st = solve_lcp(c, c->v3);
    }
    c->lcp.tried = 1;
    c->lcp.status = st;
    c->lcp.solved = st == IPX_OK;
    return st;
}

ipx_status bw_lcp_fail(bw_ctx *c)
{
    snprintf(c->message, IPX_MESSAGE_SIZE, "bowling: the polygonal LCP failed (%s)",
             ipx_status_name(c->lcp.status));
    return c->lcp.status;
}

/* Active set from the iterative solver's answer: contacts with a normal impulse; a friction
   contact slides where its tangential velocity after the impulse (less its target) passes the
   accuracy the solve stopped at, against its friction impulse. Angular groups stick. */
static void seed_from_impulses(bw_ctx *c)
{
    const double *pi3 = c->lcp.pi3, *vp3 = c->nsgs.vp; /* vp3: v+ - b */
    const double pn_max = ipx_max_abs(pi3, 3 * c->k);
    const double tol = c->param[IPX_BOWLING_TOL] * pn_max;
    const double tol_v =
        fmax(c->p->v_tol, c->param[IPX_BOWLING_TOL] * fmax(c->vscale, ipx_max_abs(vp3, 3 * c->k)));
    bw_state_clear(c);
    for (int i = 0; i < c->k; i++) {
        const double *pi = pi3 + 3 * i, *vp = vp3 + 3 * i;
        c->cur.active[i] = pi[IPX_N] > tol;
        for (int g = 0; g < c->groups; g++) c->cur.slip[i][g] = bw_stick_limit(c, i, g) == 0.0;
        const double norm = hypot(pi[IPX_T1], pi[IPX_T2]);
        if (c->p3.contact[i].mu <= 0.0 || norm == 0.0 || hypot(vp[IPX_T1], vp[IPX_T2]) <= tol_v)
            continue;
        c->cur.slip[i][0] = 1;
        c->cur.dir[i][0][0] = -pi[IPX_T1] / norm;
        c->cur.dir[i][0][1] = -pi[IPX_T2] / norm;
    }
}

/* Active set from the LCP: contacts with a normal impulse; a friction contact slides where its
   slip variable gamma is positive, against its friction impulse. Angular groups stick. */
void bw_lcp_seed(bw_ctx *c)
{
    if (c->lcp.iterative) {
        seed_from_impulses(c);
        return;
    }
    const ipx_ap_layout *L = &c->lcp.layout;
    double pn_max = 0.0; /* N*s: lambda_n,i = c_i z_i (anitescu_potra.h) */
    for (int i = 0; i < c->k; i++) pn_max = fmax(pn_max, L->scale[i] * c->z[i]);
    const double tol = c->param[IPX_BOWLING_TOL] * pn_max;
    bw_state_clear(c);
    for (int i = 0; i < c->k; i++) {
        c->cur.active[i] = L->scale[i] * c->z[i] > tol;
        for (int g = 1; g < c->groups; g++) c->cur.slip[i][g] = bw_stick_limit(c, i, g) == 0.0;
        c->cur.slip[i][0] = bw_stick_limit(c, i, 0) == 0.0;
    }
    for (int f = 0; f < L->kf; f++) {
        const int i = L->fric[f];
        double ft[2] = {0.0, 0.0};
        for (int d = 0; d < L->nd; d++) {
            ft[0] += c->z[L->k + L->nd * f + d] * L->dir[2 * d];
            ft[1] += c->z[L->k + L->nd * f + d] * L->dir[2 * d + 1];
        }
        const double norm = hypot(ft[0], ft[1]);
        if (c->z[L->k + L->nd * L->kf + f] <= 0.0 || norm == 0.0) continue;
        c->cur.slip[i][0] = 1;
        c->cur.dir[i][0][0] = -ft[0] / norm;
        c->cur.dir[i][0][1] = -ft[1] / norm;
    }
}

void bw_lcp_outcome(bw_ctx *c)
{
    const double *pi3 = c->lcp.pi3;
    memset(c->pi, 0, sizeof(double) * (size_t)c->n);
    for (int a = 0; a < 3 * c->k; a++) c->pi[c->r * (a / 3) + a % 3] = pi3[a];
    c->dT = bw_apply(c, c->pi, c->vp);
    c->rank_deficient = 0;
    c->counts->limits_hit |= c->lcp.used;
    bw_take(c, &c->sol);
}
