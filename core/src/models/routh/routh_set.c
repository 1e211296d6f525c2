/* The Routh model's set sampler: many samples of Algorithm 1 as a point cloud and a summary
   (docs/models/routh.md §5, Algorithm 2; see impax/routh.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "routh_step.h"
#include "workspace_internal.h"

/* Clears s and takes its per-contact ranges from the start of ws (NULL if ws cannot hold them:
   the call's checks then fail). */
static void summary_start(ipx_routh_summary *s, int k, ipx_workspace *ws)
{
    memset(s, 0, sizeof *s);
    s->first_failure = IPX_OK;
    s->dke_min = HUGE_VAL;
    s->dke_max = -HUGE_VAL;
    if (!ws || k < 1) return;
    ipx_ws_begin(ws);
    double *range = ipx_ws_keep_doubles(ws, 4 * (size_t)k);
    if (!range) return;
    s->vn_min = range;
    s->vn_max = range + k;
    s->vt_min = range + 2 * (size_t)k;
    s->vt_max = range + 3 * (size_t)k;
    for (int i = 0; i < k; i++) {
        s->vn_min[i] = s->vt_min[i] = HUGE_VAL;
        s->vn_max[i] = s->vt_max[i] = -HUGE_VAL;
    }
}

/* Adds one kept sample with post-impact contact velocities v (m/s) and energy change dke (J).
   It is at rest when every contact velocity row is within rest_tol (m/s) of 0. */
static void summary_add(ipx_routh_summary *s, int k, const double *v, double dke, double rest_tol)
{
    int rest = 1;
    for (int i = 0; i < k; i++) {
        const double *vc = v + IPX_ROWS_PER_CONTACT * i;
        double vt = hypot(vc[IPX_T1], vc[IPX_T2]);
        s->vn_min[i] = fmin(s->vn_min[i], vc[IPX_N]);
        s->vn_max[i] = fmax(s->vn_max[i], vc[IPX_N]);
        s->vt_min[i] = fmin(s->vt_min[i], vt);
        s->vt_max[i] = fmax(s->vt_max[i], vt);
        for (int r = 0; r < IPX_ROWS_PER_CONTACT; r++) rest &= fabs(vc[r]) <= rest_tol;
    }
    s->dke_min = fmin(s->dke_min, dke);
    s->dke_max = fmax(s->dke_max, dke);
    s->at_rest += rest;
    s->kept++;
}

/* Stores sample pi (impulse) and v (velocities) as the next row of the cloud. */
static void cloud_add(ipx_routh_cloud *cloud, int rows, const double *pi, const double *v,
                      double dke)
{
    if (!cloud) return;
    size_t at = (size_t)cloud->count * (size_t)rows;
    if (cloud->v_post) memcpy(cloud->v_post + at, v, sizeof(double) * (size_t)rows);
    if (cloud->impulse) memcpy(cloud->impulse + at, pi, sizeof(double) * (size_t)rows);
    if (cloud->delta_ke) cloud->delta_ke[cloud->count] = dke;
    cloud->count++;
}

static void count_sample(ipx_routh_summary *s, const ipx_counts *counts)
{
    s->samples++;
    s->lcp_solves += counts->lcp_solves;
    s->pivots += counts->pivots;
    s->steps += counts->steps;
}

/* Files a sample that did not end: discarded, the first failure's reason kept. */
static void note_discarded(ipx_routh_summary *s, ipx_status st, const char *why)
{
    if (st == IPX_ERR_NOT_CONVERGED) {
        s->unterminated++;
        return;
    }
    if (s->failed++ == 0) {
        s->first_failure = st;
        snprintf(s->message, sizeof s->message, "%s", why);
    }
}

ipx_status ipx_routh_set(const ipx_problem *p, const double *param, ipx_rng *rng, int samples,
                         ipx_workspace *ws, ipx_routh_cloud *cloud, ipx_routh_summary *summary)
{
    if (!summary) return IPX_ERR_INPUT;
    summary_start(summary, p ? p->k : 0, ws);
    ipx_status st = ipx_routh_check_call(p, param, rng, ws, summary->message);
    if (st != IPX_OK) return st;
    if (!summary->vn_min) {
        snprintf(summary->message, sizeof summary->message,
                 "routh: workspace has %zu bytes, too small for k = %d", ipx_workspace_capacity(ws),
                 p->k);
        return IPX_ERR_WORKSPACE;
    }
    if (samples < 0 || (cloud && cloud->capacity < samples)) {
        snprintf(summary->message, sizeof summary->message,
                 "routh: %d samples requested, cloud holds %d", samples,
                 cloud ? cloud->capacity : 0);
        return IPX_ERR_INPUT;
    }
    if (cloud) cloud->count = 0;
    ipx_counts counts = {0};
    char why[IPX_MESSAGE_SIZE];
    double *pi =
        ipx_ws_keep_doubles(ws, (size_t)IPX_ROWS_PER_CONTACT * (size_t)p->k); /* a sample */
    if (!pi) {
        snprintf(summary->message, sizeof summary->message, "routh: workspace too small for k = %d",
                 p->k);
        return IPX_ERR_WORKSPACE;
    }
    ipx_routh_ctx c;
    st = ipx_routh_ctx_init(&c, p, param, rng, ws, &counts, summary->message);
    summary->lcp_solves = counts.lcp_solves; /* the automatic step's reference solve */
    summary->pivots = counts.pivots;
    if (st != IPX_OK) return st;
    c.message = why;
    const int rows = IPX_ROWS_PER_CONTACT * p->k;
    for (int j = 0; j < samples; j++) {
        memset(&counts, 0, sizeof counts);
        why[0] = '\0';
        st = ipx_routh_resolve(&c, pi, 0);
        count_sample(summary, &counts);
        if (st == IPX_ERR_NUMERIC && !c.lcp_failed) { /* energy gain: Thm 7 violated */
            snprintf(summary->message, sizeof summary->message, "%s", why);
            return st;
        }
        if (st != IPX_OK) {
            note_discarded(summary, st, why);
            continue;
        }
        double dke = 0.0; /* J: pi . v0 + pi . W pi / 2 with W pi = v - v0 */
        for (int i = 0; i < rows; i++) dke += pi[i] * (p->v[i] + 0.5 * (c.v[i] - p->v[i]));
        summary_add(summary, p->k, c.v, dke, c.tol_v_abs);
        cloud_add(cloud, rows, pi, c.v, dke);
    }
    return IPX_OK;
}
