/* PLUS on stacks and chains (issue [scale]): vertical stacks of spheres on the ground, struck
   from above or dropped, frictional, with slip and spin, and free chains struck at one end
   (tests/support/stack_scenes.h). With the energy cap off, so that no safety net hides the
   model's own answer, every impact ends within its round bound with limits_hit clear, gains no
   energy, leaves no contact approaching and passes the invariant checker (IPX_CHECK_ALL but
   complementarity, with the safety-net check). The rounds reach the limit of the paper's
   ping-pong (deviations 10-11 of impax/plus.h), leave elastic stacks and Table 2 alone, and the
   cost bound (deviation 12) ends an impact with the plastic finish. Box towers, where the
   active set and the impending-slip search of Algorithm 1 are the hard part, are checked for
   termination and the model's promises. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ensure.h"
#include "impax/plus.h"
#include "model_test.h"
#include "paper_scenes.h"
#include "stack_scenes.h"
#include "../unit/plus_bin_data.h"

static ipx_scene scene, other; /* large: static storage */

static ipx_params plus(const char *text) { return ipx_test_params("plus", text); }

static int round_bound(int k) { return 100 + 4 * k; } /* max_rounds = 0 */

/* Everything the checker knows but velocity complementarity (Poisson restitution gives impulse
   to contacts that end separating), the safety net included; non-penetration to eps_v. */
static int clean(const ipx_params *par, const ipx_problem *p, const ipx_result *r)
{
    return ipx_test_check_kinds(p, r, IPX_CHECK_ALL & ~(unsigned)IPX_CHECK_COMPLEMENTARITY,
                                par->value[IPX_PLUS_EPS_V]);
}

static ipx_status solve(const ipx_params *par, const ipx_problem *p, ipx_result *r)
{
    ipx_workspace *ws = ipx_test_workspace(par, p->k); /* kept: r's arrays live there */
    return ipx_solve(par, p, ws, r);
}

typedef struct tally {
    int scenes, bad, worst_rounds, worst_solves;
} tally;

/* Solves the scene's problem with the cap off and checks the promises. */
static void check_stack(const char *what, const ipx_stack_options *o, int seed, tally *t)
{
    ipx_params par = plus("energy_cap=0");
    const ipx_problem *p = &scene.problem;
    ipx_result r;
    ipx_status st = solve(&par, p, &r);
    int ok = st == IPX_OK && r.counts.limits_hit == 0 && r.counts.rounds <= round_bound(p->k) &&
             clean(&par, p, &r);
    t->scenes++;
    t->bad += !ok;
    if (r.counts.rounds > t->worst_rounds) t->worst_rounds = r.counts.rounds;
    if (r.counts.lsq_solves > t->worst_solves) t->worst_solves = r.counts.lsq_solves;
    if (!ok)
        fprintf(
            stderr,
            "  %s k = %d e %.1f mu %.1f %s seed %d: %s, %d rounds, limits 0x%x, dKE %.3g J %s\n",
            what, p->k, o->e, o->mu, o->struck ? "struck" : "dropped", seed, ipx_status_name(st),
            r.counts.rounds, r.counts.limits_hit, r.delta_ke, r.message);
}

static void test_sphere_stacks_end_within_their_round_bound(void)
{
    /* 2..32 spheres (and 64 for a few), e 0 / 0.5 / 1, mu 0 / 0.5 / 1, struck or dropped at
       1 m/s with 0.3 m/s slip and spin; equal masses, and one draw of random masses, frames,
       slip directions and spin axes. Before the issue: 431 of 720 such scenes hit a limit (the
       100-round cap and its inelastic fallback). */
    static const double es[] = {0.0, 0.5, 1.0}, mus[] = {0.0, 0.5, 1.0};
    tally t = {0};
    for (int n = 2; n <= 64; n *= 2)
        for (int ie = 0; ie < 3; ie++)
            for (int im = 0; im < 3; im++)
                for (int struck = 0; struck <= 1; struck++)
                    for (int seed = 0; seed <= 1; seed++) {
                        if (n == 64 && (im != 1 || seed)) continue; /* k = 64: the costly end */
                        ipx_stack_options o = ipx_stack_default_options();
                        o.e = es[ie], o.mu = mus[im], o.struck = struck;
                        ipx_rng rng;
                        ipx_rng_seed(&rng, (uint64_t)(1000 * n + 100 * ie + 10 * im + struck));
                        ipx_scene_sphere_stack(&scene, n, &o, seed ? &rng : NULL);
                        check_stack("spheres", &o, seed, &t);
                    }
    printf("  %d sphere stacks: %d not clean; worst %d rounds, %d min-norm solves\n", t.scenes,
           t.bad, t.worst_rounds, t.worst_solves);
    ENSURE(t.bad == 0);
    ENSURE(t.scenes == 5 * 36 + 6);
}

static void test_chains_end_within_their_round_bound(void)
{
    /* free chains of 3..33 spheres struck at one end (the top sphere of a column without the
       ground): a wave travels the chain once; e 0 / 0.5 / 1, mu 0 / 0.5 / 1 */
    static const double es[] = {0.0, 0.5, 1.0}, mus[] = {0.0, 0.5, 1.0};
    tally t = {0};
    for (int n = 2; n <= 32; n *= 2)
        for (int ie = 0; ie < 3; ie++)
            for (int im = 0; im < 3; im++)
                for (int seed = 0; seed <= 1; seed++) {
                    ipx_stack_options o = ipx_stack_default_options();
                    o.e = es[ie], o.mu = mus[im], o.ground = 0;
                    ipx_rng rng;
                    ipx_rng_seed(&rng, (uint64_t)(77 * n + 10 * ie + im));
                    ipx_scene_sphere_stack(&scene, n + 1, &o, seed ? &rng : NULL);
                    check_stack("chain", &o, seed, &t);
                }
    /* and Newton's cradle (frictionless, v_capture 0) of 3..33 balls with e = 1 and 0.5 */
    for (int balls = 3; balls <= 33; balls = 2 * balls - 1)
        for (int ie = 1; ie <= 2; ie++) {
            ipx_stack_options o = ipx_stack_default_options();
            o.e = ie == 1 ? 1.0 : 0.5, o.mu = 0.0;
            ipx_scene_cradle(&scene, balls, 2.0, o.e);
            check_stack("cradle", &o, 0, &t);
        }
    printf("  %d chains: %d not clean; worst %d rounds, %d min-norm solves\n", t.scenes, t.bad,
           t.worst_rounds, t.worst_solves);
    ENSURE(t.bad == 0);
}

/* Largest difference of the post-impact contact velocities of two results, m/s. */
static double max_dv(const ipx_problem *p, const ipx_result *a, const ipx_result *b)
{
    double d = 0.0;
    for (int i = 0; i < IPX_ROWS_PER_CONTACT * p->k; i++)
        d = fmax(d, fabs(a->v_post[i] - b->v_post[i]));
    return d;
}

static void test_two_spheres_dropped_ping_pong_in_the_papers_rounds(void)
{
    /* The root of the issue, e = 0: the ground contact compresses (sphere 0 stops), then the
       contact between the spheres compresses alone (both at -0.5 m/s), pushing the ground
       contact back into approach, and so on: the velocities halve every two rounds, and the
       paper's rounds stop only at eps_v (1e-5 m/s): 34 rounds. Held closed (deviation 10),
       the ground contact compresses with the other one: 2 rounds, and the answer is the
       ping-pong's limit, to eps_v. */
    ipx_stack_options o = ipx_stack_default_options();
    o.e = 0.0, o.struck = 0;
    ipx_scene_sphere_stack(&scene, 2, &o, NULL);
    ipx_params paper = plus("energy_cap=0,hold_plastic=0,settle_rounds=0"),
               held = plus("energy_cap=0");
    ipx_result a, b;
    ENSURE(solve(&paper, &scene.problem, &a) == IPX_OK);
    ENSURE(solve(&held, &scene.problem, &b) == IPX_OK);
    ENSURE(a.counts.rounds == 34);
    ENSURE(b.counts.rounds == 2);
    ENSURE(max_dv(&scene.problem, &a, &b) <= 2e-5);
    ENSURE_NEAR(a.delta_ke, b.delta_ke, 1e-9);
    /* both spheres at rest: every normal velocity 0 */
    for (int k = 0; k < 2; k++) ENSURE_NEAR(b.v_post[IPX_ROWS_PER_CONTACT * k + IPX_N], 0.0, 1e-12);
}

static void test_rounds_reach_the_limit_of_the_papers_ping_pong(void)
{
    /* Sphere stacks with e = 0 and 0.5 and chains: the paper's rounds run to their end
       (max_rounds 1e6) take hundreds of rounds (16 spheres dropped); with deviations 10-11 at
       most 2k + 10. With e = 0 (deviation 10) the post-impact velocities agree to the paper's
       own stopping tolerance (eps_v = 1e-5 m/s at 1 m/s impacts); with e = 0.5 (deviation 11)
       to 1 % of the impact speed: where the paper's rounds would open a contact of a settled
       ping-pong late, it stays closed. How many rounds the paper's ping-pong takes depends on
       round-off: solving the interval's groups apart (deviation 13) instead of in one system
       moves an impulse of 1/64 N*s by round-off in round 6, and the longest run goes from
       1 947 rounds to 631 (16 spheres, e = 0.5; e = 0: 1 947 -> 458), the answers within the
       same tolerances; so the test asks for an order of magnitude more rounds than deviations
       10-11 take, not for a count. */
    ipx_params paper = plus("energy_cap=0,hold_plastic=0,settle_rounds=0,max_rounds=1000000");
    ipx_params now = plus("energy_cap=0");
    int worst_paper = 0, worst_now = 0;
    double worst_dv[2] = {0.0, 0.0};
    for (int n = 2; n <= 16; n *= 2)
        for (int e2 = 0; e2 <= 1; e2++)
            for (int kind = 0; kind < 3; kind++) {
                ipx_stack_options o = ipx_stack_default_options();
                o.e = 0.5 * e2, o.struck = kind != 1, o.ground = kind != 2;
                ipx_scene_sphere_stack(&scene, kind == 2 ? n + 1 : n, &o, NULL);
                ipx_result a, b;
                ENSURE(solve(&paper, &scene.problem, &a) == IPX_OK);
                ENSURE(solve(&now, &scene.problem, &b) == IPX_OK);
                ENSURE(b.counts.rounds <= 2 * scene.problem.k + 10);
                worst_paper = a.counts.rounds > worst_paper ? a.counts.rounds : worst_paper;
                worst_now = b.counts.rounds > worst_now ? b.counts.rounds : worst_now;
                worst_dv[e2] = fmax(worst_dv[e2], max_dv(&scene.problem, &a, &b));
            }
    printf("  paper's rounds up to %d, now up to %d; post-impact velocities within %.2g m/s "
           "(e = 0), %.2g m/s (e = 0.5)\n",
           worst_paper, worst_now, worst_dv[0], worst_dv[1]);
    ENSURE(worst_paper >= 10 * worst_now);
    ENSURE(worst_dv[0] <= 2e-5);
    ENSURE(worst_dv[1] <= 1e-2);
}

static void test_elastic_stacks_and_table2_are_unchanged(void)
{
    /* An elastic ping-pong dissipates nothing and a travelling wave changes its contacts:
       neither is settled, and no contact is plastic, so the rounds are the paper's exactly:
       sphere stacks with e = 1 (and v_capture 0), struck and dropped, frictionless and not,
       and Newton's cradle of Example 3 (Table 2: 5 rounds). */
    ipx_params paper = plus("energy_cap=0,hold_plastic=0,settle_rounds=0,max_rounds=1000000");
    ipx_params now = plus("energy_cap=0");
    for (int n = 2; n <= 32; n *= 2)
        for (int struck = 0; struck <= 1; struck++)
            for (int im = 0; im <= 1; im++) {
                ipx_stack_options o = ipx_stack_default_options();
                o.e = 1.0, o.v_capture = 0.0, o.struck = struck, o.mu = 0.5 * im;
                ipx_scene_sphere_stack(&scene, n, &o, NULL);
                ipx_result a, b;
                ENSURE(solve(&paper, &scene.problem, &a) == IPX_OK);
                ENSURE(solve(&now, &scene.problem, &b) == IPX_OK);
                ENSURE(a.counts.rounds == b.counts.rounds);
                ENSURE(max_dv(&scene.problem, &a, &b) == 0.0);
            }
    ipx_scene_cradle(&scene, 5, 2.0, 1.0);
    ipx_result r;
    ENSURE(solve(&now, &scene.problem, &r) == IPX_OK);
    ENSURE(r.counts.rounds == 5 && r.counts.limits_hit == 0);
    ENSURE_NEAR(r.delta_ke, 0.0, 1e-12);
}

/* The last interval an observer sees: whether it was the plastic finish, its passes, and
   whether every contact's group was -1 there (one LCP, no groups). */
typedef struct last_interval {
    int fallback, passes, all_ungrouped;
} last_interval;

static void see_last(const ipx_plus_interval *iv, void *user)
{
    last_interval *l = user;
    l->fallback = iv->fallback;
    l->passes = iv->passes;
    l->all_ungrouped = 1;
    for (int k = 0; k < iv->k; k++) l->all_ungrouped &= iv->group[k] == -1;
}

/* The cost-bound promises: the bit, at most max_solves solves, one LCP, nothing approaching,
   no energy gained, the checker clean but for the bit; the finish reported to the observer. */
static void check_bounded(const char *params, int max_solves)
{
    ipx_params par = plus(params);
    const ipx_problem *p = &scene.problem;
    ipx_result r;
    ENSURE(solve(&par, p, &r) == IPX_OK);
    ENSURE(r.counts.limits_hit & IPX_PLUS_HIT_MAX_SOLVES);
    ENSURE(r.counts.lsq_solves <= max_solves);
    ENSURE(r.counts.lcp_solves == 1);
    ENSURE(r.delta_ke <= 0.0);
    ENSURE(clean(&par, p, &r));
    for (int k = 0; k < p->k; k++) ENSURE(r.v_post[IPX_ROWS_PER_CONTACT * k + IPX_N] >= -1e-12);
    last_interval last = {0, -1, 0};
    ENSURE(ipx_plus_trace(p, par.value, ipx_test_workspace(&par, p->k), see_last, &last, &r) ==
           IPX_OK);
    ENSURE(last.fallback == 2 && last.passes == 0 && last.all_ungrouped); /* the finish, reported */
}

static void test_cost_bound_ends_with_the_plastic_finish(void)
{
    /* Deviation 12: a stack of 32 spheres struck with e = 0.5 stopped after 10 solves (in its
       tenth round); Example 1's brick vertex at theta_max 0.01 (116 intervals) stopped after
       20, in its compression phase; the cradle after 3 solves. The plastic finish (Lemke on
       the normal rows) leaves nothing approaching and dissipates. */
    ipx_stack_options o = ipx_stack_default_options();
    ipx_scene_sphere_stack(&scene, 32, &o, NULL);
    check_bounded("energy_cap=0,max_solves=10", 10);
    ipx_scene_cradle(&scene, 5, 2.0, 1.0);
    check_bounded("energy_cap=0,max_solves=3", 3);
    o.e = 0.0, o.struck = 0;
    ipx_scene_box_tower(&scene, 4, 4, &o, NULL);
    check_bounded("energy_cap=0,max_solves=5", 5);
    check_bounded("max_solves=5", 5); /* with the cap on: the partial round is capped first */
}

static void test_cost_bound_default_scales_with_k(void)
{
    /* max_solves = 0 means 2000 + 100 k; max_rounds = 0 means 100 + 4 k */
    ipx_params par = plus("");
    ENSURE(par.value[IPX_PLUS_MAX_SOLVES] == 0.0 && par.value[IPX_PLUS_MAX_ROUNDS] == 0.0);
    ENSURE(par.value[IPX_PLUS_SETTLE_ROUNDS] == 4.0 && par.value[IPX_PLUS_HOLD_PLASTIC] == 1.0);
    /* a stack of 64 struck elastic spheres needs 2k + 1 = 129 rounds: above the former cap of
       100, within 100 + 4k */
    ipx_stack_options o = ipx_stack_default_options();
    o.e = 1.0, o.v_capture = 0.0, o.mu = 0.0;
    ipx_scene_sphere_stack(&scene, 64, &o, NULL);
    ipx_params raw = plus("energy_cap=0");
    ipx_result r;
    ENSURE(solve(&raw, &scene.problem, &r) == IPX_OK);
    ENSURE(r.counts.rounds == 129 && r.counts.limits_hit == 0);
}

static void test_box_towers_terminate_and_keep_the_promises(void)
{
    /* Towers of 2 and 4 boxes on 4 corners each (k = 8, 16; redundant rows, friction, torsion
       from a spin about the vertical) and columns of 2..16 boxes on one corner each, e 0 /
       0.5 / 1, mu 0.5 / 1, struck or dropped, with the defaults (energy cap on): every impact
       ends without the round cap, nothing approaches, the promises hold. limits_hit may say
       that an impending contact had no direction (deviation 9) or that the cap or the cost
       bound acted: Algorithm 1's active set and impending-slip search, not the rounds, are
       the hard part of these (issue [scale], next step). */
    ipx_params par = plus("");
    int scenes = 0, bits[9] = {0};
    for (int corners = 1; corners <= 4; corners += 3)
        for (int n = 2; n <= (corners == 4 ? 4 : 16); n *= 2)
            for (int ie = 0; ie <= 2; ie++)
                for (int im = 1; im <= 2; im++)
                    for (int struck = 0; struck <= 1; struck++) {
                        ipx_stack_options o = ipx_stack_default_options();
                        o.e = 0.5 * ie, o.mu = 0.5 * im, o.struck = struck;
                        ipx_scene_box_tower(&scene, n, corners, &o, NULL);
                        ipx_result r;
                        ENSURE(solve(&par, &scene.problem, &r) == IPX_OK);
                        ENSURE(ipx_test_check_kinds(&scene.problem, &r,
                                                    par.model->promises(par.value),
                                                    par.value[IPX_PLUS_EPS_V]));
                        ENSURE(!(r.counts.limits_hit &
                                 (IPX_PLUS_HIT_MAX_ROUNDS | IPX_PLUS_HIT_STALLED)));
                        for (int b = 0; b < 9; b++) bits[b] += (r.counts.limits_hit >> b) & 1u;
                        scenes++;
                    }
    printf(
        "  %d box towers; limits hit: newton %d, energy cap %d, max_solves %d, frictionless %d\n",
        scenes, bits[3], bits[4], bits[8], bits[7]);
}

static void test_permuted_stack_gets_the_same_impulses(void)
{
    /* the rounds, holds and settling do not depend on the contacts' order */
    ipx_stack_options o = ipx_stack_default_options();
    o.struck = 0;
    ipx_rng rng;
    ipx_rng_seed(&rng, 5);
    ipx_scene_sphere_stack(&scene, 12, &o, &rng);
    const int k = scene.problem.k;
    other = scene;
    for (int i = 0; i < k; i++) {
        other.frames[i] = scene.frames[k - 1 - i];
        other.contact[i] = scene.contact[k - 1 - i];
    }
    ipx_scene_finish(&other, k);
    ipx_params par = plus("energy_cap=0");
    ipx_result a, b;
    ENSURE(solve(&par, &scene.problem, &a) == IPX_OK);
    ENSURE(solve(&par, &other.problem, &b) == IPX_OK);
    ENSURE(a.counts.rounds == b.counts.rounds);
    double d = 0.0, s = 0.0;
    for (int i = 0; i < k; i++)
        for (int r = 0; r < 3; r++) {
            d = fmax(d, fabs(a.impulse[3 * i + r] - b.impulse[3 * (k - 1 - i) + r]));
            s = fmax(s, fabs(a.impulse[3 * i + r]));
        }
    ENSURE(d <= 1e-9 * s);
}

/* The first interval as an observer sees it: passes, groups and the interval impulse pi. */
typedef struct first_interval {
    int seen, passes, group[64];
    double pi[192];
} first_interval;

static void see_first(const ipx_plus_interval *iv, void *user)
{
    first_interval *f = user;
    if (f->seen++) return;
    f->passes = iv->passes;
    for (int k = 0; k < iv->k; k++) f->group[k] = iv->group[k];
    for (int i = 0; i < 3 * iv->k; i++) f->pi[i] = iv->step[i] / iv->alpha;
}

static void trace_first(const ipx_problem *p, first_interval *f)
{
    ipx_params par = plus("energy_cap=0");
    ipx_result r;
    memset(f, 0, sizeof *f);
    ENSURE(ipx_plus_trace(p, par.value, ipx_test_workspace(&par, p->k), see_first, f, &r) ==
           IPX_OK);
    ENSURE(f->seen > 0);
}

static void test_uncoupled_groups_are_solved_apart(void)
{
    /* Deviation 13: two impacts captured in a bin (plus_bin_data.h: 8 and 9 contacts, corners
       of boxes on boxes) put into one problem, W block-diagonal: no body shared. In the first
       interval every contact is solved in a group of its own impact, each impact's interval
       impulse is the one it has alone, and the passes are the two impacts' own, added: one
       impact's active set is not repeated while the other's runs (a dropped normal in one used
       to send the other's impending contacts back to rolling). */
    static double W[51 * 51], v[51];
    static ipx_contact contact[17];
    static first_interval part[2], joined;
    const ipx_problem parts[2] = {{.k = 8,
                                   .W = bin_358_W,
                                   .v = bin_358_v,
                                   .contact = bin_contact,
                                   .flags = IPX_PROBLEM_W_ASSEMBLED},
                                  {.k = 9,
                                   .W = bin_968_W,
                                   .v = bin_968_v,
                                   .contact = bin_contact,
                                   .flags = IPX_PROBLEM_W_ASSEMBLED}};
    const int k = 17, N = 3 * k;
    for (int t = 0, at = 0; t < 2; at += parts[t].k, t++) {
        const ipx_problem *p = &parts[t];
        const int n = 3 * p->k;
        trace_first(p, &part[t]);
        for (int a = 0; a < n; a++) {
            v[3 * at + a] = p->v[a];
            for (int b = 0; b < n; b++)
                W[(3 * at + a) + (size_t)N * (3 * at + b)] = p->W[a + (size_t)n * b];
        }
        for (int c = 0; c < p->k; c++) contact[at + c] = p->contact[c];
    }
    const ipx_problem both = {
        .k = k, .W = W, .v = v, .contact = contact, .flags = IPX_PROBLEM_W_ASSEMBLED};
    trace_first(&both, &joined);
    printf("  two bin impacts: first interval %d + %d passes alone, %d together\n", part[0].passes,
           part[1].passes, joined.passes);
    ENSURE(part[0].passes > 1 && part[1].passes > 1); /* active sets with prunes */
    ENSURE(joined.passes == part[0].passes + part[1].passes);
    for (int t = 0, at = 0; t < 2; at += parts[t].k, t++) {
        double d = 0.0, size = 0.0;
        for (int c = 0; c < parts[t].k; c++) {
            ENSURE((part[t].group[c] < 0) == (joined.group[at + c] < 0));
            for (int e = 0; e < k; e++) /* a group never holds contacts of both impacts */
                if (joined.group[at + c] >= 0 && joined.group[e] == joined.group[at + c])
                    ENSURE(e >= at && e < at + parts[t].k);
            for (int r = 0; r < 3; r++) {
                d = fmax(d, fabs(joined.pi[3 * (at + c) + r] - part[t].pi[3 * c + r]));
                size = fmax(size, fabs(part[t].pi[3 * c + r]));
            }
        }
        ENSURE(d <= 1e-9 * size);
    }
}

int main(void)
{
    RUN(test_two_spheres_dropped_ping_pong_in_the_papers_rounds);
    RUN(test_sphere_stacks_end_within_their_round_bound);
    RUN(test_chains_end_within_their_round_bound);
    RUN(test_rounds_reach_the_limit_of_the_papers_ping_pong);
    RUN(test_elastic_stacks_and_table2_are_unchanged);
    RUN(test_cost_bound_ends_with_the_plastic_finish);
    RUN(test_cost_bound_default_scales_with_k);
    RUN(test_box_towers_terminate_and_keep_the_promises);
    RUN(test_permuted_stack_gets_the_same_impulses);
    RUN(test_uncoupled_groups_are_solved_apart);
    return ipx_test_exit();
}
