/* The adapter's context: configuration errors, the pass-through model, the event report, and the
   contact registry through ODE's lifetimes (group empties with joint addresses reused, destroyed
   joints, bodies and worlds). The sanitizer build turns any use of a freed joint into a failure. */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "ensure.h"
#include "impax/ode.h"
#include "impax/registry.h"
#include "ode_kit.h"

typedef struct ball_world {
    dWorldID world;
    dJointGroupID group;
    dBodyID ball;
} ball_world;

/* A 1 kg ball (r 0.1 m) falling at 1 m/s onto the ground, no gravity. */
static void ball_world_make(ball_world *s)
{
    s->world = dWorldCreate();
    s->group = dJointGroupCreate(0);
    const double at[3] = {0, 0, 0.099};
    s->ball = kit_ball(s->world, 1.0, 0.1, at);
    dBodySetLinearVel(s->ball, 0, 0, -1);
}

static dContact ground_contact(double e)
{
    const double p[3] = {0, 0, 0}, up[3] = {0, 0, 1};
    return kit_contact(p, up, 0.001, 0.0, e, 0.01);
}

static void ball_world_free(ball_world *s)
{
    dJointGroupDestroy(s->group);
    dWorldDestroy(s->world);
}

static void test_configuration_errors_name_the_item_and_keep_the_old_setting(void)
{
    ball_world s;
    ball_world_make(&s);
    ipx_ode_context *ipx = ipx_ode_create(s.world);
    char msg[256];
    ENSURE(strcmp(ipx_ode_model_name(ipx), "plus") == 0);
    ENSURE(ipx_ode_configure(ipx, "nosuch", NULL, msg, sizeof msg) != 0);
    ENSURE(strstr(msg, "nosuch") && strstr(msg, "plus") && strstr(msg, "ode"));
    ENSURE(ipx_ode_configure(ipx, "plus", "theta_max=-3", msg, sizeof msg) != 0);
    ENSURE(strstr(msg, "theta_max") != NULL);
    ENSURE(ipx_ode_configure(ipx, "ode", "x=1", msg, sizeof msg) != 0);
    ENSURE(strcmp(ipx_ode_model_name(ipx), "plus") == 0);
    /* found by tests/fuzz/fuzz_params: the text is quoted printably, like every list's */
    ENSURE(ipx_ode_configure(ipx, "ode", "ab\x1f=1", msg, sizeof msg) != 0);
    ENSURE(strstr(msg, "'ab\\x1f=1'") != NULL);
    ENSURE(ipx_ode_configure(ipx, "no\nsuch", NULL, msg, sizeof msg) != 0 &&
           strstr(msg, "'no\\nsuch'"));
    ENSURE(ipx_ode_configure(ipx, "ode", ",", msg, sizeof msg) != 0 && strstr(msg, "empty item"));
    ENSURE(strcmp(ipx_ode_model_name(ipx), "plus") == 0);
    ENSURE(ipx_ode_configure(ipx, "ode", " \n\t", msg, sizeof msg) ==
           0); /* white space alone: no items */
    ENSURE(strcmp(ipx_ode_model_name(ipx), "ode") == 0);
    ENSURE(ipx_ode_configure(ipx, "plus", NULL, msg, sizeof msg) == 0);
    ipx_ode_config cfg = ipx_ode_default_config();
    cfg.impact_threshold = -1.0;
    ENSURE(ipx_ode_set_config(ipx, &cfg, msg, sizeof msg) != 0);
    ENSURE(strstr(msg, "impact_threshold") != NULL);
    ENSURE(ipx_ode_get_config(ipx).impact_threshold == ipx_ode_default_config().impact_threshold);
    ENSURE(ipx_ode_context_for(s.world) == ipx);
    ipx_ode_destroy(ipx);
    ENSURE(ipx_ode_context_for(s.world) == NULL);
    ball_world_free(&s);
}

/* What the adapter resolved is what a caller reads: the model's values after its defaults and
   the parameter string (none for the pass-through), and whether the model acts by forces. */
static void test_resolved_parameters_are_read_from_the_adapter(void)
{
    ball_world s;
    ball_world_make(&s);
    ipx_ode_context *ipx = ipx_ode_create(s.world);
    char msg[256];
    ENSURE(ipx_ode_configure(ipx, "aplcp", "max_sweeps=7, newton_restitution=1", msg, sizeof msg) ==
           0);
    const ipx_params *p = ipx_ode_get_params(ipx);
    ENSURE(p && strcmp(p->model->name, "aplcp") == 0);
    ENSURE(p->value[ipx_param_index(p->model, "max_sweeps")] == 7.0);
    ENSURE(ipx_params_inelastic(p) == 0);
    ENSURE(ipx_ode_is_compliant(ipx) == 0);
    ENSURE(ipx_ode_configure(ipx, "routh", NULL, msg, sizeof msg) == 0);
    ENSURE(ipx_params_inelastic(ipx_ode_get_params(ipx)) == 1);
    ENSURE(ipx_ode_configure(ipx, "gonthier", NULL, msg, sizeof msg) == 0);
    ENSURE(ipx_ode_is_compliant(ipx) == 1);
    ENSURE(ipx_ode_configure(ipx, "ode", NULL, msg, sizeof msg) == 0);
    ENSURE(ipx_ode_get_params(ipx) == NULL && ipx_ode_is_compliant(ipx) == 0);
    ipx_ode_destroy(ipx);
    ball_world_free(&s);
}

/* The adapter's keys are read with the core's list rules (ipx_params_next): white space and
   newlines around items, keys and values as ipx_params_parse skips them, and the same errors for
   an empty item, an item without '=' or an empty value, with the config left as it was. */
static void test_split_follows_the_core_list_rules(void)
{
    ipx_ode_config cfg = ipx_ode_default_config();
    char model_text[128], msg[256], core_msg[256];
    ENSURE(ipx_ode_split_params(" jitter_steps = 2 ,\n theta_max=\t0.1 , recovery = velocity\n",
                                &cfg, model_text, sizeof model_text, msg, sizeof msg) == 0);
    ENSURE(cfg.jitter_steps == 2.0 && cfg.recovery == IPX_ODE_RECOVERY_VELOCITY);
    ENSURE(strcmp(model_text, "theta_max=0.1") == 0);
    ipx_params p;
    ENSURE(ipx_params_init(&p, "plus", msg, sizeof msg) == IPX_OK);
    ENSURE(ipx_params_parse(&p, model_text, msg, sizeof msg) == IPX_OK &&
           p.value[ipx_param_index(p.model, "theta_max")] == 0.1);
    static const char *const bad[] = {"theta_max=0.1,,v_plastic=0.1",
                                      ",theta_max=0.1",
                                      "theta_max=0.1,",
                                      "theta_max=0.1, ,v_plastic=1",
                                      "theta_max",
                                      "theta_max= ",
                                      " =1"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ENSURE(ipx_ode_split_params(bad[i], &cfg, model_text, sizeof model_text, msg, sizeof msg) !=
               0);
        ENSURE(ipx_params_parse(&p, bad[i], core_msg, sizeof core_msg) != IPX_OK);
        ENSURE(strcmp(msg, core_msg) == 0);
        printf("  '%s': %s\n", bad[i], msg);
    }
    /* a list that fails late leaves the config as it was */
    ENSURE(ipx_ode_split_params("jitter_steps=3,recovery=sideways", &cfg, model_text,
                                sizeof model_text, msg, sizeof msg) != 0);
    ENSURE(cfg.jitter_steps == 2.0 && strstr(msg, "recovery='sideways'"));
    ENSURE(ipx_ode_split_params("recovery_switch=1e3,impact_threshold=1e-400", &cfg, model_text,
                                sizeof model_text, msg, sizeof msg) != 0);
    ENSURE(strstr(msg, "impact_threshold") && strstr(msg, "underflows") &&
           cfg.recovery_switch == 16);
    ENSURE(ipx_ode_split_params("recovery_switch=1e3", &cfg, model_text, sizeof model_text, msg,
                                sizeof msg) == 0);
    ENSURE(cfg.recovery_switch == 1000);
}

static void test_model_ode_is_a_pure_pass_through(void)
{
    ball_world a, b;
    ball_world_make(&a);
    ball_world_make(&b);
    ipx_ode_context *ipx = ipx_ode_create(b.world);
    char msg[256];
    ENSURE(ipx_ode_configure(ipx, "ode", NULL, msg, sizeof msg) == 0);
    dContact c = ground_contact(0.7);
    dJointAttach(dJointCreateContact(a.world, a.group, &c), a.ball, 0);
    ipx_ode_contact(ipx, b.world, b.group, &c, b.ball, 0);
    dWorldStep(a.world, 0.001);
    ipx_ode_world_step(b.world, 0.001); /* the drop-in wrapper finds the context */
    ENSURE(memcmp(dBodyGetLinearVel(a.ball), dBodyGetLinearVel(b.ball), 3 * sizeof(dReal)) == 0);
    ENSURE(ipx_ode_get_stats(ipx).impact_events == 0);
    ipx_ode_destroy(ipx);
    ball_world_free(&a);
    ball_world_free(&b);
}

typedef struct seen {
    int calls, ok, k;
    double ke_before, ke_after, vn_before, vn_after, impulse_n;
    double point[3], normal[3], impulse_world[3]; /* contact 0's, world frame (NaN if absent) */
    int problem_k;                                /* the problem handed to the model, -1 if none */
    double problem_vn, problem_w;                 /* its v_n and W_nn (1/kg) of contact 0 */
    char model[16], status[256];
} seen;

static void record_event(const ipx_ode_event *ev, void *user)
{
    seen *s = user;
    s->calls++;
    s->ok = ev->ok;
    s->k = ev->k;
    s->ke_before = ev->ke_before;
    s->ke_after = ev->ke_after;
    s->vn_before = ev->vn_before ? ev->vn_before[0] : NAN;
    s->vn_after = ev->vn_after ? ev->vn_after[0] : NAN;
    s->impulse_n = ev->impulse ? ev->impulse[2] : NAN;
    for (int i = 0; i < 3; i++) {
        s->point[i] = ev->point ? ev->point[i] : NAN;
        s->normal[i] = ev->normal ? ev->normal[i] : NAN;
        s->impulse_world[i] = ev->impulse_world ? ev->impulse_world[i] : NAN;
    }
    s->problem_k = ev->problem ? ev->problem->k : -1;
    s->problem_vn = ev->problem ? ev->problem->v[IPX_N] : NAN;
    s->problem_w = ev->problem ? ev->problem->W[IPX_N + IPX_N * 3 * ev->problem->k] : NAN;
    snprintf(s->model, sizeof s->model, "%s", ev->model);
    snprintf(s->status, sizeof s->status, "%s", ev->status);
}

/* A ball world with a context whose events are recorded into got. */
static ipx_ode_context *watched_ball_world(ball_world *s, seen *got)
{
    ball_world_make(s);
    ipx_ode_context *ipx = ipx_ode_create(s->world);
    ipx_ode_set_event_callback(ipx, record_event, got);
    return ipx;
}

static void test_event_reports_the_impact(void)
{
    ball_world s;
    seen got = {0};
    ipx_ode_context *ipx = watched_ball_world(&s, &got);
    dContact c = ground_contact(0.6);
    ipx_ode_contact(ipx, s.world, s.group, &c, s.ball, 0);
    ipx_ode_step(ipx, 0.001);
    ENSURE(got.calls == 1 && got.ok == 1 && got.k == 1);
    ENSURE(strcmp(got.model, "plus") == 0 && strcmp(got.status, "ok") == 0);
    ENSURE_NEAR(got.vn_before, -1.0, 1e-12);
    ENSURE_NEAR(got.vn_after, 0.6, 1e-12);
    ENSURE_NEAR(got.impulse_n, 1.6, 1e-12); /* m (1 + e) v */
    ENSURE_NEAR(got.ke_before, 0.5, 1e-12);
    ENSURE_NEAR(got.ke_after, 0.5 * 0.36, 1e-12); /* e^2 of it */
    ENSURE(got.problem_k == 1);                   /* the problem itself, for `impax set` */
    ENSURE_NEAR(got.problem_vn, -1.0, 1e-12);
    ENSURE_NEAR(got.problem_w, 1.0, 1e-12); /* 1/m for a 1 kg ball pushed at its centre */
    /* where, for viewers: the point, ODE's normal, the impulse on the ball in the world frame */
    ENSURE(got.point[0] == 0.0 && got.point[1] == 0.0 && got.point[2] == 0.0 &&
           got.normal[2] == 1.0);
    ENSURE_NEAR(got.impulse_world[2], 1.6, 1e-12);
    ENSURE_NEAR(hypot(got.impulse_world[0], got.impulse_world[1]), 0.0, 1e-12);
    /* a failing island is reported too */
    ipx_ode_empty_group(ipx, s.group);
    dBodySetLinearVel(s.ball, 0, 0, -1);
    dContact bad = ground_contact(0.6);
    bad.surface.mu = -1.0;
    ipx_ode_contact(ipx, s.world, s.group, &bad, s.ball, 0);
    ipx_ode_pre_step(ipx, 0.001);
    ENSURE(got.calls == 2 && got.ok == 0 && strstr(got.status, "mu") != NULL);
    ENSURE(got.problem_k == 1); /* the model refused it: the problem is still shown */
    ENSURE_NEAR(got.problem_vn, -1.0, 1e-12);
    ENSURE(got.ke_after == got.ke_before && isnan(got.vn_after)); /* nothing was handed back */
    ENSURE(got.normal[2] == 1.0 && isnan(got.impulse_world[2]));
    ipx_ode_post_step(ipx);
    ipx_ode_destroy(ipx);
    ball_world_free(&s);
}

/* Attached (world, ball) with the normal down, ODE acts on the ball as its first body: the
   event's world impulse is still the one on the ball, up. */
static void test_event_world_impulse_is_on_the_dynamic_body(void)
{
    ball_world s;
    seen got = {0};
    ipx_ode_context *ipx = watched_ball_world(&s, &got);
    const double p[3] = {0, 0, 0}, down[3] = {0, 0, -1};
    dContact c = kit_contact(p, down, 0.001, 0.0, 0.6, 0.01);
    ipx_ode_contact(ipx, s.world, s.group, &c, 0, s.ball);
    ipx_ode_step(ipx, 0.001);
    ENSURE(got.calls == 1 && got.ok == 1 && got.normal[2] == -1.0);
    ENSURE_NEAR(got.impulse_world[2], 1.6, 1e-12);
    ENSURE_NEAR(dBodyGetLinearVel(s.ball)[2], 0.6, 1e-9);
    ipx_ode_destroy(ipx);
    ball_world_free(&s);
}

/* ODE's convex colliders can report one point twice. The copy stays out of the problem (its rows
   would only make W singular) and follows its twin: disabled with it when it separates. A
   second contact at another point is a contact of its own. */
static void test_duplicate_contacts_join_their_twin(void)
{
    ball_world s;
    seen got = {0};
    ipx_ode_context *ipx = watched_ball_world(&s, &got);
    dContact c = ground_contact(0.6);
    dJointID j1 = ipx_ode_contact(ipx, s.world, s.group, &c, s.ball, 0);
    dJointID j2 = ipx_ode_contact(ipx, s.world, s.group, &c, s.ball, 0);
    ipx_ode_pre_step(ipx, 0.001);
    ENSURE(got.calls == 1 && got.ok == 1 && got.k == 1);
    ENSURE_NEAR(got.vn_after, 0.6, 1e-12);
    ENSURE(!dJointIsEnabled(j1) && !dJointIsEnabled(j2));
    ipx_ode_post_step(ipx);
    ipx_ode_empty_group(ipx, s.group);
    dBodySetLinearVel(s.ball, 0, 0, -1);
    dContact other = c;
    other.geom.pos[0] = 1e-6; /* 1 um away: another point */
    ipx_ode_contact(ipx, s.world, s.group, &c, s.ball, 0);
    ipx_ode_contact(ipx, s.world, s.group, &other, s.ball, 0);
    ipx_ode_pre_step(ipx, 0.001);
    ENSURE(got.calls == 2 && got.k == 2);
    ipx_ode_post_step(ipx);
    ipx_ode_destroy(ipx);
    ball_world_free(&s);
}

/* After an empty ODE reuses joint addresses: the new contact's parameters must be the ones used. */
static void test_group_empty_then_reused_addresses_use_the_new_contact(void)
{
    ball_world s;
    ball_world_make(&s);
    ipx_ode_context *ipx = ipx_ode_create(s.world);
    dContact bouncy = ground_contact(0.9), dead = ground_contact(0.0);
    dJointID first = ipx_ode_contact(ipx, s.world, s.group, &bouncy, s.ball, 0);
    ipx_ode_empty_group(ipx, s.group);
    dJointID second = ipx_ode_contact(ipx, s.world, s.group, &dead, s.ball, 0);
    printf("  joint address %s after the empty\n", first == second ? "reused" : "not reused");
    ipx_ode_pre_step(ipx, 0.001);
    ENSURE_NEAR(dBodyGetLinearVel(s.ball)[2], 0.0, 1e-12); /* e = 0 of the new contact, not 0.9 */
    ipx_ode_post_step(ipx);
    ipx_ode_destroy(ipx);
    ball_world_free(&s);
}

/* A stand-alone contact (no group) destroyed, a body destroyed under a live contact, then the
   world destroyed with group joints still in their group. */
static void test_destroyed_joints_bodies_and_worlds_are_forgotten(void)
{
    ball_world s;
    ball_world_make(&s);
    ipx_ode_context *ipx = ipx_ode_create(s.world);
    dContact c = ground_contact(0.5);
    dJointID lone = ipx_ode_contact(ipx, s.world, 0, &c, s.ball, 0);
    ipx_ode_on_joint_destroyed(ipx, lone);
    dJointDestroy(lone);
    ENSURE(ipx_ode_pre_step(ipx, 0.001) == 0);
    ipx_ode_post_step(ipx);

    const double at[3] = {1, 0, 0.099};
    dBodyID other = kit_ball(s.world, 1.0, 0.1, at);
    dBodySetLinearVel(other, 0, 0, -1);
    ipx_ode_contact(ipx, s.world, s.group, &c, other, 0);
    ipx_ode_contact(ipx, s.world, s.group, &c, s.ball, 0);
    ipx_ode_on_body_destroyed(ipx, other);
    dBodyDestroy(other);
    ENSURE(ipx_ode_pre_step(ipx, 0.001) == 1); /* only the ball's contact is left */
    ENSURE_NEAR(dBodyGetLinearVel(s.ball)[2], 0.5, 1e-12);
    ipx_ode_post_step(ipx);

    ipx_ode_on_world_destroyed(ipx);
    dWorldDestroy(s.world);
    ENSURE(ipx_ode_pre_step(ipx, 0.001) == 0);
    ipx_ode_empty_group(ipx, s.group); /* group joints outlive the world until the empty */
    dJointGroupDestroy(s.group);
    ipx_ode_destroy(ipx);
}

/* Contacts the application disabled, or never attached, are not impacts: ODE ignores them too. */
static void test_unattached_and_app_disabled_contacts_are_ignored(void)
{
    ball_world s;
    ball_world_make(&s);
    ipx_ode_context *ipx = ipx_ode_create(s.world);
    dContact c = ground_contact(0.5);
    dJointID unattached = dJointCreateContact(s.world, s.group, &c);
    ipx_ode_on_contact_created(ipx, unattached, s.group, &c);
    dJointID disabled = ipx_ode_contact(ipx, s.world, s.group, &c, s.ball, 0);
    dJointDisable(disabled);
    ENSURE(ipx_ode_pre_step(ipx, 0.001) == 0);
    ENSURE(dBodyGetLinearVel(s.ball)[2] == -1.0);
    ipx_ode_post_step(ipx);
    ENSURE(!dJointIsEnabled(disabled)); /* the application's choice is kept */
    dJointEnable(disabled);
    ENSURE(ipx_ode_pre_step(ipx, 0.001) == 1);
    ipx_ode_post_step(ipx);
    ipx_ode_destroy(ipx);
    ball_world_free(&s);
}

/* A ball bouncing on the ground for 3 s (e = 0.7), contacts reported through the hooks the way
   an interposer does: the group empty is broadcast to every context (NULL). Returns the final
   height (m) and counts the impact events. */
typedef struct bounce_run {
    double z;
    long events;
} bounce_run;

static void *bouncing_ball(void *out)
{
    dAllocateODEDataForThread(dAllocateMaskAll);
    ball_world s;
    ball_world_make(&s);
    /* ODE's built-in threading object is shared by default: a world stepped concurrently with
       others needs its own */
    dThreadingImplementationID threading = dThreadingAllocateSelfThreadedImplementation();
    dWorldSetStepThreadingImplementation(s.world, dThreadingImplementationGetFunctions(threading),
                                         threading);
    dWorldSetGravity(s.world, 0, 0, -9.81);
    dBodySetPosition(s.ball, 0, 0, 1.0);
    dBodySetLinearVel(s.ball, 0, 0, 0);
    ipx_ode_context *ipx = ipx_ode_create(s.world);
    for (int step = 0; step < 3000; step++) {
        double z = dBodyGetPosition(s.ball)[2];
        if (z < 0.1) {
            const double p[3] = {0, 0, 0}, up[3] = {0, 0, 1};
            dContact c = kit_contact(p, up, 0.1 - z, 0.0, 0.7, 0.01);
            dJointID j = dJointCreateContact(s.world, s.group, &c);
            ipx_ode_on_contact_created(ipx, j, s.group, &c);
            dJointAttach(j, s.ball, 0);
            ipx_ode_on_contact_attached(ipx, j, s.ball, 0);
        }
        ipx_ode_world_step(s.world, 0.001);
        ipx_ode_on_group_emptied(NULL, s.group);
        dJointGroupEmpty(s.group);
    }
    bounce_run *r = out;
    r->z = dBodyGetPosition(s.ball)[2];
    r->events = ipx_ode_get_stats(ipx).impact_events;
    ipx_ode_destroy(ipx);
    ball_world_free(&s);
    dThreadingFreeImplementation(threading);
    dCleanupODEAllDataForThread();
    return NULL;
}

static void test_worlds_in_threads_match_a_single_thread_run(void)
{
    bounce_run alone, run[4];
    bouncing_ball(&alone);
    pthread_t t[4];
    for (int i = 0; i < 4; i++) ENSURE(pthread_create(&t[i], NULL, bouncing_ball, &run[i]) == 0);
    for (int i = 0; i < 4; i++) pthread_join(t[i], NULL);
    printf("  alone: z %.9f m after %ld impact events\n", alone.z, alone.events);
    ENSURE(alone.events >= 3);
    for (int i = 0; i < 4; i++) {
        ENSURE(run[i].z == alone.z); /* bit for bit */
        ENSURE(run[i].events == alone.events);
    }
}

/* The public impact test agrees with the pre-step: events exactly when it says impacting. The
   threshold is 1e-3 m/s + 2 |g| h (gravity 9.81, h 1 ms: 0.0206 m/s); a bounce contact impacts
   above its own bounce_vel. */
static void test_contact_impacting_matches_the_pre_step(void)
{
    const double speeds[] = {1.0, 0.03, 0.02, 0.005};
    const double bounce_vels[] = {0.01, 2.0};
    for (int b = 0; b < 2; b++)
        for (int i = 0; i < 4; i++) {
            ball_world s;
            ball_world_make(&s);
            dWorldSetGravity(s.world, 0, 0, -9.81);
            dBodySetLinearVel(s.ball, 0, 0, -speeds[i]);
            ipx_ode_context *ipx = ipx_ode_create(s.world);
            const double p[3] = {0, 0, 0}, up[3] = {0, 0, 1};
            dContact c = kit_contact(p, up, 0.001, 0.0, 0.5, bounce_vels[b]);
            int said = ipx_ode_contact_impacting(ipx, &c, s.ball, 0, 0.001);
            int expected = speeds[i] > fmax(bounce_vels[b], 1e-3 + 2 * 9.81 * 0.001);
            ENSURE(said == expected);
            ipx_ode_contact(ipx, s.world, s.group, &c, s.ball, 0);
            ENSURE(ipx_ode_pre_step(ipx, 0.001) == said);
            ipx_ode_post_step(ipx);
            ENSURE(ipx_ode_contact_impacting(ipx, &c, 0, 0, 0.001) == 0); /* no dynamic body */
            ipx_ode_destroy(ipx);
            ball_world_free(&s);
        }
}

int main(void)
{
    dInitODE2(0);
    RUN(test_configuration_errors_name_the_item_and_keep_the_old_setting);
    RUN(test_split_follows_the_core_list_rules);
    RUN(test_resolved_parameters_are_read_from_the_adapter);
    RUN(test_model_ode_is_a_pure_pass_through);
    RUN(test_event_reports_the_impact);
    RUN(test_event_world_impulse_is_on_the_dynamic_body);
    RUN(test_group_empty_then_reused_addresses_use_the_new_contact);
    RUN(test_destroyed_joints_bodies_and_worlds_are_forgotten);
    RUN(test_unattached_and_app_disabled_contacts_are_ignored);
    RUN(test_worlds_in_threads_match_a_single_thread_run);
    RUN(test_contact_impacting_matches_the_pre_step);
    RUN(test_duplicate_contacts_join_their_twin);
    dCloseODE();
    return ipx_test_exit();
}
