/* The frame of an event's energies (docs/ode-adapter.md "Trace lines"): a moving kinematic
   body's prescribed motion does work on the island, so a box landing on a platform that moves
   under it leaves faster than it came in the world frame while the contacts dissipate. The
   event's kinetic energies are taken relative to the kinematic body's rigid motion, where it is
   at rest: they must equal that energy computed here from the bodies (the box's velocity less
   the platform's velocity field at its centre, its angular velocity less the platform's) and
   fall, while the world frame's rises. Kinematic bodies that move apart, or a rotating one under
   a compliant model (whose event lasts a step, over which a rotating frame is not inertial),
   leave no such frame: the event says so (energy_frame -1). */
#include <math.h>
#include <string.h>

#include "ensure.h"
#include "impax/ode.h"
#include "ode_kit.h"

#define H 0.001

typedef struct seen {
    int events, frame;
    double ke_before, ke_after;
} seen;

static void on_event(const ipx_ode_event *ev, void *user)
{
    seen *s = user;
    ENSURE(ev->ok);
    s->events++;
    s->frame = ev->energy_frame;
    s->ke_before = ev->ke_before;
    s->ke_after = ev->ke_after;
}

/* Kinetic energy (J) of body b relative to the rigid motion (V at x_k, w_k), from its ODE
   state: the oracle the event's energies are held to. */
static double energy_relative(dBodyID b, const double V[3], const double w_k[3],
                              const double x_k[3])
{
    const dReal *v = dBodyGetLinearVel(b), *w = dBodyGetAngularVel(b), *x = dBodyGetPosition(b);
    const double r[3] = {x[0] - x_k[0], x[1] - x_k[1], x[2] - x_k[2]};
    const double vf[3] = {V[0] + w_k[1] * r[2] - w_k[2] * r[1],
                          V[1] + w_k[2] * r[0] - w_k[0] * r[2],
                          V[2] + w_k[0] * r[1] - w_k[1] * r[0]};
    dMass m;
    dBodyGetMass(b, &m);
    const dReal *R = dBodyGetRotation(b);
    double wr[3], wb[3], T = 0.0, rot = 0.0;
    for (int a = 0; a < 3; a++) {
        T += 0.5 * m.mass * (v[a] - vf[a]) * (v[a] - vf[a]);
        wr[a] = w[a] - w_k[a];
    }
    for (int a = 0; a < 3; a++) wb[a] = R[a] * wr[0] + R[4 + a] * wr[1] + R[8 + a] * wr[2];
    for (int a = 0; a < 3; a++)
        for (int c = 0; c < 3; c++) rot += wb[a] * m.I[4 * a + c] * wb[c];
    return T + 0.5 * rot;
}

typedef struct scene {
    dWorldID world;
    dJointGroupID group;
    dBodyID body, platform;
    ipx_ode_context *ipx;
} scene;

static dBodyID kinematic(dWorldID w, const double x[3], const double V[3], const double wk[3])
{
    dBodyID k = dBodyCreate(w);
    dBodySetKinematic(k);
    dBodySetPosition(k, x[0], x[1], x[2]);
    dBodySetLinearVel(k, V[0], V[1], V[2]);
    dBodySetAngularVel(k, wk[0], wk[1], wk[2]);
    return k;
}

/* A world without gravity, a kinematic platform at x_k moving with V and w_k, and model's
   context reporting its events into *s. */
static void start(scene *sc, const char *model, const double x_k[3], const double V[3],
                  const double w_k[3], seen *s)
{
    char msg[256];
    sc->world = dWorldCreate();
    dWorldSetGravity(sc->world, 0, 0, 0);
    sc->group = dJointGroupCreate(0);
    sc->platform = kinematic(sc->world, x_k, V, w_k);
    sc->ipx = ipx_ode_create(sc->world);
    ENSURE(ipx_ode_configure(sc->ipx, model, NULL, msg, sizeof msg) == 0);
    ipx_ode_set_event_callback(sc->ipx, on_event, s);
}

/* A contact at p with normal n (into sc->body), mu 1, plastic, between sc->body and other. */
static void touch(scene *sc, dBodyID other, const double p[3], const double n[3])
{
    dContact ct = kit_contact(p, n, 1e-5, 1.0, 0.0, 0.0);
    ipx_ode_contact(sc->ipx, sc->world, sc->group, &ct, sc->body, other);
}

/* The four corners of the bottom face of a cube of side 0.1 m centred at (bx, 0, 0.05), on
   the platform's top z = 0. */
static void touch_bottom(scene *sc, double bx)
{
    const double up[3] = {0, 0, 1};
    for (int c = 0; c < 4; c++) {
        const double p[3] = {bx + (c & 1 ? 0.05 : -0.05), c & 2 ? 0.05 : -0.05, 0.0};
        touch(sc, sc->platform, p, up);
    }
}

/* One pre-step, its event into *s. */
static void impact(scene *sc, seen *s)
{
    memset(s, 0, sizeof *s);
    ipx_ode_pre_step(sc->ipx, H);
}

/* A 1 kg cube (side 0.1 m) at (bx, 0, 0.05) falling at 1 m/s onto a kinematic platform whose
   top is z = 0 (its body at x_k, moving with V and w_k), its bottom face's four corners the
   contacts; one pre-step of model. */
static void land(scene *sc, const char *model, double bx, const double x_k[3], const double V[3],
                 const double w_k[3], seen *s)
{
    start(sc, model, x_k, V, w_k, s);
    const double side[3] = {0.1, 0.1, 0.1}, axis[3] = {0, 0, 1}, at[3] = {bx, 0, 0.05};
    sc->body = kit_box(sc->world, 1.0, side, at, axis, 0.0);
    dBodySetLinearVel(sc->body, 0, 0, -1.0);
    touch_bottom(sc, bx);
    impact(sc, s);
}

static void scene_free(scene *sc)
{
    ipx_ode_post_step(sc->ipx);
    ipx_ode_destroy(sc->ipx);
    dJointGroupDestroy(sc->group);
    dWorldDestroy(sc->world);
}

/* A 1 kg ball (radius 0.05 m) falling at 1 m/s onto a platform moving under it at V: one contact
   at its bottom; one pre-step of model. */
static void land_ball(scene *sc, const char *model, const double V[3], seen *s)
{
    const double x_k[3] = {0, 0, -0.05}, none[3] = {0, 0, 0}, bottom[3] = {0, 0, 0},
                 up[3] = {0, 0, 1};
    start(sc, model, x_k, V, none, s);
    const double at[3] = {0, 0, 0.05};
    sc->body = kit_ball(sc->world, 1.0, 0.05, at);
    dBodySetLinearVel(sc->body, 0, 0, -1.0);
    touch(sc, sc->platform, bottom, up);
    impact(sc, s);
}

static void test_a_ball_landing_on_a_moving_platform_loses_energy_in_its_frame(void)
{
    const char *models[] = {"plus", "aplcp", "routh", "bowling", "jia"};
    const double x_k[3] = {0, 0, -0.05}, V[3] = {4.0, 0, 0}, none[3] = {0, 0, 0};
    for (size_t i = 0; i < sizeof models / sizeof *models; i++) {
        scene sc;
        seen s;
        land_ball(&sc, models[i], V, &s);
        ENSURE(s.events == 1 && s.frame == 1);
        /* before: the ball at (0, 0, -1) m/s against the platform's (4, 0, 0): 8.5 J there */
        ENSURE(fabs(s.ke_before - 8.5) <= 1e-12);
        const double after = energy_relative(sc.body, V, none, x_k);
        ENSURE(fabs(s.ke_after - after) <= 1e-12 * s.ke_before);
        ENSURE(s.ke_after <= s.ke_before);
        /* the world frame's: 0.5 J before, more after. The slip of 4 m/s would take 4 / 3.5 N s
           to stop (the ball's tangential compliance is 3.5 / m at its bottom), more than the
           cone's 1 N s: it slides throughout, and leaves at 1 m/s spinning at 50 rad/s, 1.75 J
           (relative to the platform at -3 m/s: 5.75 J) */
        const double world_after = kit_energy(&sc.body, 1);
        printf("  %s: %.6f -> %.6f J relative to the platform, 0.5 -> %.6f J in the world\n",
               models[i], s.ke_before, s.ke_after, world_after);
        ENSURE(fabs(world_after - 1.75) <= 1e-9 && fabs(s.ke_after - 5.75) <= 1e-9);
        scene_free(&sc);
    }
}

static void test_a_rotating_platform_gives_the_frame_of_its_rigid_motion(void)
{
    const double x_k[3] = {0, 0, -0.05}, none[3] = {0, 0, 0}, w_k[3] = {0, 0, 3.0};
    scene sc;
    seen s;
    land(&sc, "plus", 0.5, x_k, none, w_k, &s);
    ENSURE(s.events == 1 && s.frame == 1);
    /* before: the box at rest in its spin against the platform's (0, 1.5, 0) m/s at its centre
       and 3 rad/s: 1/2 (1.5^2 + 1 + I_zz 9) with I_zz = m a^2 / 6 */
    const double before = 0.5 * (1.5 * 1.5 + 1.0 + 9.0 * 0.01 / 6.0);
    ENSURE(fabs(s.ke_before - before) <= 1e-12 * before);
    ENSURE(fabs(s.ke_after - energy_relative(sc.body, none, w_k, x_k)) <= 1e-12 * before);
    ENSURE(s.ke_after <= s.ke_before);
    scene_free(&sc);
    /* a compliant event lasts a step: no rotating frame is inertial over it */
    land(&sc, "gonthier", 0.5, x_k, none, w_k, &s);
    ENSURE(s.events == 1 && s.frame == -1);
    scene_free(&sc);
    /* a translating one is, for gonthier too */
    const double V[3] = {2.0, 0, 0};
    land(&sc, "gonthier", 0.0, x_k, V, none, &s);
    ENSURE(s.events == 1 && s.frame == 1);
    scene_free(&sc);
}

static void test_kinematic_bodies_moving_apart_leave_the_world_frame(void)
{
    const double x_k[3] = {0, 0, -0.05}, V[3] = {1.0, 0, 0}, none[3] = {0, 0, 0};
    for (int apart = 0; apart <= 1; apart++) {
        scene sc;
        seen s;
        land(&sc, "plus", 0.0, x_k, V, none, &s);
        ipx_ode_post_step(sc.ipx);
        ipx_ode_empty_group(sc.ipx, sc.group);
        /* a paddle at the box's +y face, moving with the platform or towards the box */
        const double y_k[3] = {0, 0.1, 0.05}, toward[3] = {1.0, -1.0, 0}, side[3] = {0, -1, 0};
        dBodyID paddle = kinematic(sc.world, y_k, apart ? toward : V, none);
        dBodySetLinearVel(sc.body, 0, 0, -1.0);
        for (int c = 0; c < 2; c++) {
            const double p[3] = {c ? 0.05 : -0.05, 0.05, 0.05};
            touch(&sc, paddle, p, side);
        }
        touch_bottom(&sc, 0.0);
        impact(&sc, &s);
        ENSURE(s.events == 1 && s.frame == (apart ? -1 : 1));
        scene_free(&sc);
    }
}

int main(void)
{
    RUN(test_a_ball_landing_on_a_moving_platform_loses_energy_in_its_frame);
    RUN(test_a_rotating_platform_gives_the_frame_of_its_rigid_motion);
    RUN(test_kinematic_bodies_moving_apart_leave_the_world_frame);
    return ipx_test_exit();
}
