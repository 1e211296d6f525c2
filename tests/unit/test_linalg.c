/* The LAPACKE wrappers against closed forms: minimum-norm least squares, Cholesky, and the
   symmetric-PSD check on matrices with known spectra. */
#include <math.h>
#include <string.h>

#include "ensure.h"
#include "impax/impax.h"

static double work[4096];
static int iwork[64];

static void test_underdetermined_system_gets_minimum_norm_solution(void)
{
    /* x + y + z = 3: the minimum-norm solution is (1, 1, 1) */
    double A[3] = {1, 1, 1}, b[3] = {3, 0, 0};
    int rank = 0;
    ENSURE(ipx_lsq_min_norm(1, 3, A, b, 1e-12, work, iwork, &rank) == IPX_OK);
    ENSURE(rank == 1);
    for (int i = 0; i < 3; i++) ENSURE_NEAR(b[i], 1.0, 1e-14);
}

static void test_rank_deficient_redundant_rows_spread_the_load(void)
{
    /* two identical rows (redundant contacts) asking for 2: x1 + x2 = 2 twice -> (1, 1) */
    double A[4] = {1, 1, 1, 1}, b[2] = {2, 2};
    int rank = 0;
    ENSURE(ipx_lsq_min_norm(2, 2, A, b, 1e-12, work, iwork, &rank) == IPX_OK);
    ENSURE(rank == 1);
    ENSURE_NEAR(b[0], 1.0, 1e-14);
    ENSURE_NEAR(b[1], 1.0, 1e-14);
}

static void test_overdetermined_system_gets_least_squares_solution(void)
{
    /* fit y = c through 1, 2, 3: c = 2 */
    double A[3] = {1, 1, 1}, b[3] = {1, 2, 3};
    ENSURE(ipx_lsq_min_norm(3, 1, A, b, 1e-12, work, iwork, NULL) == IPX_OK);
    ENSURE_NEAR(b[0], 2.0, 1e-14);
}

static void test_cholesky_solves_spd_system(void)
{
    double A[9] = {4, 2, 0, 2, 5, 1, 0, 1, 3}; /* SPD */
    double x_true[3] = {1, -2, 0.5}, B[3];
    for (int i = 0; i < 3; i++)
        B[i] = A[i] * x_true[0] + A[i + 3] * x_true[1] + A[i + 6] * x_true[2];
    ENSURE(ipx_cholesky_factor(3, A) == IPX_OK);
    ENSURE(ipx_cholesky_solve(3, A, 1, B) == IPX_OK);
    for (int i = 0; i < 3; i++) ENSURE_NEAR(B[i], x_true[i], 1e-14);
    double N[4] = {1, 2, 2, 1}; /* indefinite */
    ENSURE(ipx_cholesky_factor(2, N) == IPX_ERR_NUMERIC);
}

/* Both sides of the small-order loops (n <= 16) and LAPACK: the 1-D Laplacian plus the identity,
   tridiagonal (3, -1) and SPD, against a known solution with two right-hand sides; and a matrix
   whose last pivot is zero is refused at either size. */
static void test_cholesky_small_and_large_orders_agree_with_the_solution(void)
{
    static double A[30 * 30], B[2 * 30];
    const int sizes[2] = {12, 30};
    for (int s = 0; s < 2; s++) {
        const int n = sizes[s];
        memset(A, 0, sizeof A);
        for (int i = 0; i < n; i++) {
            A[i + n * i] = 3.0;
            if (i > 0) A[i + n * (i - 1)] = A[i - 1 + n * i] = -1.0;
        }
        for (int r = 0; r < 2; r++)
            for (int i = 0; i < n; i++) { /* B = A x with x_i = i + 1 (r = 0), (-1)^i (r = 1) */
                double b = 0.0;
                for (int c = 0; c < n; c++)
                    b += A[i + n * c] * (r == 0 ? c + 1.0 : (c % 2 ? -1.0 : 1.0));
                B[i + n * r] = b;
            }
        ENSURE(ipx_cholesky_factor(n, A) == IPX_OK);
        ENSURE(ipx_cholesky_solve(n, A, 2, B) == IPX_OK);
        for (int i = 0; i < n; i++) {
            ENSURE_NEAR(B[i], i + 1.0, 1e-12);
            ENSURE_NEAR(B[i + n], i % 2 ? -1.0 : 1.0, 1e-12);
        }
        for (int i = 0; i < n * n; i++) A[i] = 1.0; /* rank one: the second pivot is zero */
        ENSURE(ipx_cholesky_factor(n, A) == IPX_ERR_NUMERIC);
    }
}

/* Q diag(lambda) Q^T with a fixed rotation Q (Givens in two planes). */
static void spectral(const double lambda[4], double A[16])
{
    double Q[16] = {0};
    double c = cos(0.7), s = sin(0.7), c2 = cos(1.9), s2 = sin(1.9);
    /* block-diagonal rotations mixed by a permutation-free second rotation */
    double G1[16] = {c, s, 0, 0, -s, c, 0, 0, 0, 0, c2, s2, 0, 0, -s2, c2};
    double G2[16] = {1, 0, 0, 0, 0, c2, s2, 0, 0, -s2, c2, 0, 0, 0, 0, 1};
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++)
            for (int m = 0; m < 4; m++) Q[i + 4 * j] += G1[i + 4 * m] * G2[m + 4 * j];
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) {
            double a = 0.0;
            for (int m = 0; m < 4; m++) a += Q[i + 4 * m] * lambda[m] * Q[j + 4 * m];
            A[i + 4 * j] = a;
        }
    /* exact symmetry, as a host would assemble it */
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < i; j++) A[j + 4 * i] = A[i + 4 * j];
}

static void test_psd_check_follows_the_smallest_eigenvalue(void)
{
    char msg[IPX_MESSAGE_SIZE];
    double A[16];
    const double pd[4] = {3, 2, 1, 0.5}, psd[4] = {3, 2, 0, 0}, tiny_neg[4] = {3, 2, 1, -1e-12},
                 neg[4] = {3, 2, 1, -1e-6};
    spectral(pd, A);
    ENSURE(ipx_check_symmetric_psd(4, A, 1e-9, work, iwork, msg, sizeof msg) == IPX_OK);
    spectral(psd, A);
    ENSURE(ipx_check_symmetric_psd(4, A, 1e-9, work, iwork, msg, sizeof msg) == IPX_OK);
    spectral(tiny_neg, A); /* within the stated tolerance 1e-9 * 3 */
    ENSURE(ipx_check_symmetric_psd(4, A, 1e-9, work, iwork, msg, sizeof msg) == IPX_OK);
    spectral(neg, A);
    ENSURE(ipx_check_symmetric_psd(4, A, 1e-9, work, iwork, msg, sizeof msg) == IPX_ERR_INPUT);
    ENSURE(strstr(msg, "W is indefinite") != NULL);
    double Z[16] = {0};
    ENSURE(ipx_check_symmetric_psd(4, Z, 1e-9, work, iwork, msg, sizeof msg) == IPX_OK);
}

int main(void)
{
    RUN(test_underdetermined_system_gets_minimum_norm_solution);
    RUN(test_rank_deficient_redundant_rows_spread_the_load);
    RUN(test_overdetermined_system_gets_least_squares_solution);
    RUN(test_cholesky_solves_spd_system);
    RUN(test_cholesky_small_and_large_orders_agree_with_the_solution);
    RUN(test_psd_check_follows_the_smallest_eigenvalue);
    return ipx_test_exit();
}
