/* PLUS direction search (plus_search.c; deviation 3 of impax/plus.h): the acceleration of its
   sweeps, with the history it keeps at the start of c->search_hist.

   The sweeps converge linearly where they converge: in the bins and piles of issue [scale] often
   by a ratio of 0.7-0.9 per sweep (three corners of a box on a box: 20 sweeps, 1 261 min-norm
   solves, and the angles still 2e-4 rad from their limit, so the contacts were pruned). A sweep
   is a map phi -> G(phi) of the impending contacts' angles; Anderson's acceleration (the method
   of nsgs.c's sweeps too) takes as the next point the combination of the last
   SEARCH_AA_DEPTH + 1 outputs whose residuals G(phi) - phi combine to the least, instead of the
   last output alone. Nothing else changes: the search still ends only where every angle is a
   root with the others fixed, so it ends on consistent directions, sooner. */
#include <math.h>
#include <string.h>

#include "mathutil.h"
#include "plus_accel.h"
#include "plus_probe.h"

#define SEARCH_AA_DEPTH 3
#define SEARCH_AA_STEP \
    (IPX_PI / 4) /* rad: a combination farther than this from the last
                                       output is not taken; the history restarts there [S] */

/* Doubles of the acceleration's history for k contacts. */
size_t plus_search_history_doubles(int k)
{
    return (size_t)(3 * SEARCH_AA_DEPTH + 3) * (size_t)k + SEARCH_AA_DEPTH;
}

/* After a sweep from the point X[len] (its output G[len] is read from the directions now): the
   next point, set as the directions. X, G: the points and outputs since the history began
   (SEARCH_AA_DEPTH + 1 slots of ni each, oldest first; *len + 1 in use). Returns 1 if the next
   point is not the sweep's output. */
int plus_accelerate(plus_ctx *c, int *len)
{
    const int ni = c->ni, D = SEARCH_AA_DEPTH, m = *len;
    double *X = c->search_hist, *G = X + (size_t)(D + 1) * ni, *A = G + (size_t)(D + 1) * ni;
    double *gamma = A + (size_t)D * ni, *next = A; /* next: A's room, once gamma is solved */
    const double *x = X + (size_t)m * ni;
    double *g = G + (size_t)m * ni;
    plus_get_angles(c, x, g);
    if (m == 0) { /* one pair so far: the output is the next point */
        memcpy(X + ni, g, sizeof(double) * (size_t)ni);
        *len = 1;
        return 0;
    }
    /* min |f_m - dF gamma|, f_i = G_i - X_i, dF's columns f_(i+1) - f_i */
    for (int i = 0; i < m; i++)
        for (int j = 0; j < ni; j++) {
            const size_t a = (size_t)i * ni + j, b = a + (size_t)ni;
            A[a] = (G[b] - X[b]) - (G[a] - X[a]);
        }
    for (int j = 0; j < ni; j++) gamma[j] = g[j] - x[j];
    double step = INFINITY; /* rad: how far the combination is from the output g */
    const double rcond = c->cfg.rcond;
    if (ipx_plus_lsq(ni, m, A, gamma, rcond, c->newton_work, c->newton_iwork, NULL) == IPX_OK) {
        step = 0.0;
        for (int j = 0; j < ni; j++) { /* next = g - dG gamma */
            double mix = 0.0;
            for (int i = 0; i < m; i++)
                mix += gamma[i] * (G[(size_t)(i + 1) * ni + j] - G[(size_t)i * ni + j]);
            next[j] = g[j] - mix;
            step = fmax(step, fabs(mix));
        }
    }
    if (!(step <= SEARCH_AA_STEP)) { /* the output itself, from which a new history starts */
        memcpy(X, g, sizeof(double) * (size_t)ni);
        *len = 0;
        return 0;
    }
    if (m == D) { /* full: the oldest pair goes */
        memmove(X, X + ni, sizeof(double) * (size_t)(D * ni));
        memmove(G, G + ni, sizeof(double) * (size_t)(D * ni));
    }
    *len = m < D ? m + 1 : D;
    memcpy(X + (size_t)*len * ni, next, sizeof(double) * (size_t)ni);
    if (step == 0.0) return 0; /* the output itself, as the directions have it */
    plus_set_angles(c, next);
    return 1;
}
