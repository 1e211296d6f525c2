/* impax replay's PNG: the shown trajectory (recorded and simulated height, orientation error)
   and, over every trajectory, the distribution of the mean position error, one line per model. */
#include <stdlib.h>

#include "plot.h"
#include "replay_report.h"

enum { MAX_LINES = 17 }; /* plot.c's legend holds 16 entries; models are capped by the command */

typedef struct plot_data { /* per model: x and y of the three panels */
    int n_shown, n_err;    /* samples of the shown trajectory simulated; trajectories replayed */
    double *t_s, *z_m, *ori_deg, *err_pct, *cdf;
} plot_data;

static int compare_doubles(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The shown trajectory's curves (up to where a failed simulation stopped) and the sorted mean
   errors and their cumulative fractions of model m. */
static int fill(const replay_set *set, int m, plot_data *d)
{
    const cli_recording *rec = &set->recs[set->show];
    const cli_sample *sim = set->shown[m];
    const size_t n = (size_t)rec->n, k = (size_t)set->n_recs;
    d->t_s = malloc(n * sizeof *d->t_s);
    d->z_m = malloc(n * sizeof *d->z_m);
    d->ori_deg = malloc(n * sizeof *d->ori_deg);
    d->err_pct = malloc(k * sizeof *d->err_pct);
    d->cdf = malloc(k * sizeof *d->cdf);
    if (!d->t_s || !d->z_m || !d->ori_deg || !d->err_pct || !d->cdf) return -1;
    d->n_shown = set->rows[m * set->n_recs + set->show].err.samples + 1;
    for (int i = 0; i < d->n_shown; i++) {
        d->t_s[i] = rec->samples[i].t_s;
        d->z_m[i] = sim[i].x_m[2];
        d->ori_deg[i] = cli_orientation_error_deg(rec->samples[i].q, sim[i].q);
    }
    d->n_err = 0;
    for (int r = 0; r < set->n_recs; r++) {
        const replay_row *row = &set->rows[m * set->n_recs + r];
        if (!row->failed) d->err_pct[d->n_err++] = 100.0 * row->err.mean_pos_m / row->err.length_m;
    }
    qsort(d->err_pct, (size_t)d->n_err, sizeof *d->err_pct, compare_doubles);
    for (int i = 0; i < d->n_err; i++) d->cdf[i] = (i + 1.0) / d->n_err;
    return 0;
}

static void release(plot_data *d)
{
    free(d->t_s);
    free(d->z_m);
    free(d->ori_deg);
    free(d->err_pct);
    free(d->cdf);
}

static int draw(const char *path, const replay_set *set, const plot_data *d, double *t_rec,
                double *z_rec)
{
    const cli_recording *rec = &set->recs[set->show];
    cli_line height[MAX_LINES], ori[MAX_LINES], dist[MAX_LINES];
    for (int m = 0; m < set->n_models; m++) {
        height[m] = (cli_line){set->models[m], d[m].n_shown, d[m].t_s, d[m].z_m, NULL};
        ori[m] = (cli_line){set->models[m], d[m].n_shown, d[m].t_s, d[m].ori_deg, NULL};
        dist[m] = (cli_line){set->models[m], d[m].n_err, d[m].err_pct, d[m].cdf, NULL};
    }
    for (int i = 0; i < rec->n; i++) {
        t_rec[i] = rec->samples[i].t_s;
        z_rec[i] = rec->samples[i].x_m[2];
    }
    height[set->n_models] = (cli_line){"recorded", rec->n, t_rec, z_rec, NULL};
    char title_z[300], title_ori[300], title_dist[300];
    snprintf(title_z, sizeof title_z, "%s: height of %s", replay_name(rec->path), set->body);
    snprintf(title_ori, sizeof title_ori, "%s: orientation error (angle of q_rec^-1 q_sim)",
             replay_name(rec->path));
    snprintf(title_dist, sizeof title_dist,
             "%d trajectories: distribution of the mean position error", set->n_recs);
    const cli_panel panels[3] = {{title_z, "t (s)", "z (m)", set->n_models + 1, height},
                                 {title_ori, "t (s)", "error (deg)", set->n_models, ori},
                                 {title_dist, "mean position error (% of the length)",
                                  "fraction of trajectories", set->n_models, dist}};
    char msg[256];
    if (cli_plot_panels(path, 3, panels, msg, sizeof msg) != 0) {
        fprintf(stderr, "impax replay: %s\n", msg);
        return -1;
    }
    printf("plot: %s\n", path);
    return 0;
}

int replay_write_plot(const char *path, const replay_set *set)
{
    if (set->n_models >= MAX_LINES) {
        fprintf(stderr, "impax replay: at most %d models in a plot\n", MAX_LINES - 1);
        return -1;
    }
    plot_data d[MAX_LINES] = {{0}};
    const size_t n = (size_t)set->recs[set->show].n;
    double *t_rec = malloc(n * sizeof *t_rec), *z_rec = malloc(n * sizeof *z_rec);
    int ok = t_rec && z_rec;
    for (int m = 0; ok && m < set->n_models; m++) ok = fill(set, m, &d[m]) == 0;
    int rc = ok ? draw(path, set, d, t_rec, z_rec) : -1;
    if (!ok) fprintf(stderr, "impax replay: out of memory for the plot\n");
    for (int m = 0; m < set->n_models; m++) release(&d[m]);
    free(t_rec);
    free(z_rec);
    return rc;
}
