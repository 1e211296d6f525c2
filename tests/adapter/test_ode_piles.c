/* Small members of the family of piles of issue [piles] (tests/support/ode_pile_scene.h, the
   draw bench_piles runs; here seeds 1-12 with 6-24 bodies, dWorldStep scenes 12 at most, for
   0.5 s): plain ODE programs through the adapter under each impulse model, every impact event
   judged on what the adapter reports of it. On every event handed back: no energy gain (the
   island's kinetic energy, and ipx_check's recomputation from the impulses), no contact left
   approaching beyond the problem's v_tol, the host's accuracy of docs/core-api.md "Solve
   accuracy" (plus: its eps_v or v_tol, whichever is larger, docs/models/plus.md §5.1), impulses in the
   friction cone and not pulling (ipx_check), joints consistent (the adapter's largest joint residual). The ipx_check
   kinds judged are those the model promises at its parameters (ipx_model.promises, the table of
   docs/models/README.md "Which model for what"); PLUS runs with energy_cap=0, as the cap would
   hide a gain, and is judged on energy too (the paper's impact dissipates). Fallbacks (islands
   left to ODE) are counted and printed, not judged here: jia handles one contact by design, and
   the others' are the open target (bench/bench_piles.c). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ode/ode.h>

#include "ensure.h"
#include "impax/check.h"
#include "impax/problem.h"
#include "impax/registry.h"
#include "impax/ode.h"
#include "ode_pile_scene.h"

#define SECONDS 0.5 /* s simulated per scene */
#define SEEDS 12    /* seeds 1..SEEDS */

typedef struct watch {
    unsigned kinds; /* ipx_check kinds judged: energy, cone, unilateral */
    double tol_v;   /* m/s: how far a contact may still approach after the impact */
    int host_tol;   /* 1: the model reads the problem's v_tol (all but jia and gonthier): + tol_v */
    long events, solved, fallbacks, limited, energy_checked;
    long gains;            /* events whose island gained more than 1e-9 (1 + ke_before) J */
    double worst_gain;     /* J, largest ke_after - ke_before of an event checked */
    long approaching;      /* events that left a contact approaching faster than tol_v */
    double worst_approach; /* m/s, most negative vn_after (+ v_tol where host_tol) */
    int violations;        /* ipx_check's, over all events */
    char first[256];       /* the first violation, for the message */
} watch;

/* ipx_check on the impulses the adapter reports: v_post recomputed as v + W pi. */
static void check_event(const ipx_ode_event *ev, watch *w)
{
    const ipx_problem *p = ev->problem;
    const size_t n = 3 * (size_t)p->k;
    double *W = malloc(sizeof *W * n * n), *v_post = malloc(sizeof *v_post * n);
    ENSURE(W && v_post);
    ipx_problem_dense_W(p, W);
    for (size_t i = 0; i < n; i++) {
        v_post[i] = p->v[i];
        for (size_t j = 0; j < n; j++) v_post[i] += W[i + n * j] * ev->impulse[j];
    }
    ipx_result r;
    memset(&r, 0, sizeof r);
    r.k = p->k;
    r.n_rows = (int)n;
    r.impulse = (double *)ev->impulse;
    r.v_post = v_post;
    ipx_check_options opt = ipx_check_default_options();
    opt.kinds = w->kinds;
    ipx_check_report report;
    const int found = ipx_check(p, &r, &opt, &report);
    ENSURE(found >= 0);
    if (found > 0 && w->violations == 0) {
        char text[200];
        ipx_check_format(&report, text, sizeof text);
        snprintf(w->first, sizeof w->first, "step %ld, k %d: %s", ev->step, p->k, text);
    }
    w->violations += found;
    free(W);
    free(v_post);
}

static void on_event(const ipx_ode_event *ev, void *user)
{
    watch *w = user;
    w->events++;
    if (!ev->ok) {
        w->fallbacks++;
        return;
    }
    w->solved++;
    w->limited += ev->counts.limits_hit != 0;
    if (w->kinds & IPX_CHECK_ENERGY) {
        const double gain = ev->ke_after - ev->ke_before;
        w->energy_checked++;
        w->worst_gain = fmax(w->worst_gain, gain);
        w->gains += gain > 1e-9 * (1.0 + ev->ke_before);
    }
    const double allowed = w->host_tol ? ev->problem->v_tol : 0.0; /* m/s */
    double slowest = 0.0;
    for (int c = 0; c < ev->k; c++) slowest = fmin(slowest, ev->vn_after[c] + allowed);
    w->worst_approach = fmin(w->worst_approach, slowest);
    w->approaching += slowest < -w->tol_v;
    check_event(ev, w);
}

static void run(const char *model, const char *params, double tol_v, unsigned also)
{
    pile_draw_range range = {6, 24, 12};
    long fallbacks = 0, events = 0, energy_checked = 0;
    ipx_params params_of;
    char text[IPX_MESSAGE_SIZE];
    ENSURE(ipx_params_init(&params_of, model, text, sizeof text) == IPX_OK &&
           ipx_params_parse(&params_of, params, text, sizeof text) == IPX_OK);
    const unsigned kinds = (params_of.model->promises(params_of.value) | also) &
                           (IPX_CHECK_ENERGY | IPX_CHECK_CONE | IPX_CHECK_UNILATERAL);
    for (int seed = 1; seed <= SEEDS; seed++) {
        pile_spec spec;
        pile_draw((uint64_t)seed, &range, SECONDS, &spec);
        char line[512], msg[256];
        pile_format(&spec, line, sizeof line);
        pile_world w;
        ENSURE(pile_world_make(&w, &spec, model, params, msg, sizeof msg) == 0);
        const int host_tol = strcmp(model, "aplcp") == 0 || strcmp(model, "routh") == 0 ||
                             strcmp(model, "bowling") == 0 || strcmp(model, "plus") == 0;
        watch at = {kinds, tol_v, host_tol, 0, 0, 0, 0, 0, 0, -INFINITY, 0, 0.0, 0, ""};
        ipx_ode_set_event_callback(w.ipx, on_event, &at);
        while (w.step < w.steps) pile_world_step(&w);
        const ipx_ode_stats st = ipx_ode_get_stats(w.ipx);
        printf("  %-8s %s\n           %ld events, %ld solved (%ld at a limit), %ld left to ODE; "
               "energy checked on %ld, largest change %.2e J, %ld gains; worst v_n+ %.2e m/s "
               "(tolerance %.0e), %ld approaching; joint residual %.1e; %d check violations\n",
               model, line, at.events, at.solved, at.limited, at.fallbacks, at.energy_checked,
               at.worst_gain, at.gains, at.worst_approach, -at.tol_v, at.approaching,
               st.max_joint_residual, at.violations);
        if (at.fallbacks) printf("           last left to ODE: %s\n", st.last_message);
        if (at.violations) printf("           first violation: %s\n", at.first);
        ENSURE(at.gains == 0);
        ENSURE(at.approaching == 0);
        ENSURE(st.max_joint_residual <= 1e-9);
        ENSURE(at.violations == 0);
        fallbacks += at.fallbacks;
        events += at.events;
        energy_checked += at.energy_checked;
        pile_world_free(&w);
    }
    ENSURE(events > 0 && energy_checked > 0); /* the scenes make impacts */
    printf("  %-8s %ld events over seeds 1..%d, %ld left to ODE\n", model, events, SEEDS,
           fallbacks);
}

static void test_small_piles_keep_each_models_promises(void)
{
    run("plus", "energy_cap=0", 1e-5, IPX_CHECK_ENERGY); /* eps_v: docs/models/plus.md */
    run("aplcp", "", 1e-6, 0);
    run("routh", "", 1e-6, 0);
    run("bowling", "", 1e-6, 0);
    run("jia", "", 1e-6, 0);
}

/* What bench_piles reads of a run besides its times: the contact points pile_world made (the
   adapter counts the same contacts as it captures them), and the bodies' kinetic energy, against
   1/2 m v.v + 1/2 w.I_world w with each body's mass turned into the world frame by ODE's own
   dMassRotate (pile_world_kinetic_energy turns w into the body frame instead). */
static void test_pile_world_counts_contacts_and_energy(void)
{
    const pile_draw_range range = {6, 24, 12};
    pile_spec spec;
    pile_draw(2, &range, SECONDS, &spec); /* boxes: an inertia that turns with the body */
    pile_world w;
    char msg[256];
    ENSURE(pile_world_make(&w, &spec, "aplcp", NULL, msg, sizeof msg) == 0);
    while (w.step < w.steps) pile_world_step(&w);
    const ipx_ode_stats st = ipx_ode_get_stats(w.ipx);
    printf("  %ld contact points made, %ld captured; %d bodies released\n", w.contact_points,
           st.contacts_captured, w.released);
    ENSURE(w.contact_points > 0 && w.contact_points == st.contacts_captured);
    ENSURE(w.released > 0);
    double expected = 0.0; /* J */
    for (int b = 0; b < w.released; b++) {
        const dReal v[3] = {0.3 + 0.1 * b, -0.2, 0.5}, om[3] = {1.0, -2.0 + 0.2 * b, 0.7};
        dBodySetLinearVel(w.body[b], v[0], v[1], v[2]);
        dBodySetAngularVel(w.body[b], om[0], om[1], om[2]);
        dMass m;
        dBodyGetMass(w.body[b], &m);
        dMassRotate(&m, dBodyGetRotation(w.body[b])); /* I_world = R I R^T */
        double Iw = 0.0;
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++) Iw += om[i] * m.I[4 * i + j] * om[j];
        expected += 0.5 * m.mass * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]) + 0.5 * Iw;
    }
    const double ke = pile_world_kinetic_energy(&w);
    printf("  kinetic energy %.12g J, expected %.12g J\n", ke, expected);
    ENSURE(fabs(ke - expected) <= 1e-12 * expected);
    pile_world_free(&w);
}

int main(void)
{
    dInitODE2(0);
    ipx_ode_capture_messages(0);
    RUN(test_pile_world_counts_contacts_and_energy);
    RUN(test_small_piles_keep_each_models_promises);
    dCloseODE();
    return ipx_test_exit();
}
