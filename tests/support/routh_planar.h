/* Planar paper examples of the Routh tests in the paper's generalised coordinates (docs/models/routh.md §8):
   W = J M^-1 J^T from the spec's M, Jn, Jt. Each contact's rows are [t1 = Jt, t2, n = Jn]; the
   t2 row is inert (decoupled, unit diagonal, zero velocity), so with the two friction
   directions +-t1 (friction_directions = 2, the paper code's planar polygon) the planar
   examples are reproduced exactly. Also helpers shared by the Routh test programs. */
#ifndef IMPAX_TEST_ROUTH_PLANAR_H
#define IMPAX_TEST_ROUTH_PLANAR_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ensure.h"
#include "impax/impax.h"
#include "impax/routh.h"
#include "model_test.h"

#define PLANAR_MAX_NV 4
#define PLANAR_MAX_K 2
#define PLANAR_ROWS (IPX_ROWS_PER_CONTACT * PLANAR_MAX_K)

typedef struct planar {
    int nv, k;
    double M[PLANAR_MAX_NV * PLANAR_MAX_NV];    /* kg (kg m^2), row-major */
    double Minv[PLANAR_MAX_NV * PLANAR_MAX_NV]; /* row-major */
    double Jn[PLANAR_MAX_K][PLANAR_MAX_NV];
    double Jt[PLANAR_MAX_K][PLANAR_MAX_NV];
    double u0[PLANAR_MAX_NV]; /* generalised pre-impact velocity */
    double W[PLANAR_ROWS * PLANAR_ROWS];
    double v[PLANAR_ROWS];
    ipx_contact contact[PLANAR_MAX_K];
    ipx_problem problem;
} planar;

/* Inverse of the SPD nv x nv row-major a by Gauss-Jordan elimination. */
static inline void planar_invert(int nv, const double *a, double *inv)
{
    double t[PLANAR_MAX_NV][2 * PLANAR_MAX_NV];
    for (int i = 0; i < nv; i++)
        for (int j = 0; j < 2 * nv; j++) t[i][j] = j < nv ? a[i * nv + j] : (j - nv == i);
    for (int c = 0; c < nv; c++) {
        int piv = c;
        for (int r = c + 1; r < nv; r++)
            if (fabs(t[r][c]) > fabs(t[piv][c])) piv = r;
        for (int j = 0; j < 2 * nv; j++) {
            double x = t[c][j];
            t[c][j] = t[piv][j];
            t[piv][j] = x;
        }
        double d = t[c][c];
        for (int j = 0; j < 2 * nv; j++) t[c][j] /= d;
        for (int r = 0; r < nv; r++) {
            if (r == c) continue;
            double f = t[r][c];
            for (int j = 0; j < 2 * nv; j++) t[r][j] -= f * t[c][j];
        }
    }
    for (int i = 0; i < nv; i++)
        for (int j = 0; j < nv; j++) inv[i * nv + j] = t[i][nv + j];
}

/* Starts a system with mass matrix M (row-major nv x nv) and pre-impact velocity u0. */
static inline void planar_init(planar *s, int nv, const double *M, const double *u0)
{
    memset(s, 0, sizeof *s);
    s->nv = nv;
    memcpy(s->M, M, sizeof(double) * (size_t)(nv * nv));
    memcpy(s->u0, u0, sizeof(double) * (size_t)nv);
    planar_invert(nv, M, s->Minv);
}

/* Adds a contact with normal row jn, tangent row jt and friction mu. */
static inline void planar_contact(planar *s, const double *jn, const double *jt, double mu)
{
    memcpy(s->Jn[s->k], jn, sizeof(double) * (size_t)s->nv);
    memcpy(s->Jt[s->k], jt, sizeof(double) * (size_t)s->nv);
    s->contact[s->k].mu = mu;
    s->k++;
}

/* Row r of J (t2 rows are NULL: inert). */
static inline const double *planar_row(const planar *s, int r)
{
    int i = r / IPX_ROWS_PER_CONTACT, a = r % IPX_ROWS_PER_CONTACT;
    return a == IPX_T1 ? s->Jt[i] : a == IPX_N ? s->Jn[i] : NULL;
}

static inline double planar_dot(int nv, const double *a, const double *b)
{
    double x = 0.0;
    for (int i = 0; i < nv; i++) x += a[i] * b[i];
    return x;
}

/* Builds W = J M^-1 J^T and v = J u0 and points s->problem at them. */
static inline void planar_finish(planar *s)
{
    const int n = IPX_ROWS_PER_CONTACT * s->k, nv = s->nv;
    for (int r = 0; r < n; r++) {
        const double *jr = planar_row(s, r);
        s->v[r] = jr ? planar_dot(nv, jr, s->u0) : 0.0;
        for (int c = 0; c < n; c++) {
            const double *jc = planar_row(s, c);
            double x = 0.0;
            if (jr && jc)
                for (int a = 0; a < nv; a++)
                    for (int b = 0; b < nv; b++) x += jr[a] * s->Minv[a * nv + b] * jc[b];
            else if (r == c) x = 1.0; /* inert t2 row */
            s->W[r + n * c] = x;
        }
    }
    s->problem.k = s->k;
    s->problem.W = s->W;
    s->problem.v = s->v;
    s->problem.contact = s->contact;
}

/* Generalised velocity after the contact impulse pi: u = u0 + M^-1 J^T pi. */
static inline void planar_velocity_after(const planar *s, const double *pi, double *u)
{
    const int n = IPX_ROWS_PER_CONTACT * s->k, nv = s->nv;
    double f[PLANAR_MAX_NV] = {0};
    for (int r = 0; r < n; r++) {
        const double *jr = planar_row(s, r);
        if (jr)
            for (int a = 0; a < nv; a++) f[a] += jr[a] * pi[r];
    }
    for (int a = 0; a < nv; a++) u[a] = s->u0[a] + planar_dot(nv, s->Minv + a * nv, f);
}

/* J, kinetic energy 1/2 u^T M u. */
static inline double planar_ke(const planar *s, const double *u)
{
    double x = 0.0;
    for (int a = 0; a < s->nv; a++) x += u[a] * planar_dot(s->nv, s->M + a * s->nv, u);
    return 0.5 * x;
}

/* ---- the paper's planar scenes (docs/models/routh.md §8) ---- */

#define PLANAR_DEG (3.14159265358979323846 / 180.0)

/* docs/models/routh.md §8.1 block (w 1 m, h 2 m, 1 kg, I = 5/12 kg m^2) with generalised velocity
   u0 = [xdot, ydot, thetadot] and friction mu: corner A (bottom-left) alone (corners = 1) or
   A and B (bottom-right) as contacts 0 and 1 (corners = 2). */
static inline void planar_block(planar *s, const double *u0, double mu, int corners)
{
    const double M[9] = {1, 0, 0, 0, 1, 0, 0, 0, 5.0 / 12.0};
    const double jn_a[3] = {0, 1, -0.5}, jn_b[3] = {0, 1, 0.5}, jt[3] = {1, 0, 1};
    planar_init(s, 3, M, u0);
    planar_contact(s, jn_a, jt, mu);
    if (corners == 2) planar_contact(s, jn_b, jt, mu);
    planar_finish(s);
}

/* Rocking block flat on the ground falling at v0 (m/s), mu 1, restitution e at both corners;
   contact 0 = A, 1 = B. */
static inline void planar_rocking_block(planar *s, double v0, double e)
{
    const double u0[3] = {0.0, -v0, 0.0};
    planar_block(s, u0, 1.0, 2);
    s->contact[0].e = s->contact[1].e = e;
}

/* docs/models/routh.md §8.2: q = [x_hip, y_hip, phi_le, phi_tr], legs at -78 / +78 degrees, point masses
   1 kg at 0.5 m from each foot, hip speed 0.25 m/s, mu 5; A = leading, B = trailing foot. */
static inline void planar_compass_gait(planar *s)
{
    const double c = cos(78 * PLANAR_DEG), sn = sin(78 * PLANAR_DEG);
    const double M[16] = {2,         0,        0.5 * c, 0.5 * c,   0,    2,
                          -0.5 * sn, 0.5 * sn, 0.5 * c, -0.5 * sn, 0.25, 0,
                          0.5 * c,   0.5 * sn, 0,       0.25};
    const double u0[4] = {-0.25 * c, -0.25 * sn, 0.25, 0.25};
    const double jn_a[4] = {0, 1, -sn, 0}, jt_a[4] = {1, 0, c, 0};
    const double jn_b[4] = {0, 1, 0, sn}, jt_b[4] = {1, 0, 0, c};
    planar_init(s, 4, M, u0);
    planar_contact(s, jn_a, jt_a, 5.0);
    planar_contact(s, jn_b, jt_b, 5.0);
    planar_finish(s);
}

/* docs/models/routh.md §8.3: unit square, 1 kg, I = 1/6, body angle 80 degrees, 1 m/s toward the wall,
   mu 1; A = floor corner (normal +y), B = wall corner (wall on the right, normal -x). */
static inline void planar_box_wall(planar *s)
{
    const double c = cos(80 * PLANAR_DEG), sn = sin(80 * PLANAR_DEG);
    const double ra[2] = {-0.5 * c + 0.5 * sn, -0.5 * sn - 0.5 * c}; /* R(80) (-1/2, -1/2) */
    const double rb[2] = {0.5 * c + 0.5 * sn, 0.5 * sn - 0.5 * c};   /* R(80) (1/2, -1/2) */
    const double M[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1.0 / 6.0};
    const double u0[3] = {1.0, 0.0, 0.0};
    const double jn_a[3] = {0, 1, ra[0]}, jt_a[3] = {1, 0, -ra[1]};
    const double jn_b[3] = {-1, 0, rb[1]}, jt_b[3] = {0, -1, -rb[0]};
    planar_init(s, 3, M, u0);
    planar_contact(s, jn_a, jt_a, 1.0);
    planar_contact(s, jn_b, jt_b, 1.0);
    planar_finish(s);
}

/* Result of row j of a cloud, as ipx_solve would have returned it. */
static inline void cloud_result(const ipx_problem *p, const ipx_routh_cloud *cl, int j,
                                ipx_result *r)
{
    const int n = IPX_ROWS_PER_CONTACT * p->k;
    memset(r, 0, sizeof *r);
    r->k = p->k;
    r->n_rows = n; /* the arrays are the cloud's rows (read-only here) */
    r->impulse = cl->impulse + (size_t)j * n;
    r->v_post = cl->v_post + (size_t)j * n;
    r->delta_ke = cl->delta_ke[j];
}

/* Number of results in a cloud that violate the model's promises (invariant checker). */
static inline int cloud_violations(const ipx_problem *p, const ipx_params *par,
                                   const ipx_routh_cloud *cl)
{
    ipx_check_options opt = ipx_check_default_options();
    opt.kinds = par->model->promises(par->value);
    int bad = 0;
    for (int j = 0; j < cl->count; j++) {
        ipx_result r;
        ipx_check_report rep;
        cloud_result(p, cl, j, &r);
        bad += ipx_check(p, &r, &opt, &rep) != 0;
    }
    return bad;
}

/* A cloud with room for n samples of problems with up to k contacts (heap, not in a solve). */
static inline ipx_routh_cloud cloud_make(int n, int k)
{
    ipx_routh_cloud cl = {0};
    size_t rows = (size_t)IPX_ROWS_PER_CONTACT * (size_t)k;
    cl.capacity = n;
    cl.v_post = malloc(sizeof(double) * rows * (size_t)n);
    cl.impulse = malloc(sizeof(double) * rows * (size_t)n);
    cl.delta_ke = malloc(sizeof(double) * (size_t)n);
    return cl;
}

static inline void cloud_free(ipx_routh_cloud *cl)
{
    free(cl->v_post);
    free(cl->impulse);
    free(cl->delta_ke);
}

/* Runs n samples of p with a generator seeded by seed into cl (and the summary). */
static inline ipx_status run_set(const ipx_problem *p, const ipx_params *par, uint64_t seed, int n,
                                 ipx_routh_cloud *cl, ipx_routh_summary *sum)
{
    ipx_rng rng;
    ipx_rng_seed(&rng, seed);
    ipx_workspace *ws = ipx_test_workspace(par, p->k); /* kept: the summary's ranges live there */
    return ipx_routh_set(p, par->value, &rng, n, ws, cl, sum);
}

#endif
