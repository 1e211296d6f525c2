/// `impax ab` end to end: entries with settings of their own (plus vs plus:v_plastic=3, aplcp vs
/// aplcp:newton_restitution=1) give different results, duplicates and bad entries are refused
/// before anything runs, the table fits 100 columns with units, whole body names and no -0.000,
/// collisions are counted alike for every model (ode included) apart from impax's events
/// (gonthier's are steps with contact forces), a first impact that fell back is marked, an
/// inelastic model says that it ignored the bounce, the outputs are checked first, and the plot
/// shows the velocity along the motion, or what --plot-body / --plot-quantity choose.
/// argv: impax binary, worlds directory, scratch directory.
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_run.h"
#include "ensure.h"

static const char *impax, *worlds_dir, *scratch;

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
    r = EXEC("ab %s/plus_ex3_newtons_cradle.world --duration 0.01 --models ode,jia", worlds_dir);
    ENSURE(r.exit_status == 0 && strstr(r.out, "-0.800*") != NULL);
    ENSURE(strstr(r.out, "*: the first impact's step fell back to ODE's own solver") != NULL);
    ENSURE(strstr(r.out, "jia: 1 fallback(s) to ODE's own solver; the last:") != NULL);
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

static void test_outputs_are_checked_before_simulating(void)
{
    cli_result r = EXEC("ab %s/robot_quadruped_drop.world --plot /nonexistent/x.png", worlds_dir);
    ENSURE(r.exit_status == 1 && strstr(r.err, "--plot '/nonexistent/x.png'") != NULL);
    ENSURE(strstr(r.out, "first impact") == NULL); /* no model ran */
    cli_result_free(&r);
    r = EXEC("ab %s/robot_quadruped_drop.world --out /nonexistent/x.csv", worlds_dir);
    ENSURE(r.exit_status == 1 && strstr(r.err, "--out '/nonexistent/x.csv'") != NULL &&
           r.out[0] == '\0');
    cli_result_free(&r);
    r = EXEC("run %s/robot_quadruped_drop.world --trace /nonexistent/x.jsonl", worlds_dir);
    ENSURE(r.exit_status == 1 && strstr(r.err, "--trace '/nonexistent/x.jsonl'") != NULL &&
           r.out[0] == '\0');
    cli_result_free(&r);
    /* replay checks its outputs before it reads a recording (no-such.csv is never opened) */
    r = EXEC("replay %s/cube_toss.world --data no-such.csv --out /nonexistent/x.csv", worlds_dir);
    ENSURE(r.exit_status == 1 && strstr(r.err, "--out '/nonexistent/x.csv'") != NULL &&
           r.out[0] == '\0');
    cli_result_free(&r);
    r = EXEC("replay %s/cube_toss.world --data no-such.csv --plot /nonexistent/x.png", worlds_dir);
    ENSURE(r.exit_status == 1 && strstr(r.err, "--plot '/nonexistent/x.png'") != NULL &&
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
    ENSURE(strstr(r.out, "plot: motion.png (v_x (m/s) of 5 of the bodies of model cradle") != NULL);
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

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: test_cli_ab IMPAX WORLDS_DIR SCRATCH\n");
        return 2;
    }
    impax = argv[1];
    worlds_dir = argv[2];
    scratch = argv[3];
    RUN(test_settings_of_one_model_are_compared);
    RUN(test_duplicate_and_bad_entries_are_refused_before_running);
    RUN(test_the_table_fits_100_columns);
    RUN(test_collisions_events_and_fallbacks_are_told_apart);
    RUN(test_an_inelastic_model_says_it_ignored_the_bounce);
    RUN(test_outputs_are_checked_before_simulating);
    RUN(test_the_plot_shows_the_motion_or_what_is_chosen);
    return ipx_test_exit();
}
