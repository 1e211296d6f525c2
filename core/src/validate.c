/* Problem validation shared by every model (see impax/validate.h): the contacts' parameters, v,
   and W given densely or as blocks, finite, symmetric and (dense) positive semi-definite. */
#include <math.h>
#include <stdio.h>

#include "impax/linalg.h"
#include "impax/problem.h"
#include "impax/validate.h"
#include "mathutil.h"
#include "validate_internal.h"
#include "workspace_internal.h"

size_t ipx_validate_workspace_bytes(int k)
{
    size_t n = (size_t)IPX_ROWS_PER_CONTACT * (size_t)k;
    return ipx_ws_doubles_bytes(n * n + 2 * n) + ipx_ws_ints_bytes(n);
}

static const char *row_name(int row)
{
    static const char *const names[IPX_ROWS_PER_CONTACT] = {"t1", "t2", "n"};
    return names[row % IPX_ROWS_PER_CONTACT];
}

static ipx_status check_contact(const ipx_contact *c, int i, char *msg, size_t size)
{
    if (!(c->mu >= 0.0)) { /* +INFINITY (never slides) passes: ipx_problem_finite_mu */
        snprintf(msg, size, "contact %d: friction mu = %g %s", i, c->mu,
                 isnan(c->mu) ? "is not a number" : "is negative");
        return IPX_ERR_INPUT;
    }
    if (!isfinite(c->e) || c->e < 0.0 || c->e > 1.0) {
        snprintf(msg, size, "contact %d: restitution e = %g is outside [0, 1]", i, c->e);
        return IPX_ERR_INPUT;
    }
    if (!isfinite(c->v_capture) || c->v_capture < 0.0) {
        snprintf(msg, size, "contact %d: v_capture = %g m/s must be finite and >= 0", i,
                 c->v_capture);
        return IPX_ERR_INPUT;
    }
    if (!isfinite(c->v_plastic) || c->v_plastic < 0.0) {
        snprintf(msg, size, "contact %d: v_plastic = %g m/s must be finite and >= 0", i,
                 c->v_plastic);
        return IPX_ERR_INPUT;
    }
    return IPX_OK;
}

/* The structure types.h asks of a block W: columns in order, rows ascending and in range, a
   diagonal block in every column. */
static ipx_status check_block_structure(int k, const ipx_wsparse *Ws, char *msg, size_t size)
{
    if (!Ws->start || !Ws->row || !Ws->blk) {
        snprintf(msg, size, "W's blocks have a NULL %s",
                 !Ws->start ? "start"
                 : !Ws->row ? "row"
                            : "blk");
        return IPX_ERR_INPUT;
    }
    if (Ws->start[0] != 0 || Ws->start[k] != Ws->nnz) {
        snprintf(msg, size, "W's blocks: start[0] = %d and start[%d] = %d, must be 0 and nnz = %d",
                 Ws->start[0], k, Ws->start[k], Ws->nnz);
        return IPX_ERR_INPUT;
    }
    for (int j = 0; j < k; j++) {
        if (Ws->start[j + 1] < Ws->start[j]) {
            snprintf(msg, size, "W's blocks: column %d ends (start %d) before it begins (start %d)",
                     j, Ws->start[j + 1], Ws->start[j]);
            return IPX_ERR_INPUT;
        }
        int diag = 0;
        for (int b = Ws->start[j]; b < Ws->start[j + 1]; b++) {
            const int i = Ws->row[b];
            if (i < 0 || i >= k || (b > Ws->start[j] && i <= Ws->row[b - 1])) {
                snprintf(msg, size, "W's blocks: column %d's block row %d is %s", j, i,
                         i < 0 || i >= k ? "not a contact"
                                         : "not above the one before it (rows ascend)");
                return IPX_ERR_INPUT;
            }
            diag |= i == j;
        }
        if (!diag) {
            snprintf(msg, size, "W's blocks: column %d has no diagonal block", j);
            return IPX_ERR_INPUT;
        }
    }
    return IPX_OK;
}

/* A block W (assembled: its curvature is taken from its construction), in O(blocks log blocks
   per column) with the messages of the dense checks and in their order (entries before the
   contacts' parameters, symmetry after): structure and finite entries here, then
   check_block_symmetry. */
static ipx_status check_block_entries(int k, const ipx_wsparse *Ws, char *msg, size_t size)
{
    ipx_status st = check_block_structure(k, Ws, msg, size);
    if (st != IPX_OK) return st;
    for (int j = 0; j < k; j++)
        for (int b = Ws->start[j]; b < Ws->start[j + 1]; b++)
            for (int e = 0; e < 9; e++)
                if (!isfinite(Ws->blk[9 * (size_t)b + e])) {
                    const int i = Ws->row[b];
                    snprintf(msg, size, "W[%d][%d] = %g is not finite (contacts %d and %d)",
                             3 * i + e % 3, 3 * j + e / 3, Ws->blk[9 * (size_t)b + e], i, j);
                    return IPX_ERR_INPUT;
                }
    return IPX_OK;
}

/* Symmetric pattern and values, no negative diagonal (after check_block_entries). */
static ipx_status check_block_symmetry(int k, const ipx_wsparse *Ws, char *msg, size_t size)
{
    const double tol = IPX_W_TOLERANCE * ipx_max_abs(Ws->blk, 9 * (size_t)Ws->nnz);
    for (int j = 0; j < k; j++)
        for (int b = Ws->start[j]; b < Ws->start[j + 1]; b++) {
            const int i = Ws->row[b], t = ipx_wsparse_find(Ws, j, i);
            if (t < 0) {
                snprintf(msg, size,
                         "W is not symmetric: the block of contacts %d and %d is given but "
                         "not the block of contacts %d and %d",
                         i, j, j, i);
                return IPX_ERR_INPUT;
            }
            for (int c = 0; c < 3; c++)
                for (int r = 0; r < 3; r++) {
                    const double a = Ws->blk[9 * (size_t)b + r + 3 * c],
                                 at = Ws->blk[9 * (size_t)t + c + 3 * r];
                    if (fabs(a - at) > tol) {
                        snprintf(msg, size,
                                 "W is not symmetric: W[%d][%d] = %.17g but W[%d][%d] = %.17g",
                                 3 * i + r, 3 * j + c, a, 3 * j + c, 3 * i + r, at);
                        return IPX_ERR_INPUT;
                    }
                    if (i == j && r == c && a < -tol) {
                        snprintf(msg, size,
                                 "W is indefinite: diagonal W[%d][%d] = %.17g is negative",
                                 3 * i + r, 3 * i + r, a);
                        return IPX_ERR_INPUT;
                    }
                }
        }
    return IPX_OK;
}

/* W given one way, and a block W only as an assembly's. */
static ipx_status check_W_given(const ipx_problem *p, char *msg, size_t size)
{
    if (!p->W == !p->Ws) {
        snprintf(msg, size,
                 p->W ? "problem gives W both densely (W) and as blocks (Ws): give one"
                      : "problem has a NULL W (and no blocks Ws)");
        return IPX_ERR_INPUT;
    }
    if (p->Ws && !(p->flags & IPX_PROBLEM_W_ASSEMBLED)) {
        snprintf(msg, size,
                 "W given as blocks needs IPX_PROBLEM_W_ASSEMBLED (its curvature cannot be "
                 "checked without the dense matrix): give W densely to have it checked");
        return IPX_ERR_INPUT;
    }
    return IPX_OK;
}

ipx_status ipx_problem_validate(const ipx_problem *p, ipx_workspace *ws, char *msg, size_t size)
{
    if (p->k < 1) {
        snprintf(msg, size, "k = %d contacts: a problem needs at least one", p->k);
        return IPX_ERR_INPUT;
    }
    if (!p->v || !p->contact) {
        snprintf(msg, size, "problem has a NULL %s", !p->v ? "v" : "contact array");
        return IPX_ERR_INPUT;
    }
    if (!(isfinite(p->v_tol) && p->v_tol >= 0.0)) {
        snprintf(msg, size, "v_tol = %g m/s (the host's velocity accuracy) must be finite and >= 0",
                 p->v_tol);
        return IPX_ERR_INPUT;
    }
    ipx_status st = check_W_given(p, msg, size);
    if (st != IPX_OK) return st;
    const int n = IPX_ROWS_PER_CONTACT * p->k;
    for (int i = 0; i < n; i++)
        if (!isfinite(p->v[i])) {
            snprintf(msg, size, "contact %d: velocity v_%s = %g is not finite",
                     i / IPX_ROWS_PER_CONTACT, row_name(i), p->v[i]);
            return IPX_ERR_INPUT;
        }
    if (p->Ws && (st = check_block_entries(p->k, p->Ws, msg, size)) != IPX_OK) return st;
    if (p->W)
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++)
                if (!isfinite(p->W[i + (size_t)n * j])) {
                    snprintf(msg, size, "W[%d][%d] = %g is not finite (contacts %d and %d)", i, j,
                             p->W[i + (size_t)n * j], i / IPX_ROWS_PER_CONTACT,
                             j / IPX_ROWS_PER_CONTACT);
                    return IPX_ERR_INPUT;
                }
    for (int i = 0; i < p->k; i++) {
        st = check_contact(&p->contact[i], i, msg, size);
        if (st != IPX_OK) return st;
    }
    if (p->Ws) return check_block_symmetry(p->k, p->Ws, msg, size);
    if (p->flags & IPX_PROBLEM_W_ASSEMBLED) /* PSD by construction */
        return ipx_check_symmetric(n, p->W, IPX_W_TOLERANCE, msg, size);
    double *work = ipx_ws_doubles(ws, (size_t)n * n + 2 * (size_t)n);
    int *iwork = ipx_ws_ints(ws, (size_t)n);
    if (!work || !iwork) {
        snprintf(msg, size, "workspace too small to validate k = %d contacts", p->k);
        return IPX_ERR_WORKSPACE;
    }
    return ipx_check_symmetric_psd(n, p->W, IPX_W_TOLERANCE, work, iwork, msg, size);
}

ipx_status ipx_problem_finite_mu(const ipx_problem *p, const char *model, char *msg, size_t size)
{
    for (int i = 0; i < p->k; i++)
        if (isinf(p->contact[i].mu)) {
            snprintf(msg, size,
                     "contact %d: friction mu = inf (never slides): model '%s' needs a finite mu "
                     "(a large one stands for no slip)",
                     i, model);
            return IPX_ERR_INPUT;
        }
    return IPX_OK;
}

ipx_status ipx_problem_validate_dense(const ipx_problem *p, ipx_workspace *ws, const char *who,
                                      char *msg, size_t size)
{
    if (p->Ws && !p->W) {
        snprintf(msg, size,
                 "%s takes W densely (ipx_problem.W), not as blocks (ipx_solve makes the "
                 "dense copy for any model)",
                 who);
        return IPX_ERR_INPUT;
    }
    return ipx_problem_validate(p, ws, msg, size);
}

int ipx_problem_unreachable_approach(const ipx_problem *p, double eps_v)
{
    const int n = IPX_ROWS_PER_CONTACT * p->k;
    double dmax = 0.0;
    for (int i = 0; i < n; i++) dmax = fmax(dmax, ipx_problem_W_diag(p, i));
    for (int c = 0; c < p->k; c++) {
        const int z = IPX_ROWS_PER_CONTACT * c + IPX_N;
        if (p->v[z] < -eps_v && !(ipx_problem_W_diag(p, z) > IPX_W_NULL * dmax)) return c;
    }
    return -1;
}
