#include <math.h>

#include "box_scenes.h"

#define PI 3.14159265358979323846

/* A box of half-extents h (m) and mass m (kg), yawed by `yaw` about z then tilted by `tilt`
   about its own x axis, centred at com. */
static ipx_body box_body(double m, const double h[3], double yaw, double tilt, const double com[3],
                         double R[9])
{
    const double cy = cos(yaw), sy = sin(yaw), ct = cos(tilt), st = sin(tilt);
    /* R = Rz(yaw) Rx(tilt), column-major */
    R[0] = cy, R[1] = sy, R[2] = 0.0;
    R[3] = -sy * ct, R[4] = cy * ct, R[5] = st;
    R[6] = sy * st, R[7] = -cy * st, R[8] = ct;
    const double I[3] = {m / 3.0 * (h[1] * h[1] + h[2] * h[2]),
                         m / 3.0 * (h[0] * h[0] + h[2] * h[2]),
                         m / 3.0 * (h[0] * h[0] + h[1] * h[1])};
    return ipx_body_make(m, I, R, com);
}

/* One material for the whole scene: mu and e from [0, 1], v_capture from [0, 0.02] m/s. */
static ipx_contact random_material(ipx_rng *rng)
{
    return (ipx_contact){.mu = ipx_rng_uniform(rng, 0.0, 1.0),
                         .e = ipx_rng_uniform(rng, 0.0, 1.0),
                         .v_capture = ipx_rng_uniform(rng, 0.0, 0.02),
                         .v_plastic = 0.0};
}

/* Ground-like frame: normal +z, tangents turned by a random angle (frame invariance). */
static void up_frame(ipx_contact_frame *f, int body1, int body2, const double p[3], ipx_rng *rng)
{
    double a = ipx_rng_uniform(rng, 0.0, 2.0 * PI);
    f->body1 = body1, f->body2 = body2;
    for (int d = 0; d < 3; d++) f->point[d] = p[d];
    f->n[0] = 0.0, f->n[1] = 0.0, f->n[2] = 1.0;
    f->t1[0] = cos(a), f->t1[1] = sin(a), f->t1[2] = 0.0;
    f->t2[0] = -sin(a), f->t2[1] = cos(a), f->t2[2] = 0.0;
}

/* Body velocity: down at speed U(0.1, 5) m/s, slip ratio U(0, 10) of that in a random horizontal
   direction, a random spin of up to speed / size. */
static void random_velocity(double *u, double size, ipx_rng *rng)
{
    double down = ipx_rng_uniform(rng, 0.1, 5.0), slip = down * ipx_rng_uniform(rng, 0.0, 10.0);
    double dir = ipx_rng_uniform(rng, 0.0, 2.0 * PI),
           spin = down / size * ipx_rng_uniform(rng, 0.0, 1.0);
    u[0] = slip * cos(dir), u[1] = slip * sin(dir), u[2] = -down;
    for (int a = 3; a < 6; a++) u[a] = spin * ipx_rng_uniform(rng, -1.0, 1.0);
}

/* Finishes the scene; if no contact approaches, reverses every velocity (something must hit). */
static void finish_approaching(ipx_scene *s, int k)
{
    ipx_scene_finish(s, k);
    int approaching = 0;
    for (int i = 0; i < k; i++) approaching |= s->v[IPX_ROWS_PER_CONTACT * i + IPX_N] < 0.0;
    if (approaching) return;
    for (int i = 0; i < 6 * s->n_bodies; i++) s->body_vel[i] = -s->body_vel[i];
    ipx_scene_finish(s, k);
}

static void random_half_extents(double h[3], ipx_rng *rng)
{
    for (int a = 0; a < 3; a++) h[a] = ipx_rng_uniform(rng, 0.025, 0.25);
}

void ipx_gen_box_landing(ipx_scene *s, int k, ipx_rng *rng)
{
    double h[3], R[9], m = exp(ipx_rng_uniform(rng, log(0.1), log(10.0)));
    random_half_extents(h, rng);
    double yaw = ipx_rng_uniform(rng, 0.0, 2.0 * PI);
    /* an edge lands tilted (its corners (+-hx, -hy, -hz) lowest), a face lands flat */
    double tilt = k == 2 ? ipx_rng_uniform(rng, 0.05, 0.7) : 0.0;
    const double com[3] = {0.0, 0.0, h[1] * sin(tilt) + h[2] * cos(tilt)};
    s->problem = (ipx_problem){0};
    s->n_bodies = 1;
    s->body_size[0] = fmax(h[0], fmax(h[1], h[2]));
    const ipx_contact material = random_material(rng);
    s->bodies[0] = box_body(m, h, yaw, tilt, com, R);
    random_velocity(s->body_vel, s->body_size[0], rng);
    static const double corner[4][2] = {{1, -1}, {-1, -1}, {1, 1}, {-1, 1}};
    for (int i = 0; i < k; i++) {
        const double local[3] = {corner[i][0] * h[0], corner[i][1] * h[1], -h[2]};
        double p[3];
        for (int r = 0; r < 3; r++)
            p[r] = com[r] + R[r] * local[0] + R[r + 3] * local[1] + R[r + 6] * local[2];
        p[2] = 0.0; /* the lowest corners touch the ground exactly */
        up_frame(&s->frames[i], -1, 0, p, rng);
        s->contact[i] = material;
    }
    finish_approaching(s, k);
}

void ipx_gen_box_stack(ipx_scene *s, int k, ipx_rng *rng)
{
    s->problem = (ipx_problem){0};
    const ipx_contact material = random_material(rng);
    int n = 0, i = 0;
    double z = 0.0, below[3] = {1e9, 1e9, 0.0}; /* the ground: unbounded support */
    while (i < k) {
        double h[3], R[9], m = exp(ipx_rng_uniform(rng, log(0.1), log(10.0)));
        random_half_extents(h, rng);
        const double com[3] = {ipx_rng_uniform(rng, -0.02, 0.02), ipx_rng_uniform(rng, -0.02, 0.02),
                               z + h[2]};
        s->bodies[n] = box_body(m, h, 0.0, 0.0, com, R);
        s->body_size[n] = fmax(h[0], fmax(h[1], h[2]));
        random_velocity(s->body_vel + 6 * n, s->body_size[n], rng);
        /* 1 or 2 support points inside the overlap of this box's bottom and the support's top */
        int points = k - i == 1 ? 1 : 1 + (int)(ipx_rng_next(rng) % 2u);
        if (n == 0 && points == 1 && k - i >= 2) points = 2; /* a stack stands on the ground */
        for (int j = 0; j < points; j++, i++) {
            double ox = fmin(h[0], below[0]), oy = fmin(h[1], below[1]);
            const double p[3] = {ipx_rng_uniform(rng, -ox, ox), ipx_rng_uniform(rng, -oy, oy), z};
            up_frame(&s->frames[i], n - 1, n, p, rng);
            s->contact[i] = material;
        }
        below[0] = h[0], below[1] = h[1];
        z += 2.0 * h[2];
        n++;
    }
    s->n_bodies = n;
    finish_approaching(s, k);
}

void ipx_gen_box_scene(ipx_scene *s, ipx_rng *rng)
{
    if (ipx_rng_next(rng) % 2u) ipx_gen_box_landing(s, 2 + (int)(ipx_rng_next(rng) % 3u), rng);
    else ipx_gen_box_stack(s, 2 + (int)(ipx_rng_next(rng) % 7u), rng);
}
