/* Joint elimination for contact-space problems (see impax/constrained.h). */
#include <lapacke.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "impax/constrained.h"
#include "mathutil.h"

#define ROW_DOUBLES 12 /* M^-1 J^T of one row: two bodies x [linear, angular] */

/* Views of the caller's work array, in the order ipx_constrained_work_doubles counts them. */
typedef struct layout {
    double *mjb;   /* m x 12: M^-1 J_b^T per joint row */
    double *mjc;   /* c x 12: M^-1 J_c^T per contact row */
    double *V;     /* m x m: A, then its eigenvectors (column-major) */
    double *scale; /* m: 1/sqrt(eigenvalue), 0 for the null space */
    double *G;     /* m x c: scale . V^T J_b M^-1 J_c^T, so that W = C - G^T G */
    double *tmp;   /* 2m scratch */
    double *diag;  /* c: W_ii, 0 for a row the joints hold rigid */
    double *xin;   /* c: ipx_constrained_apply's x without the held rows */
    double *lapack; /* eigensolver work */
} layout;

static size_t eigen_work(int m) { return 66 * (size_t)m + 1; }

size_t ipx_constrained_work_doubles(int n_bodies, int n_joint_rows, int n_contact_rows)
{
    (void)n_bodies;
    size_t m = (size_t)n_joint_rows, c = (size_t)n_contact_rows;
    return ROW_DOUBLES * (m + c) + m * m + m + m * c + 2 * m + 2 * c + eigen_work(n_joint_rows);
}

static layout carve(const ipx_constrained *s, double *work)
{
    size_t m = (size_t)s->n_joint_rows, c = (size_t)s->n_contact_rows;
    layout L;
    L.mjb = work;
    L.mjc = L.mjb + ROW_DOUBLES * m;
    L.V = L.mjc + ROW_DOUBLES * c;
    L.scale = L.V + m * m;
    L.G = L.scale + m;
    L.tmp = L.G + m * c;
    L.diag = L.tmp + 2 * m;
    L.xin = L.diag + c;
    L.lapack = L.xin + c;
    return L;
}

/* M^-1 J^T of one row, per body side. */
static void row_mass_times(const ipx_constrained *s, const ipx_row *r, double mj[ROW_DOUBLES])
{
    for (int t = 0; t < 2; t++) {
        double *out = mj + 6 * t;
        if (r->body[t] < 0) {
            memset(out, 0, 6 * sizeof(double));
            continue;
        }
        const ipx_body *b = &s->body[r->body[t]];
        for (int a = 0; a < 3; a++) out[a] = b->inv_mass * r->J[t][a];
        ipx_mat3_vec(b->inv_inertia, &r->J[t][3], out + 3);
    }
}

/* J_a M^-1 J_b^T given mjb = M^-1 J_b^T: only the bodies the two rows share couple. */
static double row_coupling(const ipx_row *a, const ipx_row *b, const double *mjb)
{
    double sum = 0.0;
    for (int s = 0; s < 2; s++)
        for (int t = 0; t < 2; t++) {
            if (a->body[s] < 0 || a->body[s] != b->body[t]) continue;
            for (int i = 0; i < 6; i++) sum += a->J[s][i] * mjb[6 * t + i];
        }
    return sum;
}

static double row_velocity(const ipx_row *r, const double *u)
{
    double sum = 0.0;
    for (int t = 0; t < 2; t++) {
        if (r->body[t] < 0) continue;
        const double *ub = u + 6 * r->body[t];
        for (int i = 0; i < 6; i++) sum += r->J[t][i] * ub[i];
    }
    return sum;
}

/* u += f * M^-1 J^T of a row. */
static void add_row_motion(const ipx_row *r, const double *mj, double f, double *u)
{
    for (int t = 0; t < 2; t++) {
        if (r->body[t] < 0) continue;
        double *ub = u + 6 * r->body[t];
        for (int i = 0; i < 6; i++) ub[i] += f * mj[6 * t + i];
    }
}

static int rows_in_range(const ipx_constrained *s, const ipx_row *rows, int n, const char *kind,
                         char *msg, size_t size)
{
    for (int i = 0; i < n; i++)
        for (int t = 0; t < 2; t++)
            if (rows[i].body[t] < -1 || rows[i].body[t] >= s->n_bodies) {
                snprintf(msg, size, "%s row %d names body %d, outside -1..%d", kind, i,
                         rows[i].body[t], s->n_bodies - 1);
                return 0;
            }
    return 1;
}

/* A = J_b M^-1 J_b^T, eigendecomposed: V holds the eigenvectors, scale 1/sqrt(lambda) above the
   rank threshold and 0 below it. Returns the rank, or -1 if LAPACK failed. */
static int factor_joint_space(const ipx_constrained *s, const layout *L)
{
    const int m = s->n_joint_rows;
    for (int j = 0; j < m; j++)
        for (int i = j; i < m; i++)
            L->V[i + (size_t)m * j] = row_coupling(&s->joint_row[i], &s->joint_row[j],
                                                   L->mjb + ROW_DOUBLES * j);
    lapack_int info = LAPACKE_dsyev_work(LAPACK_COL_MAJOR, 'V', 'L', m, L->V, m, L->scale,
                                         L->lapack, (lapack_int)eigen_work(m));
    if (info != 0) return -1;
    const double floor = IPX_CONSTRAINED_RCOND * fmax(L->scale[m - 1], 0.0);
    int rank = 0;
    for (int i = 0; i < m; i++) {
        int kept = L->scale[i] > floor && L->scale[i] > 0.0;
        L->scale[i] = kept ? 1.0 / sqrt(L->scale[i]) : 0.0;
        rank += kept;
    }
    return rank;
}

/* out = A^+ g = V diag(scale^2) V^T g (g and out have m entries; uses tmp[0..m)). */
static void apply_pseudo_inverse(int m, const layout *L, const double *g, double *out)
{
    for (int r = 0; r < m; r++) {
        double y = 0.0;
        for (int i = 0; i < m; i++) y += L->V[i + (size_t)m * r] * g[i];
        L->tmp[r] = y * L->scale[r] * L->scale[r];
    }
    for (int i = 0; i < m; i++) {
        double z = 0.0;
        for (int r = 0; r < m; r++) z += L->V[i + (size_t)m * r] * L->tmp[r];
        out[i] = z;
    }
}

/* u <- u - M^-1 J_b^T A^+ J_b u. Returns max |J_b u| before. */
static double project_velocities(const ipx_constrained *s, const layout *L, double *u)
{
    const int m = s->n_joint_rows;
    double *g = L->tmp + m, worst = 0.0;
    for (int i = 0; i < m; i++) {
        g[i] = row_velocity(&s->joint_row[i], u);
        worst = fmax(worst, fabs(g[i]));
    }
    if (worst == 0.0) return 0.0;
    apply_pseudo_inverse(m, L, g, g);
    for (int i = 0; i < m; i++) add_row_motion(&s->joint_row[i], L->mjb + ROW_DOUBLES * i, -g[i], u);
    return worst;
}

/* G = diag(scale) V^T B with B = J_b M^-1 J_c^T, one contact column at a time. */
static void fill_G(const ipx_constrained *s, const layout *L)
{
    const int m = s->n_joint_rows;
    for (int j = 0; j < s->n_contact_rows; j++) {
        const double *mjc = L->mjc + ROW_DOUBLES * j;
        for (int i = 0; i < m; i++) L->tmp[i] = row_coupling(&s->joint_row[i], &s->contact_row[j], mjc);
        for (int r = 0; r < m; r++) {
            double y = 0.0;
            for (int i = 0; i < m; i++) y += L->V[i + (size_t)m * r] * L->tmp[i];
            L->G[r + (size_t)m * j] = L->scale[r] * y;
        }
    }
}

/* W_ii = J_i M^-1 J_i^T - |G_i|^2. A contact row the joints hold rigid (its diagonal cancels to
   round-off of its unconstrained value) gets 0: W has an exactly zero row and column there
   (round-off of either sign would otherwise make W look indefinite). */
static void fill_diagonal(const ipx_constrained *s, const layout *L)
{
    const int m = s->n_joint_rows;
    for (int i = 0; i < s->n_contact_rows; i++) {
        const double free_diag = row_coupling(&s->contact_row[i], &s->contact_row[i], L->mjc + ROW_DOUBLES * i);
        const double *gi = L->G + (size_t)m * i;
        double w = free_diag;
        for (int r = 0; r < m; r++) w -= gi[r] * gi[r];
        L->diag[i] = w > IPX_CONSTRAINED_RCOND * free_diag ? w : 0.0;
    }
}

/* W = J_c M^-1 J_c^T - G^T G, symmetric by construction, with the held rows and columns zero. */
static void fill_W(const ipx_constrained *s, const layout *L, double *W)
{
    const int m = s->n_joint_rows, c = s->n_contact_rows;
    for (int j = 0; j < c; j++)
        for (int i = j; i < c; i++) {
            double w = row_coupling(&s->contact_row[i], &s->contact_row[j], L->mjc + ROW_DOUBLES * j);
            const double *gi = L->G + (size_t)m * i, *gj = L->G + (size_t)m * j;
            for (int r = 0; r < m; r++) w -= gi[r] * gj[r];
            W[i + (size_t)c * j] = w;
            W[j + (size_t)c * i] = w;
        }
    for (int i = 0; i < c; i++)
        if (L->diag[i] == 0.0)
            for (int j = 0; j < c; j++) W[i + (size_t)c * j] = W[j + (size_t)c * i] = 0.0;
}

static int all_finite(const double *x, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!isfinite(x[i])) return 0;
    return 1;
}

ipx_status ipx_constrained_factor(const ipx_constrained *s, double *work, ipx_constrained_info *info,
                                  char *msg, size_t size)
{
    const int m = s->n_joint_rows, c = s->n_contact_rows;
    if (!rows_in_range(s, s->joint_row, m, "joint", msg, size) ||
        !rows_in_range(s, s->contact_row, c, "contact", msg, size))
        return IPX_ERR_INPUT;
    layout L = carve(s, work);
    for (int i = 0; i < m; i++) row_mass_times(s, &s->joint_row[i], L.mjb + ROW_DOUBLES * i);
    for (int j = 0; j < c; j++) row_mass_times(s, &s->contact_row[j], L.mjc + ROW_DOUBLES * j);
    int rank = 0;
    if (m > 0) {
        rank = factor_joint_space(s, &L);
        if (rank < 0) {
            snprintf(msg, size, "eigendecomposition of the %d x %d joint-space matrix failed", m, m);
            return IPX_ERR_NUMERIC;
        }
    }
    fill_G(s, &L);
    fill_diagonal(s, &L);
    if (!all_finite(L.G, (size_t)m * c) || !all_finite(L.diag, (size_t)c) ||
        !all_finite(L.mjc, ROW_DOUBLES * (size_t)c)) {
        snprintf(msg, size, "joint elimination produced a non-finite number (%d bodies, %d joint rows)",
                 s->n_bodies, m);
        return IPX_ERR_NUMERIC;
    }
    if (info) *info = (ipx_constrained_info){rank, 0.0, 0.0};
    return IPX_OK;
}

void ipx_constrained_delassus(const ipx_constrained *s, double *work, double *W)
{
    layout L = carve(s, work);
    fill_W(s, &L, W);
}

ipx_status ipx_constrained_assemble(const ipx_constrained *s, double *u, double *W, double *v,
                                    double *work, ipx_constrained_info *info, char *msg,
                                    size_t size)
{
    const int m = s->n_joint_rows, c = s->n_contact_rows;
    ipx_constrained_info fi;
    ipx_status st = ipx_constrained_factor(s, work, &fi, msg, size);
    if (st != IPX_OK) return st;
    layout L = carve(s, work);
    double before = m > 0 ? project_velocities(s, &L, u) : 0.0;
    fill_W(s, &L, W);
    for (int i = 0; i < c; i++) v[i] = row_velocity(&s->contact_row[i], u);
    if (!all_finite(W, (size_t)c * c) || !all_finite(v, (size_t)c) ||
        !all_finite(u, 6 * (size_t)s->n_bodies)) {
        snprintf(msg, size, "joint elimination produced a non-finite number (%d bodies, %d joint rows)",
                 s->n_bodies, m);
        return IPX_ERR_NUMERIC;
    }
    if (info) {
        info->joint_rank = fi.joint_rank;
        info->violation_before = before;
        info->violation_after = ipx_constrained_joint_residual(s, u);
    }
    return IPX_OK;
}

void ipx_constrained_delta_u(const ipx_constrained *s, const double *pi, double *du, double *work)
{
    const int m = s->n_joint_rows, c = s->n_contact_rows;
    layout L = carve(s, work);
    memset(du, 0, 6 * (size_t)s->n_bodies * sizeof(double));
    for (int j = 0; j < c; j++)
        if (pi[j] != 0.0) add_row_motion(&s->contact_row[j], L.mjc + ROW_DOUBLES * j, pi[j], du);
    if (m == 0) return;
    /* joint impulses z = A^+ B pi = V diag(scale) (G pi) */
    double *y = L.tmp, *z = L.tmp + m;
    for (int r = 0; r < m; r++) {
        double sum = 0.0;
        for (int j = 0; j < c; j++) sum += L.G[r + (size_t)m * j] * pi[j];
        y[r] = L.scale[r] * sum;
    }
    for (int i = 0; i < m; i++) {
        double sum = 0.0;
        for (int r = 0; r < m; r++) sum += L.V[i + (size_t)m * r] * y[r];
        z[i] = sum;
    }
    for (int i = 0; i < m; i++) add_row_motion(&s->joint_row[i], L.mjb + ROW_DOUBLES * i, -z[i], du);
}

void ipx_constrained_apply(const ipx_constrained *s, const double *x, double *y, double *du, double *work)
{
    layout L = carve(s, work);
    const int c = s->n_contact_rows;
    for (int j = 0; j < c; j++) L.xin[j] = L.diag[j] > 0.0 ? x[j] : 0.0;
    ipx_constrained_delta_u(s, L.xin, du, work);
    for (int i = 0; i < c; i++) y[i] = L.diag[i] > 0.0 ? row_velocity(&s->contact_row[i], du) : 0.0;
}

void ipx_constrained_diagonal(const ipx_constrained *s, double *work, double *diag)
{
    layout L = carve(s, work);
    memcpy(diag, L.diag, (size_t)s->n_contact_rows * sizeof *diag);
}

double ipx_constrained_joint_residual(const ipx_constrained *s, const double *u)
{
    double worst = 0.0;
    for (int i = 0; i < s->n_joint_rows; i++)
        worst = fmax(worst, fabs(row_velocity(&s->joint_row[i], u)));
    return worst;
}
