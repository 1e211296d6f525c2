/* PLUS and the host's accuracy (ipx_problem.v_tol; docs/models/plus.md §5.1): a contact
   approaching no faster than max(eps_v, v_tol) observes, and the impact ends when every contact
   does. Checked against closed forms (two particles on the ground, one striking, one resting
   within the host's accuracy), against the unchanged rule where v_tol is below eps_v (bit for
   bit), and on a bin of boxes: every promise kept (the checker takes v_tol into the velocity
   conditions only), nothing left approaching faster than v_tol on velocities recomputed from
   the impulses. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ensure.h"
#include "model_test.h"
#include "pile_gen.h"
#include "problem_gen.h"

/* m/s: |g| h of a 1 ms step, the ODE adapter's default v_tol (accuracy_steps 1) there */
static const double V_HOST = 9.81e-3;

static ipx_status solve(const ipx_params *par, const ipx_problem *p, ipx_result *r)
{
    ipx_workspace *ws = ipx_test_workspace(par, p->k); /* kept: r's arrays live there */
    ENSURE(ws != NULL);
    return ws ? ipx_solve(par, p, ws, r) : IPX_ERR_WORKSPACE;
}

/* Two particles of 1 kg and 2 kg on the ground, one contact each (W = diag(1/m)): the first
   strikes at 2 m/s, the second approaches at 3 mm/s, below V_HOST. e = 0.5 above a capture
   speed of 0, mu 0.3, no slip. */
typedef struct {
    double W[36], v[6];
    ipx_contact c[2];
    ipx_problem p;
} particles;

static void particles_make(particles *s)
{
    memset(s, 0, sizeof *s);
    const double inv_mass[2] = {1.0, 0.5}, approach[2] = {2.0, 0.003};
    for (int k = 0; k < 2; k++) {
        for (int a = 0; a < 3; a++) s->W[(3 * k + a) * 7] = inv_mass[k];
        s->v[3 * k + IPX_N] = -approach[k];
        s->c[k] = (ipx_contact){.mu = 0.3, .e = 0.5, .v_capture = 0.0, .v_plastic = 0.0};
    }
    s->p = (ipx_problem){.k = 2, .W = s->W, .v = s->v, .contact = s->c};
}

static void test_resting_particle_observes_within_the_host_accuracy(void)
{
    /* Poisson with e = 0.5: pi_n = (1 + e) |v_n| m; a contact within v_tol takes none and keeps
       its approach, the striking one's answer is the same whatever v_tol */
    particles s;
    particles_make(&s);
    const ipx_params par = ipx_test_params("plus", "");
    static const double v_tol[3] = {0.0, 0.002, V_HOST};
    for (int t = 0; t < 3; t++) {
        s.p.v_tol = v_tol[t];
        ipx_result r;
        ENSURE(solve(&par, &s.p, &r) == IPX_OK);
        ENSURE(ipx_test_keeps_promises(&par, &s.p, &r));
        ENSURE_NEAR(r.impulse[IPX_N], 1.5 * 2.0 * 1.0, 1e-12);
        ENSURE_NEAR(r.v_post[IPX_N], 1.0, 1e-12);
        const int resting_observes = v_tol[t] > 0.003;
        ENSURE_NEAR(r.impulse[3 + IPX_N], resting_observes ? 0.0 : 1.5 * 0.003 * 2.0, 1e-15);
        ENSURE_NEAR(r.v_post[3 + IPX_N], resting_observes ? -0.003 : 0.0015, 1e-15);
        for (int a = IPX_T1; a <= IPX_T2; a++)
            ENSURE(r.impulse[a] == 0.0 && r.impulse[3 + a] == 0.0);
    }
}

static void test_v_tol_below_eps_v_changes_nothing(void)
{
    /* max(eps_v, v_tol): a host accuracy finer than eps_v (1e-5 m/s) leaves the rule as it was,
       bit for bit, on random problems of 1-12 contacts */
    static ipx_scene s; /* large: static storage */
    ipx_rng rng;
    ipx_rng_seed(&rng, 11);
    ipx_gen_options o = ipx_gen_default_options();
    const ipx_params par = ipx_test_params("plus", "");
    ipx_result *a = malloc(sizeof *a), *b = malloc(sizeof *b);
    ENSURE(a != NULL && b != NULL);
    for (int t = 0; t < 40; t++) {
        ipx_gen_random(&s, 1 + t % 12, &o, &rng);
        ipx_problem p = s.problem;
        ENSURE(solve(&par, &p, a) == IPX_OK);
        p.v_tol = 0.9e-5;
        ENSURE(solve(&par, &p, b) == IPX_OK);
        ENSURE(memcmp(a->impulse, b->impulse, sizeof(double) * 3 * (size_t)p.k) == 0);
        ENSURE(a->counts.lsq_solves == b->counts.lsq_solves);
    }
    free(a);
    free(b);
}

/* The largest approach speed (m/s) of v + W pi, recomputed here on the dense W. */
static double largest_approach(const ipx_problem *p, const double *pi)
{
    const int n = 3 * p->k;
    double worst = 0.0;
    for (int c = 0; c < p->k; c++) {
        const int i = 3 * c + IPX_N;
        double vn = p->v[i];
        for (int j = 0; j < n; j++) vn += p->W[i + (size_t)n * (size_t)j] * pi[j];
        worst = fmax(worst, -vn);
    }
    return worst;
}

static void test_bin_to_the_host_accuracy(void)
{
    /* a settled bin with boxes striking its top (tests/support/pile_gen.h): to the host's
       accuracy every promise holds and no contact approaches faster than v_tol (the solves are
       printed: whether one problem takes fewer depends on the path it takes) */
    const ipx_params par = ipx_test_params("plus", "");
    ipx_result *r = malloc(sizeof *r);
    ENSURE(r != NULL);
    for (int seed = 1; seed <= 3; seed++) {
        ipx_rng rng;
        ipx_rng_seed(&rng, (uint64_t)seed);
        ipx_pile_options o = ipx_pile_default_options(IPX_PILE_BIN);
        ipx_pile pile;
        ENSURE(ipx_pile_make(&pile, 48, &o, &rng) == 0);
        for (int host = 0; host < 2; host++) {
            ipx_problem p = pile.problem;
            p.v_tol = host ? V_HOST : 0.0;
            ENSURE(solve(&par, &p, r) == IPX_OK);
            ENSURE(ipx_test_keeps_promises(&par, &p, r));
            ENSURE(r->delta_ke <= 0.0);
            const double eps_v = 1e-5; /* m/s, plus's default */
            ENSURE(largest_approach(&p, r->impulse) <= fmax(eps_v, p.v_tol) * (1.0 + 1e-9));
            printf("  seed %d, v_tol %g m/s: %d rounds, %d solves, limits_hit 0x%x\n", seed,
                   p.v_tol, r->counts.rounds, r->counts.lsq_solves, r->counts.limits_hit);
        }
        ipx_pile_free(&pile);
    }
    free(r);
}

int main(void)
{
    RUN(test_resting_particle_observes_within_the_host_accuracy);
    RUN(test_v_tol_below_eps_v_changes_nothing);
    RUN(test_bin_to_the_host_accuracy);
    return ipx_test_exit();
}
