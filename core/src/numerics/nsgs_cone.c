/* One contact's step of the iterative solver's cone stage (nsgs.h, "Cone stage"): the strictly
   convex QP
       min 1/2 pi' W_ii pi + u' pi   over   pi_t in the polygon of radius mu pi_n
   (a polyhedral cone, so pi_n >= 0 follows), solved through its dual. With the constraints
   A pi >= 0 (the polygon's edges), KKT gives pi = W_ii^-1 (A' y - u) and
       0 <= y  _|_  A W_ii^-1 A' y - A W_ii^-1 u >= 0,
   an LCP whose matrix is positive semidefinite; the QP is feasible (pi = 0) and bounded below,
   so the LCP has a solution and the dense Lemke finds it. */
#include <math.h>

#include "impax/lcp.h"
#include "impax/types.h"
#include "mathutil.h"
#include "nsgs.h"

/* r = W^-1 (3 x 3, column-major) by cofactors; 0 if W is not positive definite. */
static int inverse3(const double w[9], double r[9])
{
    const double c00 = w[4] * w[8] - w[7] * w[5], c01 = w[7] * w[2] - w[1] * w[8],
                 c02 = w[1] * w[5] - w[4] * w[2];
    const double det = w[0] * c00 + w[3] * c01 + w[6] * c02;
    if (!(det > 0.0) || !(w[0] > 0.0)) return 0;
    const double c[9] = {c00,
                         c01,
                         c02,
                         w[6] * w[5] - w[3] * w[8],
                         w[0] * w[8] - w[6] * w[2],
                         w[3] * w[2] - w[0] * w[5],
                         w[3] * w[7] - w[6] * w[4],
                         w[6] * w[1] - w[0] * w[7],
                         w[0] * w[4] - w[3] * w[1]};
    for (int x = 0; x < 9; x++) r[x] = c[x] / det;
    return 1;
}

/* The constraints a.pi >= 0: for nd >= 4 each edge of the polygon, between directions j and
   j + 1, keeps pi_t within mu pi_n cos(pi / nd) along its outward normal; for nd = 2 (the
   polygon a segment along t1) |pi_t1| <= mu pi_n and pi_t2 = 0 as two inequalities. Each edge
   row is divided by max(1, mu), as the AP LCP's cone row (anitescu_potra.h). Returns the count. */
static int constraints(const ipx_nsgs *s, double mu, double a[][3])
{
    const double scale = 1.0 / fmax(1.0, mu);
    int m = 0;
    if (s->nd == 2) {
        const double rows[4][3] = {
            {-1.0, 0.0, mu}, {1.0, 0.0, mu}, {0.0, 1.0, 0.0}, {0.0, -1.0, 0.0}};
        for (; m < 4; m++)
            for (int c = 0; c < 3; c++) a[m][c] = rows[m][c] * (m < 2 ? scale : 1.0);
    } else {
        const double inner = cos(IPX_PI / s->nd);
        for (; m < s->nd; m++) {
            const int next = (m + 1) % s->nd;
            const double nx = s->dir[2 * m] + s->dir[2 * next],
                         ny = s->dir[2 * m + 1] + s->dir[2 * next + 1], len = hypot(nx, ny);
            a[m][IPX_T1] = -nx / len * scale, a[m][IPX_T2] = -ny / len * scale;
            a[m][IPX_N] = mu * inner * scale;
        }
    }
    return m;
}

int ipx_nsgs_cone_local(ipx_nsgs *s, const double w[9], const double u[3], double mu, double pi[3])
{
    double h[9], a[IPX_AP_MAX_DIRECTIONS][3], ha[IPX_AP_MAX_DIRECTIONS][3]; /* ha[j] = h a_j */
    if (!inverse3(w, h)) return 0;
    const int m = constraints(s, mu, a);
    double hu[3];
    ipx_mat3_vec(h, u, hu);
    for (int j = 0; j < m; j++) ipx_mat3_vec(h, a[j], ha[j]);
    for (int i = 0; i < m; i++) {
        s->ql[i] = -(a[i][0] * hu[0] + a[i][1] * hu[1] + a[i][2] * hu[2]);
        for (int j = 0; j < m; j++)
            s->Mloc[i + m * j] = a[i][0] * ha[j][0] + a[i][1] * ha[j][1] + a[i][2] * ha[j][2];
    }
    int pivots = 0;
    const ipx_status st = ipx_lemke(m, s->Mloc, s->ql, s->zl, s->wl,
                                    ipx_lemke_default_max_pivots(m), s->dwork, s->iwork, &pivots);
    s->pivots += pivots;
    if (st != IPX_OK) return 0;
    for (int x = 0; x < 3; x++) {
        pi[x] = -hu[x];
        for (int j = 0; j < m; j++) pi[x] += ha[j][x] * s->zl[j];
    }
    pi[IPX_N] = fmax(pi[IPX_N], 0.0); /* round-off of the implied pi_n >= 0 */
    return 1;
}
