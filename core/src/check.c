#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "impax/check.h"
#include "mathutil.h"
#include "impax/problem.h"
#include "result_internal.h"

ipx_check_options ipx_check_default_options(void)
{
    ipx_check_options o = {IPX_CHECK_ALL, 1e-9, 1e-12, 1e-6};
    return o;
}

const char *ipx_check_kind_name(ipx_check_kind kind)
{
    switch (kind) {
    case IPX_CHECK_ENERGY: return "energy gain";
    case IPX_CHECK_NONPENETRATION: return "penetrating velocity";
    case IPX_CHECK_CONE: return "friction cone";
    case IPX_CHECK_COMPLEMENTARITY: return "complementarity";
    case IPX_CHECK_UNILATERAL: return "pulling normal impulse";
    case IPX_CHECK_CONSISTENCY: return "inconsistent result";
    case IPX_CHECK_FRICTION_DIRECTION: return "friction not opposing the slip";
    case IPX_CHECK_SAFETY_NET: return "safety net fired";
    }
    return "unknown check";
}

static void add(ipx_check_report *rep, ipx_check_kind kind, int contact, double size)
{
    if (rep->count < IPX_MAX_VIOLATIONS) {
        ipx_violation *v = &rep->list[rep->count];
        v->kind = kind;
        v->contact = contact;
        v->size = size;
    }
    rep->count++;
}

/* Violation bookkeeping: excess > 0 (or NaN) is a violation of that size. */
static void test(ipx_check_report *rep, unsigned kinds, ipx_check_kind kind, int contact,
                 double excess)
{
    if ((kinds & kind) && !(excess <= 0.0)) add(rep, kind, contact, excess);
}

/* Angle (rad) between friction f and the opposite of slip u, or 0 when either is below its
   tolerance (no direction to check). */
static double friction_angle(const double f[2], const double u[2], double tol_p, double tol_v)
{
    double fn = hypot(f[0], f[1]), un = hypot(u[0], u[1]);
    if (!(fn > tol_p) || !(un > tol_v)) return 0.0;
    /* atan2 of cross and dot: accurate near 0, unlike acos */
    return atan2(fabs(f[0] * u[1] - f[1] * u[0]), -(f[0] * u[0] + f[1] * u[1]));
}

/* The friction-direction check of contact c (see check.h); wpi_last = W last_step. */
static void check_direction(ipx_check_report *rep, const ipx_check_options *opt,
                            const ipx_problem *p, const ipx_result *r, int c, const double *wpi,
                            const double *wpi_last, double tol_p, double tol_v)
{
    if (!r->slip_state || !r->last_step) return; /* not reported */
    const int s = r->slip_state[c], b = IPX_ROWS_PER_CONTACT * c;
    if (s != IPX_SLIP_SLIDING && s != IPX_SLIP_IMPENDING) return;
    double u[2];
    for (int t = IPX_T1; t <= IPX_T2; t++) {
        u[t] = p->v[b + t] + wpi[b + t]; /* end slip */
        if (s == IPX_SLIP_SLIDING) u[t] -= wpi_last[b + t];
    }
    const double f[2] = {r->last_step[b + IPX_T1], r->last_step[b + IPX_T2]};
    test(rep, opt->kinds, IPX_CHECK_FRICTION_DIRECTION, c,
         friction_angle(f, u, tol_p, tol_v) - opt->tol_angle);
}

/* Energy tolerance (J) for dT = work + quad / 2, work = pi.v, quad = pi.W pi. */
static double energy_tol(double work, double quad, const ipx_result *r,
                         const ipx_check_options *opt)
{
    return opt->tol_abs + opt->tol_rel * (fabs(work) + fabs(quad) + fabs(r->delta_stored));
}

/* The energy test (see check.h): the excess of dT + delta_stored over the tolerance and the
   model's stated integration error. */
static double energy_excess(double work, double quad, const ipx_result *r,
                            const ipx_check_options *opt)
{
    return work + 0.5 * quad + r->delta_stored - energy_tol(work, quad, r, opt) -
           fmax(r->energy_error, 0.0);
}

double ipx_check_energy_excess(const ipx_problem *p, const ipx_result *r,
                               const ipx_check_options *opt)
{
    double work = 0.0, quad = 0.0;
    for (int i = 0; i < IPX_ROWS_PER_CONTACT * p->k; i++) {
        work += r->impulse[i] * p->v[i];
        quad += r->impulse[i] * (r->v_post[i] - p->v[i]); /* pi.W pi, from v_post = v + W pi */
    }
    return energy_excess(work, quad, r, opt);
}

int ipx_check(const ipx_problem *p, const ipx_result *r, const ipx_check_options *opt,
              ipx_check_report *rep)
{
    const int n = IPX_ROWS_PER_CONTACT * p->k;
    const unsigned kinds = opt->kinds;
    rep->count = 0;
    if (r->k != p->k || r->n_rows != n || !r->impulse || !r->v_post) {
        /* a result of another problem, or of a solve that never started */
        test(rep, kinds | IPX_CHECK_CONSISTENCY, IPX_CHECK_CONSISTENCY, -1, (double)n);
        return rep->count;
    }
    /* recompute from the impulses: the checker does not trust what the model reported */
    double *wpi = malloc(2 * (size_t)n * sizeof *wpi);
    if (!wpi) return -1;
    double *wpi_last = wpi + n;
    ipx_problem_apply_W(p, r->impulse, wpi);
    if (r->last_step) ipx_problem_apply_W(p, r->last_step, wpi_last);
    double work = 0.0, quad = 0.0;
    for (int i = 0; i < n; i++) {
        work += r->impulse[i] * p->v[i];
        quad += r->impulse[i] * wpi[i];
    }
    const double dke = work + 0.5 * quad;
    const double vscale = fmax(ipx_max_abs(p->v, n), ipx_max_abs(r->v_post, n));
    const double pscale = ipx_max_abs(r->impulse, n);
    const double tol_v = opt->tol_abs + opt->tol_rel * vscale;
    const double tol_p = opt->tol_abs + opt->tol_rel * pscale;
    const double tol_e = energy_tol(work, quad, r, opt);

    for (int i = 0; i < n; i++) {
        double v_post = p->v[i] + wpi[i];
        test(rep, kinds, IPX_CHECK_CONSISTENCY, i / IPX_ROWS_PER_CONTACT,
             fabs(v_post - r->v_post[i]) - tol_v);
    }
    test(rep, kinds, IPX_CHECK_CONSISTENCY, -1, fabs(dke - r->delta_ke) - tol_e);
    test(rep, kinds, IPX_CHECK_ENERGY, -1, energy_excess(work, quad, r, opt));
    test(rep, kinds, IPX_CHECK_SAFETY_NET, -1, (double)r->nets);

    for (int c = 0; c < p->k; c++) {
        const double *pi = r->impulse + IPX_ROWS_PER_CONTACT * c;
        const double vn =
            p->v[IPX_ROWS_PER_CONTACT * c + IPX_N] + wpi[IPX_ROWS_PER_CONTACT * c + IPX_N];
        const double pt = hypot(pi[IPX_T1], pi[IPX_T2]);
        /* the host's accuracy (p->v_tol, types.h) widens the velocity conditions only */
        test(rep, kinds, IPX_CHECK_NONPENETRATION, c, -vn - (tol_v + p->v_tol));
        test(rep, kinds, IPX_CHECK_UNILATERAL, c, -pi[IPX_N] - tol_p);
        /* an infinite cone holds every tangential impulse: the unilateral test is its apex */
        if (!isinf(p->contact[c].mu))
            test(rep, kinds, IPX_CHECK_CONE, c, pt - p->contact[c].mu * pi[IPX_N] - tol_p);
        test(rep, kinds, IPX_CHECK_COMPLEMENTARITY, c,
             pi[IPX_N] * vn - (opt->tol_abs + pscale * (opt->tol_rel * vscale + p->v_tol)));
        check_direction(rep, opt, p, r, c, wpi, wpi_last, tol_p, tol_v);
    }
    free(wpi);
    return rep->count;
}

void ipx_check_format(const ipx_check_report *rep, char *buf, size_t size)
{
    size_t used = 0;
    if (size) buf[0] = '\0';
    int shown = rep->count < IPX_MAX_VIOLATIONS ? rep->count : IPX_MAX_VIOLATIONS;
    for (int i = 0; i < shown && used < size; i++) {
        const ipx_violation *v = &rep->list[i];
        if (v->contact >= 0)
            used += (size_t)snprintf(buf + used, size - used, "%s at contact %d exceeded by %.3g\n",
                                     ipx_check_kind_name(v->kind), v->contact, v->size);
        else
            used += (size_t)snprintf(buf + used, size - used, "%s exceeded by %.3g\n",
                                     ipx_check_kind_name(v->kind), v->size);
    }
    if (rep->count > shown && used < size)
        snprintf(buf + used, size - used, "... and %d more\n", rep->count - shown);
}
