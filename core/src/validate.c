#include <math.h>
#include <stdio.h>

#include "impax/linalg.h"
#include "impax/validate.h"
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
    if (!isfinite(c->mu) || c->mu < 0.0) {
        snprintf(msg, size, "contact %d: friction mu = %g %s", i, c->mu,
                 isfinite(c->mu) ? "is negative" : "is not finite (use a large finite value for no slip)");
        return IPX_ERR_INPUT;
    }
    if (!isfinite(c->e) || c->e < 0.0 || c->e > 1.0) {
        snprintf(msg, size, "contact %d: restitution e = %g is outside [0, 1]", i, c->e);
        return IPX_ERR_INPUT;
    }
    if (!isfinite(c->v_capture) || c->v_capture < 0.0) {
        snprintf(msg, size, "contact %d: v_capture = %g m/s must be finite and >= 0", i, c->v_capture);
        return IPX_ERR_INPUT;
    }
    if (!isfinite(c->v_plastic) || c->v_plastic < 0.0) {
        snprintf(msg, size, "contact %d: v_plastic = %g m/s must be finite and >= 0", i, c->v_plastic);
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
    if (!p->W || !p->v || !p->contact) {
        snprintf(msg, size, "problem has a NULL %s", !p->W ? "W" : !p->v ? "v" : "contact array");
        return IPX_ERR_INPUT;
    }
    const int n = IPX_ROWS_PER_CONTACT * p->k;
    for (int i = 0; i < n; i++)
        if (!isfinite(p->v[i])) {
            snprintf(msg, size, "contact %d: velocity v_%s = %g is not finite",
                     i / IPX_ROWS_PER_CONTACT, row_name(i), p->v[i]);
            return IPX_ERR_INPUT;
        }
    for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++)
            if (!isfinite(p->W[i + (size_t)n * j])) {
                snprintf(msg, size, "W[%d][%d] = %g is not finite (contacts %d and %d)", i, j,
                         p->W[i + (size_t)n * j], i / IPX_ROWS_PER_CONTACT, j / IPX_ROWS_PER_CONTACT);
                return IPX_ERR_INPUT;
            }
    for (int i = 0; i < p->k; i++) {
        ipx_status st = check_contact(&p->contact[i], i, msg, size);
        if (st != IPX_OK) return st;
    }
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

int ipx_problem_unreachable_approach(const ipx_problem *p, double eps_v)
{
    const int n = IPX_ROWS_PER_CONTACT * p->k;
    double dmax = 0.0;
    for (int i = 0; i < n; i++) dmax = fmax(dmax, p->W[i + (size_t)n * i]);
    for (int c = 0; c < p->k; c++) {
        const int z = IPX_ROWS_PER_CONTACT * c + IPX_N;
        if (p->v[z] < -eps_v && !(p->W[z + (size_t)n * z] > IPX_W_NULL * dmax)) return c;
    }
    return -1;
}
