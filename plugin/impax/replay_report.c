/* impax replay's printed lines, summary table and CSV. */
#include "replay_report.h"

#include <string.h>

#include "text_table.h"

const char *replay_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

static double percent(double m, double length_m) { return 100.0 * m / length_m; }

/* The widest trajectory name, at least that of the heading. */
static int name_width(const replay_set *set)
{
    int w = (int)strlen("trajectory");
    for (int r = 0; r < set->n_recs; r++)
        if ((int)strlen(replay_name(set->recs[r].path)) > w)
            w = (int)strlen(replay_name(set->recs[r].path));
    return w;
}

/* The columns after the first, as replay_print_row and replay_print_summary fill them. */
static void print_heads(FILE *f)
{
    fprintf(f, " %-11s %-11s %7s %6s %9s %6s\n", "mean error", "final error", "orient.", "events",
            "fallbacks", "wall");
}

/* " 0.0538  51% 0.1116 107%   61.19      0         0  0.024": the errors (m and % of the
   length, deg), events, fallbacks, wall time (s) with wall_digits decimals. */
static void print_values(FILE *f, double pos_m, double final_m, double length_m, double ori_deg,
                         long events, long fallbacks, double wall_s, int wall_digits)
{
    fprintf(f, " %6.4f %3.0f%% %6.4f %3.0f%% %7.2f %6ld %9ld %6.*f", pos_m,
            percent(pos_m, length_m), final_m, percent(final_m, length_m), ori_deg, events,
            fallbacks, wall_digits, wall_s);
}

/* The units, once, above the first table. */
static void print_units(FILE *f, double length_m)
{
    fprintf(f, "position in m (%% of %g m), orientation in deg, wall time in s\n", length_m);
}

void replay_print_row(FILE *f, const replay_set *set, int m, int r)
{
    const replay_row *row = &set->rows[m * set->n_recs + r];
    const cli_recording *rec = &set->recs[r];
    const int w = name_width(set);
    if (r == 0) {
        if (m == 0) print_units(f, row->err.length_m);
        fprintf(f, "%s%s\n", m == 0 ? "" : "\n", set->models[m]);
        fprintf(f, "  %-*s  %7s", w, "trajectory", "samples");
        print_heads(f);
    }
    fprintf(f, "  %-*s  %7d", w, replay_name(rec->path), rec->n);
    if (row->failed) {
        fprintf(f, "  failed (see above)\n");
        return;
    }
    const cli_replay_error *e = &row->err;
    print_values(f, e->mean_pos_m, e->final_pos_m, e->length_m, e->mean_ori_deg, e->impact_events,
                 e->fallbacks, row->wall_s, 3);
    fputc('\n', f);
}

typedef struct model_total {
    int replayed, failed;
    double mean_pos_m, final_pos_m, mean_ori_deg, wall_s; /* means over the replayed; wall summed */
    long events, fallbacks;
} model_total;

static model_total total_of(const replay_set *set, int m)
{
    model_total t = {0};
    for (int r = 0; r < set->n_recs; r++) {
        const replay_row *row = &set->rows[m * set->n_recs + r];
        t.wall_s += row->wall_s;
        if (row->failed) {
            t.failed++;
            continue;
        }
        t.replayed++;
        t.mean_pos_m += row->err.mean_pos_m;
        t.final_pos_m += row->err.final_pos_m;
        t.mean_ori_deg += row->err.mean_ori_deg;
        t.events += row->err.impact_events;
        t.fallbacks += row->err.fallbacks;
    }
    if (t.replayed) {
        t.mean_pos_m /= t.replayed;
        t.final_pos_m /= t.replayed;
        t.mean_ori_deg /= t.replayed;
    }
    return t;
}

void replay_print_summary(FILE *f, const replay_set *set)
{
    const double length = set->n_recs ? set->rows[0].err.length_m : 1.0;
    char text[1024];
    fputc('\n', f);
    snprintf(text, sizeof text, "replay of %d trajector%s in %s (body %s)", set->n_recs,
             set->n_recs == 1 ? "y" : "ies", set->world, set->body);
    cli_print_wrapped(f, 0, text, "  ", REPLAY_WIDTH);
    cli_print_wrapped(f, 0,
                      "per model: mean position error, final position error, mean orientation "
                      "error over the trajectories; sums of events, fallbacks and wall time",
                      "  ", REPLAY_WIDTH);
    print_units(f, length);
    int width = 8; /* the longest entry, settings included */
    for (int m = 0; m < set->n_models; m++)
        if ((int)strlen(set->models[m]) > width) width = (int)strlen(set->models[m]);
    fprintf(f, "%-*s", width, "model");
    print_heads(f);
    for (int m = 0; m < set->n_models; m++) {
        const model_total t = total_of(set, m);
        fprintf(f, "%-*s", width, set->models[m]);
        print_values(f, t.mean_pos_m, t.final_pos_m, length, t.mean_ori_deg, t.events, t.fallbacks,
                     t.wall_s, 2);
        if (t.failed) fprintf(f, "  (%d failed, not in the means)", t.failed);
        fputc('\n', f);
    }
}

int replay_write_csv(const char *path, const replay_set *set)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "impax replay: cannot write '%s'\n", path);
        return -1;
    }
    fprintf(
        f,
        "model,trajectory,samples,mean_pos_m,mean_pos_frac,final_pos_m,final_pos_frac,mean_ori_deg,"
        "impact_events,fallbacks,wall_s,failed\n");
    for (int m = 0; m < set->n_models; m++)
        for (int r = 0; r < set->n_recs; r++) {
            const replay_row *row = &set->rows[m * set->n_recs + r];
            const cli_replay_error *e = &row->err;
            fprintf(f, "%s,%s,%d,%.17g,%.17g,%.17g,%.17g,%.17g,%ld,%ld,%.6f,%d\n", set->models[m],
                    replay_name(set->recs[r].path), set->recs[r].n, e->mean_pos_m,
                    e->mean_pos_m / e->length_m, e->final_pos_m, e->final_pos_m / e->length_m,
                    e->mean_ori_deg, e->impact_events, e->fallbacks, row->wall_s, row->failed);
        }
    if (fclose(f) != 0) {
        fprintf(stderr, "impax replay: error writing '%s'\n", path);
        return -1;
    }
    printf("csv: %s\n", path);
    return 0;
}
