/* impax replay --phases: the recordings' phases, the errors summed per phase and per bin of
   time since the first touch, and the table (replay_phases.h). */
#include "replay_phases.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "replay_report.h"
#include "text_table.h"

static const double BIN_S = 0.01; /* the figure's resolution: about 1.5 samples at 148 Hz */

/* The bins' span: from the earliest time before a first touch to the latest after one. */
static int size_bins(replay_phases *p, const cli_recording *recs)
{
    double lo = 0.0, hi = 0.0;
    for (int r = 0; r < p->n_recs; r++) {
        if (p->first_touch[r] < 0) continue;
        const double t1 = recs[r].samples[p->first_touch[r]].t_s;
        lo = fmin(lo, recs[r].samples[0].t_s - t1);
        hi = fmax(hi, recs[r].samples[recs[r].n - 1].t_s - t1);
    }
    p->bin_s = BIN_S;
    p->start_s = floor(lo / BIN_S) * BIN_S;
    p->n_bins = (int)ceil((hi - p->start_s) / BIN_S) + 1;
    const size_t n = (size_t)p->n_models * (size_t)p->n_bins;
    p->bin_pos_m = calloc(n, sizeof *p->bin_pos_m);
    p->bin_ori_deg = calloc(n, sizeof *p->bin_ori_deg);
    p->bin_samples = calloc(n, sizeof *p->bin_samples);
    p->bin_recs = calloc(n, sizeof *p->bin_recs);
    return p->bin_pos_m && p->bin_ori_deg && p->bin_samples && p->bin_recs ? 0 : -1;
}

int replay_phases_start(replay_phases *p, const ipx_scene *scene, const cli_recording *recs,
                        int n_recs, int n_models)
{
    memset(p, 0, sizeof *p);
    char msg[512];
    if (cli_phase_box_of_scene(scene, &p->box, msg, sizeof msg) != 0) {
        fprintf(stderr, "impax replay: %s\n", msg);
        return -1;
    }
    p->limits = cli_phase_default_limits();
    p->n_recs = n_recs;
    p->n_models = n_models;
    p->of_rec = calloc((size_t)n_recs, sizeof *p->of_rec);
    p->first_touch = calloc((size_t)n_recs, sizeof *p->first_touch);
    p->err = calloc((size_t)n_models * CLI_PHASE_COUNT, sizeof *p->err);
    int longest = 0, ok = p->of_rec && p->first_touch && p->err;
    for (int r = 0; ok && r < n_recs; r++) {
        ok = (p->of_rec[r] = malloc((size_t)recs[r].n)) != NULL;
        if (!ok) break;
        p->first_touch[r] = cli_phases_classify(&recs[r], &p->box, &p->limits, p->of_rec[r]);
        p->touching += p->first_touch[r] >= 0;
        if (recs[r].n > longest) longest = recs[r].n;
    }
    ok = ok && (p->scratch = calloc((size_t)longest, sizeof *p->scratch)) != NULL &&
         size_bins(p, recs) == 0;
    if (!ok) fprintf(stderr, "impax replay: out of memory for --phases\n");
    return ok ? 0 : -1;
}

void replay_phases_free(replay_phases *p)
{
    for (int r = 0; p->of_rec && r < p->n_recs; r++) free(p->of_rec[r]);
    free(p->of_rec);
    free(p->first_touch);
    free(p->err);
    free(p->bin_pos_m);
    free(p->bin_ori_deg);
    free(p->bin_samples);
    free(p->bin_recs);
    free(p->scratch);
}

void replay_phases_add(replay_phases *p, const cli_recording *rec, int m, int r,
                       const cli_sample *sim, int compared)
{
    cli_phase_errors_add(rec, p->of_rec[r], sim, compared, &p->err[m * CLI_PHASE_COUNT]);
    if (p->first_touch[r] < 0) return;
    const double t1 = rec->samples[p->first_touch[r]].t_s;
    int last_bin = -1;
    for (int k = 1; k <= compared && k < rec->n; k++) {
        const cli_sample *a = &sim[k], *b = &rec->samples[k];
        const int bin = (int)floor((b->t_s - t1 - p->start_s) / p->bin_s);
        if (bin < 0 || bin >= p->n_bins) continue;
        const size_t i = (size_t)m * (size_t)p->n_bins + (size_t)bin;
        double d2 = 0.0;
        for (int c = 0; c < 3; c++) d2 += (a->x_m[c] - b->x_m[c]) * (a->x_m[c] - b->x_m[c]);
        p->bin_pos_m[i] += sqrt(d2);
        p->bin_ori_deg[i] += cli_orientation_error_deg(b->q, a->q);
        p->bin_samples[i]++;
        p->bin_recs[i] += bin != last_bin;
        last_bin = bin;
    }
}

static void print_limits(FILE *f, const replay_phases *p)
{
    char text[1024];
    snprintf(text, sizeof text,
             "phases of each recording, from its own poses and velocities (docs/command.md): "
             "contact when the lowest vertex is within %g mm of the plane; the first touch and "
             "later touches (a vertex in contact approaching faster than %.3g m/s) open impact "
             "windows of +-%g s; rest when every vertex is slower than %g m/s; %d of %d "
             "recordings touch. Errors are means over the phase's samples; growth is the "
             "phase's part of the mean final error (the sum over the phases)",
             1e3 * p->limits.contact_tol_m, p->limits.impact_speed_mps, p->limits.window_s,
             p->limits.rest_speed_mps, p->touching, p->n_recs);
    cli_print_wrapped(f, 0, text, "  ", REPLAY_WIDTH);
}

static void print_phase(FILE *f, const char *name, const cli_phase_error *e, long all,
                        double length_m, int n_recs)
{
    const double pos = e->samples ? e->sum_pos_m / e->samples : 0.0;
    const double ori = e->samples ? e->sum_ori_deg / e->samples : 0.0;
    const double growth = n_recs ? e->growth_m / n_recs : 0.0;
    fprintf(f, "  %-16s %7ld %4.0f%% %7.4f %4.1f%% %7.2f %8.4f %5.1f%%\n", name, e->samples,
            all ? 100.0 * e->samples / all : 0.0, pos, 100.0 * pos / length_m, ori, growth,
            100.0 * growth / length_m);
}

void replay_phases_print(FILE *f, const replay_set *set, const replay_phases *p)
{
    const double length = set->n_recs ? set->rows[0].err.length_m : 1.0;
    fputc('\n', f);
    print_limits(f, p);
    for (int m = 0; m < set->n_models; m++) {
        const cli_phase_error *e = &p->err[m * CLI_PHASE_COUNT];
        cli_phase_error all = {0};
        int replayed = 0;
        for (int r = 0; r < set->n_recs; r++) replayed += !set->rows[m * set->n_recs + r].failed;
        for (int ph = 0; ph < CLI_PHASE_COUNT; ph++) {
            all.samples += e[ph].samples;
            all.sum_pos_m += e[ph].sum_pos_m;
            all.sum_ori_deg += e[ph].sum_ori_deg;
            all.growth_m += e[ph].growth_m;
        }
        fprintf(f, "%s\n  %-16s %7s %5s %-13s %7s %s\n", set->models[m], "phase", "samples",
                "share", "mean error", "orient.", "growth");
        for (int ph = 0; ph < CLI_PHASE_COUNT; ph++)
            print_phase(f, cli_phase_name((cli_phase)ph), &e[ph], all.samples, length, replayed);
        print_phase(f, "all", &all, all.samples, length, replayed);
    }
}
