#include <math.h>

#include "paper_scenes.h"

#define BLOCK_W 1.0 /* m */
#define BLOCK_H 2.0 /* m */

static const double identity[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};

/* A body at the origin moving in the x-y plane; the out-of-plane inertias only have to be
   positive (those rows decouple). */
static void planar_body(ipx_scene *s, double mass, double I, const double u[3])
{
    const double inertia[3] = {I, I, I}, origin[3] = {0, 0, 0};
    s->n_bodies = 1;
    s->bodies[0] = ipx_body_make(mass, inertia, identity, origin);
    for (int a = 0; a < 6; a++) s->body_vel[a] = 0.0;
    s->body_vel[0] = u[0];
    s->body_vel[1] = u[1];
    s->body_vel[5] = u[2];
}

/* Contact i between the world and body 0 at (px, py) with in-plane normal n and tangent t1
   (t2 = n x t1 is the out-of-plane axis, so t1 x t2 = n). */
static void planar_contact(ipx_scene *s, int i, double px, double py, double nx, double ny,
                           double tx, double ty, double mu)
{
    ipx_contact_frame *f = &s->frames[i];
    f->body1 = -1;
    f->body2 = 0;
    f->point[0] = px, f->point[1] = py, f->point[2] = 0.0;
    f->n[0] = nx, f->n[1] = ny, f->n[2] = 0.0;
    f->t1[0] = tx, f->t1[1] = ty, f->t1[2] = 0.0;
    f->t2[0] = 0.0, f->t2[1] = 0.0, f->t2[2] = nx * ty - ny * tx;
    s->contact[i] = (ipx_contact){.mu = mu, .e = 0.0, .v_capture = 0.0, .v_plastic = 0.0};
}

void ipx_scene_rocking_block(ipx_scene *s, double v0)
{
    const double u[3] = {0.0, -v0, 0.0};
    planar_body(s, 1.0, (BLOCK_W * BLOCK_W + BLOCK_H * BLOCK_H) / 12.0, u);
    planar_contact(s, 0, -BLOCK_W / 2, -BLOCK_H / 2, 0, 1, 1, 0, 1.0);
    planar_contact(s, 1, +BLOCK_W / 2, -BLOCK_H / 2, 0, 1, 1, 0, 1.0);
    ipx_scene_finish(s, 2);
}

void ipx_scene_block_corner(ipx_scene *s, double mu, const double u[3])
{
    planar_body(s, 1.0, (BLOCK_W * BLOCK_W + BLOCK_H * BLOCK_H) / 12.0, u);
    planar_contact(s, 0, -BLOCK_W / 2, -BLOCK_H / 2, 0, 1, 1, 0, mu);
    ipx_scene_finish(s, 1);
}

void ipx_scene_block_corner_b(ipx_scene *s, double mu, const double u[3])
{
    planar_body(s, 1.0, (BLOCK_W * BLOCK_W + BLOCK_H * BLOCK_H) / 12.0, u);
    planar_contact(s, 0, +BLOCK_W / 2, -BLOCK_H / 2, 0, 1, 1, 0, mu);
    ipx_scene_finish(s, 1);
}

void ipx_scene_box_wall(ipx_scene *s)
{
    const double u[3] = {1.0, 0.0, 0.0}, half_diag = sqrt(0.5);
    const double deg = 3.14159265358979323846 / 180.0;
    planar_body(s, 1.0, 1.0 / 6.0, u);
    /* corners of the unit square turned to 80 degrees: A at -55 deg, B at +35 deg from the CoM */
    planar_contact(s, 0, half_diag * cos(-55 * deg), half_diag * sin(-55 * deg), 0, 1, 1, 0, 1.0);
    planar_contact(s, 1, half_diag * cos(35 * deg), half_diag * sin(35 * deg), -1, 0, 0, -1, 1.0);
    ipx_scene_finish(s, 2);
}

void ipx_scene_point_mass(ipx_scene *s, double mu, double vx, double vy)
{
    const double u[3] = {vx, vy, 0.0};
    planar_body(s, 1.0, 1.0, u);
    planar_contact(s, 0, 0, 0, 0, 1, 1, 0, mu); /* at the centre of mass: no rotation */
    ipx_scene_finish(s, 1);
}

void ipx_scene_planar_velocity_after(const ipx_scene *s, int b, const double *pi, double u[3])
{
    double vel[6 * IPX_TEST_MAX_CONTACTS];
    for (int i = 0; i < 6 * s->n_bodies; i++) vel[i] = s->body_vel[i];
    ipx_bodies_apply_impulse(s->n_bodies, s->bodies, s->problem.k, s->frames, pi, vel);
    u[0] = vel[6 * b];
    u[1] = vel[6 * b + 1];
    u[2] = vel[6 * b + 5];
}

void ipx_scene_cradle(ipx_scene *s, int n_balls, double v_striker, double e)
{
    const double r = 0.25, m = 1.0, I = 0.4 * m * r * r;
    const double inertia[3] = {I, I, I};
    s->n_bodies = n_balls;
    for (int b = 0; b < n_balls; b++) {
        const double com[3] = {-2.0 * r * b, 0.0, 0.0};
        s->bodies[b] = ipx_body_make(m, inertia, identity, com);
        for (int a = 0; a < 6; a++) s->body_vel[6 * b + a] = 0.0;
    }
    s->body_vel[0] = -v_striker;
    for (int i = 0; i + 1 < n_balls; i++) {
        ipx_contact_frame *f = &s->frames[i];
        f->body1 = i;
        f->body2 = i + 1;
        f->point[0] = -2.0 * r * i - r, f->point[1] = 0.0, f->point[2] = 0.0;
        f->n[0] = -1.0, f->n[1] = 0.0, f->n[2] = 0.0;
        ipx_frame_from_normal(f->n, f->t1, f->t2);
        s->contact[i] = (ipx_contact){.mu = 0.0, .e = e, .v_capture = 0.0, .v_plastic = 0.0};
    }
    ipx_scene_finish(s, n_balls - 1);
}
