/* Joint feedback (dJointSetFeedback) with impacts (feedback.c): ODE reports the force each
   joint applied over the last step, and in plain ODE an impact is part of that step. Under
   impax the impact comes before ODE's step, so its share is added after it; the feedback must
   read as plain ODE's where both answer the same impact. Gravity off, one frictionless contact
   at zero depth and CFM 0, so plain ODE's bounce (v_n+ = -e v_n) is the impact's answer too:
   - a ball (1 kg) lands at 2 m/s, e = 0.5, attached both ways round: the contact's feedback is
     m (1 + e) v / h on the ball (f1 whichever way it was attached: ODE keeps a lone body first);
   - a rod hinged to the world swings its free end onto the floor at 2 m/s, e = 0 (the contact
     stays closed: ODE steps it too) and e = 0.5 (it separates: ODE does not): the contact's and
     the hinge's feedback, force and torque, against plain ODE's; with a second hinge on the
     same axis (redundant rows) at ODE's default CFM, both hinges' shares as ODE's;
   - three hinged boxes landing on twelve corners: each box's reported forces and torques, times
     h, are its momentum changes;
   - gonthier: a contact's feedback is the step's contact impulse over h;
   - a contact reported twice: the impulse is the first's, its twin reads 0;
   - a contact the position recovery replaced by a copy reads the copy's force.
   Before feedback.c the contact read what ODE's step after the impact left (nothing, or for a
   contact the pre-step disabled, whatever the program's memory held) and the hinge about
   nothing. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ensure.h"
#include "impax/ode.h"
#include "ode_kit.h"

#define H 0.001 /* s */

typedef struct fed {
    dJointFeedback contact, hinge, twin; /* twin: a second hinge on the same axis, if asked */
} fed;

/* a's force and torque on the first body (f1, t1: the joints here have one body, ODE writes no
   f2, t2) equal b's to tol of b's largest. */
static void same_feedback(const dJointFeedback *a, const dJointFeedback *b, double tol)
{
    const dReal *pa[2] = {a->f1, a->t1}, *pb[2] = {b->f1, b->t1};
    double scale = 0.0;
    for (int v = 0; v < 2; v++)
        for (int i = 0; i < 3; i++) scale = fmax(scale, fabs(pb[v][i]));
    ENSURE(scale > 0.0);
    for (int v = 0; v < 2; v++)
        for (int i = 0; i < 3; i++) ENSURE_NEAR(pa[v][i], pb[v][i], tol * scale);
}

/* Contact c on (b1, b2), its feedback into fb, then one step of H under model (NULL: plain
   ODE's dWorldStep, which answers the single impact alike); the world is then destroyed. */
static void contact_and_step(dWorldID world, const char *const *model, const dContact *c,
                             dBodyID b1, dBodyID b2, dJointFeedback *fb)
{
    dJointGroupID group = dJointGroupCreate(0);
    ipx_ode_context *ipx = NULL;
    dJointID j;
    if (model) {
        char msg[256];
        ipx = ipx_ode_create(world);
        ENSURE(ipx_ode_configure(ipx, model[0], model[1], msg, sizeof msg) == 0);
        j = ipx_ode_contact(ipx, world, group, c, b1, b2);
    } else {
        j = dJointCreateContact(world, group, c);
        dJointAttach(j, b1, b2);
    }
    dJointSetFeedback(j, fb);
    if (ipx) {
        ipx_ode_step(ipx, H);
        ENSURE(ipx_ode_get_stats(ipx).impact_events == 1);
        ipx_ode_destroy(ipx);
    } else {
        dWorldStep(world, H);
    }
    dJointGroupDestroy(group);
    dWorldDestroy(world);
}

/* The ball landing: its contact's feedback under model (NULL: plain ODE), attached as
   (ball, world) or, reversed, (world, ball) with the normal down. */
static dJointFeedback ball(const char *const *model, int reversed)
{
    dWorldID world = dWorldCreate();
    dWorldSetGravity(world, 0, 0, 0);
    dWorldSetCFM(world, 0.0);
    const double at[3] = {0, 0, 0.1}, p[3] = {0, 0, 0}, up[3] = {0, 0, 1}, down[3] = {0, 0, -1};
    dBodyID b = kit_ball(world, 1.0, 0.1, at);
    dBodySetLinearVel(b, 0.3, 0.0, -2.0);
    dContact c = kit_contact(p, reversed ? down : up, 0.0, 0.0, 0.5, 0.01);
    dJointFeedback fb;
    memset(&fb, 0x7f, sizeof fb); /* whatever the program's memory held */
    contact_and_step(world, model, &c, reversed ? NULL : b, reversed ? b : NULL, &fb);
    return fb;
}

/* aplcp and routh take e where asked (they are inelastic by default) */
static const char *const models[][2] = {{"plus", NULL},
                                        {"aplcp", "newton_restitution=1"},
                                        {"routh", "poisson_restitution=1"},
                                        {"bowling", NULL},
                                        {"jia", NULL}};
#define N_MODELS (sizeof models / sizeof models[0])

static void test_a_bouncing_ball_reports_its_impact(void)
{
    for (int reversed = 0; reversed < 2; reversed++) {
        const dJointFeedback plain = ball(NULL, reversed);
        printf("  plain ODE%s: f1 (%.9g, %.9g, %.9g) N\n", reversed ? " (world, ball)" : "",
               plain.f1[0], plain.f1[1], plain.f1[2]);
        ENSURE_NEAR(plain.f1[2], 1.0 * 1.5 * 2.0 / H, 1e-9);
        for (size_t m = 0; m < N_MODELS; m++) {
            const dJointFeedback got = ball(models[m], reversed);
            printf("  %-8s f1 (%.9g, %.9g, %.9g) N, t1 (%.3g, %.3g, %.3g) N m\n", models[m][0],
                   got.f1[0], got.f1[1], got.f1[2], got.t1[0], got.t1[1], got.t1[2]);
            same_feedback(&got, &plain, 1e-9);
        }
    }
}

/* A world without gravity, its contact group, and a ball (1 kg, r 0.1 m) resting its lowest
   point on z = 0, moving down at v (m/s). */
static dWorldID falling_ball(double v, dJointGroupID *group, dBodyID *ball)
{
    dWorldID world = dWorldCreate();
    dWorldSetGravity(world, 0, 0, 0);
    *group = dJointGroupCreate(0);
    const double at[3] = {0, 0, 0.1};
    *ball = kit_ball(world, 1.0, 0.1, at);
    dBodySetLinearVel(*ball, 0.0, 0.0, -v);
    return world;
}

/* The ball's contact reported twice by its collider (a duplicate: the adapter follows it with
   its twin, island.c): the pair's feedback together is the impact's, m (1 + e) v / h, all of it
   on the first; the twin, which the pre-step disabled with it, reads 0, not what the program's
   memory held. */
static void test_a_twin_contact_reads_none_of_the_impulse(void)
{
    dJointGroupID group;
    dBodyID b;
    dWorldID world = falling_ball(2.0, &group, &b);
    const double p[3] = {0, 0, 0}, up[3] = {0, 0, 1};
    dContact c = kit_contact(p, up, 0.0, 0.0, 0.5, 0.01);
    dJointFeedback fb[2];
    memset(fb, 0x7f, sizeof fb);
    char msg[256];
    ipx_ode_context *ipx = ipx_ode_create(world);
    ENSURE(ipx_ode_configure(ipx, "plus", NULL, msg, sizeof msg) == 0);
    for (int i = 0; i < 2; i++)
        dJointSetFeedback(ipx_ode_contact(ipx, world, group, &c, b, NULL), &fb[i]);
    ipx_ode_step(ipx, H);
    printf("  first f1 z %.9g N, twin f1 z %.9g N\n", fb[0].f1[2], fb[1].f1[2]);
    ENSURE(ipx_ode_get_stats(ipx).impact_events == 1);
    ENSURE_NEAR(fb[0].f1[2] + fb[1].f1[2], 1.5 * 2.0 / H, 1e-9);
    for (int i = 0; i < 3; i++) ENSURE(fb[1].f1[i] == 0.0 && fb[1].t1[i] == 0.0);
    ipx_ode_destroy(ipx);
    dJointGroupDestroy(group);
    dWorldDestroy(world);
}

/* The position recovery steps a copy of a penetrating contact in its place (recovery.c): the
   program's feedback must report the copy's force as well. A ball (1 kg, g 9.81) lands at 1 m/s
   found 5 mm deep (h 10 ms, e 0): the impact stops it and its contact, still penetrating, is
   replaced for ODE's step. Over the step the ball's momentum changes by (F - m g) h, F the
   contact's feedback: the impact's share and the copy's force together. Before, ODE wrote the
   copy's force into no one's feedback, and the program read what its memory held (plus the
   share). */
static void test_a_recovered_contact_reports_its_copys_force(void)
{
    dJointGroupID group;
    dBodyID b;
    dWorldID world = falling_ball(1.0, &group, &b);
    dWorldSetGravity(world, 0, 0, -9.81);
    dBodySetPosition(b, 0, 0, 0.1 - 0.005);
    char msg[256];
    ipx_ode_context *ipx = ipx_ode_create(world);
    ENSURE(ipx_ode_configure(ipx, "plus", NULL, msg, sizeof msg) == 0);
    const double p[3] = {0, 0, 0}, up[3] = {0, 0, 1};
    dContact c = kit_contact(p, up, 0.005, 0.5, 0.0, 0.01);
    dJointFeedback fb;
    memset(&fb, 0x7f, sizeof fb);
    dJointSetFeedback(ipx_ode_contact(ipx, world, group, &c, b, NULL), &fb);
    const double v_before = dBodyGetLinearVel(b)[2];
    ipx_ode_step(ipx, 0.01);
    const ipx_ode_stats st = ipx_ode_get_stats(ipx);
    const double force = 1.0 * ((dBodyGetLinearVel(b)[2] - v_before) / 0.01 + 9.81);
    printf("  f1 z %.9g N, m (dv / h + g) %.9g N, %ld contacts recovered\n", fb.f1[2], force,
           st.recovered_contacts);
    ENSURE(st.impact_events == 1 && st.recovered_contacts == 1);
    ENSURE_NEAR(fb.f1[2], force, 1e-9 * force);
    ipx_ode_destroy(ipx);
    dJointGroupDestroy(group);
    dWorldDestroy(world);
}

/* A rod (1 kg, 1 x 0.1 x 0.1 m) along x, hinged to the world about y at x = -0.5, turning so
   that its free end (x = 0.5, on the floor) comes down at 2 m/s. */
static fed rod(const char *const *model, double e, double cfm, int twin)
{
    dWorldID world = dWorldCreate();
    dWorldSetGravity(world, 0, 0, 0);
    dWorldSetCFM(world, cfm);
    const double side[3] = {1.0, 0.1, 0.1}, at[3] = {0, 0, 0.05}, axis[3] = {0, 0, 1};
    dBodyID r = kit_box(world, 1.0, side, at, axis, 0.0);
    dBodySetAngularVel(r, 0.0, 2.0, 0.0); /* w x (1, 0, 0) = (0, 0, -2) at the free end */
    dBodySetLinearVel(r, 0.0, 0.0, -1.0);
    dJointID hinge = dJointCreateHinge(world, 0);
    dJointAttach(hinge, r, 0);
    dJointSetHingeAnchor(hinge, -0.5, 0.0, 0.05);
    dJointSetHingeAxis(hinge, 0.0, 1.0, 0.0);
    fed out;
    memset(&out, 0x7f, sizeof out);
    dJointSetFeedback(hinge, &out.hinge);
    if (twin) {
        dJointID again = dJointCreateHinge(world, 0);
        dJointAttach(again, r, 0);
        dJointSetHingeAnchor(again, -0.5, 0.0, 0.05);
        dJointSetHingeAxis(again, 0.0, 1.0, 0.0);
        dJointSetFeedback(again, &out.twin);
    }
    const double p[3] = {0.5, 0.0, 0.0}, n[3] = {0, 0, 1};
    dContact c = kit_contact(p, n, 0.0, 0.0, e, 0.01);
    contact_and_step(world, model, &c, r, NULL, &out.contact);
    return out;
}

static void test_a_hinged_rod_reports_the_reaction(void)
{
    for (int bounce = 0; bounce < 2; bounce++) {
        const double e = bounce ? 0.5 : 0.0;
        const fed plain = rod(NULL, e, 0.0, 0);
        printf("  e %.1f plain ODE: contact f1 z %.9g N, hinge f1 z %.9g N, t1 y %.9g N m\n", e,
               plain.contact.f1[2], plain.hinge.f1[2], plain.hinge.t1[1]);
        for (size_t m = 0; m < N_MODELS; m++) {
            const fed got = rod(models[m], e, 0.0, 0);
            printf("  e %.1f %-8s contact f1 z %.9g N, hinge f1 z %.9g N, t1 y %.9g N m\n", e,
                   models[m][0], got.contact.f1[2], got.hinge.f1[2], got.hinge.t1[1]);
            same_feedback(&got.contact, &plain.contact, 1e-9);
            same_feedback(&got.hinge, &plain.hinge, 1e-9);
        }
    }
}

#define LINKS 3
#define CORNERS (4 * LINKS)

/* Three boxes (1, 2 and 1.5 kg; 1 x 0.2 x 0.1 m) hinged end to end about y land flat, sliding,
   on their twelve corners at 1 m/s (mu 0.5, e 0.3): redundant contacts and joint rows. Only the
   impact's shares are read (the feedback cleared after the pre-step, ODE's step left out): with
   the world's CFM 0 (the joints' reaction as rigid as impax's own, feedback.c) the forces and
   torques reported on each box, times h, are its momentum and angular momentum changes, m dv
   and I dw, whatever the split between redundant rows. */
static void test_the_shares_balance_each_bodys_momentum(void)
{
    static const double mass[LINKS] = {1.0, 2.0, 1.5}; /* kg */
    for (size_t m = 0; m + 1 < N_MODELS; m++) {        /* not jia: one contact */
        dWorldID world = dWorldCreate();
        dWorldSetGravity(world, 0, 0, 0);
        dWorldSetCFM(world, 0.0);
        dJointGroupID group = dJointGroupCreate(0);
        char msg[256];
        ipx_ode_context *ipx = ipx_ode_create(world);
        ENSURE(ipx_ode_configure(ipx, models[m][0], models[m][1], msg, sizeof msg) == 0);
        const double side[3] = {1.0, 0.2, 0.1}, axis[3] = {0, 0, 1}, n[3] = {0, 0, 1};
        dBodyID box[LINKS];
        dJointFeedback fb_hinge[LINKS - 1], fb_contact[CORNERS];
        dJointID hinge[LINKS - 1], contact[CORNERS];
        for (int i = 0; i < LINKS; i++) {
            const double at[3] = {i - 1.0, 0, 0.05};
            box[i] = kit_box(world, mass[i], side, at, axis, 0.0);
            dBodySetLinearVel(box[i], 0.4, 0.1, -1.0);
            for (int c = 0; c < 4; c++) {
                const double p[3] = {at[0] + (c & 1 ? 0.5 : -0.5), c & 2 ? 0.1 : -0.1, 0.0};
                dContact k = kit_contact(p, n, 0.0, 0.5, 0.3, 0.01);
                contact[4 * i + c] = ipx_ode_contact(ipx, world, group, &k, box[i], NULL);
                dJointSetFeedback(contact[4 * i + c], &fb_contact[4 * i + c]);
            }
        }
        for (int i = 0; i + 1 < LINKS; i++) {
            hinge[i] = dJointCreateHinge(world, 0);
            dJointAttach(hinge[i], box[i], box[i + 1]);
            dJointSetHingeAnchor(hinge[i], i - 0.5, 0.0, 0.05);
            dJointSetHingeAxis(hinge[i], 0.0, 1.0, 0.0);
            dJointSetFeedback(hinge[i], &fb_hinge[i]);
        }
        double before[LINKS][6];
        for (int i = 0; i < LINKS; i++) {
            memcpy(before[i], dBodyGetLinearVel(box[i]), 3 * sizeof(double));
            memcpy(before[i] + 3, dBodyGetAngularVel(box[i]), 3 * sizeof(double));
        }
        ipx_ode_pre_step(ipx, H);
        ENSURE(ipx_ode_get_stats(ipx).impact_events == 1);
        memset(fb_hinge, 0, sizeof fb_hinge);
        memset(fb_contact, 0, sizeof fb_contact);
        ipx_ode_post_step(ipx); /* the shares alone */
        double worst = 0.0, largest = 0.0;
        for (int i = 0; i < LINKS; i++) {
            double sum[6] = {0}; /* N, N m on box i */
            for (int c = 0; c < 4; c++)
                for (int a = 0; a < 3; a++) {
                    sum[a] += fb_contact[4 * i + c].f1[a];
                    sum[3 + a] += fb_contact[4 * i + c].t1[a];
                }
            for (int j = 0; j + 1 < LINKS; j++)
                for (int a = 0; a < 3; a++) {
                    if (j == i) sum[a] += fb_hinge[j].f1[a], sum[3 + a] += fb_hinge[j].t1[a];
                    if (j + 1 == i) sum[a] += fb_hinge[j].f2[a], sum[3 + a] += fb_hinge[j].t2[a];
                }
            dMass dm;
            dBodyGetMass(box[i], &dm);
            const dReal *v = dBodyGetLinearVel(box[i]), *w = dBodyGetAngularVel(box[i]);
            for (int a = 0; a < 3; a++) {
                const double dp = mass[i] * (v[a] - before[i][a]);
                double dL = 0.0; /* the boxes are not turned: I is the world frame's */
                for (int b = 0; b < 3; b++) dL += dm.I[4 * a + b] * (w[b] - before[i][3 + b]);
                worst = fmax(worst, fmax(fabs(sum[a] * H - dp), fabs(sum[3 + a] * H - dL)));
                largest = fmax(largest, fabs(dp));
            }
        }
        printf("  %-8s largest momentum change %.6g N s, balance off by at most %.3g\n",
               models[m][0], largest, worst);
        ENSURE(largest > 0.5);
        ENSURE(worst <= 1e-9 * largest);
        ipx_ode_destroy(ipx);
        dJointGroupDestroy(group);
        dWorldDestroy(world);
    }
}

/* Under gonthier a contact's force replaces ODE's (the pre-step disables it): its feedback is
   the step's spring and damper impulse over h. A ball (1 kg, gravity off) landing at 1 m/s on
   the floor's springs: over each host step its momentum changes by the feedback times h. */
static void test_gonthier_reports_its_contact_force(void)
{
    dJointGroupID group;
    dBodyID b;
    dWorldID world = falling_ball(1.0, &group, &b);
    const double p[3] = {0, 0, 0}, n[3] = {0, 0, 1};
    char msg[256];
    ipx_ode_context *ipx = ipx_ode_create(world);
    ENSURE(ipx_ode_configure(ipx, "gonthier", NULL, msg, sizeof msg) == 0);
    double worst = 0.0, largest = 0.0;
    for (int step = 0; step < 40; step++) {
        const double z = dBodyGetPosition(b)[2], v0 = dBodyGetLinearVel(b)[2];
        dJointFeedback fb;
        memset(&fb, 0x7f, sizeof fb);
        if (z < 0.1) { /* touching: the contact at the ball's lowest point, that deep */
            const double q[3] = {dBodyGetPosition(b)[0], dBodyGetPosition(b)[1], 0.0};
            dContact c = kit_contact(q, n, 0.1 - z, 0.0, 0.5, 0.01);
            dJointSetFeedback(ipx_ode_contact(ipx, world, group, &c, b, NULL), &fb);
        } else if (step == 0) { /* just touching */
            dContact c = kit_contact(p, n, 0.0, 0.0, 0.5, 0.01);
            dJointSetFeedback(ipx_ode_contact(ipx, world, group, &c, b, NULL), &fb);
        } else {
            ipx_ode_step(ipx, H);
            ipx_ode_empty_group(ipx, group);
            continue;
        }
        ipx_ode_step(ipx, H);
        ipx_ode_empty_group(ipx, group);
        const double dp = 1.0 * (dBodyGetLinearVel(b)[2] - v0);
        worst = fmax(worst, fabs(fb.f1[2] * H - dp));
        largest = fmax(largest, fabs(dp));
    }
    printf("  gonthier: %ld steps in contact, largest step impulse %.6g N s, feedback off by at "
           "most %.3g N s\n",
           ipx_ode_get_stats(ipx).impact_events, largest, worst);
    ENSURE(ipx_ode_get_stats(ipx).impact_events > 1 && ipx_ode_get_stats(ipx).fallbacks == 0);
    ENSURE(largest > 0.05);
    ENSURE(worst <= 1e-9 * largest);
    ipx_ode_destroy(ipx);
    dJointGroupDestroy(group);
    dWorldDestroy(world);
}

/* The rod held by two hinges on the same axis (redundant rows: the load's split between them
   is not determined by the rigid bodies), at ODE's default CFM (1e-10): the impact's reaction
   is shared as ODE's own joint model shares it, and each hinge reads as in plain ODE's step
   (to the contact's own softening by that CFM, 1e-7 of its impulse). */
static void test_redundant_hinges_share_the_reaction_as_in_ode(void)
{
    const fed plain = rod(NULL, 0.0, 1e-10, 1);
    printf("  plain ODE: hinge f1 z %.9g and %.9g N\n", plain.hinge.f1[2], plain.twin.f1[2]);
    for (size_t m = 0; m < N_MODELS; m++) {
        const fed got = rod(models[m], 0.0, 1e-10, 1);
        printf("  %-8s hinge f1 z %.9g and %.9g N\n", models[m][0], got.hinge.f1[2],
               got.twin.f1[2]);
        same_feedback(&got.hinge, &plain.hinge, 1e-7); /* cfm / h = 1e-7: ODE's softening */
        same_feedback(&got.twin, &plain.twin, 1e-7);
    }
}

int main(void)
{
    dInitODE2(0);
    RUN(test_a_bouncing_ball_reports_its_impact);
    RUN(test_a_twin_contact_reads_none_of_the_impulse);
    RUN(test_a_recovered_contact_reports_its_copys_force);
    RUN(test_a_hinged_rod_reports_the_reaction);
    RUN(test_redundant_hinges_share_the_reaction_as_in_ode);
    RUN(test_the_shares_balance_each_bodys_momentum);
    RUN(test_gonthier_reports_its_contact_force);
    dCloseODE();
    return ipx_test_exit();
}
