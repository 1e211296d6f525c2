/* The Anitescu-Potra LCP of a large problem by projected block Gauss-Seidel with Anderson
   acceleration, on a block-sparse copy of W (see nsgs.h). */
#include <float.h>
#include <math.h>
#include <string.h>

#include "impax/lcp.h"
#include "impax/problem.h"
#include "nsgs.h"
#include "units.h"
#include "mathutil.h"
#include "workspace_internal.h"

/* Largest local LCP of one contact: beta, lambda_n, nd directions, gamma. */
#define LOCAL_MAX (IPX_AP_MAX_DIRECTIONS + 3)
/* A candidate of the local solver is accepted when it meets every condition of the contact's
   LCP to this relative accuracy (of the local problem's own scales); otherwise the local
   Lemke decides. */
#define LOCAL_TOL 1e-11
/* Anderson acceleration: a safeguard restarts the history when a sweep's residual exceeds the
   previous one by this factor (the extrapolation crossed a change of contact modes). */
#define AA_RESTART 2.0
/* A stall: the best residual has not halved for this many sweeps. The acceleration is then
   switched off for good: plain sweeps from the best iterate creep on where the extrapolation
   keeps crossing changes of contact modes (deep piles). Tuned on piles of 64 .. 1024 contacts
   (bench_lcp_scale): a restart factor of 10 or no stall switch left 512- and 1024-contact bins
   above 1e-4 after 5000 sweeps; switching back to the acceleration after 100 plain sweeps did
   too; a restart factor of 1.2 slowed the stacks. */
#define STALL_ACCELERATED 200
/* Plain sweeps (after a stall: deep piles, where they run by the thousand) are judged every
   this many: the residual costs about as much as a sweep, and its answer changes little from
   one plain sweep to the next. */
#define PLAIN_CHECK 4
/* Plain sweeps go on with fixed friction bounds once an iterate's f (see ascended) exceeds
   the last one's by more than this fraction of its terms' magnitudes. Plain Gauss-Seidel raises
   f a little on deep low-friction bins too, where it still settles (the 512-contact bin of
   test_lcp_iterative's test_stall_ends_early: rises above 1e-6 and below 1e-3 of the terms;
   switched there, the fixed bounds reached 1e-3 in about 2 070 sweeps, where plain sweeps reach
   6.8e-4 in 1 456); on the islands it cycled on (test_lcp_stall.c) the rises are larger:
   thresholds from 1e-3 to 1e-2 solved all four, 5e-2 left one. */
#define CYCLE_RISE 3e-3
/* With fixed friction bounds (nsgs.h) the stage first renews the bounds outright from the
   normal impulses every PLAIN_CHECK sweeps, when the iterate is judged. Renewed every 2 to 8
   sweeps, the bounds settled tutorial3's islands (test_lcp_stall.c; t3_64 only after some 1 480
   sweeps without the best residual halving); every 10 or 40 sweeps, two stayed in cycles; with a
   sweep of the Coulomb law before each judgement (instead of the projection onto the cones), four
   did. */
/* Where the outright renewals have not halved the best residual in DAMPED_AFTER sweeps, the
   bounds become a damped fixed point: each bound's QP is swept until its own residual is at most
   BOUND_QP_RATIO times the LCP residual judged after the previous QP (or BOUND_QP_SWEEPS have
   passed), and the bounds then move BOUND_STEP of the way to the normal impulses. On the crash
   demo's wall islands of 301 and 331 contacts (mu 0.5; test_lcp_stall.c), renewed outright the
   bounds ran in a cycle of period two (residual 0.37, 0.89, 0.37, ...; best 0.087). Damped from
   the stage's start, with solved QPs: steps of 0.5 and 0.3 kept the residual near 0.4, 0.2 left
   it at 0.14 after 12 000 sweeps, and 0.1 (0.05 alike, more slowly) took it down steadily, below
   0.05 in 688 and 476 sweeps and to 8e-4 and 1.5e-5 in 12 000; a QP ratio of 0.03 or 0.003 cost
   more sweeps for the same decrease. But damped from the start (steps 0.1 to 0.5), the bounds
   lost t3_64 (mu 5000), which outright renewals settle, and halving the step whenever the
   residual rose lost t3_64 and, from 0.5 or 0.1, a wall; hence the order, and DAMPED_AFTER above
   t3_64's 1 480 (1 500 lost it again). */
#define DAMPED_AFTER 2000
/* The cone stage (nsgs.h) hands over to the fixed bounds once its own best residual has not
   halved in this many sweeps: where a pressing contact slides, the cone QP's answer is not the
   LCP's (it lets such a contact lift off), and its residual settles above the tolerance. On
   tutorial3's two islands that only it answers (test_lcp_stall.c, t3_37 and t3_50) 100 sweeps
   lost t3_37 and 200 or 400 answered both; on the crash walls (mu 0.5) the fixed bounds then
   took some 200 sweeps more than without the stage (2 608 instead of 2 404 on crash_301). */
#define CONE_STALL 200
#define BOUND_QP_RATIO 0.1
#define BOUND_STEP 0.1
#define BOUND_QP_SWEEPS 1000

/* ---- the friction polygon ---- */

/* The polygon P = conv{d_0 .. d_nd-1} (regular, d_j at angle 2 pi j / nd; for nd = 2 the segment
   between +t1 and -t1). Its gauge h(x) = min{t : x in t P} is the least sum of direction
   multipliers that makes x; a friction impulse pi_t is admissible when h(pi_t) <= mu pi_n.
   x = a d_j + b d_j+1 with j the sector of x's angle gives h(x) = a + b. */
static void sector(const ipx_nsgs *s, const double x[2], int *j, double *a, double *b)
{
    const int nd = s->nd;
    if (nd == 4) { /* +t1, +t2, -t1, -t2 (the default): the quadrant of x */
        const int q = x[0] >= 0.0 ? (x[1] >= 0.0 ? 0 : 3) : (x[1] >= 0.0 ? 1 : 2);
        static const double c0[4] = {1.0, 0.0, -1.0, 0.0}, c1[4] = {0.0, -1.0, 0.0, 1.0};
        /* a: along d_q, b: along d_q+1 (d_q+1 is d_q turned by 90 degrees) */
        *j = q;
        *a = fabs(c0[q] * x[0] - c1[q] * x[1]);
        *b = fabs(c1[q] * x[0] + c0[q] * x[1]);
        return;
    }
    if (nd == 2) { /* +-t1: the t2 part of x is not in the segment's span (see gauge) */
        *j = x[0] >= 0.0 ? 0 : 1;
        *a = fabs(x[0]);
        *b = 0.0;
        return;
    }
    /* the vertex nearest in angle (largest d . x), then the side of it x lies on */
    int e = 0;
    double best = -INFINITY;
    for (int d = 0; d < nd; d++) {
        const double dot = s->dir[2 * d] * x[0] + s->dir[2 * d + 1] * x[1];
        if (dot > best) best = dot, e = d;
    }
    const double *de = s->dir + 2 * e;
    if (de[0] * x[1] - de[1] * x[0] < 0.0) e = (e + nd - 1) % nd; /* clockwise of d_e */
    const int f = (e + 1) % nd;
    const double *d0 = s->dir + 2 * e, *d1 = s->dir + 2 * f;
    const double det = d0[0] * d1[1] - d0[1] * d1[0]; /* sin(2 pi / nd) > 0 */
    const double ca = (x[0] * d1[1] - x[1] * d1[0]) / det, cb = (d0[0] * x[1] - d0[1] * x[0]) / det;
    *j = e;
    *a = ca > 0.0 ? ca : 0.0;
    *b = cb > 0.0 ? cb : 0.0;
}

static double gauge(const ipx_nsgs *s, const double x[2])
{
    int j;
    double a, b;
    if (x[0] == 0.0 && x[1] == 0.0) return 0.0;
    /* nd = 2: a t2 part beyond round-off of the directions (sin(pi) = 1.2e-16) is outside */
    if (s->nd == 2 && fabs(x[1]) > 1e-12 * fabs(x[0])) return INFINITY;
    sector(s, x, &j, &a, &b);
    return a + b;
}

/* max_j -d_j . v (>= 0 for a polygon symmetric about 0): the slip's gamma. */
static double max_opposing(const ipx_nsgs *s, const double v[2])
{
    double g = 0.0;
    for (int d = 0; d < s->nd; d++)
        g = ipx_max(g, -(s->dir[2 * d] * v[0] + s->dir[2 * d + 1] * v[1]));
    return g;
}

/* ---- the local problem of one contact ---- */

/* Unknowns of contact i's block (see nsgs.h for the order). */
static int local_size(const ipx_nsgs *s, int i)
{
    return s->capped + 1 + (s->p->contact[i].mu > 0.0 ? s->nd + 1 : 0);
}

/* Contact i's local LCP matrix (column-major, size m): the rows and columns of the AP LCP (or of
   a Routh step LCP) that belong to contact i, from its diagonal block W_ii times unit (kg; laid
   out as ipx_ap_fill and routh's build_step_matrix do). With one contact, a unit of mass of its
   own is already anitescu_potra.h's per-contact scaling: unit = c^2 gives the same LCP with q times c. */
static void local_matrix(const ipx_nsgs *s, int i, double unit, double *M, int m)
{
    const double *blk = s->W.blk + 9 * (size_t)s->W.diag[i];
    double w[9]; /* w[r + 3c] = unit * W_ii(r, c) */
    for (int x = 0; x < 9; x++) w[x] = unit * blk[x];
    const int c = s->capped, n0 = c, D0 = c + 1, G0 = D0 + s->nd;
    const int fric = m > c + 1;
#define AT(r, col) M[(r) + m * (col)]
    for (int x = 0; x < m * m; x++) M[x] = 0.0;
    if (c) {
        AT(0, n0) = -1.0; /* (73): cap - lambda_n >= 0 */
        AT(n0, 0) = 1.0;  /* (74): v_n' + beta >= 0 */
    }
    AT(n0, n0) = w[IPX_N + 3 * IPX_N];
    if (fric) {
        for (int d = 0; d < s->nd; d++) {
            const double cd = s->dir[2 * d], sd = s->dir[2 * d + 1];
            AT(n0, D0 + d) = cd * w[IPX_N + 3 * IPX_T1] + sd * w[IPX_N + 3 * IPX_T2];
            AT(D0 + d, n0) = cd * w[IPX_T1 + 3 * IPX_N] + sd * w[IPX_T2 + 3 * IPX_N];
            for (int e = 0; e < s->nd; e++) {
                const double ce = s->dir[2 * e], se = s->dir[2 * e + 1];
                AT(D0 + d, D0 + e) =
                    cd * (ce * w[IPX_T1 + 3 * IPX_T1] + se * w[IPX_T1 + 3 * IPX_T2]) +
                    sd * (ce * w[IPX_T2 + 3 * IPX_T1] + se * w[IPX_T2 + 3 * IPX_T2]);
            }
            AT(D0 + d, G0) = 1.0;                             /* E */
            AT(G0, D0 + d) = -ipx_ap_cone_row_scale(s->p, i); /* -E^T, as ipx_ap_fill */
        }
        AT(G0, n0) = s->p->contact[i].mu * ipx_ap_cone_row_scale(s->p, i);
    }
#undef AT
}

/* One contact's local problem: W_ii (w), the velocity u it has without its own impulse (the
   normal target shift already added to u_n), mu, and the cap (capped problems). */
typedef struct local {
    const double *w;
    double u[3];
    double mu;
    int capped;
    double cap;
    double tv, tp; /* velocity and impulse tolerances of this problem */
} local;

/* 1 if pi solves the local LCP (to the local tolerances): lambda_n in [0, cap], the normal
   complementarity (beta = -v_n' > 0 only at the cap), the friction impulse in the polygon,
   sticking (v_t' = 0) strictly inside it and the largest dissipation on its boundary. */
static int local_valid(const ipx_nsgs *s, const local *L, const double pi[3])
{
    const double *w = L->w;
    double vp[3];
    for (int r = 0; r < 3; r++)
        vp[r] = L->u[r] + w[r] * pi[0] + w[r + 3] * pi[1] + w[r + 6] * pi[2];
    const double ln = pi[IPX_N];
    if (!(ln >= -L->tp)) return 0;
    if (L->capped && !(ln <= L->cap + L->tp)) return 0;
    const int at_cap = L->capped && ln >= L->cap - L->tp;
    if (at_cap ? !(vp[IPX_N] <= L->tv) : !(fabs(vp[IPX_N]) <= L->tv)) return 0;
    if (!(L->mu > 0.0)) return 1;
    const double h = gauge(s, pi), bound = L->mu * fmax(ln, 0.0);
    if (!(h <= bound + L->tp)) return 0;
    /* the slip friction can act on: v_t (v_t1 alone for the planar polygon, nd = 2) */
    const double slip =
        s->nd == 2 ? fabs(vp[IPX_T1]) : sqrt(vp[IPX_T1] * vp[IPX_T1] + vp[IPX_T2] * vp[IPX_T2]);
    if (h < bound - L->tp) return slip <= L->tv; /* strictly inside: sticks */
    /* on the boundary: -pi_t . v_t' must be the largest the polygon allows, bound * gamma */
    const double dissipation = -(pi[IPX_T1] * vp[IPX_T1] + pi[IPX_T2] * vp[IPX_T2]);
    return bound * max_opposing(s, vp) - dissipation <= L->tv * bound + L->tp * slip;
}

/* Solves the 2 x 2 system [a b; c d] x = r; 0 if singular. */
static int solve2(double a, double b, double c, double d, double r0, double r1, double x[2])
{
    const double det = a * d - b * c, scale = fabs(a * d) + fabs(b * c);
    if (!(fabs(det) > 1e-13 * scale) || !(scale > 0.0)) return 0;
    x[0] = (r0 * d - b * r1) / det;
    x[1] = (a * r1 - c * r0) / det;
    return 1;
}

/* The cases of a single-contact AP LCP with an impulse, as candidates: 0 sticking, 1 sticking
   at the cap, 2 + j sliding at vertex j of the polygon (friction mu lambda_n d_j), 2 + nd + j
   sliding on edge (j, j+1); lambda_n at the cap where the free value exceeds it. */
static int candidates(const ipx_nsgs *s) { return 2 + s->nd + (s->nd > 2 ? s->nd : 0); }

/* Candidate cand of contact L into c; 0 if it does not exist (a singular system, no cap, an
   edge point outside the edge). */
static int local_candidate(const ipx_nsgs *s, const local *L, int cand, double c[3])
{
    const double *w = L->w, *u = L->u;
#define Wrc(r, col) w[(r) + 3 * (col)]
    if (cand == 0 && s->nd == 2) { /* sticking, planar polygon: pi_t2 = 0, the t1 and n rows */
        double x[2];
        if (!solve2(Wrc(IPX_T1, IPX_T1), Wrc(IPX_T1, IPX_N), Wrc(IPX_N, IPX_T1), Wrc(IPX_N, IPX_N),
                    -u[IPX_T1], -u[IPX_N], x))
            return 0;
        c[IPX_T1] = x[0], c[IPX_T2] = 0.0, c[IPX_N] = x[1];
        return !(L->capped && c[IPX_N] > L->cap);
    }
    if (cand == 1 && s->nd == 2) { /* sticking at the cap, planar */
        if (!L->capped || !(Wrc(IPX_T1, IPX_T1) > 0.0)) return 0;
        c[IPX_T1] = -(u[IPX_T1] + Wrc(IPX_T1, IPX_N) * L->cap) / Wrc(IPX_T1, IPX_T1);
        c[IPX_T2] = 0.0, c[IPX_N] = L->cap;
        return 1;
    }
    const double a00 = Wrc(0, 0), a01 = Wrc(0, 1), a02 = Wrc(0, 2), a11 = Wrc(1, 1),
                 a12 = Wrc(1, 2), a22 = Wrc(2, 2);
    if (cand == 0) { /* sticking: W pi = -u (3 x 3 by Cramer; W_ii is symmetric PSD) */
        const double m00 = a11 * a22 - a12 * a12, m01 = a02 * a12 - a01 * a22,
                     m02 = a01 * a12 - a02 * a11;
        const double det = a00 * m00 + a01 * m01 + a02 * m02;
        if (!(fabs(det) > 1e-13 * a00 * a11 * a22)) return 0;
        const double m11 = a00 * a22 - a02 * a02, m12 = a01 * a02 - a00 * a12,
                     m22 = a00 * a11 - a01 * a01;
        c[0] = -(m00 * u[0] + m01 * u[1] + m02 * u[2]) / det;
        c[1] = -(m01 * u[0] + m11 * u[1] + m12 * u[2]) / det;
        c[2] = -(m02 * u[0] + m12 * u[1] + m22 * u[2]) / det;
        return !(L->capped && c[2] > L->cap);
    }
    if (cand == 1) { /* sticking at the cap: W_tt pi_t = -(u_t + W_tn cap) */
        double x[2];
        if (!L->capped ||
            !solve2(a00, a01, a01, a11, -(u[0] + a02 * L->cap), -(u[1] + a12 * L->cap), x))
            return 0;
        c[0] = x[0], c[1] = x[1], c[2] = L->cap;
        return 1;
    }
    if (cand < 2 + s->nd) { /* sliding at vertex j: pi_t = mu lambda_n d_j, v_n' = 0 (or the cap) */
        const int j = cand - 2;
        const double dx = s->dir[2 * j], dy = s->dir[2 * j + 1];
        const double den =
            Wrc(IPX_N, IPX_N) + L->mu * (Wrc(IPX_N, IPX_T1) * dx + Wrc(IPX_N, IPX_T2) * dy);
        double ln = den > 0.0 ? -u[IPX_N] / den : INFINITY;
        if (L->capped && ln > L->cap) ln = L->cap;
        if (!isfinite(ln)) return 0;
        c[0] = L->mu * ln * dx, c[1] = L->mu * ln * dy, c[2] = ln;
        return 1;
    }
    /* sliding on edge (j, j+1): pi_t = mu (a d_j + b d_j+1), lambda_n = a + b; v_n' = 0 and
       (d_j - d_j+1) . v_t' = 0 (or a + b = cap) */
    const int j = cand - 2 - s->nd;
    const double *dj = s->dir + 2 * j, *dk = s->dir + 2 * ((j + 1) % s->nd);
    double col[2][3]; /* W times the impulse of a = 1 and of b = 1 */
    for (int r = 0; r < 3; r++) {
        col[0][r] = L->mu * (Wrc(r, IPX_T1) * dj[0] + Wrc(r, IPX_T2) * dj[1]) + Wrc(r, IPX_N);
        col[1][r] = L->mu * (Wrc(r, IPX_T1) * dk[0] + Wrc(r, IPX_T2) * dk[1]) + Wrc(r, IPX_N);
    }
#undef Wrc
    const double ex = dj[0] - dk[0], ey = dj[1] - dk[1]; /* (d_j - d_j+1) . v_t' = 0 */
    const double e0 = ex * col[0][IPX_T1] + ey * col[0][IPX_T2],
                 e1 = ex * col[1][IPX_T1] + ey * col[1][IPX_T2];
    const double eu = ex * u[IPX_T1] + ey * u[IPX_T2];
    double ab[2];
    int ok = solve2(col[0][IPX_N], col[1][IPX_N], e0, e1, -u[IPX_N], -eu, ab);
    if (L->capped && (!ok || ab[0] + ab[1] > L->cap)) { /* a + b = cap */
        const double den = e0 - e1;
        ok = fabs(den) > 0.0;
        if (ok) {
            ab[0] = -(eu + e1 * L->cap) / den;
            ab[1] = L->cap - ab[0];
        }
    }
    if (!ok || !(ab[0] >= -L->tp) || !(ab[1] >= -L->tp)) return 0;
    ab[0] = fmax(ab[0], 0.0), ab[1] = fmax(ab[1], 0.0);
    c[0] = L->mu * (ab[0] * dj[0] + ab[1] * dk[0]);
    c[1] = L->mu * (ab[0] * dj[1] + ab[1] * dk[1]);
    c[2] = ab[0] + ab[1];
    return 1;
}

/* The contact's impulse: no impulse when it separates, the normal impulse alone without
   friction, else the first candidate that local_valid accepts, trying first *last (the case
   this contact took in the previous sweep: contacts seldom change cases, and the enumeration
   then costs one candidate instead of up to 2 + 2 nd). *last: that candidate on return, or -1.
   Returns 0 if no candidate is accepted (degenerate data: the caller asks Lemke). */
static int local_enumerate(const ipx_nsgs *s, const local *L, double pi[3], int *last)
{
    const double *u = L->u;
    pi[0] = pi[1] = pi[2] = 0.0;
    if (u[IPX_N] >= 0.0) return 1; /* separating without impulse (gamma takes the slip) */
    if (!(L->mu > 0.0)) {
        const double wnn = L->w[IPX_N + 3 * IPX_N];
        if (!(wnn > 0.0)) return 0;
        pi[IPX_N] = -u[IPX_N] / wnn;
        if (L->capped && pi[IPX_N] > L->cap) pi[IPX_N] = L->cap;
        return 1;
    }
    const int n = candidates(s), first = *last;
    if (first >= 0 && first < n && local_candidate(s, L, first, pi) && local_valid(s, L, pi))
        return 1;
    for (int cand = 0; cand < n; cand++)
        if (cand != first && local_candidate(s, L, cand, pi) && local_valid(s, L, pi)) {
            *last = cand;
            return 1;
        }
    pi[0] = pi[1] = pi[2] = 0.0;
    *last = -1;
    return 0;
}

/* The local LCP by the dense Lemke (degenerate cases the enumeration cannot settle). */
static int local_lemke(ipx_nsgs *s, int i, const local *L, double pi[3])
{
    const int m = local_size(s, i), c = s->capped;
    /* formed in this contact's unit of mass (units.h): lambda = unit * z, W_ii enters as
       unit * W_ii */
    const double unit = ipx_mass_unit(1, L->w); /* 1 / W_nn of this contact */
    local_matrix(s, i, unit, s->Mloc, m);
    if (c) s->ql[0] = L->cap / unit;
    s->ql[c] = L->u[IPX_N];
    if (m > c + 1) {
        for (int d = 0; d < s->nd; d++)
            s->ql[c + 1 + d] = s->dir[2 * d] * L->u[IPX_T1] + s->dir[2 * d + 1] * L->u[IPX_T2];
        s->ql[m - 1] = 0.0;
    }
    int pivots = 0;
    ipx_status st = ipx_lemke(m, s->Mloc, s->ql, s->zl, s->wl, ipx_lemke_default_max_pivots(m),
                              s->dwork, s->iwork, &pivots);
    s->pivots += pivots;
    if (st != IPX_OK) return 0;
    pi[IPX_T1] = pi[IPX_T2] = 0.0;
    pi[IPX_N] = unit * s->zl[c];
    if (m > c + 1)
        for (int d = 0; d < s->nd; d++) {
            pi[IPX_T1] += unit * s->zl[c + 1 + d] * s->dir[2 * d];
            pi[IPX_T2] += unit * s->zl[c + 1 + d] * s->dir[2 * d + 1];
        }
    return 1;
}

/* ---- set-up ---- */

size_t ipx_nsgs_bytes(int k, int nd, int in_place)
{
    const size_t kk = (size_t)k;
    return ipx_wblocks_bytes(k, in_place) + 4 * ipx_ws_doubles_bytes(3 * kk) +
           3 * (IPX_NSGS_AA_DEPTH + 1) * ipx_ws_doubles_bytes(3 * kk) +
           ipx_ws_doubles_bytes(IPX_NSGS_AA_DEPTH * IPX_NSGS_AA_DEPTH) +
           ipx_ws_doubles_bytes(IPX_NSGS_AA_DEPTH) + ipx_ws_doubles_bytes(LOCAL_MAX * LOCAL_MAX) +
           3 * ipx_ws_doubles_bytes(LOCAL_MAX) +
           ipx_ws_doubles_bytes(ipx_lemke_work_doubles(LOCAL_MAX)) +
           ipx_ws_ints_bytes(ipx_lemke_work_ints(LOCAL_MAX)) + ipx_ws_ints_bytes(kk) +
           2 * ipx_ws_doubles_bytes((size_t)(nd + 1) * kk) + 2 * ipx_ws_doubles_bytes(2 * kk) +
           2 * ipx_ws_doubles_bytes(kk) + ipx_nsgs_block_bytes(k, nd);
}

ipx_status ipx_nsgs_init(ipx_nsgs *s, const ipx_problem *p, int nd, ipx_workspace *ws)
{
    memset(s, 0, sizeof *s);
    s->p = p;
    s->k = p->k;
    s->nd = nd;
    for (int d = 0; d < nd; d++) {
        double angle = 2.0 * IPX_PI * d / nd;
        s->dir[2 * d] = cos(angle);
        s->dir[2 * d + 1] = sin(angle);
    }
    ipx_status st = ipx_wblocks_build(&s->W, p, ws);
    if (st != IPX_OK) return st;
    const size_t n = 3 * (size_t)p->k;
    s->pi = ipx_ws_doubles(ws, n);
    s->vp = ipx_ws_doubles(ws, n);
    s->pi_old = ipx_ws_doubles(ws, n);
    s->pi_best = ipx_ws_doubles(ws, n);
    for (int h = 0; h < 3 * (IPX_NSGS_AA_DEPTH + 1); h++) s->hist[h] = ipx_ws_doubles(ws, n);
    s->gram = ipx_ws_doubles(ws, IPX_NSGS_AA_DEPTH * IPX_NSGS_AA_DEPTH);
    s->gram_rhs = ipx_ws_doubles(ws, IPX_NSGS_AA_DEPTH);
    s->Mloc = ipx_ws_doubles(ws, LOCAL_MAX * LOCAL_MAX);
    s->ql = ipx_ws_doubles(ws, LOCAL_MAX);
    s->zl = ipx_ws_doubles(ws, LOCAL_MAX);
    s->wl = ipx_ws_doubles(ws, LOCAL_MAX);
    s->dwork = ipx_ws_doubles(ws, ipx_lemke_work_doubles(LOCAL_MAX));
    s->iwork = ipx_ws_ints(ws, ipx_lemke_work_ints(LOCAL_MAX));
    s->last_case = ipx_ws_ints(ws, (size_t)p->k);
    s->stop_impulse = ipx_ws_doubles(ws, (size_t)p->k);
    s->bound = ipx_ws_doubles(ws, (size_t)p->k);
    const size_t rows = (size_t)(nd + 1) * (size_t)p->k; /* lambda_n and lambda_D rows */
    s->res_iz = ipx_ws_doubles(ws, rows);
    s->res_vw = ipx_ws_doubles(ws, rows);
    s->res_vz = ipx_ws_doubles(ws, 2 * (size_t)p->k); /* beta and gamma rows */
    s->res_iw = ipx_ws_doubles(ws, 2 * (size_t)p->k);
    if (!s->pi || !s->vp || !s->pi_old || !s->pi_best ||
        !s->hist[3 * (IPX_NSGS_AA_DEPTH + 1) - 1] || !s->gram || !s->gram_rhs || !s->Mloc ||
        !s->ql || !s->zl || !s->wl || !s->dwork || !s->iwork || !s->last_case || !s->stop_impulse ||
        !s->bound || !s->res_iz || !s->res_vw || !s->res_vz || !s->res_iw)
        return IPX_ERR_WORKSPACE;
    st = ipx_nsgs_block_init(&s->block, p->k, nd, ws);
    if (st != IPX_OK) return st;
    memset(s->pi, 0, sizeof(double) * n);
    for (int i = 0; i < p->k; i++) {
        const double *w = s->W.blk + 9 * (size_t)s->W.diag[i];
        double wmax = 0.0;
        for (int x = 0; x < 9; x++) wmax = ipx_max(wmax, fabs(w[x]));
        s->stop_impulse[i] =
            wmax > 0.0 ? (1.0 + p->contact[i].mu) / wmax : 0.0; /* mu >= 0: validated */
        s->last_case[i] = -1;
    }
    return IPX_OK;
}

int ipx_nsgs_fallback_sweeps(int k, int max_sweeps)
{
    const double budget = 50.0 + 0.5 * (double)k * (double)k;
    return budget < max_sweeps ? (int)budget : max_sweeps;
}

/* ---- residual ---- */

/* The residual in one pass over the contacts: each row's pair (z, w) is kept in raw units, an
   impulse against a velocity (rows of lambda_n and lambda_D) or a velocity against an impulse
   (rows of beta and gamma), while the scales Z and V are found; the rows are then judged in a
   tight loop over the kept pairs. The terms -z / Z and -w / V need no pairs: their largest raw
   values per unit are kept instead. bound (k, N*s; NULL: the normal impulses): the friction
   bounds of the cone rows, so that with fixed bounds it is the residual of their QP's KKT
   conditions. viol (k, m/s; NULL: not wanted): each contact's violation
   (ipx_nsgs_violations). */
static double residual(const ipx_nsgs *s, const double *v, const double *qn_shift,
                       const double *cap, const double *bound, ipx_nsgs_scales *scales,
                       double *viol)
{
    const int k = s->k, nd = s->nd;
    double Z = DBL_MIN, V = DBL_MIN;
    double neg_imp = 0.0; /* N*s: the largest -z */
    double *iz = s->res_iz, *vw = s->res_vw, *vz = s->res_vz, *iw = s->res_iw;
    int niv = 0, nvi = 0; /* pairs kept: impulse z against velocity w, and the other way */
    double row_v = 0.0;   /* m/s: the rows' violations in velocity (ipx_nsgs_scales), -w too */
    for (int i = 0; i < k; i++) {
        const double *pi = s->pi + 3 * i, *vi = v + 3 * i, *vpi = s->vp + 3 * i;
        const double *wii = s->W.blk + 9 * (size_t)s->W.diag[i]; /* W_ii(r, c) = wii[r + 3 c] */
        const double wnn = wii[4 * IPX_N], wtt = 0.5 * (wii[4 * IPX_T1] + wii[4 * IPX_T2]);
        const double sh = qn_shift ? qn_shift[i] : 0.0;
        const double ln = pi[IPX_N];
        double wn = vpi[IPX_N] + sh, own = 0.0; /* m/s: this contact's rows' violations */
        Z = ipx_max(Z, fabs(ln));
        V = ipx_max(V, fabs(vi[IPX_N] + sh));
        if (s->capped) {
            const double beta = ipx_max(0.0, -wn);
            Z = ipx_max(Z, fabs(cap[i]));
            V = ipx_max(V, beta);
            vz[nvi] = beta, iw[nvi++] = cap[i] - ln;
            neg_imp = ipx_max(neg_imp, ln - cap[i]);
            own = ipx_max((ln - cap[i]) * wnn, ipx_min(beta, (cap[i] - ln) * wnn));
            wn += beta;
        }
        iz[niv] = ln, vw[niv++] = wn;
        neg_imp = ipx_max(neg_imp, -ln);
        own = ipx_max(own, ipx_max(-wn, ipx_max(-ln * wnn, ipx_min(ln * wnn, wn))));
        if (s->p->contact[i].mu > 0.0) {
            /* multipliers of pi_t: the two directions of its sector (the least sum) */
            int j = 0;
            double a = 0.0, b = 0.0;
            if (pi[IPX_T1] != 0.0 || pi[IPX_T2] != 0.0) {
                sector(s, pi, &j, &a, &b);
                Z = ipx_max(Z, ipx_max(a, b));
            }
            const double gamma = max_opposing(s, vpi);
            V = ipx_max(V, gamma);
            for (int d = 0; d < nd; d++) {
                const double dv = s->dir[2 * d] * vi[IPX_T1] + s->dir[2 * d + 1] * vi[IPX_T2];
                const double lam = d == j ? a : d == (j + 1) % nd ? b : 0.0;
                const double wd =
                    s->dir[2 * d] * vpi[IPX_T1] + s->dir[2 * d + 1] * vpi[IPX_T2] + gamma;
                V = ipx_max(V, fabs(dv));
                iz[niv] = lam, vw[niv++] = wd;
                const double d1 = s->dir[2 * d], d2 = s->dir[2 * d + 1];
                const double wdd = d1 * d1 * wii[4 * IPX_T1] +
                                   2.0 * d1 * d2 * wii[IPX_T1 + 3 * IPX_T2] +
                                   d2 * d2 * wii[4 * IPX_T2];
                own = ipx_max(own, ipx_max(-wd, ipx_min(lam * wdd, wd)));
            }
            const double slack = s->p->contact[i].mu * (bound ? bound[i] : ln) - (a + b);
            vz[nvi] = gamma, iw[nvi++] = slack;
            neg_imp = ipx_max(neg_imp, -slack);
            own = ipx_max(own, ipx_max(-slack * wtt, ipx_min(gamma, slack * wtt)));
        } else {
            neg_imp = ipx_max(neg_imp, ipx_max(fabs(pi[IPX_T1]), fabs(pi[IPX_T2])));
            own = ipx_max(own, ipx_max(fabs(pi[IPX_T1]), fabs(pi[IPX_T2])) * wtt);
        }
        row_v = ipx_max(row_v, own);
        if (viol) viol[i] = own;
    }
    const double rz = 1.0 / Z, rv = 1.0 / V;
    double worst = neg_imp * rz;
    for (int r = 0; r < niv; r++)
        worst = ipx_max(worst, ipx_max(-vw[r] * rv, ipx_min(iz[r] * rz, vw[r] * rv)));
    for (int r = 0; r < nvi; r++) worst = ipx_max(worst, ipx_min(vz[r] * rv, iw[r] * rz));
    if (scales) {
        double most = 0.0, sum = 0.0; /* J */
        for (int r = 0; r < niv; r++) {
            const double w = ipx_max(0.0, iz[r]) * ipx_max(0.0, vw[r]);
            most = ipx_max(most, w), sum += w;
        }
        *scales = (ipx_nsgs_scales){Z, V, row_v, most, sum};
    }
    for (int i = 0, r = 0; viol && i < k; i++) { /* each contact's pairs, in the order kept */
        const int pairs = s->p->contact[i].mu > 0.0 ? 1 + nd : 1;
        for (const int end = r + pairs; r < end; r++)
            viol[i] = ipx_max(viol[i], ipx_max(0.0, iz[r]) * ipx_max(0.0, vw[r]) * rz);
    }
    return worst;
}

double ipx_nsgs_residual(const ipx_nsgs *s, const double *v, const double *qn_shift,
                         const double *cap, ipx_nsgs_scales *scales)
{
    return residual(s, v, qn_shift, cap, NULL, scales, NULL);
}

double ipx_nsgs_violations(const ipx_nsgs *s, const double *v, const double *qn_shift, double *viol,
                           ipx_nsgs_scales *scales)
{
    return residual(s, v, qn_shift, NULL, NULL, scales, viol);
}

/* ---- the iteration ---- */

/* What a sweep's contact step solves: its local LCP; the QP of its fixed friction bound
   (nsgs.h, "Fixed friction bounds"); the QP over its friction cone (nsgs.h, "Cone stage"). */
enum { SWEEP_PLAIN, SWEEP_BOUNDED, SWEEP_CONE };

/* One sweep over the contacts in order: each solves its local LCP from the current velocities
   and passes the change of its impulse on to the contacts it couples to. SWEEP_BOUNDED and
   SWEEP_CONE: each contact with friction solves its QP instead; the local LCP where the QP is
   left open (the bounded QP's active sets; a cone QP's Lemke failing). */
static void sweep(ipx_nsgs *s, const double *qn_shift, const double *cap, int mode)
{
    const int k = s->k;
    for (int i = 0; i < k; i++) {
        double *vpi = s->vp + 3 * i, *pii = s->pi + 3 * i;
        local L;
        L.w = s->W.blk + 9 * (size_t)s->W.diag[i];
        L.mu = s->p->contact[i].mu;
        L.capped = s->capped;
        L.cap = s->capped ? cap[i] : 0.0;
        double umax = 0.0;
        for (int r = 0; r < 3; r++) {
            L.u[r] = vpi[r] - (L.w[r] * pii[0] + L.w[r + 3] * pii[1] + L.w[r + 6] * pii[2]);
            umax = ipx_max(umax, fabs(L.u[r]));
        }
        L.u[IPX_N] += qn_shift ? qn_shift[i] : 0.0;
        /* tolerances from the local scales: the impulse that stops u, the velocity of u */
        L.tp = LOCAL_TOL * ipx_max(umax * s->stop_impulse[i], L.capped ? L.cap : 0.0);
        L.tv = LOCAL_TOL * umax;
        double pnew[3];
        const double *cap_i = L.capped ? &L.cap : NULL;
        const int qp =
            L.mu > 0.0 &&
            ((mode == SWEEP_BOUNDED &&
              ipx_nsgs_bounded_local(L.w, L.u, s->dir, s->nd, L.mu * s->bound[i], cap_i, pnew)) ||
             (mode == SWEEP_CONE && !L.capped && ipx_nsgs_cone_local(s, L.w, L.u, L.mu, pnew)));
        if (!qp && !local_enumerate(s, &L, pnew, &s->last_case[i])) {
            s->local_lemke++;
            if (!local_lemke(s, i, &L, pnew)) { /* keep the previous impulse (never seen) */
                s->local_failures++;
                continue;
            }
        }
        const double delta[3] = {pnew[0] - pii[0], pnew[1] - pii[1], pnew[2] - pii[2]};
        if (delta[0] == 0.0 && delta[1] == 0.0 && delta[2] == 0.0) continue;
        pii[0] = pnew[0], pii[1] = pnew[1], pii[2] = pnew[2];
        ipx_wblocks_column_axpy(&s->W, i, delta, s->vp);
    }
}

/* Anderson acceleration (type II, depth IPX_NSGS_AA_DEPTH; Walker & Ni 2011) of the sweep map
   x -> g(x) on the impulses: with f = g(x) - x, the next iterate is g(x_k) - dG gamma where gamma
   minimises |f_k - dF gamma| over the last differences dF_j = f_j+1 - f_j (dG likewise). The
   differences and their Gram matrix are kept in a ring (2 depth + 1 dot products a sweep), and
   the velocities v + W x follow from stored differences of v + W g (no product with W).
   *count = differences stored (0 after a restart). */
static void anderson(ipx_nsgs *s, int *count, int restart)
{
    enum { D = IPX_NSGS_AA_DEPTH };
    const int n = 3 * s->k;
    double *g_prev = s->hist[0], *f_prev = s->hist[1], *v_prev = s->hist[2];
    if (restart || *count < 0) { /* keep this sweep as the start of a new history */
        for (int i = 0; i < n; i++) {
            g_prev[i] = s->pi[i];
            f_prev[i] = s->pi[i] - s->pi_old[i];
            v_prev[i] = s->vp[i];
        }
        *count = 0;
        return;
    }
    /* the new differences go into the oldest slot of the ring */
    const int slot = *count % D;
    double *dg = s->hist[3 + 3 * slot], *df = s->hist[4 + 3 * slot], *dv = s->hist[5 + 3 * slot];
    double fnorm = 0.0;
    for (int i = 0; i < n; i++) {
        const double f = s->pi[i] - s->pi_old[i];
        dg[i] = s->pi[i] - g_prev[i];
        df[i] = f - f_prev[i];
        dv[i] = s->vp[i] - v_prev[i];
        g_prev[i] = s->pi[i];
        f_prev[i] = f;
        v_prev[i] = s->vp[i];
        fnorm += f * f;
    }
    ++*count;
    const int m = *count < D ? *count : D;
    for (int j = 0; j < m; j++) { /* Gram row of the new difference, and dF_j . f */
        const double *fj = s->hist[4 + 3 * j];
        double dot = 0.0, rhs = 0.0;
        for (int i = 0; i < n; i++) {
            dot += df[i] * fj[i];
            rhs += fj[i] * f_prev[i];
        }
        s->gram[slot + D * j] = s->gram[j + D * slot] = dot;
        s->gram_rhs[j] = rhs;
    }
    (void)fnorm;
    double A[D * D], gam[D];
    double tr = 0.0;
    for (int a = 0; a < m; a++) tr += s->gram[a + D * a];
    if (!(tr > 0.0) || !isfinite(tr)) {
        *count = -1;
        return;
    }
    for (int c = 0; c < m; c++)
        for (int r = 0; r < m; r++) A[r + D * c] = s->gram[r + D * c];
    for (int a = 0; a < m; a++) A[a + D * a] += 1e-10 * tr; /* Tikhonov: near-dependent columns */
    for (int c = 0; c < m; c++) {                           /* Cholesky */
        double d = A[c + D * c];
        for (int x = 0; x < c; x++) d -= A[c + D * x] * A[c + D * x];
        if (!(d > 0.0)) {
            *count = -1;
            return;
        }
        d = sqrt(d);
        A[c + D * c] = d;
        for (int r = c + 1; r < m; r++) {
            double e = A[r + D * c];
            for (int x = 0; x < c; x++) e -= A[r + D * x] * A[c + D * x];
            A[r + D * c] = e / d;
        }
    }
    for (int r = 0; r < m; r++) {
        double e = s->gram_rhs[r];
        for (int x = 0; x < r; x++) e -= A[r + D * x] * gam[x];
        gam[r] = e / A[r + D * r];
    }
    for (int r = m - 1; r >= 0; r--) {
        double e = gam[r];
        for (int x = r + 1; x < m; x++) e -= A[x + D * r] * gam[x];
        gam[r] = e / A[r + D * r];
    }
    for (int j = 0; j < m; j++) {
        const double *gj = s->hist[3 + 3 * j], *vj = s->hist[5 + 3 * j], c = gam[j];
        for (int i = 0; i < n; i++) {
            s->pi[i] -= c * gj[i];
            s->vp[i] -= c * vj[i];
        }
    }
}

/* A sweep with fixed bounds leaves each friction impulse within mu s, not always within
   mu lambda_n: it is scaled back into the contact's polygon (radius mu lambda_n), and the
   velocities follow. */
static void project_cones(ipx_nsgs *s)
{
    for (int i = 0; i < s->k; i++) {
        double *pi = s->pi + 3 * i;
        const double bound = s->p->contact[i].mu * ipx_max(0.0, pi[IPX_N]), h = gauge(s, pi);
        if (!(h > bound) || !(s->p->contact[i].mu > 0.0)) continue;
        const double f = bound / h - 1.0, delta[3] = {f * pi[IPX_T1], f * pi[IPX_T2], 0.0};
        pi[IPX_T1] += delta[0], pi[IPX_T2] += delta[1];
        ipx_wblocks_column_axpy(&s->W, i, delta, s->vp);
    }
}

/* 1 if the iterate raised f = 1/2 pi' W pi + q' pi (q: v with the normal targets; without them
   the kinetic energy change, J) above *f_last, the last plain iterate's, by more than
   CYCLE_RISE: Gauss-Seidel on the Coulomb law runs in cycles (nsgs.h, "Fixed friction
   bounds"). Keeps f in *f_last. */
static int ascended(const ipx_nsgs *s, const double *v, const double *qn_shift, double *f_last)
{
    double f = 0.0, size = 0.0;
    for (int r = 0; r < 3 * s->k; r++) {
        const double q = v[r] + (qn_shift && r % 3 == IPX_N ? qn_shift[r / 3] : 0.0);
        const double a = s->pi[r] * q, b = 0.5 * s->pi[r] * (s->vp[r] - v[r]);
        f += a + b;
        size += fabs(a) + fabs(b);
    }
    const int rose = f > *f_last + CYCLE_RISE * size;
    *f_last = f;
    return rose;
}

/* The friction bounds of the fixed-bound sweeps: each contact's current normal impulse. */
static void set_bounds(ipx_nsgs *s)
{
    for (int i = 0; i < s->k; i++) s->bound[i] = ipx_max(0.0, s->pi[3 * i + IPX_N]);
}

/* The residual reached: tol, or v_tol in velocity (each row's violation in m/s) with no impulse
   row's work above Z v_tol, the work an error of v_tol against the largest impulse does (see nsgs.h
   and docs/core-api.md "Solve accuracy"). */
static int reached(const ipx_nsgs *s, const ipx_nsgs_options *opt)
{
    const ipx_nsgs_scales *c = &s->scales;
    return s->residual <= opt->tol ||
           (c->row_velocity <= opt->v_tol && c->pair_work <= c->impulse * opt->v_tol);
}

/* Judges the iterate s->pi: its residual into s->residual; 1 if it is reached (confirmed on
   velocities recomputed from the data); else a residual below *best makes it the best iterate
   (s->pi_best: every contact meets its own conditions there, where an extrapolated iterate need
   not). */
static int judge(ipx_nsgs *s, const double *v, const double *qn_shift, const double *cap,
                 const ipx_nsgs_options *opt, double *best)
{
    s->residual = ipx_nsgs_residual(s, v, qn_shift, cap, &s->scales);
    if (reached(s, opt)) {
        ipx_wblocks_apply(&s->W, v, s->pi, s->vp);
        s->residual = ipx_nsgs_residual(s, v, qn_shift, cap, &s->scales);
        if (reached(s, opt)) return 1;
    }
    if (s->residual < *best) {
        *best = s->residual;
        memcpy(s->pi_best, s->pi, sizeof(double) * 3 * (size_t)s->k);
    }
    return 0;
}

/* The QP of the current fixed bounds, swept from s->pi until its residual is within
   BOUND_QP_RATIO of lcp_residual (or tol) when judged every PLAIN_CHECK sweeps, max_qp sweeps
   have passed or max_sweeps is spent. */
static void solve_bound_qp(ipx_nsgs *s, const double *v, const double *qn_shift, const double *cap,
                           const ipx_nsgs_options *opt, double lcp_residual, int max_qp)
{
    const double target = ipx_max(opt->tol, BOUND_QP_RATIO * lcp_residual);
    for (int qp_sweeps = 1; s->sweeps < opt->max_sweeps; qp_sweeps++) {
        sweep(s, qn_shift, cap, SWEEP_BOUNDED);
        s->sweeps++, s->bounded_sweeps++;
        if (qp_sweeps % PLAIN_CHECK != 0) continue;
        if (qp_sweeps >= max_qp || residual(s, v, qn_shift, cap, s->bound, NULL, NULL) <= target)
            return;
    }
}

/* The sweeps with fixed friction bounds (nsgs.h, "Fixed friction bounds") from s->pi on, the
   best residual so far *best (its iterate in s->pi_best). After each bound's QP the iterate, its
   friction impulses scaled back into the cones, is judged as the LCP's answer, and the bounds
   move toward the normal impulses: outright after PLAIN_CHECK sweeps at first, then damped
   (DAMPED_AFTER above). Returns 1 when the residual is reached (s->pi the answer), 0 when
   max_sweeps or a stall (as the plain sweeps') ended it, *best and s->pi_best updated. */
static int bounded_stage(ipx_nsgs *s, const double *v, const double *qn_shift, const double *cap,
                         const ipx_nsgs_options *opt, double *best)
{
    const size_t bytes = sizeof(double) * 3 * (size_t)s->k;
    double lcp_residual = *best, improved = *best;
    int improved_at = s->sweeps, damped = 0, max_qp = PLAIN_CHECK;
    set_bounds(s);
    while (s->sweeps < opt->max_sweeps) {
        solve_bound_qp(s, v, qn_shift, cap, opt, lcp_residual, max_qp);
        project_cones(s);
        if (judge(s, v, qn_shift, cap, opt, best)) return 1;
        if (*best <= 0.5 * improved) improved = *best, improved_at = s->sweeps;
        if (opt->stall_sweeps > 0 && *best <= opt->stall_accept &&
            s->sweeps - improved_at >= opt->stall_sweeps)
            return 0;
        if (!damped && s->sweeps - improved_at >= DAMPED_AFTER) {
            damped = 1, max_qp = BOUND_QP_SWEEPS;
            improved = *best, improved_at = s->sweeps;
            memcpy(s->pi, s->pi_best, bytes);
            ipx_wblocks_apply(&s->W, v, s->pi, s->vp);
            set_bounds(s);
            lcp_residual = *best;
            continue;
        }
        lcp_residual = s->residual;
        if (!damped) set_bounds(s);
        for (int i = 0; i < s->k && damped; i++)
            s->bound[i] += BOUND_STEP * (ipx_max(0.0, s->pi[3 * i + IPX_N]) - s->bound[i]);
    }
    return 0;
}

/* The cone stage (nsgs.h, "Cone stage") from s->pi (the best iterate so far, *best) on, judged
   every PLAIN_CHECK sweeps. Returns 1 when the residual is reached (s->pi the answer), 0 when
   max_sweeps or its stall (CONE_STALL) ended it, with s->pi the best iterate again (*best and
   s->pi_best updated) for the fixed bounds. */
static int cone_stage(ipx_nsgs *s, const double *v, const double *qn_shift, const double *cap,
                      const ipx_nsgs_options *opt, double *best)
{
    const size_t bytes = sizeof(double) * 3 * (size_t)s->k;
    double own = INFINITY, improved = INFINITY; /* the stage's own best residual: its progress */
    int improved_at = s->sweeps;
    while (s->sweeps < opt->max_sweeps) {
        sweep(s, qn_shift, cap, SWEEP_CONE);
        s->sweeps++, s->cone_sweeps++;
        if (s->cone_sweeps % PLAIN_CHECK != 0) continue;
        if (judge(s, v, qn_shift, cap, opt, best)) return 1;
        own = ipx_min(own, s->residual);
        if (own <= 0.5 * improved) improved = own, improved_at = s->sweeps;
        if (s->sweeps - improved_at >= CONE_STALL) break;
    }
    memcpy(s->pi, s->pi_best, bytes);
    ipx_wblocks_apply(&s->W, v, s->pi, s->vp);
    return 0;
}

/* The exact blocks (nsgs.h, "Exact blocks") from the best iterate on: each round solves the
   block around the contacts that still violate (beyond v_tol, or tol relative to the problem's
   velocity scale) and judges the iterate. Returns 1 when the residual is reached (s->pi the
   answer), 0 after opt->block_rounds or where no block could be solved. */
static int block_stage(ipx_nsgs *s, const double *v, const double *qn_shift,
                       const ipx_nsgs_options *opt, double *best)
{
    memcpy(s->pi, s->pi_best, sizeof(double) * 3 * (size_t)s->k);
    ipx_wblocks_apply(&s->W, v, s->pi, s->vp);
    for (int round = 0; round < opt->block_rounds; round++) {
        s->residual = ipx_nsgs_violations(s, v, qn_shift, s->block.viol, &s->scales);
        const double threshold = opt->v_tol > 0.0 ? opt->v_tol : opt->tol * s->scales.velocity;
        if (!ipx_nsgs_block_solve(&s->block, &s->W, s->p, s->nd, qn_shift, threshold, s->pi, s->vp,
                                  &s->pivots))
            return 0;
        s->block_solves++;
        if (judge(s, v, qn_shift, NULL, opt, best)) return 1;
    }
    return 0;
}

ipx_status ipx_nsgs_solve(ipx_nsgs *s, const double *v, const double *qn_shift, const double *cap,
                          int warm, const ipx_nsgs_options *opt)
{
    const int n = 3 * s->k;
    const size_t bytes = sizeof(double) * (size_t)n;
    s->capped = cap != NULL;
    if (!warm) memset(s->pi, 0, bytes);
    ipx_wblocks_apply(&s->W, v, s->pi, s->vp);
    s->sweeps = 0;
    s->pivots = 0;
    s->local_lemke = 0;
    s->local_failures = 0;
    s->accelerated = opt->accelerate;
    s->residual = INFINITY;
    s->scales = (ipx_nsgs_scales){0};
    s->bounded_sweeps = 0;
    s->cone_sweeps = 0;
    s->block_solves = 0;
    int count = -1, improved_at = 0;
    double previous = INFINITY, best = INFINITY, improved = INFINITY, f_last = INFINITY;
    while (s->sweeps < opt->max_sweeps) {
        if (s->accelerated) memcpy(s->pi_old, s->pi, bytes);
        sweep(s, qn_shift, cap, SWEEP_PLAIN);
        s->sweeps++;
        if (!s->accelerated && s->sweeps % PLAIN_CHECK != 0 && s->sweeps < opt->max_sweeps)
            continue;
        if (judge(s, v, qn_shift, cap, opt, &best)) return IPX_OK;
        if (best <= 0.5 * improved) improved = best, improved_at = s->sweeps;
        const int stalled = !s->accelerated && opt->stall_sweeps > 0 &&
                            s->sweeps - improved_at >= opt->stall_sweeps;
        if (stalled && best <= opt->stall_accept)
            break; /* a stall: the best iterate is the answer, as after max_sweeps */
        /* a stall above what may be accepted goes on with fixed bounds too: plain sweeps can
           cycle with a period that divides PLAIN_CHECK, which the judged f does not see */
        const int rose = !s->accelerated && (ascended(s, v, qn_shift, &f_last) || stalled);
        if ((s->accelerated && s->sweeps - improved_at >= STALL_ACCELERATED) || rose) {
            /* from the best iterate on: plain sweeps after the acceleration, sweeps over the
               friction cones (where asked) and then with fixed friction bounds once plain sweeps
               ceased to descend */
            s->accelerated = 0;
            improved = best, improved_at = s->sweeps; /* the plain sweeps' stall counts from here */
            memcpy(s->pi, s->pi_best, bytes);
            ipx_wblocks_apply(&s->W, v, s->pi, s->vp);
            if (!rose) continue;
            if ((opt->cone && cone_stage(s, v, qn_shift, cap, opt, &best)) ||
                bounded_stage(s, v, qn_shift, cap, opt, &best))
                return IPX_OK;
            break;
        }
        if (!s->accelerated) continue;
        /* a jump of the residual: the modes of some contacts changed; start afresh */
        anderson(s, &count, s->residual > AA_RESTART * previous);
        previous = s->residual;
    }
    if (opt->block_rounds > 0 && !cap && block_stage(s, v, qn_shift, opt, &best)) return IPX_OK;
    memcpy(s->pi, s->pi_best, bytes);
    ipx_wblocks_apply(&s->W, v, s->pi, s->vp);
    s->residual = ipx_nsgs_residual(s, v, qn_shift, cap, &s->scales);
    return reached(s, opt) ? IPX_OK : IPX_ERR_NOT_CONVERGED;
}
