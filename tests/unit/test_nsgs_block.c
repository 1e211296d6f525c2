/* The iterative solver's exact blocks (core/src/numerics/nsgs_block.c) against what they claim:
   each contact's violation is the residual's own measure, contact by contact (closed forms;
   the largest of them is the residual's row velocity or pair work); a block's members meet their conditions to
   round-off afterwards, with every other contact's impulse held; a block answers where nothing
   violates with nothing done. */
#include <math.h>
#include <string.h>

#include "ensure.h"
#include "impax/impax.h"
#include "numerics/nsgs.h"
#include "pile_gen.h"
#include "impax/rng.h"

enum { K = 100, ND = 4 };

static ipx_pile pile;
static ipx_nsgs s;              /* the solver of each test */
static ipx_nsgs_scales c;       /* its residual's scales after the sweeps */
static double pi_before[3 * K]; /* its impulses then */
static const double *shift;     /* m/s: the normal rows' targets (aplcp's Newton), or NULL */

/* s on a churning stack of K contacts (more than a block's 64) after three sweeps from zero;
   c and pi_before set. */
static ipx_workspace *unsettled(void)
{
    ipx_workspace *ws = ipx_workspace_create_bytes(ipx_nsgs_bytes(K, ND, 0));
    ENSURE(ws && ipx_nsgs_init(&s, &pile.problem, ND, ws) == IPX_OK);
    const ipx_nsgs_options opt = {.tol = 1e-10, .max_sweeps = 3, .accelerate = 0};
    ENSURE(ipx_nsgs_solve(&s, pile.problem.v, shift, NULL, 0, &opt) == IPX_ERR_NOT_CONVERGED);
    ipx_nsgs_residual(&s, pile.problem.v, shift, NULL, &c);
    memcpy(pi_before, s.pi, sizeof pi_before);
    return ws;
}

/* Each contact's violation at s's iterate into s.block.viol; returns the largest. */
static double violations(void)
{
    ipx_nsgs_violations(&s, pile.problem.v, shift, s.block.viol, NULL);
    double worst = 0.0;
    for (int i = 0; i < s.k; i++) worst = fmax(worst, s.block.viol[i]);
    return worst;
}

/* One block at s's iterate around the contacts violating beyond threshold (m/s). */
static int block_solve(double threshold)
{
    violations();
    return ipx_nsgs_block_solve(&s.block, &s.W, &pile.problem, ND, shift, threshold, s.pi, s.vp,
                                &s.pivots);
}

/* Three uncoupled contacts (W = I, 1/kg), each violating one way, in closed form: approaching
   at 1 m/s with no impulse (1 m/s); pushed by 0.5 N s and leaving at 3 m/s (min(z W_nn, w) is
   0.5 m/s, but its work z w = 1.5 J over Z = 1 N s is 1.5 m/s); pressed by 1 N s at rest but
   sliding at 0.2 m/s with no friction though mu = 0.5 (the cone row: min(gamma, slack W_tt)). */
static void test_violations_in_closed_form(void)
{
    enum { N = 3 };
    static double W[9 * N * N];
    for (int r = 0; r < 3 * N; r++) W[r + 3 * N * r] = 1.0;
    const double v[3 * N] = {0.0, 0.0, -1.0, 0.0, 0.0, 2.5, 0.2, 0.0, -1.0};
    const double pi[3 * N] = {0.0, 0.0, 0.0, 0.0, 0.0, 0.5, 0.0, 0.0, 1.0};
    const ipx_contact contact[N] = {{.mu = 0.0}, {.mu = 0.0}, {.mu = 0.5}};
    const ipx_problem p = {.k = N, .W = W, .v = v, .contact = contact};
    ipx_workspace *ws = ipx_workspace_create_bytes(ipx_nsgs_bytes(N, ND, 0));
    ipx_nsgs t;
    ENSURE(ws && ipx_nsgs_init(&t, &p, ND, ws) == IPX_OK);
    memcpy(t.pi, pi, sizeof pi);
    ipx_wblocks_apply(&t.W, v, t.pi, t.vp);
    double viol[N];
    ipx_nsgs_scales sc;
    ipx_nsgs_violations(&t, v, NULL, viol, &sc);
    const double expect[N] = {1.0, 1.5, 0.2};
    for (int i = 0; i < N; i++) ENSURE_NEAR(viol[i], expect[i], 1e-15);
    ENSURE(sc.row_velocity == 1.0 && sc.impulse == 1.0 && sc.pair_work == 1.5);
    ipx_workspace_destroy(ws);
}

/* The largest contact's violation is what the residual's scales say of the whole */
static void test_violations_are_the_residuals_measure(void)
{
    ipx_workspace *ws = unsettled();
    const double expect = fmax(c.row_velocity, c.pair_work / c.impulse);
    ENSURE(expect > 0.0);
    ENSURE(fabs(violations() - expect) <= 1e-12 * expect);
    ipx_workspace_destroy(ws);
}

static void members_meet_their_conditions(void)
{
    ipx_workspace *ws = unsettled();
    const double before = violations();
    ENSURE(block_solve(0.0) == 1);
    violations();
    int members = 0, moved = 0;
    for (int i = 0; i < K; i++) {
        const int changed = memcmp(s.pi + 3 * i, pi_before + 3 * i, 3 * sizeof(double)) != 0;
        moved += changed;
        /* a member is exact to round-off of its block's velocities; the others kept their
           impulses (and may now violate more) */
        if (s.block.viol[i] <= 1e-12 * c.velocity) members++;
    }
    ENSURE(moved > 0 && moved <= s.block.most);
    ENSURE(members >= s.block.most); /* every member, and any outsider that was already met */
    /* vp kept equal to v + W pi */
    double vp[3 * K];
    ipx_wblocks_apply(&s.W, pile.problem.v, s.pi, vp);
    for (int r = 0; r < 3 * K; r++) ENSURE(fabs(vp[r] - s.vp[r]) <= 1e-12 * c.velocity);
    ENSURE(before > 1e-3 * c.velocity);
    ipx_workspace_destroy(ws);
}

static void test_a_blocks_members_meet_their_conditions(void)
{
    shift = NULL;
    members_meet_their_conditions();
}

/* With Newton targets on the normal rows (v_n+ >= -e v_n-, e 0.5, where a contact approaches),
   which the block's LCP must carry as the sweeps' does */
static void test_a_blocks_members_meet_newton_targets(void)
{
    static double targets[K];
    for (int i = 0; i < K; i++)
        targets[i] = fmin(0.0, 0.5 * pile.problem.v[3 * i + IPX_N]); /* -e x approach */
    shift = targets;
    members_meet_their_conditions();
    shift = NULL;
}

static void test_nothing_violating_is_left_alone(void)
{
    ipx_workspace *ws = unsettled();
    ENSURE(block_solve(2.0 * violations()) == 0);
    ENSURE(memcmp(pi_before, s.pi, sizeof pi_before) == 0);
    ipx_workspace_destroy(ws);
}

int main(void)
{
    ipx_rng rng;
    ipx_rng_seed(&rng, 5);
    ipx_pile_options o = ipx_pile_default_options(IPX_PILE_STACK);
    o.motion = IPX_PILE_CHURNING;
    ENSURE(ipx_pile_make(&pile, K, &o, &rng) == 0);
    RUN(test_violations_in_closed_form);
    RUN(test_violations_are_the_residuals_measure);
    RUN(test_a_blocks_members_meet_their_conditions);
    RUN(test_a_blocks_members_meet_newton_targets);
    RUN(test_nothing_violating_is_left_alone);
    ipx_pile_free(&pile);
    return ipx_test_exit();
}
