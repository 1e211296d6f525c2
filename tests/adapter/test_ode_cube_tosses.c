/* The cube-toss cube (edge 0.1048 m, 0.37 kg, inertia/mass 0.797 (half edge)^2; mu 0.18, bounce
   0.125 above 0.01 m/s) tossed onto the ground in ODE (h = 1/1480 s, ERP 0.2, dWorldStep),
   a deterministic set of landings: exactly flat (half of them straight down without spin), nearly
   flat (tilts up to 0.03 rad) and at random orientations; 0.5 to 3 m/s down, up to 1 m/s sideways,
   spin up to 10 rad/s. Every impact event must be resolved by the model's own solver: no island
   is left to ODE, and no LCP is answered by the iterative solver because the dense Lemke failed
   (aplcp's and routh's iterative rescue). Before contested ratio tests of the Lemke were
   re-decided on columns re-solved from the data (core/src/numerics/lemke.c, CONTEST), this set had 5 of 2074
   (aplcp) and 24 of 2335 (routh) events rescued, 24 of the 29 on the four coplanar corners of a
   face. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ensure.h"
#include "impax/impax.h"
#include "impax/ode.h"
#include "ode_kit.h"

#define EDGE 0.1048      /* m */
#define MASS 0.37        /* kg */
#define H (1.0 / 1480.0) /* s, the data set's capture rate times ten */
#define TOSSES 600
#define STEPS 300 /* 0.2 s: the landing and the bounces after it */

typedef struct tally {
    unsigned rescue_bits;
    long events, rescued;
} tally;

static void on_event(const ipx_ode_event *e, void *user)
{
    tally *t = user;
    t->events++;
    if (e->ok && (e->counts.limits_hit & t->rescue_bits)) {
        t->rescued++;
        printf("    rescued: step %ld, k %d, limits 0x%x\n", e->step, e->k, e->counts.limits_hit);
    }
}

/* The cube with its lowest corner 0..2 mm above the ground, orientation and velocity of toss t. */
static void toss(dWorldID world, dSpaceID space, int t, unsigned long long *rng)
{
    const int kind = t % 3; /* 0 exactly flat, 1 nearly flat, 2 any orientation */
    const int straight = kind == 0 && t % 2;
    dBodyID b = dBodyCreate(world);
    dMass m;
    const double inertia = 0.797 * 0.25 * EDGE * EDGE * MASS;
    dMassSetParameters(&m, MASS, 0, 0, 0, inertia, inertia, inertia, 0, 0, 0);
    dBodySetMass(b, &m);
    dGeomSetBody(dCreateBox(space, EDGE, EDGE, EDGE), b);
    dQuaternion q, yaw, tilt;
    dQFromAxisAndAngle(yaw, 0, 0, 1, kit_uniform(rng, -M_PI, M_PI));
    if (kind == 0) {
        memcpy(q, yaw, sizeof q);
    } else if (kind == 1) {
        const double axis = kit_uniform(rng, -M_PI, M_PI);
        dQFromAxisAndAngle(tilt, cos(axis), sin(axis), 0, kit_uniform(rng, -0.03, 0.03));
        dQMultiply0(q, tilt, yaw);
    } else {
        const double ax = kit_uniform(rng, -1, 1), ay = kit_uniform(rng, -1, 1),
                     az = kit_uniform(rng, -1, 1);
        dQFromAxisAndAngle(q, ax, ay, az, kit_uniform(rng, -M_PI, M_PI));
    }
    dBodySetQuaternion(b, q);
    double lowest = INFINITY;
    for (int c = 0; c < 8; c++) {
        dVector3 p;
        dBodyGetRelPointPos(b, (c & 1 ? 0.5 : -0.5) * EDGE, (c & 2 ? 0.5 : -0.5) * EDGE,
                            (c & 4 ? 0.5 : -0.5) * EDGE, p);
        lowest = fmin(lowest, p[2]);
    }
    dBodySetPosition(b, 0, 0, -lowest + kit_uniform(rng, 0.0, 0.002));
    const double down = kit_uniform(rng, 0.5, 3.0);
    if (straight) {
        dBodySetLinearVel(b, 0, 0, -down);
        return;
    }
    dBodySetLinearVel(b, kit_uniform(rng, -1, 1), kit_uniform(rng, -1, 1), -down);
    const double tumble = kind == 2 ? 10.0 : 1.0;
    dBodySetAngularVel(b, kit_uniform(rng, -tumble, tumble), kit_uniform(rng, -tumble, tumble),
                       kit_uniform(rng, -10, 10));
}

static void tosses_resolved_by_the_model(const char *model, unsigned rescue_bits)
{
    dSurfaceParameters surface;
    memset(&surface, 0, sizeof surface);
    surface.mode = dContactBounce;
    surface.mu = 0.18;
    surface.bounce = 0.125;
    surface.bounce_vel = 0.01;
    unsigned long long rng = 20240611;
    tally t = {rescue_bits, 0, 0};
    long fallbacks = 0;
    char last[256] = "";
    for (int i = 0; i < TOSSES; i++) {
        kit_sim s;
        ENSURE(kit_sim_make(&s, model, NULL, &surface, 0) == 0);
        dWorldSetERP(s.world, 0.2);
        ipx_ode_set_event_callback(s.ipx, on_event, &t);
        toss(s.world, s.space, i, &rng);
        for (int k = 0; k < STEPS; k++) kit_sim_step(&s, H);
        const ipx_ode_stats st = ipx_ode_get_stats(s.ipx);
        fallbacks += st.fallbacks;
        if (st.fallbacks) memcpy(last, st.last_message, sizeof last);
        kit_sim_free(&s);
    }
    printf("  %-5s %d tosses: %ld impact events, %ld left to ODE, %ld rescued from a failed "
           "Lemke%s%s\n",
           model, TOSSES, t.events, fallbacks, t.rescued, fallbacks ? "; last: " : "", last);
    ENSURE(t.events >= TOSSES); /* every toss lands */
    ENSURE(fallbacks == 0);
    ENSURE(t.rescued == 0);
}

static void test_aplcp_resolves_every_landing(void)
{
    tosses_resolved_by_the_model("aplcp", IPX_APLCP_HIT_ITERATIVE_RESCUE);
}

static void test_routh_resolves_every_landing(void)
{
    tosses_resolved_by_the_model("routh",
                                 IPX_ROUTH_HIT_ITERATIVE_RESCUE | IPX_ROUTH_HIT_LCP_FAILURE);
}

int main(void)
{
    dInitODE2(0);
    RUN(test_aplcp_resolves_every_landing);
    RUN(test_routh_resolves_every_landing);
    dCloseODE();
    return ipx_test_exit();
}
