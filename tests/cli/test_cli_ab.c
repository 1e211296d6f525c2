/// `impax ab` end to end: entries with settings of their own (plus vs plus:v_plastic=3, aplcp vs
/// aplcp:newton_restitution=1) give different results, duplicates and bad entries are refused
/// before anything runs, the table fits 100 columns with units, whole body names and no -0.000,
/// collisions are counted alike for every model (ode included) apart from impax's events
/// (gonthier's are steps with contact forces), a first impact that fell back is marked, an
/// inelastic model says that it ignored the bounce, the outputs are checked first, and the plot
/// shows the velocity along the motion, or what --plot-body / --plot-quantity choose. The velocity
/// rows show what differs between the models (the 27-box bin: the differing bodies, largest
/// difference first, the rest counted; never a body's heading without rows), and gonthier's
/// compliant impact is compared where its contact ends; ODE's own messages are listed once per
/// kind under the entry whose run printed them.
/// argv: impax binary, worlds directory, scratch directory, tests/cli/worlds/zero_slip_block.world.
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_run.h"
#include "ensure.h"

static const char *impax, *worlds_dir, *scratch, *zero_slip;

#define EXEC(...) cli_exec(impax, scratch, __VA_ARGS__)

static int row_of(const csv_table *t, const char *model)
{
    for (int i = 0; i < t->n_rows; i++)
        if (strcmp(t->first[i], model) == 0) return i;
    return -1;
}

/* Reads scratch/name into t; 0 on success. */
static int read_csv(const char *name, csv_table *t)
{
    char path[1100];
    snprintf(path, sizeof path, "%s/%s", scratch, name);
    return csv_read(path, t);
}

/* The longest line of text. */
static int widest_line(const char *text)
{
    int widest = 0;
    for (const char *p = text; *p;) {
        const int len = (int)strcspn(p, "\n");
        if (len > widest) widest = len;
        p += len + (p[len] == '\n');
    }
    return widest;
}

static void test_settings_of_one_model_are_compared(void)
{
    cli_result r = EXEC("ab %s/gonthier_bouncing_sphere.world --models plus,plus:v_plastic=3,aplcp,"
                        "aplcp:newton_restitution=1 --out settings.csv",
                        worlds_dir);
    printf("%s", r.out);
    ENSURE(r.exit_status == 0);
    ENSURE(strstr(r.out, "plus:v_plastic=3") != NULL &&
           strstr(r.out, "aplcp:newton_restitution=1") != NULL);
    cli_result_free(&r);
    csv_table t;
    ENSURE(read_csv("settings.csv", &t) == 0 && t.n_rows == 4);
    const int plus = row_of(&t, "plus"), slow = row_of(&t, "plus:v_plastic=3");
    const int ap = row_of(&t, "aplcp"), newton = row_of(&t, "aplcp:newton_restitution=1");
    const int energy = csv_col(&t, "energy_end_J"), ke = csv_col(&t, "ke_after_first_J");
    ENSURE(plus >= 0 && slow >= 0 && ap >= 0 && newton >= 0 && energy >= 0 && ke >= 0);
    /* PLUS's velocity-dependent restitution keeps more of the slow bounces' energy */
    ENSURE(fabs(csv_at(&t, plus, energy) - csv_at(&t, slow, energy)) > 1e-3);
    /* inelastic AP-LCP stops the ball; with Newton's restitution it leaves at e |v| */
    ENSURE(csv_at(&t, ap, ke) < 1e-9 && csv_at(&t, newton, ke) > 1.0);
    csv_free(&t);
}

static void test_duplicate_and_bad_entries_are_refused_before_running(void)
{
    cli_result r = EXEC("ab %s/gonthier_bouncing_sphere.world --models ode,plus,plus", worlds_dir);
    ENSURE(r.exit_status == 2 && strstr(r.err, "'plus' is listed twice") != NULL &&
           r.out[0] == '\0');
    cli_result_free(&r);
    r = EXEC("ab %s/gonthier_bouncing_sphere.world --models "
             "plus:v_plastic=0.3:e_min=0.1,plus:e_min=.1:v_plastic=0.30",
             worlds_dir);
    ENSURE(r.exit_status == 2 &&
           strstr(r.err, "'plus:e_min=.1:v_plastic=0.30' is listed twice") != NULL);
    ENSURE(strstr(r.err, "also as 'plus:v_plastic=0.3:e_min=0.1'") != NULL && r.out[0] == '\0');
    cli_result_free(&r);
    r = EXEC("ab %s/gonthier_bouncing_sphere.world --models ode,plus:bogus=1", worlds_dir);
    ENSURE(r.exit_status == 2 && strstr(r.err, "'plus:bogus=1'") != NULL &&
           strstr(r.err, "bogus") != NULL);
    ENSURE(r.out[0] == '\0'); /* nothing ran */
    cli_result_free(&r);
    r = EXEC("ab %s/gonthier_bouncing_sphere.world --models plus:v_plastic", worlds_dir);
    ENSURE(r.exit_status == 2 && strstr(r.err, "not KEY=VALUE") != NULL);
    cli_result_free(&r);
    r = EXEC("ab %s/gonthier_bouncing_sphere.world --models plus,nosuch:e=1", worlds_dir);
    ENSURE(r.exit_status == 2 && strstr(r.err, "unknown model 'nosuch'") != NULL);
    cli_result_free(&r);
}

static void test_the_table_fits_100_columns(void)
{
    /* every model on the quadruped (nine links, long names) */
    cli_result r = EXEC("ab %s/robot_quadruped_drop.world --duration 0.3", worlds_dir);
    printf("%s", r.out);
    ENSURE(r.exit_status == 0);
    ENSURE(widest_line(r.out) <= 100);
    ENSURE(strstr(r.out, "\nquadruped::torso\n") != NULL); /* whole names */
    ENSURE(strstr(r.out, "-0.000") == NULL && strstr(r.out, "-0 ") == NULL);
    ENSURE(strstr(r.out, "v_z (m/s)") && strstr(r.out, "first impact at (s)") &&
           strstr(r.out, "final energy (J)"));
    cli_result_free(&r);
    /* more entries than fit side by side: blocks of columns, each line within 100 */
    r = EXEC(
        "ab %s/plus_ex3_newtons_cradle.world --duration 0.01 --models ode,plus,plus:v_plastic=0.5,"
        "plus:theta_max=0.02,aplcp,aplcp:newton_restitution=1,routh,routh:poisson_restitution=1,"
        "bowling",
        worlds_dir);
    ENSURE(r.exit_status == 0 && widest_line(r.out) <= 100);
    const char *second = strstr(r.out, "first impact at (s)");
    ENSURE(second && strstr(second + 1, "first impact at (s)") != NULL); /* a second block */
    cli_result_free(&r);
}

static void test_collisions_events_and_fallbacks_are_told_apart(void)
{
    cli_result r =
        EXEC("ab %s/gonthier_bouncing_sphere.world --models ode,plus,gonthier --out counts.csv",
             worlds_dir);
    ENSURE(r.exit_status == 0);
    const char *events = strstr(r.out, "impax events");
    ENSURE(events &&
           strncmp(events + strspn(events + 12, " ") + 12, "-", 1) == 0); /* ode: not impax's */
    ENSURE(strstr(r.out, "contact-force steps") != NULL);
    cli_result_free(&r);
    csv_table t;
    ENSURE(read_csv("counts.csv", &t) == 0);
    const int col = csv_col(&t, "collisions"), ev = csv_col(&t, "impact_events");
    const int ode = row_of(&t, "ode"), plus = row_of(&t, "plus"), g = row_of(&t, "gonthier");
    printf("  collisions: ode %g, plus %g, gonthier %g (contact-force steps %g)\n",
           csv_at(&t, ode, col), csv_at(&t, plus, col), csv_at(&t, g, col), csv_at(&t, g, ev));
    ENSURE(csv_at(&t, ode, col) >= 3 && csv_at(&t, plus, col) >= 3 && csv_at(&t, g, col) >= 3);
    ENSURE(csv_at(&t, g, col) <= 10 && csv_at(&t, g, ev) > 100); /* bounces, not steps in contact */
    csv_free(&t);
    /* jia takes one contact per impact: the cradle's first impact (four) falls back, and says so */
    r = EXEC("ab %s/plus_ex3_newtons_cradle.world --duration 0.01 --models ode,jia --all-rows",
             worlds_dir);
    ENSURE(r.exit_status == 0 && strstr(r.out, "-0.800*") != NULL);
    ENSURE(strstr(r.out, "*: the first impact's step fell back to ODE's own solver") != NULL);
    ENSURE(strstr(r.out, "jia: 1 fallback(s) to ODE's own solver; the last:") != NULL);
    cli_result_free(&r);
}

/* An impact a model answered at one of its limits is counted apart (limits_hit): PLUS's cost
   bound at one solve makes the cradle's impact end in the plastic finish (all five balls at
   -0.4 m/s). */
static void test_impacts_with_limits_hit_are_counted(void)
{
    cli_result r = EXEC("ab %s/plus_ex3_newtons_cradle.world --duration 0.01 --models "
                        "ode,plus,plus:max_solves=1 --out limits.csv",
                        worlds_dir);
    ENSURE(r.exit_status == 0);
    const char *row = strstr(r.out, "limits_hit set ");
    char cells[3][16] = {""};
    ENSURE(row && sscanf(row + strlen("limits_hit set "), "%15s %15s %15s", cells[0], cells[1],
                         cells[2]) == 3);
    ENSURE(strcmp(cells[0], "-") == 0 && strcmp(cells[1], "0") == 0 && strcmp(cells[2], "1") == 0);
    ENSURE(strstr(r.out, "limits_hit set: impax events a model answered after reaching one") !=
           NULL);
    cli_result_free(&r);
    csv_table t;
    ENSURE(read_csv("limits.csv", &t) == 0);
    const int col = csv_col(&t, "limits_hit_events"), ke = csv_col(&t, "ke_after_first_J");
    const int plus = row_of(&t, "plus"), bound = row_of(&t, "plus:max_solves=1");
    ENSURE(col >= 0 && csv_at(&t, plus, col) == 0.0 && csv_at(&t, bound, col) == 1.0);
    ENSURE(fabs(csv_at(&t, plus, ke) - 2.0) < 1e-9 && fabs(csv_at(&t, bound, ke) - 0.4) < 1e-9);
    csv_free(&t);
    /* without a limit reached, no note */
    r = EXEC("ab %s/plus_ex3_newtons_cradle.world --duration 0.01 --models ode,plus", worlds_dir);
    ENSURE(r.exit_status == 0 && strstr(r.out, "limits_hit set:") == NULL);
    cli_result_free(&r);
}

static void test_an_inelastic_model_says_it_ignored_the_bounce(void)
{
    cli_result r = EXEC("ab %s/gonthier_bouncing_sphere.world --duration 0.6 --models "
                        "aplcp,aplcp:newton_restitution=1,"
                        "routh,plus",
                        worlds_dir);
    ENSURE(r.exit_status == 0);
    ENSURE(strstr(
        r.out,
        "aplcp is inelastic unless newton_restitution=1: the surfaces' restitution (e up to 0.5)"));
    ENSURE(strstr(r.out, "routh is inelastic unless poisson_restitution=1") != NULL);
    ENSURE(strstr(r.out, "aplcp:newton_restitution=1: aplcp is inelastic") == NULL);
    ENSURE(strstr(r.out, "plus is inelastic") == NULL);
    cli_result_free(&r);
    r = EXEC("run %s/gonthier_bouncing_sphere.world --model aplcp --duration 0.6", worlds_dir);
    ENSURE(r.exit_status == 0 &&
           strstr(r.out, "note: aplcp is inelastic unless newton_restitution=1") != NULL);
    cli_result_free(&r);
}

static void test_ode_messages_are_told_per_entry(void)
{
    /* the block without friction slip makes ODE's LCP fail in every resting step (under aplcp
       too: its impact, answered to the host's accuracy, leaves the first step's LCP to fail as
       well; with lcp_switch_host=8, the exact answer, that step's did not): one line per entry,
       counted, values filled */
    cli_result r = EXEC("ab %s --models ode,plus,aplcp --duration 0.1", zero_slip);
    printf("%s", r.err);
    ENSURE(r.exit_status == 0);
    ENSURE(strstr(r.err, "impax ab: ODE printed 300 messages") != NULL);
    ENSURE(strstr(r.err, "impax ab:   ode: 100 x LCP internal error, s <= 0 (s=") != NULL);
    ENSURE(strstr(r.err, "impax ab:   plus: 100 x LCP internal error, s <= 0 (s=") != NULL);
    ENSURE(strstr(r.err, "impax ab:   aplcp: 100 x LCP internal error, s <= 0 (s=") != NULL);
    ENSURE(strstr(r.err, "%.4e") == NULL);
    cli_result_free(&r);
}

static void test_outputs_are_checked_before_simulating(void)
{
    cli_result r = EXEC("ab %s/robot_quadruped_drop.world --plot /nonexistent/x.png", worlds_dir);
    ENSURE(r.exit_status == 2 && strstr(r.err, "--plot '/nonexistent/x.png'") != NULL);
    ENSURE(strstr(r.out, "first impact") == NULL); /* no model ran */
    cli_result_free(&r);
    r = EXEC("ab %s/robot_quadruped_drop.world --out /nonexistent/x.csv", worlds_dir);
    ENSURE(r.exit_status == 2 && strstr(r.err, "--out '/nonexistent/x.csv'") != NULL &&
           r.out[0] == '\0');
    cli_result_free(&r);
    r = EXEC("run %s/robot_quadruped_drop.world --trace /nonexistent/x.jsonl", worlds_dir);
    ENSURE(r.exit_status == 2 && strstr(r.err, "--trace '/nonexistent/x.jsonl'") != NULL &&
           r.out[0] == '\0');
    cli_result_free(&r);
    /* replay checks its outputs before it reads a recording (no-such.csv is never opened) */
    r = EXEC("replay %s/cube_toss.world --data no-such.csv --out /nonexistent/x.csv", worlds_dir);
    ENSURE(r.exit_status == 2 && strstr(r.err, "--out '/nonexistent/x.csv'") != NULL &&
           r.out[0] == '\0');
    cli_result_free(&r);
    r = EXEC("replay %s/cube_toss.world --data no-such.csv --plot /nonexistent/x.png", worlds_dir);
    ENSURE(r.exit_status == 2 && strstr(r.err, "--plot '/nonexistent/x.png'") != NULL &&
           r.out[0] == '\0');
    cli_result_free(&r);
    char png[1100];
    snprintf(png, sizeof png, "%s/plus_ex3_newtons_cradle_ab.png", scratch);
    remove(png);
    r = EXEC("ab %s/plus_ex3_newtons_cradle.world --duration 0.01 --models ode,plus", worlds_dir);
    ENSURE(r.exit_status == 0 && strstr(r.out, "plot:") == NULL);
    ENSURE(!png_written(scratch, "plus_ex3_newtons_cradle_ab.png")); /* no plot unless asked for */
    cli_result_free(&r);
}

static void test_the_plot_shows_the_motion_or_what_is_chosen(void)
{
    cli_result r = EXEC(
        "ab %s/plus_ex3_newtons_cradle.world --duration 0.05 --models ode,plus --plot motion.png",
        worlds_dir);
    ENSURE(r.exit_status == 0 && png_written(scratch, "motion.png"));
    ENSURE(strstr(r.out, "plot: motion.png (v_x (m/s) of 5 of the world's 5 bodies") != NULL);
    cli_result_free(&r);
    /* a bin of 27 one-box models: the six boxes that differ most, not the plot body's model's one */
    r = EXEC("ab %s/box_bin.world --duration 0.3 --models ode,plus --plot bin.png", worlds_dir);
    ENSURE(r.exit_status == 0 && png_written(scratch, "bin.png"));
    ENSURE(strstr(r.out, "plot: bin.png (v_z (m/s) of 6 of the world's 27 bodies") != NULL);
    cli_result_free(&r);
    r = EXEC(
        "ab %s/gonthier_bouncing_sphere.world --duration 0.6 --models ode,plus --plot drop.png",
        worlds_dir);
    ENSURE(r.exit_status == 0 && strstr(r.out, "plot: drop.png (v_z (m/s) of 1 of") != NULL);
    cli_result_free(&r);
    r = EXEC(
        "ab %s/plus_ex3_newtons_cradle.world --duration 0.05 --models ode,plus --plot chosen.png "
        "--plot-body ball5,cradle::ball1 --plot-quantity speed",
        worlds_dir);
    ENSURE(r.exit_status == 0 && png_written(scratch, "chosen.png"));
    ENSURE(strstr(r.out, "plot: chosen.png (speed (m/s) of 2 of the bodies --plot-body chose") !=
           NULL);
    cli_result_free(&r);
    r = EXEC(
        "ab %s/plus_ex3_newtons_cradle.world --models ode,plus --plot e.png --plot-quantity energy",
        worlds_dir);
    ENSURE(r.exit_status == 0 && strstr(r.out, "plot: e.png (total energy)") != NULL);
    cli_result_free(&r);
    r = EXEC("ab %s/plus_ex3_newtons_cradle.world --plot x.png --plot-quantity vw", worlds_dir);
    ENSURE(r.exit_status == 2 && strstr(r.err, "'vw'") && strstr(r.err, "vx, vy, vz, speed") &&
           r.out[0] == '\0');
    cli_result_free(&r);
    r = EXEC("ab %s/plus_ex3_newtons_cradle.world --plot x.png --plot-body ball9", worlds_dir);
    ENSURE(r.exit_status == 2 && strstr(r.err, "no body 'ball9'") &&
           strstr(r.err, "cradle::ball1") && r.out[0] == '\0');
    cli_result_free(&r);
    r = EXEC("ab %s/plus_ex3_newtons_cradle.world --plot-body ball1", worlds_dir);
    ENSURE(r.exit_status == 2 && strstr(r.err, "give --plot") != NULL);
    cli_result_free(&r);
}

/* A table line from the column heads to "wall time (s)": the part of the output after the first
   blank line, up to the next. */
static int widest_table_line(const char *text)
{
    const char *start = strstr(text, "\n\n");
    if (!start) return 1 << 20;
    start += 2;
    const char *end = strstr(start, "\n\n");
    int widest = 0;
    for (const char *p = start; p < (end ? end : start + strlen(start));) {
        const int len = (int)strcspn(p, "\n");
        if (len > widest) widest = len;
        p += len + 1;
    }
    return widest;
}

enum { MAX_BODIES = 256 };
static const char *const vcols[6] = {"vx_m_s",   "vy_m_s",   "vz_m_s",
                                     "wx_rad_s", "wy_rad_s", "wz_rad_s"};
static const char *const vlabels[6] = {"  v_x (m/s)",   "  v_y (m/s)",   "  v_z (m/s)",
                                       "  w_x (rad/s)", "  w_y (rad/s)", "  w_z (rad/s)"};

/* What the CSV (every value, 17 digits) says the table must show of one body. */
typedef struct body_expect {
    char name[128];
    unsigned differ; /* bit c: the models' values of component c differ as "%.3f" prints them */
    double spread;   /* the largest max - min over a differing component */
} body_expect;

/* "%.3f" as the table prints it: never "-0.000"; "-" for a missing value. */
static void printed(double v, char *buf, size_t size)
{
    if (isnan(v)) {
        snprintf(buf, size, "-");
        return;
    }
    snprintf(buf, size, "%.3f", v);
    if (strcmp(buf, "-0.000") == 0) snprintf(buf, size, "0.000");
}

static int expect_bodies(const csv_table *t, body_expect *out)
{
    int n = 0;
    for (int c = 0; c < t->n_cols && n < MAX_BODIES; c++) {
        const char *h = t->header[c];
        const size_t len = strlen(h);
        if (len < 7 || strcmp(h + len - 7, ".vx_m_s") != 0) continue;
        body_expect *b = &out[n++];
        snprintf(b->name, sizeof b->name, "%.*s", (int)(len - 7), h);
        b->differ = 0;
        b->spread = 0;
        for (int q = 0; q < 6; q++) {
            char col[200], first[32], text[32];
            snprintf(col, sizeof col, "%s.%s", b->name, vcols[q]);
            const int k = csv_col(t, col);
            double lo = INFINITY, hi = -INFINITY;
            int differ = 0;
            for (int m = 0; m < t->n_rows; m++) {
                const double v = csv_at(t, m, k);
                printed(v, m ? text : first, sizeof text);
                if (m && strcmp(text, first) != 0) differ = 1;
                if (!isnan(v)) lo = fmin(lo, v), hi = fmax(hi, v);
            }
            if (differ) {
                b->differ |= 1u << q;
                b->spread = fmax(b->spread, hi - lo);
            }
        }
    }
    return n;
}

/* The bin's 27 boxes: a body is listed only if its velocities differ between the models as
   printed, with only the rows that differ, largest difference first, at most 8 of them; the
   rest are counted, and the counts add up to the bodies of the world. */
static void test_the_bin_shows_what_differs(void)
{
    cli_result r = EXEC("ab %s/box_bin.world --duration 0.1 --out bin.csv", worlds_dir);
    printf("%s", r.out);
    ENSURE(r.exit_status == 0);
    ENSURE(widest_line(r.out) <= 100);
    ENSURE(widest_table_line(r.out) <= 80);
    csv_table t;
    ENSURE(read_csv("bin.csv", &t) == 0);
    static body_expect bodies[MAX_BODIES];
    const int n = expect_bodies(&t, bodies);
    ENSURE(n == 27);
    /* the differing ones, largest difference first (the world's order among equals) */
    int order[MAX_BODIES], n_differ = 0, n_equal = 0;
    for (int b = 0; b < n; b++) {
        if (!bodies[b].differ) {
            n_equal++;
            continue;
        }
        int i = n_differ++;
        while (i > 0 && bodies[order[i - 1]].spread < bodies[b].spread) {
            order[i] = order[i - 1];
            i--;
        }
        order[i] = b;
    }
    const int shown = n_differ < 8 ? n_differ : 8;
    printf("  bin: %d bodies differ (%d shown), %d equal\n", n_differ, shown, n_equal);
    ENSURE(n_differ > 0 && n_equal > 0); /* the bin has both */
    /* walk the table: each body's heading, then exactly its differing rows */
    const char *p = r.out;
    for (int i = 0; i < shown; i++) {
        const body_expect *b = &bodies[order[i]];
        char heading[160];
        snprintf(heading, sizeof heading, "\n%s\n", b->name);
        const char *at = strstr(p == r.out ? p : p - 1, heading); /* p: a line's start */
        ENSURE(at != NULL);
        if (!at) break;
        p = at + strlen(heading);
        for (int q = 0; q < 6; q++) {
            if (!(b->differ & (1u << q))) continue;
            ENSURE(strncmp(p, vlabels[q], strlen(vlabels[q])) == 0);
            p += strcspn(p, "\n") + 1;
        }
        ENSURE(strncmp(p, "  ", 2) != 0); /* no row that reads the same for every model */
    }
    char line[160];
    snprintf(line, sizeof line, "... %d more bodies that differ less\n", n_differ - shown);
    ENSURE(n_differ == shown || strncmp(p, line, strlen(line)) == 0);
    if (n_differ > shown) p += strlen(line);
    snprintf(line, sizeof line, "... %d more bod%s equal across models\n", n_equal,
             n_equal == 1 ? "y" : "ies");
    ENSURE(strncmp(p, line, strlen(line)) == 0);
    ENSURE(strstr(r.out, "--all-rows shows every row") != NULL);
    cli_result_free(&r);
    csv_free(&t);
    /* --all-rows: every row of every body */
    r = EXEC("ab %s/box_bin.world --duration 0.1 --models ode,plus --all-rows", worlds_dir);
    int rows = 0;
    for (const char *q = strstr(r.out, "\n  v_x (m/s)"); q; q = strstr(q + 1, "\n  v_x (m/s)"))
        rows++;
    ENSURE(r.exit_status == 0 && rows == 27 && strstr(r.out, "more bod") == NULL);
    cli_result_free(&r);
}

/* The arm's base does not move: no heading without rows, and the count says it was left out. */
static void test_no_heading_without_rows(void)
{
    cli_result r = EXEC("ab %s/robot_arm_strike.world --duration 0.4", worlds_dir);
    ENSURE(r.exit_status == 0 && widest_line(r.out) <= 100);
    int headings = 0;
    for (const char *p = strstr(r.out, "::"); p; p = strstr(p + 1, "::")) {
        const char *line = p;
        while (line > r.out && line[-1] != '\n') line--;
        const char *next = strchr(p, '\n');
        if (!next || memchr(line, ' ', (size_t)(next - line))) continue; /* not a body's name */
        ENSURE(strncmp(next + 1, "  ", 2) == 0);
        headings++;
    }
    ENSURE(headings == 3);
    ENSURE(strstr(r.out, "\nrobot::base\n") == NULL);
    ENSURE(strstr(r.out, "\n... 1 more body equal across models\n") != NULL);
    cli_result_free(&r);
    r = EXEC("ab %s/robot_arm_strike.world --duration 0.4 --all-rows", worlds_dir);
    const char *base = strstr(r.out, "\nrobot::base\n");
    ENSURE(r.exit_status == 0 && base && strncmp(base + 13, "  v_x (m/s)", 11) == 0);
    cli_result_free(&r);
}

/* One trace line's "time" and whether one of its contacts pushes (a normal impulse > 0). */
static int trace_line(const char *line, double *time_s, int *pushes)
{
    const char *t = strstr(line, "\"time\":"), *imp = strstr(line, "\"impulse\":[");
    if (!t) return -1;
    *time_s = strtod(t + 7, NULL);
    *pushes = 0;
    if (!imp) return 0;
    const char *p = imp + 11;
    while (*p == '[') {
        double v[3];
        char *end = (char *)p + 1;
        for (int i = 0; i < 3; i++) v[i] = strtod(end + (i ? 1 : 0), &end);
        if (v[2] > 0) *pushes = 1;
        p = end + 1; /* past ']' */
        if (*p == ',') p++;
    }
    return 0;
}

/* gonthier's contact lasts many steps: the quadruped's table compares its state when the first
   contact ends, where its trace shows the contacts pushing up to that step and not in it, with
   the impulsive models' right after their impact; the feet leave the floor (a bounce no faster
   than restitution e = 0.2 of the landing speed allows). */
static void test_gonthier_is_compared_at_the_end_of_contact(void)
{
    cli_result r = EXEC("ab %s/robot_quadruped_drop.world --duration 0.3 --models plus,gonthier "
                        "--out end.csv",
                        worlds_dir);
    ENSURE(r.exit_status == 0 && strstr(r.out, "compared at (s)") != NULL &&
           strstr(r.out, "when that contact ends") != NULL && strstr(r.out, "~") == NULL);
    cli_result_free(&r);
    csv_table t;
    ENSURE(read_csv("end.csv", &t) == 0);
    const int plus = row_of(&t, "plus"), g = row_of(&t, "gonthier");
    const int first = csv_col(&t, "first_impact_t_s"), at = csv_col(&t, "compared_t_s");
    const int ke = csv_col(&t, "ke_after_first_J"), vz = csv_col(&t, "quadruped::torso.vz_m_s");
    ENSURE(plus >= 0 && g >= 0 && first >= 0 && at >= 0 && ke >= 0 && vz >= 0);
    const double t_end = csv_at(&t, g, at), t_first = csv_at(&t, g, first);
    printf("  gonthier: first impact %.4f s, contact ends %.4f s, KE %.4f J, torso v_z %.4f m/s "
           "(plus: KE %.4f J)\n",
           t_first, t_end, csv_at(&t, g, ke), csv_at(&t, g, vz), csv_at(&t, plus, ke));
    ENSURE(csv_at(&t, plus, at) == csv_at(&t, plus, first));
    ENSURE(t_end > t_first + 0.005);
    r = EXEC("run %s/robot_quadruped_drop.world --model gonthier --duration 0.3 --trace end.jsonl",
             worlds_dir);
    ENSURE(r.exit_status == 0);
    cli_result_free(&r);
    char path[1100];
    snprintf(path, sizeof path, "%s/end.jsonl", scratch);
    char *trace = read_file(path, NULL);
    ENSURE(trace != NULL);
    int before = 0, at_end = 0, gap = 0;
    double landing = NAN;
    for (const char *line = trace; line && *line;
         line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        double time_s;
        int pushes;
        if (trace_line(line, &time_s, &pushes) != 0) continue;
        if (isnan(landing)) {
            const char *vn = strstr(line, "\"vn_before\":[");
            if (vn) landing = -strtod(vn + 13, NULL);
        }
        if (fabs(time_s - (t_end - 1e-3)) < 1e-6) before = pushes;
        if (fabs(time_s - t_end) < 1e-6) at_end = pushes;
        if (time_s > t_first - 1e-3 && time_s < t_end - 1e-6 && !pushes) gap = 1;
    }
    /* pushing in every step from the first impact to the end, not in the step that starts there */
    ENSURE(before && !at_end && !gap);
    /* the torso leaves the floor, no faster than e v_landing */
    printf("  landing speed %.4f m/s\n", landing);
    ENSURE(csv_at(&t, g, vz) > 0 && csv_at(&t, g, vz) <= 0.2 * landing + 1e-9);
    free(trace);
    csv_free(&t);
}

/* On a terminal (script(1) gives one) each model's bar says which of how many it is. The bar
   shows once a model has run a second: gonthier's 2 s of the bin take about 2.4 s of CPU (its
   0.5 s took over a second before its sub-step went from 10 to 100 us). */
static void test_the_progress_says_which_model_of_how_many(void)
{
    cli_result r = cli_exec("script", scratch,
                            "-qec \"'%s' ab '%s/box_bin.world' --duration 2 --models "
                            "ode,gonthier\" /dev/null",
                            impax, worlds_dir);
    ENSURE(r.exit_status == 0 && strstr(r.out, "model 2 of 2: gonthier [") != NULL);
    cli_result_free(&r);
}

/* The decimals of the number in text right after key (-1 if none). */
static int decimals_after(const char *text, const char *key)
{
    const char *p = strstr(text, key);
    if (!p) return -1;
    p += strlen(key);
    p += strspn(p, " +-0123456789");
    return *p == '.' ? (int)strspn(p + 1, "0123456789") : 0;
}

/* run's summary: times and energies each with one precision (4 decimals), every line within 100
   columns (the inelastic note wraps). */
static void test_run_prints_one_precision_per_quantity(void)
{
    cli_result r =
        EXEC("run %s/gonthier_bouncing_sphere.world --model aplcp --duration 0.6", worlds_dir);
    printf("%s", r.out);
    ENSURE(r.exit_status == 0 && widest_line(r.out) <= 100);
    ENSURE(decimals_after(r.out, "model aplcp, ") == 4); /* simulated s */
    ENSURE(decimals_after(r.out, "first impact      t = ") == 4);
    ENSURE(decimals_after(r.out, "  energy            ") == 4);
    ENSURE(decimals_after(r.out, " J at the start, ") == 4);
    ENSURE(decimals_after(r.out, " J at the end (") == 4);
    ENSURE(decimals_after(r.out, "impacts changed   ") == 4);
    cli_result_free(&r);
}

int main(int argc, char **argv)
{
    if (argc != 5) {
        fprintf(stderr, "usage: test_cli_ab IMPAX WORLDS_DIR SCRATCH ZERO_SLIP_WORLD\n");
        return 2;
    }
    impax = argv[1];
    worlds_dir = argv[2];
    scratch = argv[3];
    zero_slip = argv[4];
    RUN(test_settings_of_one_model_are_compared);
    RUN(test_duplicate_and_bad_entries_are_refused_before_running);
    RUN(test_the_table_fits_100_columns);
    RUN(test_collisions_events_and_fallbacks_are_told_apart);
    RUN(test_impacts_with_limits_hit_are_counted);
    RUN(test_an_inelastic_model_says_it_ignored_the_bounce);
    RUN(test_outputs_are_checked_before_simulating);
    RUN(test_ode_messages_are_told_per_entry);
    RUN(test_the_plot_shows_the_motion_or_what_is_chosen);
    RUN(test_the_bin_shows_what_differs);
    RUN(test_no_heading_without_rows);
    RUN(test_gonthier_is_compared_at_the_end_of_contact);
    RUN(test_the_progress_says_which_model_of_how_many);
    RUN(test_run_prints_one_precision_per_quantity);
    return ipx_test_exit();
}
