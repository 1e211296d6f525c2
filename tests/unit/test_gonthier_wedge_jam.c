/* gonthier's collision (ipx_solve) ends when a body is jammed: a sphere driven into a V of two
   walls whose friction holds it comes to rest still pressed into both, and never separates.
   Before, the integration ran on to max_steps (1e7 steps, about 3 s) and failed. Now it ends
   once the touching contacts' velocities, and their change over a block of steps, are within
   1e-9 of the largest initial velocity (IPX_GONTHIER_HIT_REST), as the rigid models jam it:
   the sphere at rest, its whole momentum taken by the walls, the springs' energy held and
   reported, every promise kept. With low friction the same sphere is pushed back out and the
   collision ends by separation, not by rest. */
#include <math.h>
#include <string.h>

#include "ensure.h"
#include "impax/check.h"
#include "impax/gonthier.h"
#include "model_test.h"
#include "problem_gen.h"

static ipx_scene scene;
static const double identity[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
static const double mass = 1.0, radius = 0.1;                /* kg, m */
static const double drop[3] = {0, 0, -1};                    /* m/s, into the V */
static const double degree = 3.14159265358979323846 / 180.0; /* rad */

/* A sphere at the origin between two walls whose normals (from the wall to the sphere) lean
   wall_deg from the horizontal, friction mu, restitution 0.5, moving down at 1 m/s. */
static void wedge(double wall_deg, double mu)
{
    const double I = 0.4 * mass * radius * radius, inertia[3] = {I, I, I}, com[3] = {0, 0, 0};
    const double b = wall_deg * degree;
    scene.n_bodies = 1;
    scene.bodies[0] = ipx_body_make(mass, inertia, identity, com);
    for (int c = 0; c < 2; c++) {
        ipx_contact_frame *f = &scene.frames[c];
        f->body1 = -1;
        f->body2 = 0;
        f->n[0] = c ? -cos(b) : cos(b), f->n[1] = 0.0, f->n[2] = sin(b);
        for (int a = 0; a < 3; a++) f->point[a] = com[a] - radius * f->n[a];
        ipx_frame_from_normal(f->n, f->t1, f->t2);
        scene.contact[c] = (ipx_contact){.mu = mu, .e = 0.5};
    }
    memset(scene.body_vel, 0, sizeof scene.body_vel);
    memcpy(scene.body_vel, drop, sizeof drop);
    ipx_scene_finish(&scene, 2);
}

static ipx_status solve(ipx_result *r)
{
    const ipx_params par = ipx_test_params("gonthier", "");
    return ipx_solve(&par, &scene.problem, ipx_test_workspace(&par, 2), r);
}

static void test_jammed_sphere_ends_at_rest(void)
{
    const double walls[] = {10.0, 30.0, 60.0};
    for (int w = 0; w < 3; w++) {
        wedge(walls[w], 5.0);
        ipx_result r;
        ENSURE(solve(&r) == IPX_OK);
        ENSURE(r.counts.limits_hit == IPX_GONTHIER_HIT_REST);
        ENSURE(r.counts.steps < 100000);
        const ipx_params par = ipx_test_params("gonthier", "");
        ENSURE(ipx_test_keeps_promises(&par, &scene.problem, &r));
        /* at rest: the contact velocities, and the sphere's momentum all taken by the walls */
        for (int i = 0; i < 6; i++) ENSURE(fabs(r.v_post[i]) <= 1e-9);
        double p[3] = {0, 0, 0}; /* N s, on the sphere */
        for (int c = 0; c < 2; c++) {
            const ipx_contact_frame *f = &scene.frames[c];
            const double *pi = r.impulse + 3 * c;
            for (int a = 0; a < 3; a++)
                p[a] += pi[IPX_T1] * f->t1[a] + pi[IPX_T2] * f->t2[a] + pi[IPX_N] * f->n[a];
        }
        for (int a = 0; a < 3; a++) ENSURE_NEAR(p[a], -mass * drop[a], 1e-8);
        /* jammed: both walls press, and the springs hold what the sphere brought minus losses */
        ENSURE(r.impulse[IPX_N] > 0.0 && r.impulse[3 + IPX_N] > 0.0);
        ENSURE(r.delta_stored > 0.0);
        ENSURE(r.delta_stored < 0.5 * mass * 1.0 * 1.0);
    }
}

static void test_slippery_wedge_ends_by_separation(void)
{
    wedge(10.0, 0.1);
    ipx_result r;
    ENSURE(solve(&r) == IPX_OK);
    ENSURE(r.counts.limits_hit == 0);
    ENSURE(r.v_post[IPX_N] > 0.0 && r.v_post[3 + IPX_N] > 0.0); /* pushed back out */
    const ipx_params par = ipx_test_params("gonthier", "");
    ENSURE(ipx_test_keeps_promises(&par, &scene.problem, &r));
}

int main(void)
{
    RUN(test_jammed_sphere_ends_at_rest);
    RUN(test_slippery_wedge_ends_by_separation);
    return ipx_test_exit();
}
