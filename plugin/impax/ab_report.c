#include "ab_report.h"

#include <math.h>
#include <string.h>

enum { LABEL_WIDTH = 30, COLUMN_WIDTH = 24 };

static void row_label(FILE *out, const char *label) { fprintf(out, "%-*s", LABEL_WIDTH, label); }

/* One row of a scalar per model, printed with fmt ("-" where the value is NaN). */
static void scalar_row(FILE *out, const char *label, int n, const cli_run *runs, const char *fmt,
                       double (*get)(const cli_run *))
{
    row_label(out, label);
    for (int m = 0; m < n; m++) {
        char cell[64];
        double v = get(&runs[m]);
        if (isnan(v)) snprintf(cell, sizeof cell, "-");
        else snprintf(cell, sizeof cell, fmt, v);
        fprintf(out, "%*s", COLUMN_WIDTH, cell);
    }
    fputc('\n', out);
}

static double first_t(const cli_run *r) { return r->first_impact_step >= 0 ? r->first_impact_t_s : NAN; }
static double ke_first(const cli_run *r) { return r->first_impact_step >= 0 ? r->ke_after_first_j : NAN; }
static double events(const cli_run *r) { return (double)r->stats.impact_events; }
static double fallbacks(const cli_run *r) { return (double)r->stats.fallbacks; }
static double energy_end(const cli_run *r) { return r->energy_end_j; }
static double ke_end(const cli_run *r) { return r->ke_end_j; }
static double height_end(const cli_run *r) { return r->final_height_m; }
static double penetration(const cli_run *r) { return r->max_penetration_m; }
static double wall(const cli_run *r) { return r->wall_s; }

/* Body b's linear (part 0) or angular (part 1) velocity after the first impact, per model. */
static void velocity_row(FILE *out, int b, int part, int n, const cli_run *runs)
{
    char label[128];
    snprintf(label, sizeof label, "  %.22s %s", runs[0].body_name[b], part ? "w (rad/s)" : "v (m/s)");
    row_label(out, label);
    for (int m = 0; m < n; m++) {
        char cell[64] = "-";
        if (runs[m].first_impact_step >= 0 && b < runs[m].n_bodies) {
            const double *v = runs[m].first_velocity + 6 * b + 3 * part;
            snprintf(cell, sizeof cell, "(%.3f, %.3f, %.3f)", v[0] + 0.0, v[1] + 0.0, v[2] + 0.0);
        }
        fprintf(out, "%*s", COLUMN_WIDTH, cell);
    }
    fputc('\n', out);
}

void ab_print_table(FILE *out, const char *path, const ipx_scene *scene, int n, const cli_run *runs)
{
    fprintf(out, "world %s ('%s'), %.3f s, step %g s, energy at the start %.6g J\n\n", path,
            ipx_scene_name(scene), runs[0].t_end_s, ipx_scene_step_size(scene), runs[0].energy_start_j);
    row_label(out, "model");
    for (int m = 0; m < n; m++) fprintf(out, "%*s", COLUMN_WIDTH, runs[m].model_used);
    fputc('\n', out);
    scalar_row(out, "first impact at (s)", n, runs, "%.4f", first_t);
    scalar_row(out, "KE after it (J)", n, runs, "%.6g", ke_first);
    fputs("velocities after it\n", out);
    for (int b = 0; b < runs[0].n_bodies; b++) {
        velocity_row(out, b, 0, n, runs);
        velocity_row(out, b, 1, n, runs);
    }
    scalar_row(out, "impact events", n, runs, "%.0f", events);
    scalar_row(out, "fallbacks to ODE", n, runs, "%.0f", fallbacks);
    scalar_row(out, "final energy (J)", n, runs, "%.6g", energy_end);
    scalar_row(out, "final KE (J)", n, runs, "%.4g", ke_end);
    char label[96];
    snprintf(label, sizeof label, "final height, %.14s (m)",
             ipx_scene_plot_body(scene) ? ipx_scene_plot_body(scene) : "-");
    scalar_row(out, label, n, runs, "%.4f", height_end);
    scalar_row(out, "deepest contact (m)", n, runs, "%.3g", penetration);
    scalar_row(out, "wall time (s)", n, runs, "%.3f", wall);
}

int ab_write_csv(const char *path, int n, const cli_run *runs)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "impax ab: cannot write '%s'\n", path);
        return -1;
    }
    static const char *const vcols[] = {"vx_m_s", "vy_m_s", "vz_m_s", "wx_rad_s", "wy_rad_s", "wz_rad_s"};
    fprintf(f, "model,first_impact_t_s,ke_after_first_J,impact_events,fallbacks,energy_start_J,"
               "energy_end_J,ke_end_J,final_height_m,max_penetration_m,wall_s");
    for (int b = 0; b < runs[0].n_bodies; b++)
        for (int c = 0; c < 6; c++) fprintf(f, ",%s.%s", runs[0].body_name[b], vcols[c]);
    fputc('\n', f);
    for (int m = 0; m < n; m++) {
        const cli_run *r = &runs[m];
        int hit = r->first_impact_step >= 0;
        fprintf(f, "%s,", r->model_used);
        if (hit) fprintf(f, "%.17g,%.17g", r->first_impact_t_s, r->ke_after_first_j);
        else fprintf(f, ",");
        fprintf(f, ",%ld,%ld,%.17g,%.17g,%.17g,%.17g,%.17g,%.6g", r->stats.impact_events, r->stats.fallbacks,
                r->energy_start_j, r->energy_end_j, r->ke_end_j, r->final_height_m, r->max_penetration_m,
                r->wall_s);
        for (int i = 0; i < 6 * r->n_bodies; i++) {
            if (hit) fprintf(f, ",%.17g", r->first_velocity[i]);
            else fputc(',', f);
        }
        fputc('\n', f);
    }
    if (fclose(f) != 0) {
        fprintf(stderr, "impax ab: error writing '%s'\n", path);
        return -1;
    }
    return 0;
}
