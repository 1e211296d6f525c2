#include <math.h>
#include <string.h>

#include "stack_scenes.h"

#define PI 3.14159265358979323846
#define SPHERE_R 0.1 /* m */

ipx_stack_options ipx_stack_default_options(void)
{
    return (ipx_stack_options){.mu = 0.5,
                               .e = 0.5,
                               .v_capture = 0.01,
                               .speed = 1.0,
                               .struck = 1,
                               .slip = 0.3,
                               .spin = 0.5,
                               .ground = 1};
}

static double draw(ipx_rng *rng, double lo, double hi, double fixed)
{
    return rng ? ipx_rng_uniform(rng, lo, hi) : fixed;
}

/* Horizontal frame with normal +z, tangents turned by angle a. */
static void up_frame(ipx_contact_frame *f, int body1, int body2, const double p[3], double a)
{
    f->body1 = body1, f->body2 = body2;
    for (int d = 0; d < 3; d++) f->point[d] = p[d];
    f->n[0] = 0.0, f->n[1] = 0.0, f->n[2] = 1.0;
    f->t1[0] = cos(a), f->t1[1] = sin(a), f->t1[2] = 0.0;
    f->t2[0] = -sin(a), f->t2[1] = cos(a), f->t2[2] = 0.0;
}

/* Velocity of body b: down at speed and sliding if it moves (the top one when struck, all when
   dropped), with a spin of o->spin * speed about axis (unit). */
static void body_velocity(ipx_scene *s, int b, int moving, const ipx_stack_options *o,
                          const double axis[3], ipx_rng *rng)
{
    double *u = s->body_vel + 6 * b;
    memset(u, 0, 6 * sizeof(double));
    if (!moving) return;
    double dir = draw(rng, 0.0, 2.0 * PI, 0.0), slip = o->slip * o->speed;
    u[0] = slip * cos(dir), u[1] = slip * sin(dir), u[2] = -o->speed;
    for (int a = 0; a < 3; a++) u[3 + a] = o->spin * o->speed * axis[a];
}

static void finish(ipx_scene *s, int k, const ipx_stack_options *o)
{
    for (int i = 0; i < k; i++)
        s->contact[i] =
            (ipx_contact){.mu = o->mu, .e = o->e, .v_capture = o->v_capture, .v_plastic = 0.0};
    ipx_scene_finish(s, k);
}

void ipx_scene_sphere_stack(ipx_scene *s, int n, const ipx_stack_options *o, ipx_rng *rng)
{
    const double R[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    s->problem = (ipx_problem){0};
    s->n_bodies = n;
    int k = 0;
    for (int b = 0; b < n; b++) {
        double m = rng ? exp(ipx_rng_uniform(rng, log(0.2), log(5.0))) : 1.0,
               I = 0.4 * m * SPHERE_R * SPHERE_R;
        const double inertia[3] = {I, I, I}, com[3] = {0.0, 0.0, SPHERE_R * (2 * b + 1)};
        s->bodies[b] = ipx_body_make(m, inertia, R, com);
        s->body_size[b] = SPHERE_R;
        double phi = draw(rng, 0.0, 2.0 * PI, 0.5 * PI), axis[3] = {cos(phi), sin(phi), 0.0};
        body_velocity(s, b, !o->struck || b == n - 1, o, axis, rng);
        if (b == 0 && !o->ground) continue;
        const double p[3] = {0.0, 0.0, 2.0 * SPHERE_R * b};
        up_frame(&s->frames[k++], b - 1, b, p, draw(rng, 0.0, 2.0 * PI, 0.0));
    }
    finish(s, k, o);
}

void ipx_scene_box_tower(ipx_scene *s, int n, int corners, const ipx_stack_options *o, ipx_rng *rng)
{
    static const double hx = 0.2, hy = 0.15, hz = 0.1;
    static const double corner[4][2] = {{1, 1}, {-1, -1}, {1, -1}, {-1, 1}};
    const double h[3] = {hx, hy, hz}, up[3] = {0.0, 0.0, 1.0};
    s->problem = (ipx_problem){0};
    s->n_bodies = n;
    int k = 0;
    for (int b = 0; b < n; b++) {
        double m = rng ? exp(ipx_rng_uniform(rng, log(0.2), log(5.0))) : 1.0;
        double yaw = draw(rng, -0.1, 0.1, 0.0), cy = cos(yaw), sy = sin(yaw);
        const double R[9] = {cy, sy, 0, -sy, cy, 0, 0, 0, 1};
        const double inertia[3] = {m / 3.0 * (h[1] * h[1] + h[2] * h[2]),
                                   m / 3.0 * (h[0] * h[0] + h[2] * h[2]),
                                   m / 3.0 * (h[0] * h[0] + h[1] * h[1])};
        const double com[3] = {draw(rng, -0.02, 0.02, 0.0), draw(rng, -0.02, 0.02, 0.0),
                               hz * (2 * b + 1)};
        s->bodies[b] = ipx_body_make(m, inertia, R, com);
        s->body_size[b] = hx;
        double sense = rng && ipx_rng_next(rng) % 2u ? -1.0 : 1.0;
        const double axis[3] = {0.0, 0.0, sense * up[2]};
        body_velocity(s, b, !o->struck || b == n - 1, o, axis, rng);
        if (b == 0 && !o->ground) continue;
        /* corners of the (shrunk) overlap, at the interface height */
        for (int c = 0; c < corners; c++) {
            const double p[3] = {0.8 * hx * corner[c][0], 0.8 * hy * corner[c][1], 2.0 * hz * b};
            up_frame(&s->frames[k++], b - 1, b, p, draw(rng, 0.0, 2.0 * PI, 0.0));
        }
    }
    finish(s, k, o);
}
