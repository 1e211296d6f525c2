/* ipx_lemke (lexicographic Lemke) on hand-solved, random, degenerate, cycling-prone and
   infeasible LCPs, checked against the LCP conditions themselves, against planted solutions and
   against Siconos Numerics' lcp_lexicolemke.

   LCP(q, M): find z with w = M z + q, z >= 0, w >= 0, z^T w = 0. M column-major, M[i + n*j]. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ensure.h"
#include "impax/impax.h"
#include "lcp_gen.h"
#include "siconos_lcp.h"

#define N_MAX 48

static double M[N_MAX * N_MAX], q[N_MAX], z[N_MAX], w[N_MAX];
static double zs[N_MAX], ws[N_MAX]; /* Siconos' answer */
static double dwork[N_MAX * (2 * N_MAX + 2) + 3 * N_MAX];
static int iwork[2 * N_MAX];

/* Tolerance of the LCP conditions, relative to the data's scale (see residual()). */
#define RES_TOL 1e-9

static ipx_status lemke(int n, int max_pivots, int *pivots)
{
    ENSURE(ipx_lemke_work_doubles(n) <= sizeof dwork / sizeof dwork[0]);
    ENSURE(ipx_lemke_work_ints(n) <= sizeof iwork / sizeof iwork[0]);
    return ipx_lemke(n, M, q, z, w, max_pivots, dwork, iwork, pivots);
}

static ipx_status lemke_default(int n) { return lemke(n, ipx_lemke_default_max_pivots(n), NULL); }

/* Largest relative violation of the LCP conditions by zz (and by ww, when given, of
   ww = M zz + q): z_i >= 0, w_i >= 0, |z_i w_i| small, w = M z + q. z-quantities are measured
   against max|zref|, w-quantities against S = max(max|q|, max_i sum_j |M_ij zref_j|), the size
   of the terms that make up w. zref is zz itself, or a trusted answer when zz is someone
   else's: a huge wrong z would otherwise inflate its own yardstick until it passes. */
static double residual_against(int n, const double *zz, const double *ww, const double *zref)
{
    double wr[N_MAX], zmax = 1e-300, S = 1e-300;
    for (int i = 0; i < n; i++) {
        double terms = fabs(q[i]);
        wr[i] = q[i];
        for (int j = 0; j < n; j++) {
            wr[i] += M[i + n * j] * zz[j];
            terms += fabs(M[i + n * j] * zref[j]);
        }
        S = fmax(S, terms);
        zmax = fmax(zmax, fabs(zref[i]));
    }
    double worst = 0.0;
    for (int i = 0; i < n; i++) {
        worst = fmax(worst, fmax(-zz[i] / zmax, -wr[i] / S));
        worst = fmax(worst, fabs(zz[i] * wr[i]) / (zmax * S));
        if (ww) worst = fmax(worst, fabs(ww[i] - wr[i]) / S);
    }
    return worst;
}

static double residual(int n, const double *zz, const double *ww)
{
    return residual_against(n, zz, ww, zz);
}

/* Siconos' answer zs, judged with the scales of our (already checked) answer z. */
static int siconos_valid(int n, int info, double tol)
{
    return info == 0 && residual_against(n, zs, NULL, z) <= tol;
}

/* w = M zz + q for the current data. */
static void w_of(int n, const double *zz, double *out)
{
    for (int i = 0; i < n; i++) {
        out[i] = q[i];
        for (int j = 0; j < n; j++) out[i] += M[i + n * j] * zz[j];
    }
}

static double max_abs(const double *x, int count)
{
    double m = 0.0;
    for (int i = 0; i < count; i++) m = fmax(m, fabs(x[i]));
    return m;
}

static int all_zero(const double *x, int count)
{
    for (int i = 0; i < count; i++)
        if (x[i] != 0.0) return 0;
    return 1;
}

/* ---------------------------------------------------------------- hand-solved problems */

static void test_two_by_two_with_both_variables_active(void)
{
    /* 2 z1 + z2 = 5, z1 + 2 z2 = 6: z = (4/3, 7/3), w = 0 */
    M[0] = 2, M[1] = 1, M[2] = 1, M[3] = 2;
    q[0] = -5, q[1] = -6;
    int pivots = 0;
    ENSURE(lemke(2, 100, &pivots) == IPX_OK);
    ENSURE_NEAR(z[0], 4.0 / 3.0, 1e-14);
    ENSURE_NEAR(z[1], 7.0 / 3.0, 1e-14);
    ENSURE_NEAR(w[0], 0.0, 1e-14);
    ENSURE_NEAR(w[1], 0.0, 1e-14);
    ENSURE(pivots == 3); /* z0 in (w2 out), z2 in (w1 out), z1 in (z0 out) */
}

static void test_three_by_three_coupled_with_middle_row_inactive(void)
{
    /* M = tridiag(1, 2, 1), q = (-1, 1, -1). With z2 = 0: 2 z1 = 1, 2 z3 = 1, and then
       w2 = 1 + z1 + z3 = 2 > 0. So z = (1/2, 0, 1/2), w = (0, 2, 0) (unique: M is SPD). */
    const double Mh[9] = {2, 1, 0, 1, 2, 1, 0, 1, 2};
    memcpy(M, Mh, sizeof Mh);
    q[0] = -1, q[1] = 1, q[2] = -1;
    ENSURE(lemke(3, 100, NULL) == IPX_OK);
    ENSURE_NEAR(z[0], 0.5, 1e-15);
    ENSURE_NEAR(z[1], 0.0, 0.0);
    ENSURE_NEAR(z[2], 0.5, 1e-15);
    ENSURE_NEAR(w[0], 0.0, 1e-15);
    ENSURE_NEAR(w[1], 2.0, 1e-15);
    ENSURE_NEAR(w[2], 0.0, 1e-15);
}

static void test_nonnegative_q_is_solved_by_zero_without_pivots(void)
{
    M[0] = -7, M[1] = 3, M[2] = 2, M[3] = -1; /* any M: z = 0, w = q >= 0 is a solution */
    q[0] = 0, q[1] = 4;
    z[0] = z[1] = 9.0;
    int pivots = -1;
    ENSURE(lemke(2, 100, &pivots) == IPX_OK);
    ENSURE(pivots == 0);
    ENSURE(z[0] == 0.0 && z[1] == 0.0);
    ENSURE(w[0] == 0.0 && w[1] == 4.0);
}

static void test_solution_is_invariant_under_scaling_of_m_and_q(void)
{
    /* LCP(s q, s M) has the same z and w scaled by s (s > 0). The solver scales the data by
       max|M_ij| itself, so a power-of-two s must give bit-identical z and pivots. */
    ipx_rng rng;
    ipx_rng_seed(&rng, 99);
    double M0[N_MAX * N_MAX], q0[N_MAX], z0[N_MAX], w0[N_MAX];
    const double scales[] = {0x1p-40, 0x1p-7, 0x1p9, 0x1p33, 1e-6, 3.7e5};
    for (int t = 0; t < 20; t++) {
        const int n = 5 + t;
        ipx_lcp_generate(t % 2 ? IPX_LCP_IMPACT : IPX_LCP_P_MATRIX, n, &rng, M0, q0, NULL);
        memcpy(M, M0, sizeof(double) * n * n);
        memcpy(q, q0, sizeof(double) * n);
        int p0 = 0, p = 0;
        ENSURE(lemke(n, ipx_lemke_default_max_pivots(n), &p0) == IPX_OK);
        memcpy(z0, z, sizeof(double) * n);
        memcpy(w0, w, sizeof(double) * n);
        for (size_t s = 0; s < sizeof scales / sizeof scales[0]; s++) {
            const double c = scales[s];
            const int exact = s < 4;
            for (int i = 0; i < n * n; i++) M[i] = c * M0[i];
            for (int i = 0; i < n; i++) q[i] = c * q0[i];
            ENSURE(lemke(n, ipx_lemke_default_max_pivots(n), &p) == IPX_OK);
            if (exact) ENSURE(p == p0);
            for (int i = 0; i < n; i++) {
                if (exact) {
                    ENSURE(z[i] == z0[i]);
                    ENSURE(w[i] == c * w0[i]);
                } else {
                    ENSURE_NEAR(z[i], z0[i], 1e-10 * (1.0 + max_abs(z0, n)));
                    ENSURE_NEAR(w[i], c * w0[i], 1e-10 * c * (1.0 + max_abs(w0, n)));
                }
            }
        }
    }
}

/* ---------------------------------------------------------------- random corpus vs Siconos */

typedef struct class_stats {
    int tried, ours_ok, siconos_ok, compared;
    double worst_residual, worst_z_diff, worst_w_diff;
    long pivots;
} class_stats;

static void test_random_corpus_solves_every_problem_and_agrees_with_siconos(void)
{
    /* 2500 problems, n = 1..40, five classes that Lemke is guaranteed to solve (lcp_gen.h).
       Unique solutions (SPD and P-matrices) must match Siconos' and the planted one; for the
       symmetric PSD class w must match: if z1 and z2 both solve LCP(q, M) with M symmetric PSD,
       both minimise the convex f(z) = z^T M z / 2 + q^T z over z >= 0 (the LCP is its KKT
       system, sufficient for a convex QP), with the same value f*; by convexity f <= f* on the
       segment between them, so f = f* there. f(z1 + t d) = f(z1) + t grad f(z1)^T d +
       t^2 d^T M d / 2 constant for t in [0, 1] forces d^T M d = 0, hence M d = 0 (M PSD) and
       w1 = w2. Monotone and impact LCPs have neither unique z nor unique w (the
       skew part of M escapes that argument): both answers must just be valid. */
    ipx_rng rng;
    ipx_rng_seed(&rng, 4242);
    class_stats st[IPX_LCP_N_CLASSES];
    memset(st, 0, sizeof st);
    double z_star[N_MAX], wa[N_MAX], wb[N_MAX];
    for (int t = 0; t < 2500; t++) {
        const ipx_lcp_class cls = (ipx_lcp_class)(t % IPX_LCP_N_CLASSES);
        const int n = 1 + (int)(ipx_rng_next(&rng) % 40);
        const int planted = ipx_lcp_generate(cls, n, &rng, M, q, z_star);
        class_stats *s = &st[cls];
        s->tried++;
        int pivots = 0;
        ipx_status status = lemke(n, ipx_lemke_default_max_pivots(n), &pivots);
        ENSURE(status == IPX_OK);
        const double res = residual(n, z, w);
        ENSURE(res <= RES_TOL);
        const int ours = status == IPX_OK && res <= RES_TOL;
        s->ours_ok += ours;
        s->pivots += pivots;
        s->worst_residual = fmax(s->worst_residual, res);

        const int info = ipx_siconos_lexicolemke(n, M, q, zs, ws);
        const int reference = ours && siconos_valid(n, info, RES_TOL);
        s->siconos_ok += reference;
        if (!ours) continue;
        const double zscale = 1.0 + max_abs(z, n);
        if (cls == IPX_LCP_SPD || cls == IPX_LCP_P_MATRIX) {
            if (planted)
                for (int i = 0; i < n; i++) ENSURE_NEAR(z[i], z_star[i], 1e-10 * zscale);
            if (reference) {
                s->compared++;
                for (int i = 0; i < n; i++) {
                    ENSURE_NEAR(z[i], zs[i], 1e-10 * zscale);
                    s->worst_z_diff = fmax(s->worst_z_diff, fabs(z[i] - zs[i]) / zscale);
                }
            }
        }
        if (cls == IPX_LCP_PSD) {
            w_of(n, z, wa);
            const double wscale = 1.0 + max_abs(wa, n) + max_abs(q, n);
            w_of(n, z_star, wb);
            for (int i = 0; i < n; i++) ENSURE_NEAR(wa[i], wb[i], 1e-10 * wscale);
            if (reference) {
                s->compared++;
                w_of(n, zs, wb);
                for (int i = 0; i < n; i++) {
                    ENSURE_NEAR(wa[i], wb[i], 1e-10 * wscale);
                    s->worst_w_diff = fmax(s->worst_w_diff, fabs(wa[i] - wb[i]) / wscale);
                }
            }
        }
    }
    for (int c = 0; c < IPX_LCP_N_CLASSES; c++) {
        const class_stats *s = &st[c];
        printf("  %-9s ours valid %d/%d (worst residual %.1e, %.1f pivots avg), Siconos valid %d, "
               "compared %d (worst |dz| %.1e, |dw| %.1e)\n",
               ipx_lcp_class_name((ipx_lcp_class)c), s->ours_ok, s->tried, s->worst_residual,
               (double)s->pivots / s->tried, s->siconos_ok, s->compared, s->worst_z_diff,
               s->worst_w_diff);
        ENSURE(s->ours_ok == s->tried); /* every class is solvable for every generated q */
    }
    ENSURE(st[IPX_LCP_SPD].compared >= 400 && st[IPX_LCP_P_MATRIX].compared >= 400);
    ENSURE(st[IPX_LCP_PSD].compared >= 400);
}

/* ---------------------------------------------------------------- degenerate problems */

static void test_all_ones_matrix_where_every_ratio_ties(void)
{
    /* M = 1 1^T (rank 1), q = -1: every row ties in every ratio test. Solutions: any z >= 0
       with sum z = 1, and then w = 0. */
    for (int n = 1; n <= 40; n += 3) {
        for (int i = 0; i < n * n; i++) M[i] = 1.0;
        for (int i = 0; i < n; i++) q[i] = -1.0;
        ENSURE(lemke_default(n) == IPX_OK);
        ENSURE(residual(n, z, w) <= 1e-14);
        double sum = 0.0;
        for (int i = 0; i < n; i++) sum += z[i];
        ENSURE_NEAR(sum, 1.0, 1e-14);
    }
}

/* A random integer PSD matrix S = B B^T (B entries in {-1, 0, 1}, rank <= r) with a planted
   integer complementary pair in which about a third of the indices have z*_i = w*_i = 0:
   q is integer, so ratios tie exactly and the starting basis is degenerate. Writes the
   n0 x n0 S into Sout and q0, w* into qout, wout. */
static void integer_psd(int n0, int r, ipx_rng *rng, double *Sout, double *qout, double *wout)
{
    double B[N_MAX * N_MAX], zp[N_MAX];
    for (int i = 0; i < n0 * r; i++) B[i] = (double)((int)(ipx_rng_next(rng) % 3) - 1);
    for (int i = 0; i < n0; i++)
        for (int j = 0; j < n0; j++) {
            double s = 0.0;
            for (int c = 0; c < r; c++) s += B[i + n0 * c] * B[j + n0 * c];
            Sout[i + n0 * j] = s;
        }
    for (int i = 0; i < n0; i++) {
        int kind = (int)(ipx_rng_next(rng) % 3); /* 0: z* > 0, 1: w* > 0, 2: both 0 */
        zp[i] = kind == 0 ? (double)(1 + ipx_rng_next(rng) % 2) : 0.0;
        wout[i] = kind == 1 ? (double)(1 + ipx_rng_next(rng) % 2) : 0.0;
    }
    for (int i = 0; i < n0; i++) {
        qout[i] = wout[i];
        for (int j = 0; j < n0; j++) qout[i] -= Sout[i + n0 * j] * zp[j];
    }
}

static void test_integer_psd_lcps_with_exact_ties_and_zeros_in_q(void)
{
    /* w is unique for symmetric PSD M (see the corpus test): it must equal the planted w*. */
    ipx_rng rng;
    ipx_rng_seed(&rng, 7);
    double S[N_MAX * N_MAX], w_star[N_MAX], wa[N_MAX], wb[N_MAX];
    int siconos_ok = 0, ties = 0;
    for (int t = 0; t < 400; t++) {
        const int n = 2 + (int)(ipx_rng_next(&rng) % 29), r = 1 + (int)(ipx_rng_next(&rng) % n);
        integer_psd(n, r, &rng, S, q, w_star);
        memcpy(M, S, sizeof(double) * n * n);
        for (int i = 0; i < n; i++)
            for (int j = 0; j < i; j++) ties += q[i] == q[j] && q[i] < 0.0;
        ENSURE(lemke_default(n) == IPX_OK);
        ENSURE(residual(n, z, w) <= 1e-12);
        w_of(n, z, wa);
        for (int i = 0; i < n; i++) ENSURE_NEAR(wa[i], w_star[i], 1e-10 * (1.0 + max_abs(q, n)));
        if (siconos_valid(n, ipx_siconos_lexicolemke(n, M, q, zs, ws), 1e-12)) {
            siconos_ok++;
            w_of(n, zs, wb);
            for (int i = 0; i < n; i++) ENSURE_NEAR(wa[i], wb[i], 1e-10 * (1.0 + max_abs(q, n)));
        }
    }
    printf(
        "  400 integer PSD LCPs (%d tied negative q pairs): ours all valid, Siconos valid on %d\n",
        ties, siconos_ok);
    ENSURE(ties > 100);
}

/* Index map of a problem with duplicated indices: index i of the big problem is index
   map[i] of the small one. */
static int duplicate_map(int n0, int n, ipx_rng *rng, int *map)
{
    for (int i = 0; i < n; i++) map[i] = i < n0 ? i : (int)(ipx_rng_next(rng) % (uint64_t)n0);
    for (int i = n - 1; i > 0; i--) { /* shuffle so that copies are not all at the end */
        int j = (int)(ipx_rng_next(rng) % (uint64_t)(i + 1)), tmp = map[i];
        map[i] = map[j];
        map[j] = tmp;
    }
    return n;
}

static void test_duplicated_rows_and_columns_of_redundant_contacts(void)
{
    /* A contact reported twice duplicates an index: M = P S P^T, q = P q0, where each row of P
       is a unit row vector. P S P^T stays symmetric PSD (resp. copositive) and q stays
       admissible, but the duplicate rows tie in every ratio test. */
    ipx_rng rng;
    ipx_rng_seed(&rng, 11);
    double S[N_MAX * N_MAX], q0[N_MAX], w_star[N_MAX], wa[N_MAX], wb[N_MAX];
    int map[N_MAX], siconos_ok = 0;
    for (int t = 0; t < 300; t++) {
        const int n0 = 1 + (int)(ipx_rng_next(&rng) % 20),
                  n = n0 + 1 + (int)(ipx_rng_next(&rng) % (uint64_t)n0);
        const int psd = t % 3 != 2;
        if (psd) integer_psd(n0, 1 + (int)(ipx_rng_next(&rng) % n0), &rng, S, q0, w_star);
        else ipx_lcp_generate(IPX_LCP_IMPACT, n0, &rng, S, q0, NULL);
        duplicate_map(n0, n, &rng, map);
        for (int i = 0; i < n; i++) {
            q[i] = q0[map[i]];
            for (int j = 0; j < n; j++) M[i + n * j] = S[map[i] + n0 * map[j]];
        }
        ENSURE(lemke_default(n) == IPX_OK);
        ENSURE(residual(n, z, w) <= RES_TOL);
        if (psd) { /* unique w: the planted w* of the small problem, copied */
            w_of(n, z, wa);
            for (int i = 0; i < n; i++)
                ENSURE_NEAR(wa[i], w_star[map[i]], 1e-10 * (1.0 + max_abs(q, n)));
        }
        if (siconos_valid(n, ipx_siconos_lexicolemke(n, M, q, zs, ws), RES_TOL)) {
            siconos_ok++;
            w_of(n, zs, wb);
            if (psd)
                for (int i = 0; i < n; i++)
                    ENSURE_NEAR(wb[i], wa[i], 1e-10 * (1.0 + max_abs(q, n)));
        }
    }
    printf("  300 LCPs with duplicated indices: ours all valid, Siconos valid on %d\n", siconos_ok);
}

static void test_zero_rows_and_columns_with_zero_or_positive_q(void)
{
    /* index 1 has a zero row and column: w_1 = q_1 whatever z is; with q_1 = 0 any z_1 >= 0
       is complementary, with q_1 > 0 z_1 must be 0. Index 0 and 2 form an SPD block. */
    for (int variant = 0; variant < 2; variant++) {
        memset(M, 0, sizeof(double) * 9);
        M[0] = 2, M[2] = 1, M[6] = 1, M[8] = 2; /* rows/cols 0 and 2: [[2, 1], [1, 2]] */
        q[0] = -3, q[1] = variant ? 0.5 : 0.0, q[2] = -3;
        ENSURE(lemke(3, 100, NULL) == IPX_OK);
        ENSURE(residual(3, z, w) <= 1e-15);
        ENSURE_NEAR(z[0], 1.0, 1e-15);
        ENSURE_NEAR(z[2], 1.0, 1e-15);
        if (variant) ENSURE(z[1] == 0.0);
    }
    /* a zero matrix with q >= 0 containing zeros: trivially z = 0 */
    memset(M, 0, sizeof(double) * 16);
    q[0] = 0, q[1] = 1, q[2] = 0, q[3] = 2;
    ENSURE(lemke(4, 100, NULL) == IPX_OK);
    ENSURE(all_zero(z, 4));
}

static void test_p_matrix_with_degenerate_planted_solution_is_found_exactly(void)
{
    /* z*_i = w*_i = 0 on a third of the indices: q_i = -(M z*)_i with both zero, a degenerate
       vertex; the solution is still unique (P-matrix), so z must be z*. */
    ipx_rng rng;
    ipx_rng_seed(&rng, 5);
    double z_star[N_MAX], w_star[N_MAX];
    for (int t = 0; t < 200; t++) {
        const int n = 2 + (int)(ipx_rng_next(&rng) % 30);
        ipx_lcp_generate(IPX_LCP_P_MATRIX, n, &rng, M, q, NULL);
        for (int i = 0; i < n; i++) {
            int kind = (int)(ipx_rng_next(&rng) % 3);
            z_star[i] = kind == 0 ? ipx_rng_uniform(&rng, 0.5, 2.0) : 0.0;
            w_star[i] = kind == 1 ? ipx_rng_uniform(&rng, 0.5, 2.0) : 0.0;
        }
        for (int i = 0; i < n; i++) {
            q[i] = w_star[i];
            for (int j = 0; j < n; j++) q[i] -= M[i + n * j] * z_star[j];
        }
        ENSURE(lemke_default(n) == IPX_OK);
        for (int i = 0; i < n; i++) ENSURE_NEAR(z[i], z_star[i], 1e-9 * (1.0 + max_abs(z_star, n)));
    }
}

/* Plain Lemke with the lowest-row-index tie rule instead of the lexicographic one (same start:
   z0 enters at the last most negative q_i). Returns 1 if a basis repeats with the same entering
   variable before max_pivots: the method cycles. Small n only. */
static int plain_lemke_cycles(int n, int max_pivots)
{
    enum { NP = 4, C = 2 * NP + 2 };
    double t[NP][C];
    int basis[NP], seen_basis[256], seen_enter[256], seen = 0;
    const int cols = 2 * n + 2, rhs = cols - 1;
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < cols; j++) t[i][j] = 0.0;
        t[i][i] = 1.0;
        for (int j = 0; j < n; j++) t[i][n + j] = -M[i + n * j];
        t[i][2 * n] = -1.0;
        t[i][rhs] = q[i];
        basis[i] = i;
    }
    int r = 0, enter = 2 * n;
    for (int i = 1; i < n; i++)
        if (q[i] <= q[r]) r = i;
    for (int p = 0; p < max_pivots && p < 256; p++) {
        if (p > 0) { /* ratio test, ties to the lowest row */
            int mask = 0;
            for (int i = 0; i < n; i++) mask |= 1 << basis[i];
            for (int s = 0; s < seen; s++)
                if (seen_basis[s] == mask && seen_enter[s] == enter) return 1;
            seen_basis[seen] = mask, seen_enter[seen++] = enter;
            r = -1;
            for (int i = 0; i < n; i++) {
                if (t[i][enter] <= 1e-12) continue;
                if (r < 0 || t[i][rhs] / t[i][enter] < t[r][rhs] / t[r][enter] - 1e-12) r = i;
            }
            if (r < 0) return 0; /* ray */
        }
        const double inv = 1.0 / t[r][enter];
        for (int j = 0; j < cols; j++) t[r][j] *= inv;
        for (int i = 0; i < n; i++) {
            if (i == r) continue;
            const double f = t[i][enter];
            for (int j = 0; j < cols; j++) t[i][j] -= f * t[r][j];
        }
        const int leaving = basis[r];
        basis[r] = enter;
        if (leaving == 2 * n) return 0; /* z0 left: solved */
        enter = leaving < n ? leaving + n : leaving - n;
    }
    return 0;
}

static void test_lexicographic_rule_solves_an_lcp_on_which_plain_lemke_cycles(void)
{
    /* Found by exhaustive search in exact rational arithmetic over small integer LCPs: with
       ties broken by the lowest row index, Lemke's method cycles through 6 bases here forever
       (every q_i = -1 makes the first basis degenerate). The lexicographic rule (CPS 4.4)
       cannot revisit a basis. The unique solution: z = (2/3, 1/3, 1/3), w = 0. */
    const double Mrows[3][3] = {{1, 2, -1}, {0, 1, 2}, {2, -1, 0}};
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) M[i + 3 * j] = Mrows[i][j];
    q[0] = q[1] = q[2] = -1.0;
    ENSURE(plain_lemke_cycles(3, 200) == 1);
    int pivots = 0;
    ENSURE(lemke(3, 200, &pivots) == IPX_OK);
    ENSURE(pivots <= 10);
    ENSURE_NEAR(z[0], 2.0 / 3.0, 1e-15);
    ENSURE_NEAR(z[1], 1.0 / 3.0, 1e-15);
    ENSURE_NEAR(z[2], 1.0 / 3.0, 1e-15);
    for (int i = 0; i < 3; i++) ENSURE_NEAR(w[i], 0.0, 1e-15);
    ENSURE(ipx_siconos_lexicolemke(3, M, q, zs, ws) == 0);
    for (int i = 0; i < 3; i++) ENSURE_NEAR(zs[i], z[i], 1e-14);
}

/* ---------------------------------------------------------------- failures */

/* Ours must end on a ray, without hanging, with z and w zeroed. Returns Siconos' info on the
   same problem (its answer is left in zs). Note: Siconos 4.4's lcp_lexicolemke returns info 0
   on ray termination as well (it marks the ray as "found"), so its info alone does not tell. */
static int expect_ray(int n)
{
    for (int i = 0; i < n; i++) z[i] = w[i] = 7.0;
    int pivots = -1;
    ENSURE(lemke(n, ipx_lemke_default_max_pivots(n), &pivots) == IPX_ERR_LCP_RAY);
    ENSURE(pivots >= 1 && pivots < ipx_lemke_default_max_pivots(n));
    ENSURE(all_zero(z, n) && all_zero(w, n));
    return ipx_siconos_lexicolemke(n, M, q, zs, ws);
}

/* For the small exact problems: Siconos' answer is no solution either. */
static void expect_ray_and_no_siconos_solution(int n)
{
    const int info = expect_ray(n);
    ENSURE(info != 0 || !(residual(n, zs, NULL) <= RES_TOL));
}

static void test_infeasible_problems_end_on_a_secondary_ray(void)
{
    M[0] = -1.0, q[0] = -1.0; /* w = -z - 1 < 0 for every z >= 0 */
    expect_ray_and_no_siconos_solution(1);
    memset(M, 0, sizeof(double) * 9); /* M = 0: w = q, and q_0 < 0 */
    q[0] = -1, q[1] = 1, q[2] = 0;
    expect_ray_and_no_siconos_solution(3);
    M[0] = 0, M[1] = 1, M[2] = -1, M[3] = 0; /* skew (PSD): w1 = -z2 - 1 < 0 */
    q[0] = -1, q[1] = -1;
    expect_ray_and_no_siconos_solution(2);
    M[0] = 1, M[1] = -1, M[2] = -1, M[3] = 1; /* PSD: w1 + w2 = -2 < 0 */
    q[0] = -1, q[1] = -1;
    expect_ray_and_no_siconos_solution(2);
    /* random symmetric PSD M with a positive v in its null space and v^T q < 0: for z >= 0,
       v^T (M z + q) = v^T q < 0, so no z is feasible. M is copositive-plus, so Lemke must end
       on a ray (CPS 4.4), in at most the default pivots. Siconos, whose ratio test takes any
       positive entry, may pivot on round-off instead. */
    int siconos_claims = 0;
    ipx_rng rng;
    ipx_rng_seed(&rng, 3);
    for (int t = 0; t < 50; t++) {
        const int n = 2 + (int)(ipx_rng_next(&rng) % 30),
                  r = 1 + (int)(ipx_rng_next(&rng) % (uint64_t)(n - 1));
        double v[N_MAX], B[N_MAX * N_MAX], vv = 0.0;
        for (int i = 0; i < n; i++) {
            v[i] = ipx_rng_uniform(&rng, 0.1, 1.0);
            vv += v[i] * v[i];
        }
        for (int c = 0; c < r; c++) { /* columns of B orthogonal to v */
            double *b = B + n * c, bv = 0.0;
            for (int i = 0; i < n; i++) {
                b[i] = ipx_rng_normal(&rng);
                bv += b[i] * v[i];
            }
            for (int i = 0; i < n; i++) b[i] -= bv / vv * v[i];
        }
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++) {
                double s = 0.0;
                for (int c = 0; c < r; c++) s += B[i + n * c] * B[j + n * c];
                M[i + n * j] = s;
            }
        for (int i = 0; i < n; i++) q[i] = ipx_rng_normal(&rng);
        double vq = 0.0;
        for (int i = 0; i < n; i++) vq += v[i] * q[i];
        for (int i = 0; i < n; i++) q[i] -= (vq + 1.0) / vv * v[i]; /* v^T q = -1 */
        siconos_claims += expect_ray(n) == 0;
    }
    printf("  50 random infeasible PSD LCPs: ours all end on a ray; Siconos returns info 0 on %d\n",
           siconos_claims);
}

static void test_pivot_limit_is_reported_and_respected(void)
{
    M[0] = 2, M[1] = 1, M[2] = 1, M[3] = 2; /* needs 3 pivots */
    q[0] = -5, q[1] = -6;
    z[0] = z[1] = w[0] = w[1] = 7.0;
    int pivots = 0;
    ENSURE(lemke(2, 1, &pivots) == IPX_ERR_LCP_PIVOTS);
    ENSURE(pivots == 1);
    ENSURE(all_zero(z, 2) && all_zero(w, 2));
    ENSURE(lemke(2, 2, &pivots) == IPX_ERR_LCP_PIVOTS && pivots == 2);
    ENSURE(lemke(2, 3, &pivots) == IPX_OK && pivots == 3);
    /* a larger problem: the limit is exact */
    ipx_rng rng;
    ipx_rng_seed(&rng, 8);
    for (int t = 0; t < 20; t++) {
        const int n = 10 + t;
        ipx_lcp_generate((ipx_lcp_class)(t % IPX_LCP_N_CLASSES), n, &rng, M, q, NULL);
        int needed = 0;
        ENSURE(lemke(n, ipx_lemke_default_max_pivots(n), &needed) == IPX_OK);
        if (needed < 2) continue;
        ENSURE(lemke(n, needed - 1, &pivots) == IPX_ERR_LCP_PIVOTS);
        ENSURE(pivots == needed - 1);
        ENSURE(all_zero(z, n) && all_zero(w, n));
        ENSURE(lemke(n, needed, &pivots) == IPX_OK && pivots == needed);
    }
}

static void test_bad_input_is_rejected_and_zeroes_the_answer(void)
{
    M[0] = 1.0, q[0] = NAN;
    z[0] = w[0] = 7.0;
    ENSURE(lemke(1, 10, NULL) == IPX_ERR_INPUT);
    ENSURE(z[0] == 0.0 && w[0] == 0.0);
    q[0] = -1.0, M[0] = INFINITY;
    ENSURE(lemke(1, 10, NULL) == IPX_ERR_INPUT);
    M[0] = NAN;
    ENSURE(lemke(1, 10, NULL) == IPX_ERR_INPUT);
    M[0] = 1.0;
    ENSURE(lemke(1, 0, NULL) == IPX_ERR_INPUT); /* max_pivots < 1 */
    ENSURE(ipx_lemke(0, M, q, z, w, 10, dwork, iwork, NULL) == IPX_ERR_INPUT);
    ENSURE(ipx_lemke(-3, M, q, z, w, 10, dwork, iwork, NULL) == IPX_ERR_INPUT);
    z[0] = w[0] = 7.0;
    ENSURE(ipx_lemke(1, NULL, q, z, w, 10, dwork, iwork, NULL) == IPX_ERR_INPUT);
    ENSURE(z[0] == 0.0 && w[0] == 0.0);
    ENSURE(ipx_lemke(1, M, NULL, z, w, 10, dwork, iwork, NULL) == IPX_ERR_INPUT);
    ENSURE(ipx_lemke(1, M, q, z, w, 10, NULL, iwork, NULL) == IPX_ERR_INPUT);
    ENSURE(ipx_lemke(1, M, q, z, w, 10, dwork, iwork, NULL) == IPX_OK); /* and now it is fine */
    ENSURE_NEAR(z[0], 1.0, 0.0);
}

static void test_work_space_of_the_advertised_size_suffices(void)
{
    /* exactly-sized heap arrays: AddressSanitizer reports any access past them */
    ENSURE(ipx_lemke_work_doubles(0) == 0 && ipx_lemke_work_ints(-1) == 0);
    ipx_rng rng;
    ipx_rng_seed(&rng, 21);
    for (int n = 1; n <= 40; n += 13) {
        double *dw = malloc(sizeof(double) * ipx_lemke_work_doubles(n));
        int *iw = malloc(sizeof(int) * ipx_lemke_work_ints(n));
        ENSURE(dw && iw);
        ipx_lcp_generate(IPX_LCP_IMPACT, n, &rng, M, q, NULL);
        ENSURE(ipx_lemke(n, M, q, z, w, ipx_lemke_default_max_pivots(n), dw, iw, NULL) == IPX_OK);
        ENSURE(residual(n, z, w) <= RES_TOL);
        free(dw);
        free(iw);
    }
}

int main(void)
{
    RUN(test_two_by_two_with_both_variables_active);
    RUN(test_three_by_three_coupled_with_middle_row_inactive);
    RUN(test_nonnegative_q_is_solved_by_zero_without_pivots);
    RUN(test_solution_is_invariant_under_scaling_of_m_and_q);
    RUN(test_random_corpus_solves_every_problem_and_agrees_with_siconos);
    RUN(test_all_ones_matrix_where_every_ratio_ties);
    RUN(test_integer_psd_lcps_with_exact_ties_and_zeros_in_q);
    RUN(test_duplicated_rows_and_columns_of_redundant_contacts);
    RUN(test_zero_rows_and_columns_with_zero_or_positive_q);
    RUN(test_p_matrix_with_degenerate_planted_solution_is_found_exactly);
    RUN(test_lexicographic_rule_solves_an_lcp_on_which_plain_lemke_cycles);
    RUN(test_infeasible_problems_end_on_a_secondary_ray);
    RUN(test_pivot_limit_is_reported_and_respected);
    RUN(test_bad_input_is_rejected_and_zeroes_the_answer);
    RUN(test_work_space_of_the_advertised_size_suffices);
    return ipx_test_exit();
}
