/* bench_ode_gonthier: what the compliant reference costs against one impact. The paper's ball
   (2 kg, R 0.1 m, Table II: k 1e6, e 0.5) hits a plane at 1 m/s (frictionless, so that both
   models have the closed-form answer v+ = e v-):
   (a) core: one collision integrated by "gonthier" (ipx_solve) with 10 to 400 steps per elastic
       contact duration, with the error of its exit speed, against one "plus" impact (exact);
   (b) through ODE: the steps of 1 ms around one bounce, with the adapter in force mode against
       the same steps with PLUS and with ODE's own contact handling ("ode"), in the same run.
   Median over repeats of the mean wall time of a batch. Usage: bench_ode_gonthier */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <ode/ode.h>

#include "impax/gonthier.h"
#include "impax/ode.h"
#include "impax/registry.h"
#include "model_test.h"
#include "timing.h"

#define REPEATS 9

static const double W[9] = {0.5, 0, 0, 0, 0.5, 0, 0, 0, 0.5}, v[3] = {0, 0, -1};
static const ipx_contact contact = {.mu = 0.0, .e = 0.5};
static const ipx_problem ball = {.k = 1, .W = W, .v = v, .contact = &contact};

/* Median us per solve, and the error of the exit speed (relative to e v-). */
static double time_solve(const char *model, const char *params, int batch, double *error)
{
    ipx_params par = ipx_test_params(model, params);
    ipx_workspace *ws = ipx_workspace_create(&par, 1);
    ipx_result r;
    double samples[REPEATS];
    for (int rep = 0; rep < REPEATS; rep++) {
        const double t0 = ipx_now_us();
        for (int b = 0; b < batch; b++) ipx_solve(&par, &ball, ws, &r);
        samples[rep] = (ipx_now_us() - t0) / batch;
    }
    *error = fabs(r.v_post[IPX_N] / 0.5 - 1.0);
    ipx_workspace_destroy(ws);
    return ipx_median(samples, REPEATS);
}

typedef struct drop {
    dWorldID world;
    dSpaceID space;
    dJointGroupID group;
    dBodyID body;
    ipx_ode_context *ipx;
} drop;

static void near(void *data, dGeomID a, dGeomID b)
{
    drop *d = data;
    dContactGeom g[1];
    if (dCollide(a, b, 1, g, sizeof g[0]) == 0) return;
    dContact c;
    memset(&c, 0, sizeof c);
    c.surface.mode = dContactBounce;
    c.surface.bounce = 0.5;
    c.geom = g[0];
    ipx_ode_contact(d->ipx, d->world, d->group, &c, dGeomGetBody(a), dGeomGetBody(b));
}

/* us for 40 steps of 1 ms in which the ball (1 m/s down, no gravity, 2 mm above the plane)
   bounces once under model; *v_out its exit speed. */
static double time_bounce(const char *model, double *v_out)
{
    double samples[REPEATS];
    for (int rep = 0; rep < REPEATS; rep++) {
        drop d;
        d.world = dWorldCreate();
        dWorldSetGravity(d.world, 0, 0, 0);
        d.space = dSimpleSpaceCreate(0);
        d.group = dJointGroupCreate(0);
        dCreatePlane(d.space, 0, 0, 1, 0);
        d.body = dBodyCreate(d.world);
        dMass m;
        dMassSetSphereTotal(&m, 2.0, 0.1);
        dBodySetMass(d.body, &m);
        dBodySetPosition(d.body, 0, 0, 0.102);
        dBodySetLinearVel(d.body, 0, 0, -1);
        dGeomSetBody(dCreateSphere(d.space, 0.1), d.body);
        d.ipx = ipx_ode_create(d.world);
        char msg[256];
        ipx_ode_configure(d.ipx, model, strcmp(model, "gonthier") == 0 ? "mu_s=0,mu_c=0" : "", msg,
                          sizeof msg);
        const double t0 = ipx_now_us();
        for (int step = 0; step < 40; step++) {
            dSpaceCollide(d.space, &d, near);
            ipx_ode_step(d.ipx, 0.001);
            ipx_ode_empty_group(d.ipx, d.group);
        }
        samples[rep] = ipx_now_us() - t0;
        *v_out = dBodyGetLinearVel(d.body)[2];
        ipx_ode_destroy(d.ipx);
        dJointGroupDestroy(d.group);
        dSpaceDestroy(d.space);
        dWorldDestroy(d.world);
    }
    return ipx_median(samples, REPEATS);
}

int main(void)
{
    dInitODE2(0);
    double err_plus, err;
    const double t_plus = time_solve("plus", "", 20000, &err_plus);
    printf("(a) one collision in core, us (exit-speed error)\n");
    printf("plus                          %10.3f  (%.1e)\n", t_plus, err_plus);
    static const int steps[] = {10, 20, 40, 80, 160, 400};
    for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++) {
        char params[64];
        snprintf(params, sizeof params, "k=1e6,substep=1,steps_per_contact=%d", steps[i]);
        const double t = time_solve("gonthier", params, 200, &err);
        printf("gonthier, %3d steps/contact   %10.3f  (%.1e)  ratio to plus %7.1f%s\n", steps[i], t,
               err, t / t_plus, err <= 1e-3 ? "  <= 0.1 %" : "");
    }
    double v_ode, v_plus, v_gon;
    const double b_ode = time_bounce("ode", &v_ode), b_plus = time_bounce("plus", &v_plus),
                 b_gon = time_bounce("gonthier", &v_gon);
    printf("(b) through ODE: 40 steps of 1 ms around one bounce, us (exit speed, m/s), ratio to "
           "ODE's own contact\n");
    printf("ode       %10.1f  (%.5f)\nplus      %10.1f  (%.5f)  ratio %.1f\n"
           "gonthier  %10.1f  (%.5f)  ratio %.1f\n",
           b_ode, v_ode, b_plus, v_plus, b_plus / b_ode, b_gon, v_gon, b_gon / b_ode);
    dCloseODE();
    return 0;
}
