#include <math.h>
#include <string.h>

#include "problem_gen.h"

ipx_gen_options ipx_gen_default_options(void)
{
    ipx_gen_options o = {1.0, 1.0, 0.3, 0.1};
    return o;
}

static void random_unit(ipx_rng *rng, double u[3])
{
    double len;
    do {
        for (int a = 0; a < 3; a++) u[a] = ipx_rng_normal(rng);
        len = sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
    } while (len < 1e-6);
    for (int a = 0; a < 3; a++) u[a] /= len;
}

/* A random rotation (columns orthonormal, right-handed) from two random unit vectors. */
static void random_rotation(ipx_rng *rng, double R[9])
{
    double x[3], y[3], t[3];
    random_unit(rng, x);
    do {
        random_unit(rng, t);
        y[0] = x[1] * t[2] - x[2] * t[1];
        y[1] = x[2] * t[0] - x[0] * t[2];
        y[2] = x[0] * t[1] - x[1] * t[0];
    } while (sqrt(y[0] * y[0] + y[1] * y[1] + y[2] * y[2]) < 1e-3);
    double ly = sqrt(y[0] * y[0] + y[1] * y[1] + y[2] * y[2]);
    for (int a = 0; a < 3; a++) y[a] /= ly;
    R[0] = x[0], R[1] = x[1], R[2] = x[2];
    R[3] = y[0], R[4] = y[1], R[5] = y[2];
    R[6] = x[1] * y[2] - x[2] * y[1];
    R[7] = x[2] * y[0] - x[0] * y[2];
    R[8] = x[0] * y[1] - x[1] * y[0];
}

static void random_bodies(ipx_scene *g, ipx_rng *rng)
{
    for (int b = 0; b < g->n_bodies; b++) {
        double mass = exp(ipx_rng_uniform(rng, log(0.1), log(10.0))); /* kg */
        double size = ipx_rng_uniform(rng, 0.05, 0.5);                /* m */
        g->body_size[b] = size;
        double I[3], R[9], com[3];
        for (int a = 0; a < 3; a++) I[a] = mass * size * size * ipx_rng_uniform(rng, 0.05, 0.3);
        random_rotation(rng, R);
        for (int a = 0; a < 3; a++) com[a] = ipx_rng_uniform(rng, -1.0, 1.0);
        g->bodies[b] = ipx_body_make(mass, I, R, com);
        for (int a = 0; a < 6; a++) g->body_vel[6 * b + a] = ipx_rng_normal(rng);
    }
}

static void random_frame(ipx_scene *g, int i, const ipx_gen_options *opt, ipx_rng *rng)
{
    ipx_contact_frame *f = &g->frames[i];
    f->body1 = (int)(ipx_rng_next(rng) % (uint64_t)g->n_bodies);
    if (ipx_rng_uniform(rng, 0.0, 1.0) < opt->p_world || g->n_bodies == 1) {
        f->body2 = f->body1;
        f->body1 = -1;
    } else {
        do f->body2 = (int)(ipx_rng_next(rng) % (uint64_t)g->n_bodies);
        while (f->body2 == f->body1);
    }
    /* on the surface scale of body2: a point far outside a small body would be unphysical and
       would make W needlessly ill-conditioned */
    const double *c = g->bodies[f->body2].com, size = g->body_size[f->body2];
    double off[3];
    random_unit(rng, off);
    for (int a = 0; a < 3; a++) f->point[a] = c[a] + size * off[a];
    random_unit(rng, f->n);
    ipx_frame_from_normal(f->n, f->t1, f->t2);
}

void ipx_gen_random(ipx_scene *g, int k, const ipx_gen_options *opt, ipx_rng *rng)
{
    g->problem = (ipx_problem){0};
    g->n_bodies = k / 2 + 1;
    random_bodies(g, rng);
    for (int i = 0; i < k; i++) {
        random_frame(g, i, opt, rng);
        ipx_contact *c = &g->contact[i];
        c->mu = ipx_rng_uniform(rng, 0.0, 1.0) < opt->p_frictionless
                    ? 0.0
                    : ipx_rng_uniform(rng, 0.0, opt->mu_max);
        c->e = ipx_rng_uniform(rng, 0.0, opt->e_max);
        c->v_capture = ipx_rng_uniform(rng, 0.0, 0.05);
        c->v_plastic = 0.0;
    }
    ipx_scene_finish(g, k);
    /* make sure something collides: if no contact approaches, flip the first normal's sense by
       reversing every body velocity (a random problem with nothing to do tests nothing) */
    int approaching = 0;
    for (int i = 0; i < k; i++) approaching |= g->v[IPX_ROWS_PER_CONTACT * i + IPX_N] < 0.0;
    if (!approaching) {
        for (int i = 0; i < 6 * g->n_bodies; i++) g->body_vel[i] = -g->body_vel[i];
        for (int i = 0; i < IPX_ROWS_PER_CONTACT * k; i++) g->v[i] = -g->v[i];
    }
}

void ipx_scene_finish(ipx_scene *s, int k)
{
    ipx_bodies_assemble(s->n_bodies, s->bodies, k, s->frames, s->body_vel, s->W, s->v);
    s->problem.k = k;
    s->problem.W = s->W;
    s->problem.v = s->v;
    s->problem.contact = s->contact;
}
