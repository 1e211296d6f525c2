#include "ab_report.h"

#include <math.h>
#include <string.h>

#include "numfmt.h"
#include "text_table.h"

enum { MAX_COLS = 64, CELL = 40 };

typedef double (*run_value)(const cli_run *r); /* NaN: not applicable ("-") */

static double first_t(const cli_run *r)
{
    return r->first_impact_step >= 0 ? r->first_impact_t_s : NAN;
}
static double ke_first(const cli_run *r)
{
    return r->first_impact_step >= 0 ? r->ke_after_first_j : NAN;
}
static double collisions(const cli_run *r) { return (double)r->collisions; }
static int is_ode(const cli_run *r) { return strcmp(r->model_used, "ode") == 0; }
static double impulse_events(const cli_run *r)
{
    return is_ode(r) || r->compliant ? NAN : (double)r->stats.impact_events;
}
static double force_steps(const cli_run *r)
{
    return r->compliant ? (double)r->stats.impact_events : NAN;
}
static double fallbacks(const cli_run *r) { return is_ode(r) ? NAN : (double)r->stats.fallbacks; }
static double energy_end(const cli_run *r) { return r->energy_end_j; }
static double ke_end(const cli_run *r) { return r->ke_end_j; }
static double height_end(const cli_run *r) { return r->final_height_m; }
static double penetration(const cli_run *r) { return r->max_penetration_m; }
static double wall(const cli_run *r) { return r->wall_s; }

static void scalar_row(cli_table *t, const char *label, int n, const cli_run *runs, const char *fmt,
                       run_value get)
{
    char text[MAX_COLS][CELL];
    const char *cells[MAX_COLS];
    for (int m = 0; m < n; m++) cells[m] = cli_num(text[m], CELL, fmt, get(&runs[m]));
    cli_table_row(t, label, cells);
}

/* Row q (0-2 linear, 3-5 angular) of body b after the first impact; 0 if every model prints it
   as zero (the row is left out), 1 if added. A model whose first impact fell back to ODE's own
   solver gets a '*'. */
static int velocity_row(cli_table *t, int b, int q, int n, const cli_run *runs)
{
    static const char *const labels[6] = {"  v_x (m/s)",   "  v_y (m/s)",   "  v_z (m/s)",
                                          "  w_x (rad/s)", "  w_y (rad/s)", "  w_z (rad/s)"};
    char text[MAX_COLS][CELL];
    const char *cells[MAX_COLS];
    int nonzero = 0;
    for (int m = 0; m < n; m++) {
        const cli_run *r = &runs[m];
        if (r->first_impact_step < 0 || b >= r->n_bodies) {
            cells[m] = NULL;
            continue;
        }
        cli_num(text[m], CELL - 1, "%.3f", r->first_velocity[6 * b + q]);
        nonzero |= strcmp(text[m], "0.000") != 0;
        if (r->first_impact_fell_back) strcat(text[m], "*");
        cells[m] = text[m];
    }
    if (nonzero) cli_table_row(t, labels[q], cells);
    return nonzero;
}

/* The velocities of every body; returns how many rows were left out. */
static int velocity_rows(cli_table *t, int n, const cli_run *runs)
{
    int left_out = 0;
    for (int b = 0; b < runs[0].n_bodies; b++) {
        cli_table_section(t, runs[0].body_name[b]);
        for (int q = 0; q < 6; q++) left_out += !velocity_row(t, b, q, n, runs);
    }
    return left_out;
}

static int any(int n, const cli_run *runs, int (*pred)(const cli_run *))
{
    for (int m = 0; m < n; m++)
        if (pred(&runs[m])) return 1;
    return 0;
}
static int compliant(const cli_run *r) { return r->compliant; }
static int fell_back_first(const cli_run *r) { return r->first_impact_fell_back; }

static void note(FILE *out, const char *text)
{
    cli_print_wrapped(out, 0, text, "  ", AB_TABLE_WIDTH);
}

static void print_notes(FILE *out, int n, const char *const *labels, const cli_run *runs,
                        int left_out)
{
    char text[1024];
    note(
        out,
        "collisions: steps in which a contact starts approaching faster than the impact threshold "
        "(the same test for every model); impax events: impacts impax solved (-: ODE's own contact "
        "handling)");
    if (any(n, runs, compliant))
        note(
            out,
            "contact-force steps: gonthier's contacts are forces, so its events are the steps with "
            "contact forces");
    if (left_out)
        note(out,
             "velocity rows that read 0.000 for every model are left out (--out has every value)");
    if (any(n, runs, fell_back_first))
        note(out,
             "*: the first impact's step fell back to ODE's own solver: these are ODE's numbers");
    for (int m = 0; m < n; m++) {
        const cli_run *r = &runs[m];
        if (r->stats.fallbacks && !is_ode(r)) {
            snprintf(text, sizeof text, "%s: %ld fallback(s) to ODE's own solver; the last: %s",
                     labels[m], r->stats.fallbacks, r->stats.last_message);
            note(out, text);
        }
        if (r->ignored_restitution > 0) {
            cli_inelastic_note(text, sizeof text, labels[m], r);
            note(out, text);
        }
    }
}

static void print_header(FILE *out, const char *path, const ipx_scene *scene, const cli_run *runs)
{
    char text[2048];
    snprintf(text, sizeof text,
             "world %s ('%s'): %.3f s in steps of %g s, energy at the start %.6g J", path,
             ipx_scene_name(scene), runs[0].t_end_s, ipx_scene_step_size(scene),
             runs[0].energy_start_j);
    note(out, text);
    const char *body = ipx_scene_plot_body(scene);
    snprintf(text, sizeof text, "velocities right after the step of the first impact%s%s",
             body ? "; final height: " : "", body ? body : "");
    note(out, text);
    fputc('\n', out);
}

void ab_print_table(FILE *out, const char *path, const ipx_scene *scene, int n,
                    const char *const *labels, const cli_run *runs)
{
    if (n > MAX_COLS) n = MAX_COLS;
    print_header(out, path, scene, runs);
    cli_table *t = cli_table_create(n, labels);
    if (!t) {
        fprintf(out, "(out of memory for the table)\n");
        return;
    }
    scalar_row(t, "first impact at (s)", n, runs, "%.4f", first_t);
    scalar_row(t, "KE after it (J)", n, runs, "%.6g", ke_first);
    const int left_out = velocity_rows(t, n, runs);
    cli_table_section(t, "");
    scalar_row(t, "collisions", n, runs, "%.0f", collisions);
    scalar_row(t, "impax events", n, runs, "%.0f", impulse_events);
    if (any(n, runs, compliant)) scalar_row(t, "contact-force steps", n, runs, "%.0f", force_steps);
    scalar_row(t, "fallbacks to ODE", n, runs, "%.0f", fallbacks);
    scalar_row(t, "final energy (J)", n, runs, "%.6g", energy_end);
    scalar_row(t, "final KE (J)", n, runs, "%.4g", ke_end);
    if (ipx_scene_plot_body(scene)) scalar_row(t, "final height (m)", n, runs, "%.4f", height_end);
    scalar_row(t, "deepest contact (m)", n, runs, "%.3g", penetration);
    scalar_row(t, "wall time (s)", n, runs, "%.3f", wall);
    cli_table_print(out, t, AB_TABLE_WIDTH);
    cli_table_free(t);
    fputc('\n', out);
    print_notes(out, n, labels, runs, left_out);
}

int ab_write_csv(const char *path, int n, const char *const *labels, const cli_run *runs)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "impax ab: cannot write '%s'\n", path);
        return -1;
    }
    static const char *const vcols[] = {"vx_m_s",   "vy_m_s",   "vz_m_s",
                                        "wx_rad_s", "wy_rad_s", "wz_rad_s"};
    fprintf(
        f,
        "model,first_impact_t_s,ke_after_first_J,impact_events,collisions,fallbacks,energy_start_J,"
        "energy_end_J,ke_end_J,final_height_m,max_penetration_m,wall_s");
    for (int b = 0; b < runs[0].n_bodies; b++)
        for (int c = 0; c < 6; c++) fprintf(f, ",%s.%s", runs[0].body_name[b], vcols[c]);
    fputc('\n', f);
    for (int m = 0; m < n; m++) {
        const cli_run *r = &runs[m];
        int hit = r->first_impact_step >= 0;
        fprintf(f, "%s,", labels[m]);
        if (hit) fprintf(f, "%.17g,%.17g", r->first_impact_t_s, r->ke_after_first_j);
        else fprintf(f, ",");
        fprintf(f, ",%ld,%ld,%ld,%.17g,%.17g,%.17g,%.17g,%.17g,%.6g", r->stats.impact_events,
                r->collisions, r->stats.fallbacks, r->energy_start_j, r->energy_end_j, r->ke_end_j,
                r->final_height_m, r->max_penetration_m, r->wall_s);
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
