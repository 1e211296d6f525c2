/* The move back to first touch of a compliant island (adapters/ode/src/touch_lcp.h) on ODE's
   crash demo's wall at rest (wall_touch_740_data.h: 740 contacts, W_nn singular): from
   recovery_switch contacts on the iterative solver answers first, to a ten-thousandth of the
   largest target or 1 nm, whichever is more; before, the dense Lemke and then the iterative
   solver to 1e-9 of it both failed on this problem and the wall was left to ODE every step
   (docs/models/gonthier.md section 5). The answer must be the
   projection's: lambda >= 0, no contact left short of its target (w_i < 0) by more than the
   accuracy, and |w_i| within it where lambda_i > 0 pushes. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "ensure.h"
#include "impax/lcp.h"
#include "impax/lcp_psd.h"
#include "touch_lcp.h"
#include "wall_touch_740_data.h"

enum { K = WALL_740_K };

typedef struct room {
    double *M, *q, *lambda, *w, *diag, *val, *work;
    int *start, *col, *ilcp;
} room;

static touch_lcp make(room *r)
{
    r->M = calloc((size_t)K * K, sizeof *r->M);
    ENSURE(r->M != NULL);
    for (int e = 0; e < WALL_740_ENTRIES; e++) {
        r->M[wall_740_row[e] + (size_t)K * wall_740_col[e]] = wall_740_w[e];
        r->M[wall_740_col[e] + (size_t)K * wall_740_row[e]] = wall_740_w[e];
    }
    const size_t nnz = ipx_ode_touch_nonzero(K, r->M), lemke = ipx_lemke_psd_work_doubles(K),
                 psd = ipx_lcp_psd_work_doubles(K);
    r->q = malloc(sizeof *r->q * 5 * K);
    r->val = malloc(sizeof *r->val * nnz);
    r->work = malloc(sizeof *r->work * (lemke > psd ? lemke : psd));
    r->start = malloc(sizeof *r->start * (K + 1 + nnz));
    r->ilcp = malloc(sizeof *r->ilcp * ipx_lemke_work_ints(K));
    ENSURE(r->q && r->val && r->work && r->start && r->ilcp);
    r->lambda = r->q + K;
    r->w = r->lambda + K;
    r->diag = r->w + K;
    r->col = r->start + K + 1;
    for (int i = 0; i < K; i++) r->q[i] = -wall_740_target[i];
    return (touch_lcp){K,      r->M,    r->q,     r->lambda, r->w,   r->diag,
                       r->val, r->work, r->start, r->col,    r->ilcp};
}

static void release(room *r)
{
    free(r->M);
    free(r->q);
    free(r->val);
    free(r->work);
    free(r->start);
    free(r->ilcp);
}

static void test_resting_wall_is_moved_back_to_first_touch(void)
{
    room r;
    touch_lcp t = make(&r);
    double largest = 0.0; /* m */
    for (int i = 0; i < K; i++) largest = fmax(largest, wall_740_target[i]);
    const double accuracy = fmax(1e-4 * largest, 1e-9); /* m */
    ENSURE(ipx_ode_touch_solve(&t, 0) == 1);
    double short_most = 0.0, gap = 0.0, negative = 0.0; /* m, m, N s (per kg, as lambda) */
    for (int i = 0; i < K; i++) {
        /* w recomputed from the data: (W_nn lambda)_i - target_i */
        double wi = r.q[i];
        for (int j = 0; j < K; j++) wi += r.M[i + (size_t)K * j] * r.lambda[j];
        short_most = fmax(short_most, -wi);
        negative = fmax(negative, -r.lambda[i]);
        if (r.lambda[i] > 0.0) gap = fmax(gap, fabs(wi));
    }
    printf("  740 contacts, largest target %.3g m: shortest %.3g m, largest |w| where pushed "
           "%.3g m (accuracy %.3g m), lambda >= %.3g\n",
           largest, short_most, gap, accuracy, -negative);
    ENSURE(negative == 0.0);
    ENSURE(short_most <= accuracy);
    ENSURE(gap <= accuracy);
    release(&r);
}

int main(void)
{
    RUN(test_resting_wall_is_moved_back_to_first_touch);
    return ipx_test_exit();
}
