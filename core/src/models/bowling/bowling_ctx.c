/* The Flickinger-Bowling solve's context (bowling_ctx.h), which every file of the model
   reads: the friction groups' geometry, the Coulomb limits, the tolerances, copies of an
   outcome, and the workspace slices of one solve. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bowling_ctx.h"
#include "impax/lcp.h"
#include "mathutil.h"
#include "numerics/min_norm.h"
#include "workspace_internal.h"

int bw_group_dim(int g) { return g == 1 ? 1 : 2; }

int bw_group_row(int g, int j)
{
    static const int first[BW_GROUPS] = {IPX_T1, 3, 4};
    return first[g] + j;
}

double bw_group_norm(const double *pi, int g)
{
    double nn = 0.0;
    for (int j = 0; j < bw_group_dim(g); j++) nn += pi[bw_group_row(g, j)] * pi[bw_group_row(g, j)];
    return sqrt(nn);
}

double bw_stick_limit(const bw_ctx *c, int i, int g)
{
    const double mu = c->p->contact[i].mu;
    if (g == 0) return mu;
    if (c->param[IPX_BOWLING_MOMENT_LIMITS] == 0.0) return INFINITY;
    return mu * c->param[g == 1 ? IPX_BOWLING_TORSION_RADIUS : IPX_BOWLING_ROLL_RADIUS];
}

double bw_slip_limit(const bw_ctx *c, int i, int g)
{
    return c->param[IPX_BOWLING_MU_DYNAMIC_RATIO] * bw_stick_limit(c, i, g);
}

/* The absolute floor keeps an all-zero problem's comparisons exact rather than failing. */
double bw_tol_v(const bw_ctx *c)
{
    return c->param[IPX_BOWLING_TOL] * fmax(c->vscale, ipx_max_abs(c->vp, c->n)) + 1e-300;
}

double bw_tol_p(const bw_ctx *c)
{
    return c->param[IPX_BOWLING_TOL] * ipx_max_abs(c->pi, c->n) + 1e-300;
}

double bw_tol_e(const bw_ctx *c, double e) { return c->param[IPX_BOWLING_TOL] * fabs(e) + 1e-300; }

void bw_take(const bw_ctx *c, bw_outcome *o)
{
    memcpy(o->pi, c->pi, sizeof(double) * (size_t)c->n);
    o->dT = c->dT;
    o->rank_deficient = c->rank_deficient;
    o->found = 1;
}

void bw_copy(const bw_ctx *c, bw_outcome *to, const bw_outcome *from)
{
    memcpy(to->pi, from->pi, sizeof(double) * (size_t)c->n);
    to->dT = from->dT;
    to->rank_deficient = from->rank_deficient;
    to->found = from->found;
}

int bw_lcp_directions(const double *param)
{
    const int nd = (int)param[IPX_BOWLING_LCP_DIRECTIONS];
    return nd + (nd & 1); /* an odd count would make the polygon lopsided: round up to even */
}

static int lcp_size(int k, const double *param)
{
    return ipx_ap_max_size(k, bw_lcp_directions(param));
}

static size_t max_rows(int k) { return (size_t)BW_MAX_ROWS_PER_CONTACT * (size_t)k; }

/* Bytes of the per-contact state: bw_state, slip_saved, moving, dyn, slip_list. */
static size_t state_bytes(size_t k)
{
    return ipx_ws_bytes_bytes(k) + 3 * ipx_ws_bytes_bytes(k * BW_GROUPS) +
           ipx_ws_doubles_bytes(k * BW_GROUPS * 2) + ipx_ws_bytes_bytes(k * sizeof(ipx_contact)) +
           2 * ipx_ws_ints_bytes(k * BW_GROUPS);
}

void bw_state_clear(bw_ctx *c)
{
    memset(c->cur.active, 0, (size_t)c->k);
    memset(c->cur.slip, 0, (size_t)c->k * sizeof *c->cur.slip);
    memset(c->cur.dir, 0, (size_t)c->k * sizeof *c->cur.dir);
}

size_t bw_ctx_bytes(int k, const double *param)
{
    const size_t n = max_rows(k), n3 = 3 * (size_t)k, L = (size_t)lcp_size(k, param);
    return 7 * ipx_ws_doubles_bytes(n) + ipx_ws_doubles_bytes(3 * n * n) +
           ipx_ws_doubles_bytes(5 * n) + ipx_ws_doubles_bytes(ipx_min_norm_work_doubles((int)n)) +
           3 * ipx_ws_ints_bytes(n) + ipx_ws_doubles_bytes(n3 * n3) + 2 * ipx_ws_doubles_bytes(n3) +
           state_bytes((size_t)k) + ipx_ws_doubles_bytes(L * L) + 3 * ipx_ws_doubles_bytes(L) +
           ipx_ws_doubles_bytes((size_t)k) + ipx_ws_doubles_bytes(ipx_lemke_work_doubles((int)L)) +
           ipx_ws_ints_bytes(ipx_lemke_work_ints((int)L)) +
           ipx_nsgs_bytes(k, bw_lcp_directions(param), 0);
}

ipx_status bw_ctx_init(bw_ctx *c, const ipx_problem *p, int r, const double *param,
                       ipx_workspace *ws, ipx_counts *counts, char *message)
{
    memset(c, 0, sizeof *c);
    c->p = p;
    c->param = param;
    c->k = p->k;
    c->r = r;
    c->n = r * p->k;
    c->groups = 1 + (r >= 4) + (r >= 6);
    c->counts = counts;
    c->message = message;
    c->ws = ws;
    const size_t n = (size_t)c->n, n3 = 3 * (size_t)c->k, L = (size_t)lcp_size(c->k, param);
    c->vscale = ipx_max_abs(p->v, c->n);
    double **vec[] = {&c->b, &c->pi, &c->vp, &c->sol.pi, &c->keep.pi, &c->x, &c->rhs};
    int ok = 1;
    for (size_t i = 0; i < sizeof vec / sizeof vec[0]; i++)
        ok &= (*vec[i] = ipx_ws_doubles(ws, n)) != NULL;
    ok &= (c->A0 = ipx_ws_doubles(ws, 3 * n * n)) != NULL;
    if (ok) c->A1 = c->A0 + n * n, c->jac = c->A1 + n * n;
    ok &= (c->nwt = ipx_ws_doubles(ws, 5 * n)) != NULL;
    double *lsq_work = ipx_ws_doubles(ws, ipx_min_norm_work_doubles((int)n));
    ok &= lsq_work != NULL;
    ipx_min_norm_begin(&c->lsq, lsq_work);
    ok &= (c->iwork = ipx_ws_ints(ws, n)) != NULL;
    ok &= (c->unk = ipx_ws_ints(ws, n)) != NULL;
    ok &= (c->W3 = ipx_ws_doubles(ws, n3 * n3)) != NULL;
    ok &= (c->v3 = ipx_ws_doubles(ws, n3)) != NULL;
    ok &= (c->rel3 = ipx_ws_doubles(ws, n3)) != NULL;
    ok &= (c->cap_rows = ipx_ws_ints(ws, n)) != NULL;
    const size_t k = (size_t)c->k;
    ok &= (c->cur.active = ipx_ws_bytes(ws, k)) != NULL;
    ok &= (c->cur.slip = ipx_ws_bytes(ws, k * BW_GROUPS)) != NULL;
    ok &= (c->slip_saved = ipx_ws_bytes(ws, k * BW_GROUPS)) != NULL;
    ok &= (c->moving = ipx_ws_bytes(ws, k * BW_GROUPS)) != NULL;
    ok &= (c->cur.dir = (double(*)[BW_GROUPS][2])ipx_ws_doubles(ws, k * BW_GROUPS * 2)) != NULL;
    ok &= (c->dyn = ipx_ws_bytes(ws, k * sizeof(ipx_contact))) != NULL;
    ok &= (c->slip_list = ipx_ws_ints(ws, k * BW_GROUPS)) != NULL;
    ok &= (c->ap_fric = ipx_ws_ints(ws, k)) != NULL;
    ok &= (c->ap_scale = ipx_ws_doubles(ws, k)) != NULL;
    ok &= (c->M = ipx_ws_doubles(ws, L * L)) != NULL;
    ok &= (c->q = ipx_ws_doubles(ws, L)) != NULL;
    ok &= (c->z = ipx_ws_doubles(ws, L)) != NULL;
    ok &= (c->w = ipx_ws_doubles(ws, L)) != NULL;
    ok &= (c->lcp_work = ipx_ws_doubles(ws, ipx_lemke_work_doubles((int)L))) != NULL;
    ok &= (c->lcp_iwork = ipx_ws_ints(ws, ipx_lemke_work_ints((int)L))) != NULL;
    if (!ok) {
        snprintf(message, IPX_MESSAGE_SIZE, "bowling: workspace too small for k = %d, %d rows each",
                 c->k, r);
        return IPX_ERR_WORKSPACE;
    }
    bw_state_clear(c);
    memset(c->moving, 0, k * sizeof *c->moving);
    c->max_work = param[IPX_BOWLING_MAX_WORK] > 0.0 ? param[IPX_BOWLING_MAX_WORK] : BW_AUTO_WORK;
    return IPX_OK;
}

int bw_charge(bw_ctx *c, double units)
{
    if (!c->out_of_work && c->work + units <= c->max_work) {
        c->work += units;
        return 1;
    }
    c->out_of_work = 1;
    return 0;
}

ipx_status bw_out_of_work(bw_ctx *c)
{
    snprintf(c->message, IPX_MESSAGE_SIZE,
             "bowling: work bound of %.3g units spent at k = %d contacts (max_work; "
             "docs/models/bowling.md §9)",
             c->max_work, c->k);
    return IPX_ERR_NOT_CONVERGED;
}
