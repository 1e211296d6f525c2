/* The Flickinger-Bowling active set (docs/models/bowling.md §3.3): the exhaustive search with maximum dissipation
   (least kinetic energy among the admissible sets), the model document's loop for problems with many
   candidates, and the polygonal LCP where neither finds an admissible set. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bowling_ctx.h"
#include "mathutil.h"

/* A stick/slip choice exists where the limit is finite and non-zero; c_s = 0 (mu = 0, or a
   zero radius) can only slip with no impulse, c_s = infinity (moment rows without limits)
   only stick. */
static int has_choice(const bw_ctx *c, int i, int g)
{
    const double cs = bw_stick_limit(c, i, g);
    return cs > 0.0 && isfinite(cs);
}

/* Stick/slip choices of contact i: the groups with a choice. */
static int choices(const bw_ctx *c, int i)
{
    int n = 0;
    for (int g = 0; g < c->groups; g++) n += has_choice(c, i, g);
    return n;
}

/* First guess of a slip direction: along the pre-impact slip velocity (then x). */
static void guess_direction(bw_ctx *c, int i, int g)
{
    double w[2] = {0.0, 0.0};
    const double norm = bw_slip_velocity(c, c->p->v, i, g, w);
    double *s = c->cur.dir[i][g];
    s[0] = norm > 0.0 ? w[0] / norm : 1.0;
    s[1] = norm > 0.0 ? w[1] / norm : 0.0;
}

/* Contact i in S with modes from the bits of code (one per group with a choice, 1 = slip). */
static void set_modes(bw_ctx *c, int i, unsigned code)
{
    c->cur.active[i] = 1;
    for (int g = 0; g < c->groups; g++) {
        int slip;
        if (has_choice(c, i, g)) {
            slip = code & 1u;
            code >>= 1;
        } else {
            slip = bw_stick_limit(c, i, g) == 0.0;
        }
        c->cur.slip[i][g] = (unsigned char)slip;
        if (slip) guess_direction(c, i, g);
    }
}

/* Candidates of the exhaustive search, or enumerate_max + 1 if there are more. */
static double count_candidates(const bw_ctx *c)
{
    const double limit = c->param[IPX_BOWLING_ENUMERATE_MAX];
    double count = 1.0;
    for (int i = 0; i < c->k && count <= limit; i++) count *= 1.0 + (double)(1u << choices(c, i));
    return count <= limit ? count : limit + 1.0;
}

/* 1 if the current candidate beats the solution so far: less kinetic energy, or as much with
   a smaller impulse (redundant contacts: the same outcome from several sets, the min-norm
   split shares the load). */
static int better(const bw_ctx *c)
{
    if (!c->sol.found) return 1;
    const double tol = bw_tol_e(c, c->sol.dT);
    if (c->dT < c->sol.dT - tol) return 1;
    return c->dT <= c->sol.dT + tol &&
           ipx_norm2(c->pi, c->n) < ipx_norm2(c->sol.pi, c->n) * (1.0 - 1e-9);
}

/* Better first slip directions: against the impulse the slipping groups would take if they
   stuck (the direction the cone cuts off). One extra solve; groups without it keep theirs. */
static ipx_status guess_from_stick(bw_ctx *c)
{
    unsigned char(*slip)[BW_GROUPS] = c->slip_saved;
    const size_t bytes = (size_t)c->k * sizeof *slip;
    memcpy(slip, c->cur.slip, bytes);
    int any = 0;
    for (int i = 0; i < c->k; i++)
        for (int g = 0; g < c->groups; g++)
            if (c->cur.active[i] && slip[i][g] && has_choice(c, i, g))
                c->cur.slip[i][g] = 0, any = 1;
    if (!any) return IPX_OK;
    ipx_status st = bw_solve_candidate(c);
    memcpy(c->cur.slip, slip, bytes);
    if (st != IPX_OK) return st;
    for (int i = 0; i < c->k; i++)
        for (int g = 0; g < c->groups; g++) {
            if (!c->cur.active[i] || !slip[i][g] || !has_choice(c, i, g)) continue;
            const double *pi = c->pi + c->r * i, norm = bw_group_norm(pi, g);
            if (norm > 0.0)
                for (int j = 0; j < bw_group_dim(g); j++)
                    c->cur.dir[i][g][j] = -pi[bw_group_row(g, j)] / norm;
        }
    return IPX_OK;
}

/* Maximum dissipation: every candidate, the admissible one with the least kinetic energy. */
static ipx_status enumerate(bw_ctx *c, long count)
{
    for (long idx = 0; idx < count; idx++) {
        long code = idx;
        for (int i = 0; i < c->k; i++) {
            const long modes = 1 + (1L << choices(c, i));
            const long mode = code % modes;
            code /= modes;
            c->cur.active[i] = 0;
            if (mode > 0) set_modes(c, i, (unsigned)(mode - 1));
        }
        int unsettled = 0;
        ipx_status st = guess_from_stick(c);
        if (st == IPX_OK) st = bw_solve_slip(c, &unsettled);
        if (st != IPX_OK) return st;
        if (unsettled || !bw_admissible(c)) continue;
        if (better(c)) bw_take(c, &c->sol);
    }
    return IPX_OK;
}

/* Friction repairs of the model document's loop: a sticking group outside its cone slips against its
   stick impulse; a slipping group whose direction did not settle (its slip reverses) sticks.
   Returns 1 if something changed. */
static int repair_friction(bw_ctx *c)
{
    const double tol_p = bw_tol_p(c);
    int changed = 0;
    for (int i = 0; i < c->k; i++) {
        const double *pi = c->pi + c->r * i;
        if (!c->cur.active[i] || pi[IPX_N] < -tol_p) continue;
        for (int g = 0; g < c->groups; g++) {
            if (!has_choice(c, i, g)) continue;
            const double norm = bw_group_norm(pi, g);
            if (!c->cur.slip[i][g] && norm > bw_stick_limit(c, i, g) * pi[IPX_N] + tol_p) {
                c->cur.slip[i][g] = 1;
                for (int j = 0; j < bw_group_dim(g); j++)
                    c->cur.dir[i][g][j] = -pi[bw_group_row(g, j)] / norm;
                changed = 1;
            } else if (c->cur.slip[i][g] && c->moving[i][g]) {
                c->cur.slip[i][g] = 0;
                changed = 1;
            }
        }
    }
    return changed;
}

/* One repair of the model document's loop: friction first (a contact's impulse outside its cone distorts
   every other), then the most pulling contact leaves S, else the most penetrating one joins
   it, sticking. Returns 0 if there was nothing to repair. */
static int repair(bw_ctx *c)
{
    if (repair_friction(c)) return 1;
    const double tol_v = bw_tol_v(c), tol_p = bw_tol_p(c);
    int worst = -1;
    double size = 0.0;
    for (int i = 0; i < c->k; i++) {
        const double pull = -c->pi[c->r * i + IPX_N] - tol_p;
        if (c->cur.active[i] && pull > size) {
            size = pull;
            worst = i;
        }
    }
    if (worst >= 0) {
        c->cur.active[worst] = 0;
        return 1;
    }
    for (int i = 0; i < c->k; i++) {
        const double depth = -c->vp[c->r * i + IPX_N] - tol_v;
        if (!c->cur.active[i] && depth > size) {
            size = depth;
            worst = i;
        }
    }
    if (worst >= 0) set_modes(c, worst, 0u);
    return worst >= 0;
}

/* FNV-1a hash of the active set and the stick/slip modes (the loop's cycle detection). */
static unsigned long long state_hash(const bw_ctx *c)
{
    unsigned long long h = 1469598103934665603ull;
    for (int i = 0; i < c->k; i++) {
        unsigned byte = c->cur.active[i];
        for (int g = 0; g < c->groups; g++)
            byte = 2u * byte + (c->cur.active[i] && c->cur.slip[i][g]);
        h = (h ^ byte) * 1099511628211ull;
    }
    return h;
}

/* The model document's start: approaching and persistent contacts in S, sticking. */
static void spec_start(bw_ctx *c)
{
    const double tol_v = c->param[IPX_BOWLING_TOL] * c->vscale + 1e-300;
    bw_state_clear(c);
    for (int i = 0; i < c->k; i++)
        if (c->p->v[c->r * i + IPX_N] <= tol_v) set_modes(c, i, 0u);
}

/* The loop from c->cur: repairs until the candidate is admissible (one admissible set, not
   necessarily the least energetic), a state comes back (a cycle) or max_iterations. */
#define BW_HISTORY 64
static ipx_status loop(bw_ctx *c)
{
    unsigned long long seen[BW_HISTORY];
    const int max_it = (int)c->param[IPX_BOWLING_MAX_ITERATIONS];
    for (int it = 0; it < max_it; it++) {
        int unsettled = 0;
        ipx_status st = bw_solve_slip(c, &unsettled);
        if (st != IPX_OK) return st;
        if (!unsettled && bw_admissible(c)) {
            if (better(c)) bw_take(c, &c->sol);
            return IPX_OK;
        }
        seen[it % BW_HISTORY] = state_hash(c);
        if (!repair(c)) return IPX_OK; /* unmet targets of a redundant set: nothing to repair */
        const unsigned long long h = state_hash(c);
        for (int j = 0; j < BW_HISTORY && j <= it; j++)
            if (seen[j] == h) return IPX_OK; /* a cycle */
    }
    c->counts->limits_hit |= IPX_BOWLING_ITERATIONS;
    return IPX_OK;
}

/* The loop's start: the polygonal LCP's set (loop_seed 1), or the model document's start when the seed
   is off or its LCP fails (a fallback: IPX_BOWLING_SEED_FAILED); after an exhaustive search
   only the LCP's set is tried. 1 if there is a start. */
static int loop_start(bw_ctx *c, int enumerating)
{
    if (c->param[IPX_BOWLING_LOOP_SEED] != 0.0) {
        if (bw_lcp_solve(c) == IPX_OK) {
            bw_lcp_seed(c);
            return 1;
        }
        c->counts->limits_hit |= IPX_BOWLING_SEED_FAILED;
    }
    if (enumerating) return 0;
    spec_start(c);
    return 1;
}

/* Above loop_max contacts no active set is searched: the polygonal LCP's outcome is the law's
   (the model document's "else LCP/PGS" of 3.3). Its solve grows as the pile (the iterative
   solver), the search's as the cube of its unknowns: ODE's house of cards (islands of 33 to 104
   contacts) spent the whole work bound in the loop, then failed the e_* cap's second solve. */
static ipx_status lcp_outcome(bw_ctx *c)
{
    if (bw_lcp_solve(c) != IPX_OK) return c->out_of_work ? IPX_ERR_NOT_CONVERGED : bw_lcp_fail(c);
    bw_lcp_outcome(c);
    return IPX_OK;
}

ipx_status bw_resolve(bw_ctx *c)
{
    c->sol.found = 0;
    c->lcp.solved = c->lcp.tried = 0;
    if (c->k > c->param[IPX_BOWLING_LOOP_MAX]) return lcp_outcome(c);
    const double count = count_candidates(c);
    const int enumerating = count <= c->param[IPX_BOWLING_ENUMERATE_MAX];
    ipx_status st = enumerating ? enumerate(c, (long)count) : IPX_OK;
    if (st != IPX_OK) return st;
    /* the loop: for large problems from the LCP's set or the model document's start; after an exhaustive
       search from the LCP's set too (its slip directions are good first guesses, and where a set
       has several slip solutions it may find a more dissipative one), the better kept */
    if (loop_start(c, enumerating)) st = loop(c);
    /* a spent work bound ends the loop as max_iterations does: the best admissible set so far,
       else the LCP decides if its solution is at hand (docs/models/bowling.md §9) */
    if (st != IPX_OK && c->out_of_work) st = IPX_OK;
    if (st != IPX_OK || c->sol.found) return st;
    if (c->param[IPX_BOWLING_LCP_FALLBACK] != 0.0) {
        if (!c->lcp.tried) bw_lcp_solve(c);
        if (!c->lcp.solved) return c->out_of_work ? IPX_ERR_NOT_CONVERGED : bw_lcp_fail(c);
        bw_lcp_outcome(c);
        return IPX_OK;
    }
    if (enumerating)
        snprintf(c->message, IPX_MESSAGE_SIZE,
                 "bowling: none of the %.0f active sets is admissible (lcp_fallback off)", count);
    else
        snprintf(c->message, IPX_MESSAGE_SIZE,
                 "bowling: the active-set loop found no admissible set (lcp_fallback off)");
    return IPX_ERR_NOT_CONVERGED;
}
