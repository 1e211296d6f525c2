/* Position recovery on large islands (issue [scale]; adapters/ode/src/recovery_project.c): from
   recovery_switch contacts on, the projection's LCP is solved by the iterative solver with W_nn
   applied through the bodies instead of formed. Scenes built already penetrating (boxes 0.5 to
   1.5 mm into the ones below and the ground, the top arriving at 1 m/s, so that the impact hands
   the whole island back and every contact recovers in the post-step):
   - towers of 8 and 16 boxes (32, 64 contacts) and a hinged chain of 12 links on the ground
     (joint rows eliminated): the iterative projection moves every body as the dense Lemke's
     does, to 10 nm (both solve the same LCP; the displacement is unique);
   - a 3 x 3 x 2 block of boxes also pressed into their side neighbours (degenerate: the corners
     of each face are consistent; the dense Lemke ends on rays there): measured from the bodies'
     displacements, every contact moves out by at least its target (the contact's ERP fraction
     of its depth) less the solver's accuracy, and none moves in; the bodies' linear velocities
     are unchanged, their angular velocities turn with them (same speed, same body-frame
     vector), so momentum and kinetic energy are unchanged;
   - the recovery_switch key. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ensure.h"
#include "impax/ode.h"
#include "ode_kit.h"

#define H 1e-3
#define SIDE 0.2
#define MAX_BODIES 32
#define MAX_CONTACTS 512
#define DENSE "recovery_switch=1000000"
#define ITERATIVE "recovery_switch=1"

typedef struct scene {
    kit_sim s;
    dBodyID body[MAX_BODIES];
    int n;
    dJointID joint[MAX_BODIES];
    int n_joint;
    dContact contact[MAX_CONTACTS]; /* this step's, as handed to the adapter */
    dBodyID cb[MAX_CONTACTS][2];
    int n_contact;
} scene;

/* A body's state before the post-step. */
typedef struct snapshot {
    double x[MAX_BODIES][3], q[MAX_BODIES][4], v[MAX_BODIES][3], w[MAX_BODIES][3];
} snapshot;

static void near_callback(void *data, dGeomID a, dGeomID b)
{
    scene *sc = data;
    dBodyID b1 = dGeomGetBody(a), b2 = dGeomGetBody(b);
    if (!b1 && !b2) return;
    if (b1 && b2 && dAreConnectedExcluding(b1, b2, dJointTypeContact)) return;
    dContactGeom g[8];
    const int n = dCollide(a, b, 8, g, sizeof g[0]);
    for (int i = 0; i < n && sc->n_contact < MAX_CONTACTS; i++) {
        dContact c;
        memset(&c, 0, sizeof c);
        c.surface = sc->s.surface;
        c.geom = g[i];
        sc->contact[sc->n_contact] = c;
        sc->cb[sc->n_contact][0] = b1;
        sc->cb[sc->n_contact++][1] = b2;
        ipx_ode_contact(sc->s.ipx, sc->s.world, sc->s.group, &c, b1, b2);
    }
}

static dBodyID add_box(scene *sc, const double side[3], double x, double y, double z, double yaw)
{
    const double axis[3] = {0, 0, 1}, p[3] = {x, y, z};
    dBodyID b = kit_box(sc->s.world, 1.0, side, p, axis, yaw);
    dGeomSetBody(dCreateBox(sc->s.space, side[0], side[1], side[2]), b);
    sc->body[sc->n++] = b;
    return b;
}

/* nx x nx columns of nz boxes, each layer 0.5 to 1.5 mm into the one below; gap > 0: columns
   apart, each box shifted by up to 5 mm and turned by up to 0.05 rad; gap < 0: pressed together. */
static void make_boxes(scene *sc, const char *params, int quick, int nx, int nz, double gap)
{
    memset(sc, 0, sizeof *sc);
    dSurfaceParameters surf;
    memset(&surf, 0, sizeof surf);
    surf.mode = dContactApprox1;
    surf.mu = 0.5;
    ENSURE(kit_sim_make(&sc->s, "aplcp", params, &surf, quick) == 0);
    unsigned long long rng = 99;
    const double side[3] = {SIDE, SIDE, SIDE}, loose = gap > 0.0 ? 1.0 : 0.0;
    double z = SIDE / 2;
    for (int k = 0; k < nz; k++) {
        z -= kit_uniform(&rng, 0.5e-3, 1.5e-3);
        for (int i = 0; i < nx; i++)
            for (int j = 0; j < nx; j++)
                add_box(sc, side, i * (SIDE + gap) + loose * kit_uniform(&rng, -5e-3, 5e-3),
                        j * (SIDE + gap) + loose * kit_uniform(&rng, -5e-3, 5e-3), z,
                        loose * kit_uniform(&rng, -0.05, 0.05));
        z += SIDE;
    }
    dBodySetLinearVel(sc->body[sc->n - 1], 0, 0, -1.0);
}

/* n links (0.3 x 0.1 x 0.1 m) hinged end to end along x in a zig-zag (pitched +-0.01 rad in
   turn), their lowest corners 2 mm into the ground, falling at 1 m/s: the valleys touch. */
static void make_chain(scene *sc, const char *params, int n)
{
    memset(sc, 0, sizeof *sc);
    dSurfaceParameters surf;
    memset(&surf, 0, sizeof surf);
    surf.mode = dContactApprox1;
    surf.mu = 0.5;
    ENSURE(kit_sim_make(&sc->s, "aplcp", params, &surf, 0) == 0);
    const double side[3] = {0.3, 0.1, 0.1}, axis[3] = {0, 1, 0};
    double anchor[3] = {0.0, 0.0, 0.0}, ends[MAX_BODIES + 1][3];
    memcpy(ends[0], anchor, sizeof anchor);
    for (int i = 0; i < n; i++) {
        const double tilt = i % 2 ? 0.01 : -0.01, dir[3] = {cos(tilt), 0.0, sin(tilt)};
        const double p[3] = {anchor[0] + 0.15 * dir[0], 0.0, anchor[2] + 0.15 * dir[2]};
        sc->body[sc->n] = kit_box(sc->s.world, 1.0, side, p, axis, -tilt);
        dGeomSetBody(dCreateBox(sc->s.space, side[0], side[1], side[2]), sc->body[sc->n]);
        dBodySetLinearVel(sc->body[sc->n++], 0.0, 0.0, -1.0);
        for (int a = 0; a < 3; a++) anchor[a] += 0.3 * dir[a];
        memcpy(ends[i + 1], anchor, sizeof anchor);
    }
    for (int i = 0; i + 1 < n; i++) {
        dJointID j = dJointCreateHinge(sc->s.world, 0);
        dJointAttach(j, sc->body[i], sc->body[i + 1]);
        dJointSetHingeAnchor(j, ends[i + 1][0], ends[i + 1][1], ends[i + 1][2]);
        dJointSetHingeAxis(j, 0, 1, 0);
        sc->joint[sc->n_joint++] = j;
    }
    kit_sink(sc->body, n, side, 0.002);
}

static void take(const scene *sc, snapshot *s)
{
    for (int b = 0; b < sc->n; b++) {
        memcpy(s->x[b], dBodyGetPosition(sc->body[b]), 3 * sizeof(double));
        memcpy(s->q[b], dBodyGetQuaternion(sc->body[b]), 4 * sizeof(double));
        memcpy(s->v[b], dBodyGetLinearVel(sc->body[b]), 3 * sizeof(double));
        memcpy(s->w[b], dBodyGetAngularVel(sc->body[b]), 3 * sizeof(double));
    }
}

/* The impact step, split so that *before holds the bodies as ODE's step left them and *after
   as the post-step's projection left them. */
static void impact_step(scene *sc, snapshot *before, snapshot *after)
{
    sc->n_contact = 0;
    dSpaceCollide(sc->s.space, sc, near_callback);
    ipx_ode_pre_step(sc->s.ipx, H);
    if (sc->s.quick) dWorldQuickStep(sc->s.world, H);
    else dWorldStep(sc->s.world, H);
    take(sc, before);
    ipx_ode_post_step(sc->s.ipx);
    take(sc, after);
    ipx_ode_empty_group(sc->s.ipx, sc->s.group);
}

static void free_scene(scene *sc) { kit_sim_free(&sc->s); }

/* The rotation vector (rad) of qa qb^-1 (unit quaternions, w x y z). */
static void rotation_between(const double qa[4], const double qb[4], double out[3])
{
    const double w = qa[0] * qb[0] + qa[1] * qb[1] + qa[2] * qb[2] + qa[3] * qb[3];
    const double v[3] = {-qa[0] * qb[1] + qa[1] * qb[0] - qa[2] * qb[3] + qa[3] * qb[2],
                         -qa[0] * qb[2] + qa[1] * qb[3] + qa[2] * qb[0] - qa[3] * qb[1],
                         -qa[0] * qb[3] - qa[1] * qb[2] + qa[2] * qb[1] + qa[3] * qb[0]};
    const double s = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    const double angle = 2.0 * atan2(s, fabs(w)),
                 k = s > 0.0 ? (w < 0.0 ? -angle : angle) / s : 2.0;
    for (int a = 0; a < 3; a++) out[a] = k * v[a];
}

static int index_of(const scene *sc, dBodyID b)
{
    for (int i = 0; i < sc->n; i++)
        if (sc->body[i] == b) return i;
    return -1;
}

/* m: how far contact c's bodies moved apart along its normal in the projection (rotations
   to first order, as the projection's rows see them; the normal points into body 1). */
static double normal_separation(const scene *sc, int c, const snapshot *before,
                                const snapshot *after)
{
    const double *n = sc->contact[c].geom.normal, *p = sc->contact[c].geom.pos;
    double sep = 0.0;
    for (int s = 0; s < 2; s++) {
        const int b = sc->cb[c][s] ? index_of(sc, sc->cb[c][s]) : -1;
        if (b < 0) continue;
        double th[3], r[3], d[3];
        rotation_between(after->q[b], before->q[b], th);
        for (int a = 0; a < 3; a++) r[a] = p[a] - before->x[b][a];
        d[0] = after->x[b][0] - before->x[b][0] + th[1] * r[2] - th[2] * r[1];
        d[1] = after->x[b][1] - before->x[b][1] + th[2] * r[0] - th[0] * r[2];
        d[2] = after->x[b][2] - before->x[b][2] + th[0] * r[1] - th[1] * r[0];
        sep += (s == 0 ? 1.0 : -1.0) * (n[0] * d[0] + n[1] * d[1] + n[2] * d[2]);
    }
    return sep;
}

static double max_position_difference(const scene *sc, const snapshot *a, const snapshot *b)
{
    double d = 0.0;
    for (int i = 0; i < sc->n; i++)
        for (int k = 0; k < 3; k++) d = fmax(d, fabs(a->x[i][k] - b->x[i][k]));
    for (int i = 0; i < sc->n; i++)
        for (int k = 0; k < 4; k++) d = fmax(d, SIDE * fabs(a->q[i][k] - b->q[i][k]));
    return d;
}

/* Builds scene number which with params, runs its impact step; *st: the stats after it. */
typedef void (*builder)(scene *, const char *);
static void tower8(scene *sc, const char *params) { make_boxes(sc, params, 0, 1, 8, 0.01); }
static void tower16_quick(scene *sc, const char *params) { make_boxes(sc, params, 1, 1, 16, 0.01); }
static void chain12(scene *sc, const char *params) { make_chain(sc, params, 12); }
static void block(scene *sc, const char *params) { make_boxes(sc, params, 0, 3, 2, -0.5e-3); }

static void run(builder build, const char *params, scene *sc, snapshot *before, snapshot *after,
                ipx_ode_stats *st)
{
    build(sc, params);
    impact_step(sc, before, after);
    *st = ipx_ode_get_stats(sc->s.ipx);
}

static void test_iterative_projection_moves_bodies_as_the_dense_one(void)
{
    static const struct {
        const char *name;
        builder build;
    } cases[] = {{"tower of 8", tower8},
                 {"tower of 16, QuickStep", tower16_quick},
                 {"hinged chain of 12", chain12}};
    static scene dense, iter;
    static snapshot b0, a0, b1, a1;
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        ipx_ode_stats sd, si;
        run(cases[c].build, DENSE, &dense, &b0, &a0, &sd);
        run(cases[c].build, ITERATIVE, &iter, &b1, &a1, &si);
        const double same_start = max_position_difference(&dense, &b0, &b1);
        const double diff = max_position_difference(&dense, &a0, &a1);
        const double moved = max_position_difference(&dense, &a0, &b0);
        printf("  %s: %d contacts, bodies moved up to %.3g m, iterative - dense %.2g m (islands "
               "%ld / %ld, "
               "iterative %ld / %ld)\n",
               cases[c].name, iter.n_contact, moved, diff, sd.recovery_islands, si.recovery_islands,
               sd.recovery_iterative, si.recovery_iterative);
        ENSURE(same_start == 0.0); /* the pre-step and ODE's step do not depend on the switch */
        ENSURE(sd.recovery_islands >= 1 && sd.recovery_failures == 0 && sd.recovery_iterative == 0);
        ENSURE(si.recovery_islands == sd.recovery_islands &&
               si.recovery_iterative == si.recovery_islands && si.recovery_failures == 0);
        ENSURE(iter.n_contact >= 16 && moved > 1e-4);
        ENSURE(diff <= 1e-8);
        free_scene(&dense);
        free_scene(&iter);
    }
}

static double kinetic_energy(const scene *sc, const snapshot *s, int b)
{
    dMass m;
    dBodyGetMass(sc->body[b], &m);
    dMatrix3 R;
    dQtoR(s->q[b], R);
    double wb[3], rot = 0.0; /* body-frame angular velocity R^T w */
    for (int a = 0; a < 3; a++)
        wb[a] = R[a] * s->w[b][0] + R[4 + a] * s->w[b][1] + R[8 + a] * s->w[b][2];
    for (int a = 0; a < 3; a++)
        for (int c = 0; c < 3; c++) rot += wb[a] * m.I[4 * a + c] * wb[c];
    return 0.5 *
           (m.mass * (s->v[b][0] * s->v[b][0] + s->v[b][1] * s->v[b][1] + s->v[b][2] * s->v[b][2]) +
            rot);
}

static void test_large_projection_meets_every_target_and_keeps_velocities(void)
{
    static scene sc;
    static snapshot before, after;
    ipx_ode_stats st;
    run(block, NULL, &sc, &before, &after, &st); /* the default switch */
    const double erp = dWorldGetERP(sc.s.world);
    double t_max = 0.0;
    for (int c = 0; c < sc.n_contact; c++) t_max = fmax(t_max, erp * sc.contact[c].geom.depth);
    /* the solver's accuracy (1 nm, or 1e-6 of the largest target), and round-off */
    const double tol = 2.0 * fmax(1e-9, 1e-6 * t_max);
    double worst_short = -INFINITY, worst_in = -INFINITY;
    int owed = 0;
    for (int c = 0; c < sc.n_contact; c++) {
        const double sep = normal_separation(&sc, c, &before, &after),
                     t = erp * sc.contact[c].geom.depth;
        worst_in = fmax(worst_in, -sep);
        /* deeper than 0.1 mm: owed its target under any recovered-depth rule */
        if (sc.contact[c].geom.depth > 1e-4) worst_short = fmax(worst_short, t - sep), owed++;
    }
    double ke_change = 0.0, ke = 0.0, dv = 0.0, dwb = 0.0, p_change = 0.0;
    for (int b = 0; b < sc.n; b++) {
        ke += kinetic_energy(&sc, &before, b);
        ke_change += kinetic_energy(&sc, &after, b) - kinetic_energy(&sc, &before, b);
        for (int a = 0; a < 3; a++) dv = fmax(dv, fabs(after.v[b][a] - before.v[b][a]));
        dMatrix3 Rb, Ra;
        dQtoR(before.q[b], Rb);
        dQtoR(after.q[b], Ra);
        for (int a = 0; a < 3; a++) {
            const double wb0 =
                Rb[a] * before.w[b][0] + Rb[4 + a] * before.w[b][1] + Rb[8 + a] * before.w[b][2];
            const double wb1 =
                Ra[a] * after.w[b][0] + Ra[4 + a] * after.w[b][1] + Ra[8 + a] * after.w[b][2];
            dwb = fmax(dwb, fabs(wb1 - wb0));
        }
    }
    for (int a = 0; a < 3; a++) {
        double p0 = 0.0, p1 = 0.0;
        for (int b = 0; b < sc.n; b++) p0 += before.v[b][a], p1 += after.v[b][a]; /* 1 kg each */
        p_change = fmax(p_change, fabs(p1 - p0));
    }
    printf("  block of 18: %d contacts (%d owed more than 0.1 mm x erp), largest target %.3g m; "
           "short of "
           "target by at most %.2g m, into a contact by at most %.2g m (tolerance %.2g m)\n",
           sc.n_contact, owed, t_max, worst_short, worst_in, tol);
    printf("  velocities: linear changed by %.2g m/s, body-frame angular by %.2g rad/s, KE by %.2g "
           "of %.3g J, "
           "momentum by %.2g kg m/s; iterative solves %ld, failures %ld\n",
           dv, dwb, ke_change, ke, p_change, st.recovery_iterative, st.recovery_failures);
    ENSURE(st.recovery_islands >= 1 && st.recovery_iterative == st.recovery_islands &&
           st.recovery_failures == 0);
    ENSURE(owed >= 16 && worst_short <= tol && worst_in <= tol);
    ENSURE(dv == 0.0 && p_change == 0.0);
    ENSURE(dwb <= 1e-12 * (1.0 + ke) && fabs(ke_change) <= 1e-12 * ke);
    free_scene(&sc);
}

static void test_recovery_switch_key(void)
{
    ipx_ode_config cfg = ipx_ode_default_config();
    char model[64], msg[256];
    ENSURE(cfg.recovery_switch == 16);
    ENSURE(ipx_ode_split_params("recovery_switch=40,max_pivots=9", &cfg, model, sizeof model, msg,
                                sizeof msg) == 0);
    ENSURE(cfg.recovery_switch == 40 && strcmp(model, "max_pivots=9") == 0);
    ENSURE(ipx_ode_split_params("recovery_switch=0", &cfg, model, sizeof model, msg, sizeof msg) !=
           0);
    ENSURE(strstr(msg, "recovery_switch") != NULL);
    ENSURE(ipx_ode_split_params("recovery_switch=2.5", &cfg, model, sizeof model, msg,
                                sizeof msg) != 0);
    ENSURE(cfg.recovery_switch == 40);
}

int main(void)
{
    dInitODE2(0);
    RUN(test_iterative_projection_moves_bodies_as_the_dense_one);
    RUN(test_large_projection_meets_every_target_and_keeps_velocities);
    RUN(test_recovery_switch_key);
    dCloseODE();
    return ipx_test_exit();
}
