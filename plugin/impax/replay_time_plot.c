/* impax replay --time-plot: per model, the mean position and orientation errors of the replays
   against time since each recording's first touch (replay_phases.h). */
#include <stdlib.h>

#include "plot.h"
#include "replay_phases.h"
#include "replay_report.h"

enum { MAX_LINES = 16 }; /* plot.c's legend */

/* A bin is drawn when at least this fraction of the recordings that touch have a sample in it:
   the tail of the few longest recordings would be one toss's noise. */
static const double MIN_SHARE = 0.1;

typedef struct time_lines {
    int n;
    double *t_s, *pos_pct, *ori_deg;
} time_lines;

static int fill(const replay_set *set, const replay_phases *p, int m, time_lines *l)
{
    const size_t n = (size_t)p->n_bins;
    l->t_s = malloc(n * sizeof *l->t_s);
    l->pos_pct = malloc(n * sizeof *l->pos_pct);
    l->ori_deg = malloc(n * sizeof *l->ori_deg);
    if (!l->t_s || !l->pos_pct || !l->ori_deg) return -1;
    const double length = set->rows[0].err.length_m;
    l->n = 0;
    for (int b = 0; b < p->n_bins; b++) {
        const size_t i = (size_t)m * n + (size_t)b;
        if (p->bin_samples[i] == 0 || p->bin_recs[i] < MIN_SHARE * p->touching) continue;
        l->t_s[l->n] = p->start_s + (b + 0.5) * p->bin_s;
        l->pos_pct[l->n] = 100.0 * p->bin_pos_m[i] / p->bin_samples[i] / length;
        l->ori_deg[l->n] = p->bin_ori_deg[i] / p->bin_samples[i];
        l->n++;
    }
    return 0;
}

int replay_write_time_plot(const char *path, const replay_set *set, const replay_phases *p)
{
    if (set->n_models > MAX_LINES) {
        fprintf(stderr, "impax replay: at most %d models in a plot\n", MAX_LINES);
        return -1;
    }
    time_lines l[MAX_LINES] = {{0}};
    cli_line pos[MAX_LINES], ori[MAX_LINES];
    int ok = 1;
    for (int m = 0; ok && m < set->n_models; m++) {
        ok = fill(set, p, m, &l[m]) == 0;
        pos[m] = (cli_line){set->models[m], l[m].n, l[m].t_s, l[m].pos_pct, NULL};
        ori[m] = (cli_line){set->models[m], l[m].n, l[m].t_s, l[m].ori_deg, NULL};
    }
    int rc = -1;
    if (!ok) fprintf(stderr, "impax replay: out of memory for the plot\n");
    else {
        char title_pos[300], title_ori[300], msg[256];
        snprintf(title_pos, sizeof title_pos,
                 "%d trajectories touching: mean position error (bins of %g s, each with >= %.0f%% "
                 "of them)",
                 p->touching, p->bin_s, 100 * MIN_SHARE);
        snprintf(title_ori, sizeof title_ori, "mean orientation error (angle of q_rec^-1 q_sim)");
        const cli_panel panels[2] = {
            {title_pos, "time since the first touch (s)", "error (% of the length)", set->n_models,
             pos},
            {title_ori, "time since the first touch (s)", "error (deg)", set->n_models, ori}};
        rc = cli_plot_panels(path, 2, panels, msg, sizeof msg);
        if (rc != 0) fprintf(stderr, "impax replay: %s\n", msg);
        else printf("time plot: %s\n", path);
    }
    for (int m = 0; m < set->n_models; m++) {
        free(l[m].t_s);
        free(l[m].pos_pct);
        free(l[m].ori_deg);
    }
    return rc;
}
