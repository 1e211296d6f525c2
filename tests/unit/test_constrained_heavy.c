/* Joint elimination on a badly scaled chain (impax/constrained.h): four links hinged about y in a
   line from a fixed base, the second of 1e12 kg, the others 1 kg. The joints allow 4 velocities
   of 24 (20 independent joint rows); the joint impulses that move only the heavy link have
   A = J_b M^-1 J_b^T eigenvalues 1e-15 of the largest, yet are joints, not redundancy.
   Against the closed form in joint coordinates, W = J_c T (T^T M T)^-1 T^T J_c^T (T: joint rates
   to body velocities), in long double:
   - the joint rank is 20 (nothing dropped as redundant);
   - W symmetric, positive semi-definite, each entry within 1e-8 of sqrt(W_ii W_jj) of the
     reference, the out-of-plane rows (which the hinges hold) exactly zero; the contact on the
     first link, which cannot move without the heavy one, has W_nn ~ 1e-12 1/kg;
   - du of contact impulses keeps the joints: |J_b du| below 1e-12 of the largest terms a
     joint row sums;
   - velocities that violate the joints are projected onto them to the same 1e-12. */
#include <float.h>
#include <lapacke.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ensure.h"
#include "impax/impax.h"
#include "impax/constrained.h"

#define LINKS 4
#define HEAVY 1
#define LEN 0.4
#define JROWS (5 * LINKS)
#define CONTACTS 3
#define CROWS (3 * CONTACTS)

typedef struct chain {
    ipx_body body[LINKS];
    double mass[LINKS], inertia[LINKS][3]; /* kg; kg m^2, principal, world axes */
    double com[LINKS][3], hinge[LINKS][3]; /* m: centres, hinge points (hinge 0 on the base) */
    int contact_body[CONTACTS];
    double contact_point[CONTACTS][3];
    ipx_row joint[JROWS], contact[CROWS];
    ipx_constrained s;
} chain;

static void cross(const double a[3], const double b[3], double out[3])
{
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}

/* A row of the point velocity along d at x on body b (and minus it on body o, -1 = world). */
static ipx_row point_row(const chain *c, int b, int o, const double x[3], const double d[3])
{
    ipx_row r;
    memset(&r, 0, sizeof r);
    r.body[0] = b;
    r.body[1] = o;
    for (int t = 0; t < 2; t++) {
        const int k = r.body[t];
        if (k < 0) continue;
        const double sign = t == 0 ? 1.0 : -1.0;
        double arm[3], m[3];
        for (int a = 0; a < 3; a++) arm[a] = x[a] - c->com[k][a];
        cross(arm, d, m);
        for (int a = 0; a < 3; a++) r.J[t][a] = sign * d[a], r.J[t][3 + a] = sign * m[a];
    }
    return r;
}

static ipx_row spin_row(int b, int o, const double d[3])
{
    ipx_row r;
    memset(&r, 0, sizeof r);
    r.body[0] = b;
    r.body[1] = o;
    for (int a = 0; a < 3; a++) r.J[0][3 + a] = d[a], r.J[1][3 + a] = o < 0 ? 0.0 : -d[a];
    return r;
}

static void make_chain(chain *c)
{
    memset(c, 0, sizeof *c);
    static const double e[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    for (int k = 0; k < LINKS; k++) {
        const double m = k == HEAVY ? 1e12 : 1.0;
        c->mass[k] = m;
        c->inertia[k][0] = m * 1e-3; /* a rod along x */
        c->inertia[k][1] = c->inertia[k][2] = m * LEN * LEN / 12.0;
        c->body[k].inv_mass = 1.0 / m;
        for (int a = 0; a < 3; a++) c->body[k].inv_inertia[4 * a] = 1.0 / c->inertia[k][a];
        c->com[k][0] = (k + 0.5) * LEN;
        c->hinge[k][0] = k * LEN;
    }
    int n = 0;
    for (int k = 0; k < LINKS; k++) { /* hinge k: body k to body k-1 (the world for k = 0) */
        for (int a = 0; a < 3; a++) c->joint[n++] = point_row(c, k, k - 1, c->hinge[k], e[a]);
        c->joint[n++] = spin_row(k, k - 1, e[0]);
        c->joint[n++] = spin_row(k, k - 1, e[2]);
    }
    const int cb[CONTACTS] = {0, HEAVY, LINKS - 1};
    const double cx[CONTACTS] = {0.3, 0.6, LINKS * LEN};
    for (int i = 0; i < CONTACTS; i++) {
        c->contact_body[i] = cb[i];
        const double x[3] = {cx[i], 0.0, -0.02};
        memcpy(c->contact_point[i], x, sizeof x);
        for (int a = 0; a < 3; a++) c->contact[3 * i + a] = point_row(c, cb[i], -1, x, e[a]);
    }
    c->s = (ipx_constrained){LINKS, c->body, JROWS, c->joint, CROWS, c->contact};
}

/* The closed form in joint coordinates q (one hinge angle each, about y): body k moves with
   w = sum_{j<=k} qdot_j y and v = sum_{j<=k} qdot_j y x (com_k - hinge_j). */
static void reference_W(const chain *c, long double R[CROWS][CROWS])
{
    long double T[6 * LINKS][LINKS] = {{0}}, Mq[LINKS][LINKS] = {{0}}, JT[CROWS][LINKS] = {{0}};
    for (int k = 0; k < LINKS; k++)
        for (int j = 0; j <= k; j++) {
            const long double dx = (long double)c->com[k][0] - c->hinge[j][0];
            const long double dz = (long double)c->com[k][2] - c->hinge[j][2];
            T[6 * k + 0][j] = dz; /* y x (dx, 0, dz) = (dz, 0, -dx) */
            T[6 * k + 2][j] = -dx;
            T[6 * k + 4][j] = 1.0L;
        }
    for (int a = 0; a < LINKS; a++)
        for (int b = 0; b < LINKS; b++) {
            long double sum = 0.0L;
            for (int k = 0; k < LINKS; k++)
                for (int i = 0; i < 6; i++) {
                    const long double mi =
                        i < 3 ? (long double)c->mass[k] : (long double)c->inertia[k][i - 3];
                    sum += T[6 * k + i][a] * mi * T[6 * k + i][b];
                }
            Mq[a][b] = sum;
        }
    for (int r = 0; r < CROWS; r++) {
        const ipx_row *row = &c->contact[r];
        for (int j = 0; j < LINKS; j++)
            for (int i = 0; i < 6; i++)
                JT[r][j] += (long double)row->J[0][i] * T[6 * row->body[0] + i][j];
    }
    /* Mq^-1 (JT)^T by Gauss-Jordan (Mq is symmetric positive definite, graded: no pivoting) */
    long double X[LINKS][CROWS];
    for (int j = 0; j < LINKS; j++)
        for (int r = 0; r < CROWS; r++) X[j][r] = JT[r][j];
    for (int p = 0; p < LINKS; p++) {
        for (int i = p + 1; i < LINKS; i++) {
            const long double f = Mq[i][p] / Mq[p][p];
            for (int j = p; j < LINKS; j++) Mq[i][j] -= f * Mq[p][j];
            for (int r = 0; r < CROWS; r++) X[i][r] -= f * X[p][r];
        }
    }
    for (int p = LINKS - 1; p >= 0; p--) {
        for (int r = 0; r < CROWS; r++) {
            long double s = X[p][r];
            for (int j = p + 1; j < LINKS; j++) s -= Mq[p][j] * X[j][r];
            X[p][r] = s / Mq[p][p];
        }
    }
    for (int a = 0; a < CROWS; a++)
        for (int b = 0; b < CROWS; b++) {
            long double sum = 0.0L;
            for (int j = 0; j < LINKS; j++) sum += JT[a][j] * X[j][b];
            R[a][b] = sum;
        }
}

/* max over joint rows of |J_b u| over the largest terms a row sums. */
static double relative_joint_residual(const chain *c, const double *u)
{
    double worst = 0.0, largest = 0.0;
    for (int i = 0; i < JROWS; i++) {
        double sum = 0.0, size = 0.0;
        for (int t = 0; t < 2; t++) {
            const int b = c->joint[i].body[t];
            if (b < 0) continue;
            for (int k = 0; k < 6; k++) {
                sum += c->joint[i].J[t][k] * u[6 * b + k];
                size += fabs(c->joint[i].J[t][k] * u[6 * b + k]);
            }
        }
        worst = fmax(worst, fabs(sum));
        largest = fmax(largest, size);
    }
    return largest > 0.0 ? worst / largest : 0.0;
}

static void test_heavy_link_chain_W_matches_the_joint_coordinates(void)
{
    static chain c;
    make_chain(&c);
    static double work[1 << 16];
    ENSURE(ipx_constrained_work_doubles(LINKS, JROWS, CROWS) <= sizeof work / sizeof *work);
    double u[6 * LINKS] = {0}, W[CROWS * CROWS], v[CROWS];
    char msg[IPX_MESSAGE_SIZE];
    ipx_constrained_info info;
    ENSURE(ipx_constrained_assemble(&c.s, u, W, v, work, &info, msg, sizeof msg) == IPX_OK);
    ENSURE(info.joint_rank == JROWS);
    if (info.joint_rank != JROWS) printf("  joint rank %d of %d\n", info.joint_rank, JROWS);

    static long double R[CROWS][CROWS];
    reference_W(&c, R);
    double worst = 0.0;
    int symmetric = 1, held_zero = 1;
    for (int i = 0; i < CROWS; i++)
        for (int j = 0; j < CROWS; j++) {
            const double w = W[i + CROWS * j];
            symmetric &= w == W[j + CROWS * i];
            if (i % 3 == 1 || j % 3 == 1) { /* t2 = y: out of the hinges' plane, held */
                held_zero &= w == 0.0;
                continue;
            }
            const double scale = sqrt((double)(R[i][i] * R[j][j]));
            worst = fmax(worst, fabs(w - (double)R[i][j]) / scale);
        }
    ENSURE(symmetric);
    ENSURE(held_zero);
    ENSURE(worst <= 1e-8);
    printf("  W_nn: first link %.6g (reference %.6g), heavy link %.6g, tip %.6g 1/kg; "
           "worst |W - ref| / sqrt(W_ii W_jj) %.3g\n",
           W[2 + CROWS * 2], (double)R[2][2], W[5 + CROWS * 5], W[8 + CROWS * 8], worst);
    ENSURE(fabs(W[2 + CROWS * 2]) < 1e-10 && W[2 + CROWS * 2] > 1e-14);

    double E[CROWS * CROWS], lam[CROWS], wmax = 0.0;
    memcpy(E, W, sizeof E);
    for (int i = 0; i < CROWS * CROWS; i++) wmax = fmax(wmax, fabs(W[i]));
    ENSURE(LAPACKE_dsyev(LAPACK_COL_MAJOR, 'N', 'L', CROWS, E, CROWS, lam) == 0);
    ENSURE(lam[0] >= -4.0 * CROWS * DBL_EPSILON * wmax);
    if (lam[0] < -4.0 * CROWS * DBL_EPSILON * wmax)
        printf("  W's least eigenvalue %.3g (|W| %.3g)\n", lam[0], wmax);

    /* impulses on every contact, sized to move the light links about 1 m/s */
    double pi[CROWS], du[6 * LINKS];
    for (int i = 0; i < CROWS; i++)
        pi[i] = (i % 3 == 1) ? 0.0 : (i < 3 ? 1e12 : 1.0) * (1.0 + 0.1 * i);
    ipx_constrained_delta_u(&c.s, pi, du, work);
    const double rdu = relative_joint_residual(&c, du);
    ENSURE(rdu < 1e-12);
    /* and J_c du = W pi */
    double err = 0.0, size = 0.0;
    for (int i = 0; i < CROWS; i++) {
        double wpi = 0.0, jdu = 0.0;
        for (int j = 0; j < CROWS; j++) wpi += W[i + CROWS * j] * pi[j];
        for (int t = 0; t < 2; t++)
            if (c.contact[i].body[t] >= 0)
                for (int k = 0; k < 6; k++)
                    jdu += c.contact[i].J[t][k] * du[6 * c.contact[i].body[t] + k];
        err = fmax(err, fabs(wpi - jdu));
        size = fmax(size, fabs(wpi));
    }
    ENSURE(err <= 1e-10 * size);
    printf("  du: joint residual %.3g of its terms, |J_c du - W pi| %.3g of %.3g m/s\n", rdu, err,
           size);
}

static void test_heavy_link_chain_projects_violating_velocities_onto_the_joints(void)
{
    static chain c;
    make_chain(&c);
    static double work[1 << 16];
    double u[6 * LINKS], W[CROWS * CROWS], v[CROWS];
    ipx_rng rng;
    ipx_rng_seed(&rng, 5);
    for (int i = 0; i < 6 * LINKS; i++) u[i] = ipx_rng_normal(&rng);
    char msg[IPX_MESSAGE_SIZE];
    ipx_constrained_info info;
    ENSURE(ipx_constrained_assemble(&c.s, u, W, v, work, &info, msg, sizeof msg) == IPX_OK);
    const double r = relative_joint_residual(&c, u);
    ENSURE(r < 1e-12);
    ENSURE(info.violation_before > 0.1);
    printf("  violation %.3g -> %.3g m/s (%.3g of the terms)\n", info.violation_before,
           info.violation_after, r);
}

int main(void)
{
    RUN(test_heavy_link_chain_W_matches_the_joint_coordinates);
    RUN(test_heavy_link_chain_projects_violating_velocities_onto_the_joints);
    return ipx_test_exit();
}
