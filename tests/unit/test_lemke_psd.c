/* ipx_lemke_psd (impax/lcp.h): Lemke on a singular positive semidefinite LCP, shifted by
   eps = IPX_LEMKE_PSD_SHIFT max M_ii where round-off defeats it. The captured problem is a move
   back to first touch on ODE's demo_crash wall (wall_touch_data.h), on which Lemke alone and the
   iterative solver both failed and the island was left to ODE. */
#include <math.h>
#include <stdlib.h>

#include "ensure.h"
#include "impax/impax.h"
#include "wall_touch_data.h"

enum { N = WALL_TOUCH_N };

static double max_diag(const double *M, int n)
{
    double d = 0.0;
    for (int i = 0; i < n; i++) d = fmax(d, M[i + (size_t)n * i]);
    return d;
}

/* The wall's problem is solved: lambda >= 0, every contact lifted to within shift lambda_i of
   its target (a leftover the caller starts the spring at), none pushed where not owed
   (complementarity of the shifted problem), and W lambda recomputed here from the data. */
static void test_wall_touch_is_solved_within_the_shift(void)
{
    double q[N], z[N], w[N], shift = -1.0;
    double *work = malloc(sizeof(double) * ipx_lemke_psd_work_doubles(N));
    int *iwork = malloc(sizeof(int) * ipx_lemke_work_ints(N));
    ENSURE(work && iwork);
    for (int i = 0; i < N; i++) q[i] = -wall_touch_target[i];
    ENSURE(ipx_lemke_psd(N, wall_touch_W, q, z, w, work, iwork, &shift) == IPX_OK);
    ENSURE(shift >= 0.0 && shift <= IPX_LEMKE_PSD_SHIFT * max_diag(wall_touch_W, N));
    double owed = 0.0, short_by = 0.0, pushed = 0.0; /* m */
    for (int i = 0; i < N; i++) owed = fmax(owed, wall_touch_target[i]);
    const double roundoff = 1e-12 * owed; /* m: the data's magnitude times a few ulps */
    for (int i = 0; i < N; i++) {
        ENSURE(z[i] >= 0.0);
        double Wz = 0.0;
        for (int j = 0; j < N; j++) Wz += wall_touch_W[i + (size_t)N * j] * z[j];
        const double lifted = Wz - wall_touch_target[i]; /* m, w of the unshifted problem */
        ENSURE_NEAR(w[i], lifted, roundoff);
        ENSURE(lifted >= -shift * z[i] - roundoff);
        short_by = fmax(short_by, -lifted);
        if (z[i] > 0.0) pushed = fmax(pushed, fabs(lifted + shift * z[i]));
    }
    ENSURE(pushed <= 1e-9 * owed);
    ENSURE(short_by <= 1e-3 * owed); /* the leftover is round-off against what was owed */
    free(work);
    free(iwork);
}

/* A problem Lemke solves as it is gets no shift and Lemke's own answer: a ball on two planes,
   W positive definite, q with a closed form (z = M^-1 (-q), both contacts pushed). */
static void test_regular_problem_is_not_shifted(void)
{
    const double M[4] = {2.0, 1.0, 1.0, 2.0}, q[2] = {-3.0, -3.0};
    double z[2], w[2], shift = -1.0;
    double *work = malloc(sizeof(double) * ipx_lemke_psd_work_doubles(2));
    int iwork[4];
    ENSURE(work && ipx_lemke_work_ints(2) <= 4);
    ENSURE(ipx_lemke_psd(2, M, q, z, w, work, iwork, &shift) == IPX_OK);
    ENSURE(shift == 0.0);
    ENSURE_NEAR(z[0], 1.0, 1e-15);
    ENSURE_NEAR(z[1], 1.0, 1e-15);
    ENSURE(w[0] == 0.0 && w[1] == 0.0);
    free(work);
}

int main(void)
{
    RUN(test_wall_touch_is_solved_within_the_shift);
    RUN(test_regular_problem_is_not_shifted);
    return ipx_test_exit();
}
