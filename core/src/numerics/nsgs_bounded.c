/* One contact's step of the iterative solver with its friction bound fixed (nsgs.h, "Fixed
   friction bounds"): the strictly convex QP
       min 1/2 pi' W_ii pi + u' pi   over   0 <= pi_n (<= cap),  pi_t in the polygon of radius b
   solved exactly by its active sets. Its KKT conditions are the contact's Anitescu-Potra
   conditions with mu lambda_n replaced by b: the normal complementarity (the multiplier of
   pi_n >= 0 is v_n', that of the cap Routh's beta), and the largest dissipation over the polygon
   (the multipliers of its edges make -v_t' an outward normal there, gamma their scale). */
#include <math.h>

#include "impax/types.h"
#include "nsgs.h"

/* Constraints a.x <= r of the QP: the normal's bounds, then the polygon's edges. */
enum { MAX_CONSTRAINTS = IPX_AP_MAX_DIRECTIONS + 2, MAX_KKT = 3 + 4 };

typedef struct qp {
    const double *w, *u;
    double a[MAX_CONSTRAINTS][3], r[MAX_CONSTRAINTS];
    int n, n_normal; /* constraints; how many of them bound pi_n (1, or 2 with a cap) */
    int planar;      /* nd = 2: pi_t2 = 0 is an equality */
    double tol_x, tol_nu;
} qp;

/* Gaussian elimination with partial pivoting on the m x (m + 1) row-major augmented A. */
static int solve_dense(int m, double *A, double *x)
{
    const int s = m + 1;
    for (int c = 0; c < m; c++) {
        int p = c;
        for (int r = c + 1; r < m; r++)
            if (fabs(A[r * s + c]) > fabs(A[p * s + c])) p = r;
        if (!(fabs(A[p * s + c]) > 0.0)) return 0;
        for (int j = 0; j <= m && p != c; j++) {
            const double t = A[c * s + j];
            A[c * s + j] = A[p * s + j], A[p * s + j] = t;
        }
        for (int r = c + 1; r < m; r++) {
            const double f = A[r * s + c] / A[c * s + c];
            for (int j = c; j <= m; j++) A[r * s + j] -= f * A[c * s + j];
        }
    }
    for (int r = m - 1; r >= 0; r--) {
        double e = A[r * s + m];
        for (int j = r + 1; j < m; j++) e -= A[r * s + j] * x[j];
        x[r] = e / A[r * s + r];
        if (!isfinite(x[r])) return 0;
    }
    return 1;
}

/* The KKT point with the constraints act[0..na-1] active (as equalities); 1 if it meets every
   constraint and its multipliers are >= 0 (to the QP's tolerances). */
static int kkt_point(const qp *Q, const int *act, int na, double x[3])
{
    const int m = 3 + na + Q->planar, s = m + 1;
    double A[MAX_KKT * (MAX_KKT + 1)] = {0}, y[MAX_KKT];
    for (int r = 0; r < 3; r++) {
        for (int c = 0; c < 3; c++) A[r * s + c] = Q->w[r + 3 * c];
        A[r * s + m] = -Q->u[r];
    }
    for (int q = 0; q < na; q++) {
        for (int c = 0; c < 3; c++) A[(3 + q) * s + c] = A[c * s + 3 + q] = Q->a[act[q]][c];
        A[(3 + q) * s + m] = Q->r[act[q]];
    }
    if (Q->planar) A[(m - 1) * s + IPX_T2] = A[IPX_T2 * s + m - 1] = 1.0; /* pi_t2 = 0 */
    if (!solve_dense(m, A, y)) return 0;
    for (int q = 0; q < na; q++)
        if (y[3 + q] < -Q->tol_nu) return 0;
    for (int c = 0; c < Q->n; c++)
        if (Q->a[c][0] * y[0] + Q->a[c][1] * y[1] + Q->a[c][2] * y[2] > Q->r[c] + Q->tol_x)
            return 0;
    x[0] = y[0], x[1] = y[1], x[2] = fmax(y[2], 0.0);
    return 1;
}

int ipx_nsgs_bounded_local(const double w[9], const double u[3], const double *dir, int nd,
                           double b, const double *cap, double pi[3])
{
    qp Q = {.w = w, .u = u, .planar = nd == 2};
    const double wnn = w[IPX_N + 3 * IPX_N];
    if (!(b > 0.0)) { /* no friction: pi_t = 0, pi_n from the normal row alone */
        if (!(wnn > 0.0)) return 0;
        pi[IPX_T1] = pi[IPX_T2] = 0.0;
        pi[IPX_N] = fmax(0.0, -u[IPX_N] / wnn);
        if (cap && pi[IPX_N] > *cap) pi[IPX_N] = *cap;
        return 1;
    }
    const double umax = fmax(fabs(u[0]), fmax(fabs(u[1]), fabs(u[2])));
    double wmax = 0.0;
    for (int x = 0; x < 9; x++) wmax = fmax(wmax, fabs(w[x]));
    const double pscale = b + (cap ? *cap : 0.0) + (wmax > 0.0 ? umax / wmax : 0.0);
    Q.tol_x = 1e-10 * pscale, Q.tol_nu = 1e-10 * (umax + wmax * pscale);
    Q.a[Q.n][IPX_N] = -1.0, Q.r[Q.n++] = 0.0; /* pi_n >= 0 */
    if (cap) Q.a[Q.n][IPX_N] = 1.0, Q.r[Q.n++] = *cap;
    Q.n_normal = Q.n;
    if (Q.planar) { /* the segment -b t1 .. b t1 */
        Q.a[Q.n][IPX_T1] = 1.0, Q.r[Q.n++] = b;
        Q.a[Q.n][IPX_T1] = -1.0, Q.r[Q.n++] = b;
    } else {
        for (int j = 0; j < nd; j++) { /* edge j: d_j to d_j+1, outward normal their bisector */
            const double *d0 = dir + 2 * j, *d1 = dir + 2 * ((j + 1) % nd);
            const double nx = d0[0] + d1[0], ny = d0[1] + d1[1], len = hypot(nx, ny);
            Q.a[Q.n][IPX_T1] = nx / len, Q.a[Q.n][IPX_T2] = ny / len;
            Q.r[Q.n++] = b * (d0[0] * nx + d0[1] * ny) / len;
        }
    }
    const int edges = Q.n - Q.n_normal;
    /* the active sets: the normal free or at a bound, times the polygon's interior, an edge or
       (not planar) a vertex; the strictly convex QP has one KKT point, the first found */
    for (int nb = -1; nb < Q.n_normal; nb++)
        for (int e = -1; e < (Q.planar ? edges : 2 * edges); e++) {
            int act[3], na = 0;
            if (nb >= 0) act[na++] = nb;
            if (e >= 0 && e < edges) act[na++] = Q.n_normal + e;
            if (e >= edges) {
                act[na++] = Q.n_normal + e - edges;
                act[na++] = Q.n_normal + (e - edges + 1) % edges;
            }
            if (kkt_point(&Q, act, na, pi)) return 1;
        }
    return 0;
}
