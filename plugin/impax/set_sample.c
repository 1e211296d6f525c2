#include "set_sample.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "progress.h"

enum { CHUNKS = 100 }; /* progress granularity: each chunk repeats only the reference AP solve */

static void total_start(ipx_routh_summary *t, int k, double *ranges)
{
    memset(t, 0, sizeof *t);
    t->first_failure = IPX_OK;
    t->dke_min = HUGE_VAL;
    t->dke_max = -HUGE_VAL;
    t->vn_min = ranges;
    t->vn_max = ranges + k;
    t->vt_min = ranges + 2 * (size_t)k;
    t->vt_max = ranges + 3 * (size_t)k;
    for (int i = 0; i < k; i++) {
        t->vn_min[i] = t->vt_min[i] = HUGE_VAL;
        t->vn_max[i] = t->vt_max[i] = -HUGE_VAL;
    }
}

/* Adds chunk c to t. ref_solves, ref_pivots: what one call costs before its first sample (the
   AP reference solve of the automatic step), counted once in the total. */
static void total_add(ipx_routh_summary *t, const ipx_routh_summary *c, int k, long long ref_solves,
                      long long ref_pivots)
{
    t->samples += c->samples;
    t->kept += c->kept;
    t->unterminated += c->unterminated;
    t->at_rest += c->at_rest;
    if (c->failed && !t->failed) {
        t->first_failure = c->first_failure;
        snprintf(t->message, sizeof t->message, "%s", c->message);
    }
    t->failed += c->failed;
    for (int i = 0; c->kept && i < k; i++) {
        t->vn_min[i] = fmin(t->vn_min[i], c->vn_min[i]);
        t->vn_max[i] = fmax(t->vn_max[i], c->vn_max[i]);
        t->vt_min[i] = fmin(t->vt_min[i], c->vt_min[i]);
        t->vt_max[i] = fmax(t->vt_max[i], c->vt_max[i]);
    }
    t->dke_min = fmin(t->dke_min, c->dke_min);
    t->dke_max = fmax(t->dke_max, c->dke_max);
    t->lcp_solves += c->lcp_solves - ref_solves;
    t->pivots += c->pivots - ref_pivots;
    t->steps += c->steps;
}

ipx_status cli_set_sample(const ipx_problem *p, const ipx_params *params, ipx_rng *rng, int samples,
                          ipx_workspace *ws, ipx_routh_cloud *cloud, ipx_routh_summary *total,
                          double *ranges)
{
    total_start(total, p->k, ranges);
    ipx_routh_summary chunk;
    /* no sample: the generator is not drawn from, only the reference solve is made */
    ipx_status st = ipx_routh_set(p, params->value, rng, 0, ws, NULL, &chunk);
    if (st != IPX_OK) {
        snprintf(total->message, sizeof total->message, "%s", chunk.message);
        return st;
    }
    const long long ref_solves = chunk.lcp_solves, ref_pivots = chunk.pivots;
    total->lcp_solves = ref_solves;
    total->pivots = ref_pivots;
    const size_t rows = IPX_ROWS_PER_CONTACT * (size_t)p->k;
    const int per_chunk = samples / CHUNKS + (samples % CHUNKS != 0);
    cli_progress bar;
    cli_progress_start(&bar, "routh", samples);
    bar.unit = "samples";
    cloud->count = 0;
    for (int done = 0; done < samples; done += per_chunk) {
        const int n = samples - done < per_chunk ? samples - done : per_chunk;
        const size_t at = (size_t)cloud->count;
        ipx_routh_cloud part = {n, cloud->v_post ? cloud->v_post + at * rows : NULL,
                                cloud->impulse ? cloud->impulse + at * rows : NULL,
                                cloud->delta_ke ? cloud->delta_ke + at : NULL, 0};
        st = ipx_routh_set(p, params->value, rng, n, ws, &part, &chunk);
        if (st != IPX_OK) {
            snprintf(total->message, sizeof total->message, "%s", chunk.message);
            break;
        }
        total_add(total, &chunk, p->k, ref_solves, ref_pivots);
        cloud->count += part.count;
        cli_progress_update(&bar, done + n);
    }
    cli_progress_finish(&bar);
    return st;
}
