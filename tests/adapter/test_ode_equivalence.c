/* With e = 0, mu = 0, ERP = CFM = 0, no gravity and no gyroscopic term, ODE's own dWorldStep
   solves an impact exactly (every active row ends at zero velocity), so the AP-LCP model through
   the adapter must give the same post-step velocities (docs/ode-host.md §4.3). Checked on the
   hinge scene of section 4.3 and on random jointed chains with random contacts; every scene is
   built twice from the same seed, once stepped by ODE alone and once through impax. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>

#include "ensure.h"
#include "impax/ode.h"
#include "ode_kit.h"

#define MAX_BODIES 5

typedef struct scene {
    dWorldID world;
    dJointGroupID contacts;
    dBodyID body[MAX_BODIES];
    int n_body;
    int n_contact;
    ipx_ode_context *ipx; /* NULL: plain ODE */
    double max_impulse;   /* N s, the largest impulse entry impax handed back */
} scene;

static void record_impulse(const ipx_ode_event *ev, void *user)
{
    scene *s = user;
    for (int r = 0; ev->impulse && r < 3 * ev->k; r++)
        s->max_impulse = fmax(s->max_impulse, fabs(ev->impulse[r]));
}

/* A world for the scene: no gravity, ERP = CFM = 0; with impax, an AP-LCP context. */
static void scene_world(scene *s, int with_impax)
{
    s->world = dWorldCreate();
    dWorldSetGravity(s->world, 0, 0, 0);
    dWorldSetERP(s->world, 0.0);
    dWorldSetCFM(s->world, 0.0);
    s->contacts = dJointGroupCreate(0);
    s->ipx = NULL;
    s->max_impulse = 0.0;
    if (with_impax) {
        char msg[256];
        s->ipx = ipx_ode_create(s->world);
        ENSURE(ipx_ode_configure(s->ipx, "aplcp", NULL, msg, sizeof msg) == 0);
        ipx_ode_set_event_callback(s->ipx, record_impulse, s);
    }
}

static void add_contact(scene *s, const dContact *c, dBodyID b1, dBodyID b2)
{
    if (s->ipx) ENSURE(ipx_ode_contact(s->ipx, s->world, s->contacts, c, b1, b2) != 0);
    else dJointAttach(dJointCreateContact(s->world, s->contacts, c), b1, b2);
}

static void scene_step(scene *s, double h)
{
    if (s->ipx) ipx_ode_step(s->ipx, h);
    else dWorldStep(s->world, h);
}

/* Hinge scene: two boxes, hinge between them, box 0's lowest corner strikes the ground. */
static void hinge_scene(scene *s, int with_impax)
{
    scene_world(s, with_impax);
    const double side[3] = {0.4, 0.2, 0.1}, ax[3] = {0.2, 1.0, 0.1};
    const double p0[3] = {0.0, 0.0, 0.3}, p1[3] = {0.4, 0.0, 0.35};
    s->body[0] = kit_box(s->world, 1.0, side, p0, ax, 0.5);
    s->body[1] = kit_box(s->world, 2.0, side, p1, ax, 0.2);
    s->n_body = 2;
    dJointID h = dJointCreateHinge(s->world, 0);
    dJointAttach(h, s->body[0], s->body[1]);
    dJointSetHingeAnchor(h, 0.2, 0.0, 0.33);
    dJointSetHingeAxis(h, 0.0, 1.0, 0.0);
    for (int i = 0; i < 2; i++) dBodySetGyroscopicMode(s->body[i], 0);
    /* joint-consistent velocities: both bodies translate and turn together about the hinge */
    for (int i = 0; i < 2; i++) {
        dBodySetLinearVel(s->body[i], 0.3, 0.1, -1.0);
        dBodySetAngularVel(s->body[i], 0.0, 0.0, 0.0);
    }
    /* lowest corner of box 0 */
    double best[3] = {0, 0, 1e9};
    for (int c = 0; c < 8; c++) {
        dVector3 p;
        dBodyGetRelPointPos(s->body[0], (c & 1 ? 0.5 : -0.5) * side[0],
                            (c & 2 ? 0.5 : -0.5) * side[1], (c & 4 ? 0.5 : -0.5) * side[2], p);
        if (p[2] < best[2])
            for (int a = 0; a < 3; a++) best[a] = p[a];
    }
    const double up[3] = {0, 0, 1};
    dContact con = kit_contact(best, up, 0.0, 0.0, 0.0, 0.0);
    add_contact(s, &con, s->body[0], 0);
    s->n_contact = 1;
}

/* kinds: ball, hinge, slider, universal, piston, fixed (kinds < n_kinds) */
static dJointID random_joint(dWorldID w, unsigned long long *rng, dBodyID a, dBodyID b,
                             const dReal *at, int n_kinds)
{
    double axis[3] = {kit_uniform(rng, -1, 1), kit_uniform(rng, -1, 1), kit_uniform(rng, -1, 1)};
    double other[3] = {kit_uniform(rng, -1, 1), kit_uniform(rng, -1, 1), kit_uniform(rng, -1, 1)};
    /* other made perpendicular to axis (universal) */
    double d = (other[0] * axis[0] + other[1] * axis[1] + other[2] * axis[2]) /
               (axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]);
    for (int i = 0; i < 3; i++) other[i] -= d * axis[i];
    dJointID j;
    switch ((int)kit_uniform(rng, 0, n_kinds)) {
    case 0:
        j = dJointCreateBall(w, 0);
        dJointAttach(j, a, b);
        dJointSetBallAnchor(j, at[0], at[1], at[2]);
        break;
    case 1:
        j = dJointCreateHinge(w, 0);
        dJointAttach(j, a, b);
        dJointSetHingeAnchor(j, at[0], at[1], at[2]);
        dJointSetHingeAxis(j, axis[0], axis[1], axis[2]);
        break;
    case 2:
        j = dJointCreateSlider(w, 0);
        dJointAttach(j, a, b);
        dJointSetSliderAxis(j, axis[0], axis[1], axis[2]);
        break;
    case 3:
        j = dJointCreateUniversal(w, 0);
        dJointAttach(j, a, b);
        dJointSetUniversalAnchor(j, at[0], at[1], at[2]);
        dJointSetUniversalAxis1(j, axis[0], axis[1], axis[2]);
        dJointSetUniversalAxis2(j, other[0], other[1], other[2]);
        break;
    case 4:
        j = dJointCreatePiston(w, 0);
        dJointAttach(j, a, b);
        dJointSetPistonAnchor(j, at[0], at[1], at[2]);
        dJointSetPistonAxis(j, axis[0], axis[1], axis[2]);
        break;
    default:
        j = dJointCreateFixed(w, 0);
        dJointAttach(j, a, b);
        dJointSetFixed(j);
        break;
    }
    return j;
}

/* A random chain of 1..MAX_BODIES boxes (MAX_BODIES > 2 so that (i + 2) % n differs from i), possibly pinned to the world, with joint-consistent
   velocities (made so by one ODE step without contacts: with ERP = 0 ODE projects them), then
   1..3 approaching contacts, with the ground or between two bodies. */
static void random_scene(scene *s, unsigned long long seed, int with_impax)
{
    unsigned long long rng = seed;
    scene_world(s, with_impax);
    s->n_body = 1 + (int)kit_uniform(&rng, 0, MAX_BODIES);
    const double ax[3] = {kit_uniform(&rng, -1, 1), kit_uniform(&rng, -1, 1), 1.0};
    for (int i = 0; i < s->n_body; i++) {
        const double side[3] = {kit_uniform(&rng, 0.1, 0.5), kit_uniform(&rng, 0.1, 0.5),
                                kit_uniform(&rng, 0.1, 0.5)};
        const double p[3] = {0.4 * i, kit_uniform(&rng, -0.1, 0.1),
                             1.0 + kit_uniform(&rng, -0.1, 0.1)};
        s->body[i] =
            kit_box(s->world, kit_uniform(&rng, 0.5, 3.0), side, p, ax, kit_uniform(&rng, -1, 1));
        dBodySetGyroscopicMode(s->body[i], 0);
        dBodySetLinearVel(s->body[i], kit_uniform(&rng, -1, 1), kit_uniform(&rng, -1, 1),
                          kit_uniform(&rng, -1, 1));
        dBodySetAngularVel(s->body[i], kit_uniform(&rng, -2, 2), kit_uniform(&rng, -2, 2),
                           kit_uniform(&rng, -2, 2));
    }
    for (int i = 1; i < s->n_body; i++) {
        const dReal *pa = dBodyGetPosition(s->body[i - 1]), *pb = dBodyGetPosition(s->body[i]);
        const dReal mid[3] = {0.5 * (pa[0] + pb[0]), 0.5 * (pa[1] + pb[1]), 0.5 * (pa[2] + pb[2])};
        random_joint(s->world, &rng, s->body[i - 1], s->body[i], mid, 6);
    }
    if (kit_uniform(&rng, 0, 1) < 0.4) {
        const dReal *p = dBodyGetPosition(s->body[0]);
        const dReal at[3] = {p[0] - 0.2, p[1], p[2] + 0.1};
        random_joint(s->world, &rng, 0, s->body[0], at,
                     5); /* not welded: its contacts could not move */
    }
    /* joint-consistent velocities: one ODE step projects them (ERP = 0); the poses are put back
       so that the joints carry no drift and ODE's rows are the adapter's */
    dVector3 x[MAX_BODIES];
    dQuaternion q[MAX_BODIES];
    for (int i = 0; i < s->n_body; i++) {
        const dReal *xi = dBodyGetPosition(s->body[i]), *qi = dBodyGetQuaternion(s->body[i]);
        for (int a = 0; a < 4; a++) q[i][a] = qi[a];
        for (int a = 0; a < 3; a++) x[i][a] = xi[a];
    }
    dWorldStep(s->world, 0.001);
    for (int i = 0; i < s->n_body; i++) {
        dBodySetPosition(s->body[i], x[i][0], x[i][1], x[i][2]);
        dBodySetQuaternion(s->body[i], q[i]);
    }
    s->n_contact = 1 + (int)kit_uniform(&rng, 0, 3);
    for (int c = 0; c < s->n_contact; c++) {
        int i = (int)kit_uniform(&rng, 0, s->n_body);
        /* contacts between bodies two links apart: a contact across a weld could not move (ODE's
           LCP fails on such rows with CFM = 0) */
        int j = s->n_body > 2 && kit_uniform(&rng, 0, 1) < 0.4 ? (i + 2) % s->n_body : -1;
        const dReal *x = dBodyGetPosition(s->body[i]);
        const double p[3] = {x[0] + kit_uniform(&rng, -0.2, 0.2),
                             x[1] + kit_uniform(&rng, -0.2, 0.2),
                             x[2] + kit_uniform(&rng, -0.2, 0.2)};
        dVector3 vi, vj = {0, 0, 0, 0};
        dBodyGetPointVel(s->body[i], p[0], p[1], p[2], vi);
        if (j >= 0) dBodyGetPointVel(s->body[j], p[0], p[1], p[2], vj);
        /* a normal into body i along which it approaches: n . (vi - vj) < 0 */
        double n[3], len = 0.0;
        for (int a = 0; a < 3; a++) {
            n[a] = -(vi[a] - vj[a]) + kit_uniform(&rng, -0.3, 0.3);
            len += n[a] * n[a];
        }
        len = sqrt(len);
        for (int a = 0; a < 3; a++) n[a] /= len;
        dContact con = kit_contact(p, n, 0.0, 0.0, 0.0, 0.0);
        add_contact(s, &con, s->body[i], j >= 0 ? s->body[j] : 0);
    }
}

/* ODE's Dantzig solver reports "LCP internal error" on some singular scenes (CFM = 0 with
   redundant rows); its step is no oracle there, so such scenes are counted and skipped. */
static int ode_lcp_errors;

static void count_ode_message(int num, const char *msg, va_list ap)
{
    (void)num;
    (void)msg;
    (void)ap;
    ode_lcp_errors++;
}

/* max |u_a - u_b| over the bodies, relative to max(1 m/s, the largest velocity entry, the
   largest impulse entry of b's impacts over the lightest body's mass): round-off grows with the
   terms that cancel, and an induced contact in a stiff chain can take an impulse whose velocity
   change is hundreds of times the result (seed 85: 128 N s on a 0.5 kg link for a 0.4 m/s
   answer; its last digits then follow the BLAS's summation order, e.g. its thread count). */
static double max_velocity_difference(const scene *a, const scene *b)
{
    double worst = 0.0, scale = 1.0;
    for (int i = 0; i < a->n_body; i++) {
        dMass m;
        dBodyGetMass(a->body[i], &m);
        scale = fmax(scale, b->max_impulse / m.mass);
        for (int k = 0; k < 3; k++)
            scale = fmax(scale, fmax(fabs(dBodyGetLinearVel(a->body[i])[k]),
                                     fabs(dBodyGetAngularVel(a->body[i])[k])));
    }
    for (int i = 0; i < a->n_body; i++) {
        const dReal *va = dBodyGetLinearVel(a->body[i]), *vb = dBodyGetLinearVel(b->body[i]);
        const dReal *wa = dBodyGetAngularVel(a->body[i]), *wb = dBodyGetAngularVel(b->body[i]);
        for (int k = 0; k < 3; k++)
            worst = fmax(worst, fmax(fabs(va[k] - vb[k]), fabs(wa[k] - wb[k])));
    }
    return worst / scale;
}

static void destroy(scene *s)
{
    ipx_ode_destroy(s->ipx);
    dJointGroupDestroy(s->contacts);
    dWorldDestroy(s->world);
}

static void test_hinge_scene_equals_odes_step(void)
{
    scene ode, ours;
    hinge_scene(&ode, 0);
    hinge_scene(&ours, 1);
    scene_step(&ode, 0.001);
    scene_step(&ours, 0.001);
    ipx_ode_stats st = ipx_ode_get_stats(ours.ipx);
    ENSURE(st.impact_events == 1);
    ENSURE(st.fallbacks == 0);
    /* the contact ends closed: ODE's step and ours both leave v_n = 0 */
    double diff = max_velocity_difference(&ode, &ours);
    ENSURE(diff <= 1e-12);
    if (diff > 1e-12)
        printf("  hinge scene: max |v_ode - v_impax| / max(1, |v|, |pi|/m) = %.3g\n", diff);
    destroy(&ode);
    destroy(&ours);
}

static void test_random_jointed_scenes_equal_odes_step(void)
{
    int scenes = 0, impacts = 0, skipped = 0;
    double worst = 0.0;
    dSetMessageHandler(count_ode_message);
    for (unsigned long long seed = 1; scenes < 120; seed++) {
        scene ode, ours;
        random_scene(&ode, seed, 0);
        random_scene(&ours, seed, 1);
        ode_lcp_errors = 0;
        scene_step(&ode, 0.001);
        scene_step(&ours, 0.001);
        if (ode_lcp_errors) {
            skipped++;
            destroy(&ode);
            destroy(&ours);
            continue;
        }
        ipx_ode_stats st = ipx_ode_get_stats(ours.ipx);
        if (st.fallbacks) printf("  seed %llu: fallback: %s\n", seed, st.last_message);
        ENSURE(st.fallbacks == 0);
        impacts += st.impact_events > 0;
        double diff = max_velocity_difference(&ode, &ours);
        if (diff > 1e-12)
            printf("  seed %llu (%d bodies, %d contacts): max |dv| / max(1, |v|, |pi|/m) = %.3g\n",
                   seed, ode.n_body, ode.n_contact, diff);
        worst = fmax(worst, diff);
        scenes++;
        destroy(&ode);
        destroy(&ours);
    }
    dSetMessageHandler(NULL);
    printf("  %d scenes (%d more skipped: ODE's LCP failed), %d with impacts, largest relative "
           "velocity difference %.3g\n",
           scenes, skipped, impacts, worst);
    ENSURE(impacts >= 100);
    ENSURE(worst <= 1e-12);
}

int main(void)
{
    dInitODE2(0);
    RUN(test_hinge_scene_equals_odes_step);
    RUN(test_random_jointed_scenes_equal_odes_step);
    dCloseODE();
    return ipx_test_exit();
}
