/* Islands of more than 64 contacts (issue [scale]: the old fixed limit handed them back to ODE):
   a chain of hinged links striking the ground flat, through the adapter with every impact
   model. Every event must be solved (no fallback),
   the largest one must hold more than 64 contacts, and each must keep the model's promises on
   the whole island: no energy gain, no contact left approaching, joints consistent. routh (above
   its dense fallback's 48 contacts) and aplcp without that fallback get the islands' W as blocks (the hinges couple every
   link's contacts: the blocks of the joints' elimination), the other runs densely. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <ode/ode.h>

#include "ensure.h"
#include "impax/bowling.h"
#include "impax/registry.h"
#include "impax/ode.h"
#include "ode_kit.h"

#define LINKS 20 /* chain links */
#define SIDE 0.1 /* m, cube side */
#define H 1e-3   /* s, step */

typedef struct watch {
    ipx_params params;
    int events, solved, largest;
    int as_blocks;         /* events whose W came as blocks */
    double worst_gain;     /* J, largest ke_after - ke_before of a solved event */
    double worst_approach; /* m/s, most negative vn_after + the problem's v_tol */
    unsigned limits;       /* limits_hit of every solved event */
} watch;

static void on_event(const ipx_ode_event *ev, void *user)
{
    watch *w = user;
    w->events++;
    if (!ev->ok) {
        fprintf(stderr, "  event at step %ld (k = %d) left to ODE: %s\n", ev->step, ev->k,
                ev->status);
        return;
    }
    w->solved++;
    ENSURE(ev->problem->flags & IPX_PROBLEM_W_ASSEMBLED); /* validation skips the O(k^3) PSD test */
    /* blocks exactly where the model reads them */
    ENSURE(!ev->problem->W == !!ipx_model_reads_blocks(&w->params, ev->k));
    ENSURE(!ev->problem->Ws != !ev->problem->W); /* one way */
    w->as_blocks += ev->problem->Ws != NULL;
    if (ev->k > w->largest) w->largest = ev->k;
    w->worst_gain = fmax(w->worst_gain, ev->ke_after - ev->ke_before);
    w->limits |= ev->counts.limits_hit;
    /* the host's accuracy (docs/core-api.md "Solve accuracy"): approaches up to v_tol stay */
    for (int c = 0; c < ev->k; c++)
        w->worst_approach = fmin(w->worst_approach, ev->vn_after[c] + ev->problem->v_tol);
}

static dSurfaceParameters surface(void)
{
    dSurfaceParameters s;
    memset(&s, 0, sizeof s);
    s.mode = dContactBounce | dContactApprox1;
    s.mu = 0.5;
    s.bounce = 0.3;
    s.bounce_vel = 0.05;
    return s;
}

/* LINKS links (0.1 x 0.04 x 0.04 m, 0.2 kg) joined by hinges about y, lying flat 5 mm above the
   ground and falling at 1 m/s. */
static void build_chain(kit_sim *s, dBodyID *b)
{
    const double side[3] = {0.1, 0.04, 0.04}, axis[3] = {0, 0, 1};
    for (int i = 0; i < LINKS; i++) {
        const double p[3] = {0.1 * i, 0.0, 0.02 + 5e-3};
        b[i] = kit_box(s->world, 0.2, side, p, axis, 0.0);
        dGeomSetBody(dCreateBox(s->space, side[0], side[1], side[2]), b[i]);
        dBodySetLinearVel(b[i], 0, 0, -1.0);
        if (i == 0) continue;
        dJointID j = dJointCreateHinge(s->world, 0);
        dJointAttach(j, b[i - 1], b[i]);
        dJointSetHingeAnchor(j, 0.1 * i - 0.05, 0.0, 0.02 + 5e-3);
        dJointSetHingeAxis(j, 0, 1, 0);
    }
}

/* Runs the scene for steps steps (dWorldStep, or QuickStep if quick) under model and checks the
   events; tol_v (m/s): how far a contact may still approach after the impact, beyond the
   problem's v_tol; reports: the limits_hit bits that are information, not a limit reached. */
static void run(const char *model, const char *params, double tol_v, unsigned reports,
                void (*build)(kit_sim *, dBodyID *), int quick, int steps)
{
    kit_sim s;
    dSurfaceParameters surf = surface();
    ENSURE(kit_sim_make(&s, model, params, &surf, quick) == 0);
    dBodyID b[LINKS];
    build(&s, b);
    watch w = {0};
    char msg[IPX_MESSAGE_SIZE];
    ENSURE(ipx_params_init(&w.params, model, msg, sizeof msg) == IPX_OK &&
           ipx_params_parse(&w.params, params, msg, sizeof msg) == IPX_OK);
    ipx_ode_set_event_callback(s.ipx, on_event, &w);
    for (int i = 0; i < steps; i++) kit_sim_step(&s, H);
    const ipx_ode_stats st = ipx_ode_get_stats(s.ipx);
    printf("  %-8s %-14s %d events (%d with W as blocks), largest %d contacts, worst gain %.2e J, "
           "worst v_n+ %.2e m/s, joint residual %.1e, limits hit 0x%x\n",
           model, params, w.events, w.as_blocks, w.largest, w.worst_gain, w.worst_approach,
           st.max_joint_residual, w.limits);
    ENSURE((w.as_blocks > 0) == ipx_model_reads_blocks(&w.params, w.largest));
    ENSURE(w.events > 0 && w.solved == w.events && st.fallbacks == 0);
    ENSURE(w.largest > 64);
    ENSURE(w.worst_gain <= 1e-9);
    ENSURE(w.worst_approach >= -tol_v);
    ENSURE(st.max_joint_residual <= 1e-9);
    ENSURE((w.limits & ~reports) ==
           0); /* the model's own answer: no round, step or fallback limit */
    kit_sim_free(&s);
}

static const struct {
    const char *name, *params;
    double tol_v; /* m/s */
    unsigned reports;
} models[] = {
    /* the model's own answer, no safety net; a contact at v_n >= -eps_v (1e-5 m/s) observes */
    {"plus", "energy_cap=0", 1e-5, 0},
    {"aplcp", "", 1e-6, 0},
    {"routh", "", 1e-6, 0},
    {"aplcp", "lcp_fallback=0", 1e-6, 0},
    {"routh", "lcp_fallback=0", 1e-6, 0},
    /* coplanar corners of a link make the chosen set's system rank-deficient: the law is
       indeterminate there and the min-norm impulse is taken (a report, not a limit); the
       active-set search on the whole island (loop_max above it), seeded by the polygonal LCP
       that the iterative solver answers (a report too) */
    {"bowling", "loop_max=100", 1e-6, IPX_BOWLING_INDETERMINATE | IPX_BOWLING_ITERATIVE_LCP},
    /* by default an island above loop_max contacts takes the polygonal LCP's outcome, solved by
       the iterative solver: the law's own answer there (docs/models/bowling.md §8, item 11) */
    {"bowling", "", 1e-6, IPX_BOWLING_LCP_USED | IPX_BOWLING_ITERATIVE_LCP},
};

static void test_chain_of_twenty_links_strikes_flat(void)
{
    for (size_t m = 0; m < sizeof models / sizeof models[0]; m++)
        run(models[m].name, models[m].params, models[m].tol_v, models[m].reports, build_chain, 0,
            20);
}

int main(void)
{
    dInitODE2(0);
    RUN(test_chain_of_twenty_links_strikes_flat);
    dCloseODE();
    return ipx_test_exit();
}
