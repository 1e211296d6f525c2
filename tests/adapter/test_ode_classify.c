/* Impact or resting contact (docs/ode-adapter.md "Impact or resting contact"): the threshold's gravity term
   is |g| h max(gravity_steps, jitter_steps x lever factor), the lever factor being the sum over
   the contact's dynamic bodies of sqrt(m W_i). A settling pile's contact jitter (QuickStep, two
   boxes' corners approaching at 2 to 3 |g| h) is left to ODE, while a box dropped onto the
   settled pile is an impact; the adapter's keys set the constants; an impact's problem carries the
   host's accuracy, accuracy_steps |g| h (docs/ode-adapter.md "Solve accuracy"). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ensure.h"
#include "impax/ode.h"
#include "ode_kit.h"

#define H 0.001
#define G 9.81

/* Two 1 kg cubes (side 0.1 m), one on top of the other, touching at one corner point only (the
   contact given by hand): each body's lever factor sqrt(m W_i) is 2 there (m (r x n)^T I^-1
   (r x n) = 3 for a cube's corner along a face normal), so the contact's factor is 4. The upper
   box approaches at speed (m/s). Returns the impact events of one pre-step; *resting gets the
   contacts the jitter term left to ODE. */
static int corner_contact(const char *params, double speed, long *resting)
{
    dWorldID w = dWorldCreate();
    dWorldSetGravity(w, 0, 0, -G);
    dJointGroupID group = dJointGroupCreate(0);
    const double side[3] = {0.1, 0.1, 0.1}, axis[3] = {0, 0, 1};
    const double lower_at[3] = {0, 0, 0.05}, upper_at[3] = {0, 0, 0.15};
    dBodyID lower = kit_box(w, 1.0, side, lower_at, axis, 0.0);
    dBodyID upper = kit_box(w, 1.0, side, upper_at, axis, 0.0);
    dBodySetLinearVel(upper, 0, 0, -speed);
    ipx_ode_context *ipx = ipx_ode_create(w);
    char msg[256];
    ENSURE(ipx_ode_configure(ipx, "plus", params, msg, sizeof msg) == 0);
    const double p[3] = {0.05, 0.05, 0.1}, up[3] = {0, 0, 1}; /* the normal points into body 1 */
    dContact c = kit_contact(p, up, 1e-5, 0.5, 0.0, 0.0);
    const int asked = ipx_ode_contact_impacting(ipx, &c, upper, lower, H);
    ipx_ode_contact(ipx, w, group, &c, upper, lower);
    const int events = ipx_ode_pre_step(ipx, H);
    ENSURE(asked == (events > 0)); /* the public test is the pre-step's, jitter term included */
    ipx_ode_post_step(ipx);
    *resting = ipx_ode_get_stats(ipx).resting_contacts;
    ipx_ode_destroy(ipx);
    dJointGroupDestroy(group);
    dWorldDestroy(w);
    return events;
}

static void test_the_lever_factor_raises_the_threshold_at_two_corners(void)
{
    long resting;
    const double gh = G * H;
    /* default: 1 mm/s + |g| h max(2, 1 x 4) = 0.04024 m/s */
    ENSURE(corner_contact(NULL, 0.0400, &resting) == 0 && resting == 1);
    ENSURE(corner_contact(NULL, 0.0405, &resting) == 1 && resting == 0);
    ENSURE(corner_contact(NULL, 1e-3 + 4 * gh - 1e-5, &resting) == 0 && resting == 1);
    ENSURE(corner_contact(NULL, 1e-3 + 4 * gh + 1e-5, &resting) == 1);
    /* jitter_steps = 0: the plain speed test, 1 mm/s + 2 |g| h = 0.0206 m/s */
    ENSURE(corner_contact("jitter_steps=0", 0.0210, &resting) == 1 && resting == 0);
    ENSURE(corner_contact("jitter_steps=0", 0.0200, &resting) == 0 && resting == 0);
    /* jitter_steps = 2: 1 mm/s + 8 |g| h = 0.0795 m/s */
    ENSURE(corner_contact("jitter_steps=2", 0.0790, &resting) == 0 && resting == 1);
    ENSURE(corner_contact("jitter_steps=2", 0.0800, &resting) == 1);
    /* gravity_steps above jitter_steps x 4 decides alone; impact_threshold adds */
    ENSURE(corner_contact("gravity_steps=5", 0.0500, &resting) == 0 && resting == 0);
    ENSURE(corner_contact("gravity_steps=5", 0.0505, &resting) == 1);
    ENSURE(corner_contact("impact_threshold=0.01", 0.0500, &resting) == 1);
    ENSURE(corner_contact("impact_threshold=0.02", 0.0500, &resting) == 0 && resting == 1);
}

static void keep_v_tol(const ipx_ode_event *ev, void *user)
{
    if (ev->problem) *(double *)user = ev->problem->v_tol;
}

/* The v_tol an impact's problem carries (m/s) under these adapter keys, or -1 if none came. */
static double impact_v_tol(const char *params)
{
    dWorldID w = dWorldCreate();
    dWorldSetGravity(w, 0, 0, -G);
    dJointGroupID group = dJointGroupCreate(0);
    const double side[3] = {0.1, 0.1, 0.1}, axis[3] = {0, 0, 1}, at[3] = {0, 0, 0.05};
    dBodyID box = kit_box(w, 1.0, side, at, axis, 0.0);
    dBodySetLinearVel(box, 0, 0, -1.0);
    ipx_ode_context *ipx = ipx_ode_create(w);
    char msg[256];
    ENSURE(ipx_ode_configure(ipx, "aplcp", params, msg, sizeof msg) == 0);
    double v_tol = -1.0;
    ipx_ode_set_event_callback(ipx, keep_v_tol, &v_tol);
    const double p[3] = {0, 0, 0}, up[3] = {0, 0, 1};
    dContact c = kit_contact(p, up, 1e-5, 0.5, 0.0, 0.0);
    ipx_ode_contact(ipx, w, group, &c, box, NULL);
    ENSURE(ipx_ode_pre_step(ipx, H) == 1);
    ipx_ode_post_step(ipx);
    ipx_ode_destroy(ipx);
    dJointGroupDestroy(group);
    dWorldDestroy(w);
    return v_tol;
}

static void test_the_host_accuracy_goes_to_the_model(void)
{
    /* v_tol = accuracy_steps |g| h (docs/ode-adapter.md "Solve accuracy"); default 1 */
    ENSURE(ipx_ode_default_config().accuracy_steps == 1.0);
    ENSURE(fabs(impact_v_tol(NULL) - G * H) <= 1e-15);
    ENSURE(fabs(impact_v_tol("accuracy_steps=0.25") - 0.25 * G * H) <= 1e-15);
    ENSURE(impact_v_tol("accuracy_steps=0") == 0.0);
    dWorldID w = dWorldCreate();
    ipx_ode_context *ipx = ipx_ode_create(w);
    char msg[256];
    ENSURE(ipx_ode_configure(ipx, "aplcp", "accuracy_steps=-1", msg, sizeof msg) != 0);
    ENSURE(strstr(msg, "accuracy_steps") != NULL);
    ipx_ode_config c = ipx_ode_get_config(ipx);
    c.accuracy_steps = INFINITY;
    ENSURE(ipx_ode_set_config(ipx, &c, msg, sizeof msg) != 0 &&
           strstr(msg, "accuracy_steps") != NULL);
    ipx_ode_destroy(ipx);
    dWorldDestroy(w);
}

static void test_the_adapter_keys_set_the_constants(void)
{
    dWorldID w = dWorldCreate();
    ipx_ode_context *ipx = ipx_ode_create(w);
    char msg[256];
    ipx_ode_config d = ipx_ode_default_config();
    ENSURE(d.impact_threshold == 1e-3 && d.gravity_steps == 2.0 && d.jitter_steps == 1.0);
    ENSURE(ipx_ode_configure(ipx, "aplcp",
                             "impact_threshold=0.002,gravity_steps=3,jitter_steps=0.5,"
                             "friction_directions=8",
                             msg, sizeof msg) == 0);
    ipx_ode_config c = ipx_ode_get_config(ipx);
    ENSURE(c.impact_threshold == 0.002 && c.gravity_steps == 3.0 && c.jitter_steps == 0.5);
    ENSURE(ipx_ode_configure(ipx, "aplcp", "jitter_steps=-1", msg, sizeof msg) != 0);
    ENSURE(strstr(msg, "jitter_steps") != NULL);
    ENSURE(ipx_ode_configure(ipx, "aplcp", "gravity_steps=x", msg, sizeof msg) != 0);
    ENSURE(strstr(msg, "gravity_steps") != NULL);
    ENSURE(ipx_ode_get_config(ipx).jitter_steps == 0.5); /* the old setting stays */
    c.jitter_steps = NAN;
    ENSURE(ipx_ode_set_config(ipx, &c, msg, sizeof msg) != 0 &&
           strstr(msg, "jitter_steps") != NULL);
    /* the split gives the model only its own items */
    char model_text[128];
    ipx_ode_config s = ipx_ode_default_config();
    ENSURE(ipx_ode_split_params("jitter_steps=2,theta_max=0.1,impact_threshold=0", &s, model_text,
                                sizeof model_text, msg, sizeof msg) == 0);
    ENSURE(strcmp(model_text, "theta_max=0.1") == 0 && s.jitter_steps == 2.0 &&
           s.impact_threshold == 0.0);
    ipx_ode_destroy(ipx);
    dWorldDestroy(w);
}

/* ---- a settling pile --------------------------------------------------------------------- */

#define PILE 27
#define BOX 0.1

typedef struct pile_events {
    long events;        /* impact events (solved, or left to ODE after a failure) */
    long assembled;     /* of them, with a problem (approach speeds known) */
    double fastest;     /* m/s, the largest approach speed in those */
    long fast;          /* of them, with a contact approaching faster than 4 |g| h: no jitter */
    dBodyID watch;      /* a body whose arrival the first event records (0: none) */
    double watch_speed; /* m/s, the fastest approach of that event's contacts */
} pile_events;

/* The first event's approach speed is read from its problem: the callback comes after the
   handback, so a body the model stopped no longer shows the speed it arrived with (only a body
   whose island was left to ODE still does, and the test used to pass only on such a fallback). */
static void on_event(const ipx_ode_event *ev, void *user)
{
    pile_events *e = user;
    if (e->events++ == 0 && e->watch) {
        e->watch_speed = -dBodyGetLinearVel(e->watch)[2]; /* no problem: the world is untouched */
        for (int c = 0; ev->vn_before && c < ev->k; c++)
            e->watch_speed = fmax(e->watch_speed, -ev->vn_before[c]);
    }
    if (!ev->vn_before) return;
    e->assembled++;
    double fastest = 0.0;
    for (int c = 0; c < ev->k; c++) fastest = fmax(fastest, -ev->vn_before[c]);
    e->fastest = fmax(e->fastest, fastest);
    e->fast += fastest >= 4 * G * H;
}

/* 27 boxes (1 kg, side 0.1 m) dropped into a 0.44 m square bin, QuickStep at h = 1 ms, mu 0.6,
   no bounce, model aplcp: the bin's walls and ground end every island. */
static void pile_make(kit_sim *s, const char *params, dBodyID body[PILE])
{
    dSurfaceParameters surface;
    memset(&surface, 0, sizeof surface);
    surface.mode = dContactApprox1;
    surface.mu = 0.6;
    ENSURE(kit_sim_make(s, "aplcp", params, &surface, 1) == 0);
    const double L = 0.44;
    for (int w = 0; w < 4; w++) {
        dGeomID g = w < 2 ? dCreateBox(s->space, 0.05, L + 0.1, 1.0)
                          : dCreateBox(s->space, L + 0.1, 0.05, 1.0);
        dGeomSetPosition(g,
                         w == 0   ? -0.025
                         : w == 1 ? L + 0.025
                                  : L / 2,
                         w == 2   ? -0.025
                         : w == 3 ? L + 0.025
                                  : L / 2,
                         0.5);
    }
    unsigned long long rng = 12345;
    for (int i = 0; i < PILE; i++) {
        const double side[3] = {BOX, BOX, BOX}, axis[3] = {1, 0.3 * i, 0.2};
        const double at[3] = {0.09 + 0.13 * (i % 3), 0.09 + 0.13 * ((i / 3) % 3),
                              0.1 + 0.15 * (i / 9)};
        body[i] = kit_box(s->world, 1.0, side, at, axis, kit_uniform(&rng, 0.0, 3.0));
        dGeomSetBody(dCreateBox(s->space, BOX, BOX, BOX), body[i]);
    }
}

/* Settles the pile for 1.5 s, then counts its impact events over the next 1.5 s. The pile
   creeps: when a box of it comes down depends on its path, which any change of an answer moves
   (aplcp's solver for small islands, lcp_switch_host, at 2 or 9 left one coming down in the
   window at 0.16 to 0.21 m/s; docs/performance.md). Such an event is a real impact; the test is
   about the jitter, the events of which no contact approaches as fast as 4 |g| h. */
static pile_events settled_window(kit_sim *s, long *resting)
{
    pile_events e = {0, 0, 0.0, 0, 0, 0.0};
    for (int i = 0; i < 1500; i++) kit_sim_step(s, H);
    ipx_ode_set_event_callback(s->ipx, on_event, &e);
    const long resting0 = ipx_ode_get_stats(s->ipx).resting_contacts;
    for (int i = 0; i < 1500; i++) kit_sim_step(s, H);
    *resting = ipx_ode_get_stats(s->ipx).resting_contacts - resting0;
    return e;
}

static void test_a_settled_piles_jitter_is_no_impact_but_a_dropped_box_is(void)
{
    /* the plain speed test: the settled pile's jitter makes impact events */
    kit_sim plain;
    dBodyID body[PILE];
    pile_make(&plain, "jitter_steps=0", body);
    long resting;
    pile_events jitter = settled_window(&plain, &resting);
    printf("  jitter_steps=0: %ld impact events in the settled 1.5 s (%ld assembled, approach up "
           "to %.4f m/s; %ld with a contact approaching as fast as 4 |g| h)\n",
           jitter.events, jitter.assembled, jitter.fastest, jitter.fast);
    ENSURE(jitter.events - jitter.fast > 0);
    kit_sim_free(&plain);

    /* the default: none from the jitter, the same contacts left to ODE */
    kit_sim s;
    pile_make(&s, NULL, body);
    pile_events quiet = settled_window(&s, &resting);
    printf(
        "  default: %ld impact events in the settled 1.5 s (%ld with a contact approaching as fast "
        "as 4 |g| h), %ld contact-steps left to ODE as resting\n",
        quiet.events, quiet.fast, resting);
    ENSURE(quiet.events - quiet.fast == 0);
    ENSURE(resting > 0);

    /* a box dropped from 5 cm above the pile's top: an impact at about 1 m/s */
    double top = 0.0; /* m, the highest point of the pile (a tilted box's corner included) */
    for (int i = 0; i < PILE; i++) {
        dReal aabb[6];
        dGeomGetAABB(dBodyGetFirstGeom(body[i]), aabb);
        top = fmax(top, aabb[5]);
    }
    const double side[3] = {BOX, BOX, BOX}, axis[3] = {0, 0, 1};
    const double at[3] = {0.22, 0.22, top + 0.5 * BOX + 0.05};
    pile_events drop = {0, 0, 0.0, 0, kit_box(s.world, 1.0, side, at, axis, 0.3), 0.0};
    dGeomSetBody(dCreateBox(s.space, BOX, BOX, BOX), drop.watch);
    ipx_ode_set_event_callback(s.ipx, on_event, &drop);
    for (int i = 0; i < 300; i++) kit_sim_step(&s, H);
    printf("  dropped box: %ld impact events, the first as it arrived at %.3f m/s\n", drop.events,
           drop.watch_speed);
    ENSURE(drop.events >= 1 && drop.watch_speed > 0.9);
    kit_sim_free(&s);
}

int main(void)
{
    dInitODE2(0);
    RUN(test_the_lever_factor_raises_the_threshold_at_two_corners);
    RUN(test_the_adapter_keys_set_the_constants);
    RUN(test_the_host_accuracy_goes_to_the_model);
    RUN(test_a_settled_piles_jitter_is_no_impact_but_a_dropped_box_is);
    dCloseODE();
    return ipx_test_exit();
}
