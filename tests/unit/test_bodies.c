/* Contact-space assembly from free rigid bodies against closed forms and conservation laws. */
#include <math.h>
#include <string.h>

#include "ensure.h"
#include "problem_gen.h"

static ipx_scene scene;
static const double identity[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};

static void test_sphere_on_ground_has_closed_form_W(void)
{
    /* solid sphere m = 2 kg, r = 0.1 m, I = 2/5 m r^2; contact at the bottom, normal +z */
    const double m = 2.0, r = 0.1, I = 0.4 * m * r * r;
    const double inertia[3] = {I, I, I}, com[3] = {0, 0, r};
    scene.n_bodies = 1;
    scene.bodies[0] = ipx_body_make(m, inertia, identity, com);
    ipx_contact_frame *f = &scene.frames[0];
    f->body1 = -1;
    f->body2 = 0;
    memset(f->point, 0, sizeof f->point);
    f->n[0] = 0, f->n[1] = 0, f->n[2] = 1;
    ipx_frame_from_normal(f->n, f->t1, f->t2);
    /* falling at 3 m/s while spinning about y at 5 rad/s */
    const double u[6] = {0, 0, -3, 0, 5, 0};
    memcpy(scene.body_vel, u, sizeof u);
    ipx_scene_finish(&scene, 1);
    const double *W = scene.W, *v = scene.v;
    ENSURE_NEAR(W[IPX_N + 3 * IPX_N], 1.0 / m, 1e-15); /* normal: 1/m */
    ENSURE_NEAR(W[IPX_T1 + 3 * IPX_T1], 1.0 / m + r * r / I,
                1e-12); /* tangent: 1/m + r^2/I = 7/(2m) */
    ENSURE_NEAR(W[IPX_T1 + 3 * IPX_N], 0.0, 1e-15);
    ENSURE_NEAR(v[IPX_N], -3.0, 1e-15); /* approaching */
    /* contact point velocity = w x (p - c) = (0,5,0) x (0,0,-0.1) = (-0.5, 0, 0) */
    double slip_x = v[IPX_T1] * f->t1[0] + v[IPX_T2] * f->t2[0];
    ENSURE_NEAR(slip_x, -0.5, 1e-14);
}

static void test_frame_from_normal_is_right_handed_and_orthonormal(void)
{
    ipx_rng rng;
    ipx_rng_seed(&rng, 3);
    for (int t = 0; t < 1000; t++) {
        double n[3] = {ipx_rng_normal(&rng), ipx_rng_normal(&rng), ipx_rng_normal(&rng)}, t1[3],
               t2[3];
        double len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
        for (int a = 0; a < 3; a++) n[a] /= len;
        ipx_frame_from_normal(n, t1, t2);
        double c[3] = {t1[1] * t2[2] - t1[2] * t2[1], t1[2] * t2[0] - t1[0] * t2[2],
                       t1[0] * t2[1] - t1[1] * t2[0]};
        for (int a = 0; a < 3; a++) ENSURE_NEAR(c[a], n[a], 1e-14);
        ENSURE_NEAR(t1[0] * n[0] + t1[1] * n[1] + t1[2] * n[2], 0.0, 1e-15);
        ENSURE_NEAR(t1[0] * t1[0] + t1[1] * t1[1] + t1[2] * t1[2], 1.0, 1e-14);
    }
}

static double kinetic_energy(const ipx_scene *s, const double *vel)
{
    /* T = 1/2 sum m v^2 + 1/2 w^T I w with I = inverse of inv_inertia (3x3 solve by cofactors) */
    double T = 0.0;
    for (int b = 0; b < s->n_bodies; b++) {
        const double *u = vel + 6 * b, *A = s->bodies[b].inv_inertia;
        T += 0.5 * (u[0] * u[0] + u[1] * u[1] + u[2] * u[2]) / s->bodies[b].inv_mass;
        double det = A[0] * (A[4] * A[8] - A[7] * A[5]) - A[3] * (A[1] * A[8] - A[7] * A[2]) +
                     A[6] * (A[1] * A[5] - A[4] * A[2]);
        double cof[9] = {
            A[4] * A[8] - A[5] * A[7], A[5] * A[6] - A[3] * A[8], A[3] * A[7] - A[4] * A[6],
            A[7] * A[2] - A[8] * A[1], A[8] * A[0] - A[6] * A[2], A[6] * A[1] - A[7] * A[0],
            A[1] * A[5] - A[2] * A[4], A[2] * A[3] - A[0] * A[5], A[0] * A[4] - A[1] * A[3]};
        const double *w = u + 3;
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++) T += 0.5 * w[i] * cof[i + 3 * j] / det * w[j];
    }
    return T;
}

static void test_impulse_changes_contact_velocity_by_W_pi_and_energy_by_formula(void)
{
    ipx_rng rng;
    ipx_rng_seed(&rng, 11);
    ipx_gen_options opt = ipx_gen_default_options();
    for (int t = 0; t < 200; t++) {
        int k = 1 + t % 8;
        ipx_gen_random(&scene, k, &opt, &rng);
        double pi[IPX_TEST_MAX_ROWS], vel[6 * IPX_TEST_MAX_CONTACTS],
            W2[IPX_TEST_MAX_ROWS * IPX_TEST_MAX_ROWS], v2[IPX_TEST_MAX_ROWS];
        for (int i = 0; i < 3 * k; i++) pi[i] = ipx_rng_normal(&rng);
        memcpy(vel, scene.body_vel, sizeof(double) * 6 * scene.n_bodies);
        double T0 = kinetic_energy(&scene, vel);
        ipx_bodies_apply_impulse(scene.n_bodies, scene.bodies, k, scene.frames, pi, vel);
        ipx_bodies_assemble(scene.n_bodies, scene.bodies, k, scene.frames, vel, W2, v2);
        double work = 0.0, quad = 0.0;
        for (int i = 0; i < 3 * k; i++) {
            double wpi = 0.0;
            for (int j = 0; j < 3 * k; j++) wpi += scene.W[i + 3 * k * j] * pi[j];
            ENSURE_NEAR(v2[i], scene.v[i] + wpi, 1e-10 * (1.0 + fabs(v2[i])));
            work += pi[i] * scene.v[i];
            quad += pi[i] * wpi;
        }
        double T1 = kinetic_energy(&scene, vel);
        ENSURE_NEAR(T1 - T0, work + 0.5 * quad, 1e-9 * (1.0 + fabs(T0) + fabs(T1)));
    }
}

int main(void)
{
    RUN(test_sphere_on_ground_has_closed_form_W);
    RUN(test_frame_from_normal_is_right_handed_and_orthonormal);
    RUN(test_impulse_changes_contact_velocity_by_W_pi_and_energy_by_formula);
    return ipx_test_exit();
}
