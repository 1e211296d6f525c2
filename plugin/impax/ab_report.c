/* `impax ab`'s table, its notes and its CSV (ab_report.h). */
#include "ab_report.h"

#include <math.h>
#include <string.h>

#include "ab_rows.h"
#include "numfmt.h"
#include "text_table.h"

typedef double (*run_value)(const cli_run *r); /* NaN: not applicable ("-") */

static double first_t(const cli_run *r)
{
    return r->first_impact_step >= 0 ? r->first_impact_t_s : NAN;
}
static double ke_first(const cli_run *r)
{
    return r->first_impact_step >= 0 ? r->ke_after_first_j : NAN;
}
static double compared_t(const cli_run *r)
{
    return r->first_impact_step >= 0 ? r->compared_t_s : NAN;
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
static double limits_hit(const cli_run *r)
{
    return is_ode(r) ? NAN : (double)r->stats.limits_hit_events;
}
static double energy_end(const cli_run *r) { return r->energy_end_j; }
static double ke_end(const cli_run *r) { return r->ke_end_j; }
static double height_end(const cli_run *r) { return r->final_height_m; }
static double penetration_mm(const cli_run *r) { return 1e3 * r->max_penetration_m; }
static double wall(const cli_run *r) { return r->wall_s; }

static void scalar_row(cli_table *t, const char *label, int n, const cli_run *runs, const char *fmt,
                       run_value get)
{
    char text[AB_MAX_COLS][AB_CELL];
    const char *cells[AB_MAX_COLS];
    for (int m = 0; m < n; m++) cells[m] = cli_num(text[m], AB_CELL, fmt, get(&runs[m]));
    cli_table_row(t, label, cells);
}

/* When each model's velocities are taken; '~' after a compliant model's that are mid-contact. */
static void compared_row(cli_table *t, int n, const cli_run *runs)
{
    char text[AB_MAX_COLS][AB_CELL];
    const char *cells[AB_MAX_COLS];
    for (int m = 0; m < n; m++) {
        cells[m] = cli_num(text[m], AB_CELL - 1, "%.4f", compared_t(&runs[m]));
        if (runs[m].mid_contact) strcat(text[m], "~");
    }
    cli_table_row(t, "compared at (s)", cells);
}

static int any(int n, const cli_run *runs, int (*pred)(const cli_run *))
{
    for (int m = 0; m < n; m++)
        if (pred(&runs[m])) return 1;
    return 0;
}
static int compliant(const cli_run *r) { return r->compliant; }
static int fell_back_first(const cli_run *r) { return r->first_impact_fell_back; }
static int mid_contact(const cli_run *r) { return r->mid_contact; }
static int contact_ended(const cli_run *r) { return r->compliant && !r->mid_contact; }
static int flagged(const cli_run *r) { return r->stats.limits_hit_events > 0; }

static void note(FILE *out, const char *text)
{
    cli_print_wrapped(out, 0, text, "  ", AB_TABLE_WIDTH);
}

static void velocity_notes(FILE *out, int n, const cli_run *runs, const ab_rows_left *left)
{
    if (left->rows || left->equal_bodies || left->more_bodies)
        note(out, "velocities equal across models (to the digits shown) are left out, the bodies "
                  "that differ most come first; --all-rows shows every row, --out has every value");
    if (any(n, runs, contact_ended))
        note(out, "compared at: impulsive models right after the first impact's step; a "
                  "compliant model's impact lasts steps, so its velocities and KE are taken when "
                  "that contact ends (the first step after it without contact force)");
    if (any(n, runs, mid_contact))
        note(out, "~: the contacts never came apart after the first impact: the velocities and KE "
                  "are mid-contact, at the first impact's step, not comparable with an impulse");
}

static void print_notes(FILE *out, int n, const char *const *labels, const cli_run *runs,
                        const ab_rows_left *left)
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
    if (any(n, runs, flagged))
        note(out, "limits_hit set: impax events a model answered after reaching one of its limits "
                  "or through a fallback of its own (the bits: docs/core-api.md; PLUS's cost "
                  "bound, aplcp's dense solve after the iterative one); impax run --trace gives "
                  "them per event");
    velocity_notes(out, n, runs, left);
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
        if (r->stats.ignored_restitution > 0) {
            cli_inelastic_note(text, sizeof text, labels[m], r);
            note(out, text);
        }
    }
}

static void print_header(FILE *out, const char *path, const ipx_scene *scene, const cli_run *runs)
{
    char text[2048];
    snprintf(text, sizeof text,
             "world %s ('%s'): %.3f s in steps of %g s, energy at the start %.3f J", path,
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
                    const char *const *labels, const cli_run *runs, int all_rows)
{
    if (n > AB_MAX_COLS) n = AB_MAX_COLS;
    print_header(out, path, scene, runs);
    cli_table *t = cli_table_create(n, labels);
    if (!t) {
        fprintf(out, "(out of memory for the table)\n");
        return;
    }
    scalar_row(t, "first impact at (s)", n, runs, "%.4f", first_t);
    if (any(n, runs, compliant)) compared_row(t, n, runs);
    scalar_row(t, "KE after it (J)", n, runs, "%.3f", ke_first);
    const ab_rows_left left = ab_velocity_rows(t, n, runs, all_rows);
    cli_table_section(t, "");
    scalar_row(t, "collisions", n, runs, "%.0f", collisions);
    scalar_row(t, "impax events", n, runs, "%.0f", impulse_events);
    if (any(n, runs, compliant)) scalar_row(t, "contact-force steps", n, runs, "%.0f", force_steps);
    scalar_row(t, "limits_hit set", n, runs, "%.0f", limits_hit);
    scalar_row(t, "fallbacks to ODE", n, runs, "%.0f", fallbacks);
    scalar_row(t, "final energy (J)", n, runs, "%.3f", energy_end);
    scalar_row(t, "final KE (J)", n, runs, "%.3f", ke_end);
    if (ipx_scene_plot_body(scene)) scalar_row(t, "final height (m)", n, runs, "%.4f", height_end);
    scalar_row(t, "deepest contact (mm)", n, runs, "%.2f", penetration_mm);
    scalar_row(t, "wall time (s)", n, runs, "%.3f", wall);
    cli_table_print(out, t, AB_TABLE_WIDTH);
    cli_table_free(t);
    fputc('\n', out);
    print_notes(out, n, labels, runs, &left);
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
    fprintf(f, "model,first_impact_t_s,compared_t_s,ke_after_first_J,impact_events,collisions,"
               "limits_hit_events,fallbacks,energy_start_J,energy_end_J,ke_end_J,"
               "final_height_m,max_penetration_m,wall_s");
    for (int b = 0; b < runs[0].n_bodies; b++)
        for (int c = 0; c < 6; c++) fprintf(f, ",%s.%s", runs[0].body_name[b], vcols[c]);
    fputc('\n', f);
    for (int m = 0; m < n; m++) {
        const cli_run *r = &runs[m];
        int hit = r->first_impact_step >= 0;
        fprintf(f, "%s,", labels[m]);
        if (hit)
            fprintf(f, "%.17g,%.17g,%.17g", r->first_impact_t_s, r->compared_t_s,
                    r->ke_after_first_j);
        else fprintf(f, ",,");
        fprintf(f, ",%ld,%ld,%ld,%ld,%.17g,%.17g,%.17g,%.17g,%.17g,%.6g", r->stats.impact_events,
                r->collisions, r->stats.limits_hit_events, r->stats.fallbacks, r->energy_start_j,
                r->energy_end_j, r->ke_end_j, r->final_height_m, r->max_penetration_m, r->wall_s);
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
