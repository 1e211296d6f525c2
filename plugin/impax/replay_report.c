/* impax replay's printed lines, summary table and CSV. */
#include "replay_report.h"

#include <string.h>

const char *replay_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

static double percent(double m, double length_m) { return 100.0 * m / length_m; }

void replay_print_row(FILE *f, const char *model, const cli_recording *rec, const replay_row *row)
{
    const cli_replay_error *e = &row->err;
    if (row->failed) {
        fprintf(f, "%-8s %-16s failed (see above)\n", model, replay_name(rec->path));
        return;
    }
    fprintf(
        f,
        "%-8s %-16s %4d samples  pos %.4f m (%5.1f %%)  final %.4f m (%5.1f %%)  ori %6.2f deg  "
        "events %3ld  fallbacks %ld  %.3f s\n",
        model, replay_name(rec->path), rec->n, e->mean_pos_m, percent(e->mean_pos_m, e->length_m),
        e->final_pos_m, percent(e->final_pos_m, e->length_m), e->mean_ori_deg, e->impact_events,
        e->fallbacks, row->wall_s);
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
    fprintf(
        f,
        "\nreplay of %d trajector%s in %s (body %s, length %g m); means over the trajectories:\n",
        set->n_recs, set->n_recs == 1 ? "y" : "ies", set->world, set->body, length);
    int width = 8; /* the longest entry, settings included */
    for (int m = 0; m < set->n_models; m++)
        if ((int)strlen(set->models[m]) > width) width = (int)strlen(set->models[m]);
    fprintf(f, "%-*s %-22s %-22s %-14s %-8s %-10s %s\n", width, "model", "mean position error",
            "final position error", "mean orient.", "impacts", "fallbacks", "wall time");
    for (int m = 0; m < set->n_models; m++) {
        const model_total t = total_of(set, m);
        char pos[32], fin[32];
        snprintf(pos, sizeof pos, "%.4f m (%.1f %%)", t.mean_pos_m, percent(t.mean_pos_m, length));
        snprintf(fin, sizeof fin, "%.4f m (%.1f %%)", t.final_pos_m,
                 percent(t.final_pos_m, length));
        fprintf(f, "%-*s %-22s %-22s %8.2f deg   %-8ld %-10ld %.2f s", width, set->models[m], pos,
                fin, t.mean_ori_deg, t.events, t.fallbacks, t.wall_s);
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
