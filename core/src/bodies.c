#include <math.h>

#include "impax/bodies.h"
#include "mathutil.h"

ipx_body ipx_body_make(double mass, const double inertia_diag[3], const double R[9],
                       const double com[3])
{
    ipx_body b;
    b.inv_mass = mass > 0.0 ? 1.0 / mass : 0.0;
    /* R diag(1/I) R^T, column-major: entry (i, j) = sum_a R(i,a) R(j,a) / I_a */
    for (int j = 0; j < 3; j++)
        for (int i = 0; i < 3; i++) {
            double s = 0.0;
            for (int a = 0; a < 3; a++)
                if (inertia_diag[a] > 0.0) s += R[i + 3 * a] * R[j + 3 * a] / inertia_diag[a];
            b.inv_inertia[i + 3 * j] = mass > 0.0 ? s : 0.0;
        }
    for (int i = 0; i < 3; i++) b.com[i] = com[i];
    return b;
}

void ipx_frame_from_normal(const double n[3], double t1[3], double t2[3])
{
    /* t1 in the plane of the two axes least aligned with n (the same choice as ODE's
       dPlaneSpace, so frames built here match the host's), t2 = n x t1. */
    if (fabs(n[2]) > sqrt(0.5)) {
        double s = 1.0 / sqrt(n[1] * n[1] + n[2] * n[2]);
        t1[0] = 0.0;
        t1[1] = -n[2] * s;
        t1[2] = n[1] * s;
    } else {
        double s = 1.0 / sqrt(n[0] * n[0] + n[1] * n[1]);
        t1[0] = -n[1] * s;
        t1[1] = n[0] * s;
        t1[2] = 0.0;
    }
    ipx_cross3(n, t1, t2);
}

/* One contact row's action on one body: sign * [d, (p - c) x d]. */
typedef struct row_part {
    int body; /* -1: none */
    double lin[3];
    double ang[3];
} row_part;

static void row_parts(const ipx_body *bodies, const ipx_contact_frame *f, int row, row_part part[2])
{
    const double *d = row == IPX_T1 ? f->t1 : row == IPX_T2 ? f->t2 : f->n;
    const int body[2] = {f->body1, f->body2};
    const double sign[2] = {-1.0, 1.0}; /* velocity of body2 relative to body1 */
    for (int s = 0; s < 2; s++) {
        part[s].body = body[s];
        if (body[s] < 0) continue;
        double r[3];
        for (int a = 0; a < 3; a++) r[a] = f->point[a] - bodies[body[s]].com[a];
        ipx_cross3(r, d, part[s].ang);
        for (int a = 0; a < 3; a++) {
            part[s].lin[a] = sign[s] * d[a];
            part[s].ang[a] *= sign[s];
        }
    }
}

static double coupling(const ipx_body *bodies, const row_part *a, const row_part *b)
{
    if (a->body < 0 || a->body != b->body) return 0.0;
    const ipx_body *body = &bodies[a->body];
    double Ib[3];
    ipx_mat3_vec(body->inv_inertia, b->ang, Ib);
    return body->inv_mass * ipx_dot3(a->lin, b->lin) + ipx_dot3(a->ang, Ib);
}

void ipx_bodies_assemble(int n_bodies, const ipx_body *bodies, int k,
                         const ipx_contact_frame *frames, const double *body_vel, double *W,
                         double *v)
{
    (void)n_bodies;
    const int n = IPX_ROWS_PER_CONTACT * k;
    /* a row's parts are recomputed per pair (a few cross products): no storage of n rows */
    row_part pj[2], pi[2];
    for (int j = 0; j < n; j++) {
        row_parts(bodies, &frames[j / IPX_ROWS_PER_CONTACT], j % IPX_ROWS_PER_CONTACT, pj);
        for (int i = j; i < n; i++) {
            row_parts(bodies, &frames[i / IPX_ROWS_PER_CONTACT], i % IPX_ROWS_PER_CONTACT, pi);
            double w = 0.0;
            for (int s = 0; s < 2; s++)
                for (int t = 0; t < 2; t++) w += coupling(bodies, &pi[s], &pj[t]);
            W[i + (size_t)n * j] = w;
            W[j + (size_t)n * i] = w;
        }
        if (!body_vel || !v) continue;
        v[j] = 0.0;
        for (int s = 0; s < 2; s++) {
            if (pj[s].body < 0) continue;
            const double *u = body_vel + 6 * pj[s].body;
            v[j] += ipx_dot3(pj[s].lin, u) + ipx_dot3(pj[s].ang, u + 3);
        }
    }
}

void ipx_bodies_apply_impulse(int n_bodies, const ipx_body *bodies, int k,
                              const ipx_contact_frame *frames, const double *pi, double *body_vel)
{
    (void)n_bodies;
    for (int i = 0; i < IPX_ROWS_PER_CONTACT * k; i++) {
        if (pi[i] == 0.0) continue;
        row_part parts[2];
        row_parts(bodies, &frames[i / IPX_ROWS_PER_CONTACT], i % IPX_ROWS_PER_CONTACT, parts);
        for (int s = 0; s < 2; s++) {
            if (parts[s].body < 0) continue;
            const ipx_body *b = &bodies[parts[s].body];
            double *u = body_vel + 6 * parts[s].body, dw[3];
            ipx_mat3_vec(b->inv_inertia, parts[s].ang, dw);
            for (int a = 0; a < 3; a++) {
                u[a] += b->inv_mass * parts[s].lin[a] * pi[i];
                u[3 + a] += dw[a] * pi[i];
            }
        }
    }
}
