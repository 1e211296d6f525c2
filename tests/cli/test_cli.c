/// The `impax` command end to end: help, check (good and bad files), run's CSV, ab's table and
/// plot on Newton's cradle (PLUS Example 3: the far ball leaves with the striker's speed, the
/// rest stay still; ODE's own answer differs), set's cloud, and usage errors (exit status 2).
/// argv: impax binary, worlds directory, bad-worlds directory, scratch directory, cradle world,
/// set world (a first impact with two or more contacts).
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_run.h"
#include "ensure.h"

static const char *impax, *worlds_dir, *bad_dir, *scratch, *cradle, *set_world, *zero_slip;

#define EXEC(...) cli_exec(impax, scratch, __VA_ARGS__)

static void test_every_command_answers_help(void)
{
    static const char *const cmds[] = {"run", "ab", "set", "check", "replay"};
    cli_result r = EXEC("--help");
    ENSURE(r.exit_status == 0 && strstr(r.out, "usage: impax") != NULL);
    cli_result_free(&r);
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
        r = EXEC("%s --help", cmds[i]);
        char usage[64];
        snprintf(usage, sizeof usage, "usage: impax %s", cmds[i]);
        ENSURE(r.exit_status == 0 && strstr(r.out, usage) != NULL);
        cli_result_free(&r);
    }
    r = EXEC("frobnicate");
    ENSURE(r.exit_status == 2 && strstr(r.err, "frobnicate") != NULL);
    cli_result_free(&r);
}

static int is_world(const char *name)
{
    size_t n = strlen(name);
    return (n > 6 && strcmp(name + n - 6, ".world") == 0) ||
           (n > 4 && strcmp(name + n - 4, ".sdf") == 0);
}

/* Calls fn for every world file of dir; returns how many there were. */
static int for_each_world(const char *dir, void (*fn)(const char *path))
{
    DIR *d = opendir(dir);
    ENSURE(d != NULL);
    if (!d) return 0;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (!is_world(e->d_name)) continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        fn(path);
        n++;
    }
    closedir(d);
    return n;
}

static void check_good(const char *path)
{
    cli_result r = EXEC("check '%s'", path);
    if (r.exit_status != 0) printf("  %s:\n%s", path, r.err);
    ENSURE(r.exit_status == 0 && strstr(r.out, ": ok") != NULL);
    cli_result_free(&r);
}

static void test_every_provided_world_passes_check(void)
{
    ENSURE(for_each_world(worlds_dir, check_good) >= 10);
}

/* A bad file: exit 1 and at least one "PATH:LINE: " diagnostic with a line number >= 1. */
static void check_bad(const char *path)
{
    cli_result r = EXEC("check '%s'", path);
    char prefix[1100];
    snprintf(prefix, sizeof prefix, "%s:", path);
    const char *at = strstr(r.err, prefix);
    int line = at ? atoi(at + strlen(prefix)) : 0;
    if (r.exit_status != 1 || line < 1) printf("  %s: exit %d\n%s", path, r.exit_status, r.err);
    ENSURE(r.exit_status == 1);
    ENSURE(line >= 1);
    cli_result_free(&r);
}

static void test_bad_files_report_file_and_line(void)
{
    ENSURE(for_each_world(bad_dir, check_bad) >= 5);
}

static void test_usage_errors_exit_2_naming_the_item(void)
{
    cli_result r = EXEC("run '%s' --model nosuch", cradle);
    ENSURE(r.exit_status == 2 && strstr(r.err, "nosuch") != NULL && strstr(r.err, "plus") != NULL);
    cli_result_free(&r);
    r = EXEC("run '%s' --model plus --params bogus=1", cradle);
    ENSURE(r.exit_status == 2 && strstr(r.err, "bogus") != NULL);
    cli_result_free(&r);
    r = EXEC("run '%s' --duration -1", cradle);
    ENSURE(r.exit_status == 2 && strstr(r.err, "--duration") != NULL);
    cli_result_free(&r);
    r = EXEC("ab '%s' --models ode,nosuch", cradle);
    ENSURE(r.exit_status == 2 && strstr(r.err, "nosuch") != NULL);
    cli_result_free(&r);
    r = EXEC("set '%s' --samples 0", cradle);
    ENSURE(r.exit_status == 2 && strstr(r.err, "--samples") != NULL);
    cli_result_free(&r);
    r = EXEC("check");
    ENSURE(r.exit_status == 2);
    cli_result_free(&r);
    r = EXEC("run does-not-exist.world");
    ENSURE(r.exit_status == 1 && strstr(r.err, "does-not-exist.world") != NULL);
    cli_result_free(&r);
}

/* run writes one CSV row per step plus the initial state, every cell finite. */
static void test_run_writes_the_states(void)
{
    cli_result r = EXEC("run '%s' --model plus --duration 0.05 --out run.csv", cradle);
    ENSURE(r.exit_status == 0 && strstr(r.out, "wall time") != NULL);
    ENSURE(strstr(r.out, "impact events     1 (4 contacts), limits_hit set on 0") != NULL);
    cli_result_free(&r);
    /* PLUS's cost bound at one solve: the plastic finish answers, and the summary says so */
    r = EXEC("run '%s' --model plus --params max_solves=1 --duration 0.05", cradle);
    ENSURE(r.exit_status == 0);
    ENSURE(strstr(r.out, "impact events     1 (4 contacts), limits_hit set on 1") != NULL);
    cli_result_free(&r);
    char path[1100];
    snprintf(path, sizeof path, "%s/run.csv", scratch);
    csv_table t;
    ENSURE(csv_read(path, &t) == 0);
    int steps_in_50ms = (int)lround(0.05 / 0.001);
    ENSURE(t.n_rows >= steps_in_50ms + 1);
    ENSURE((t.n_cols - 2) % 13 == 0 && t.n_cols > 2); /* t, 13 per body, energy */
    ENSURE(csv_col(&t, "t_s") == 0 && csv_col(&t, "energy_J") == t.n_cols - 1);
    int finite = 1;
    for (int i = 0; i < t.n_rows * t.n_cols; i++) finite &= isfinite(t.value[i]);
    ENSURE(finite);
    csv_free(&t);
}

/* The column of body (a name ending in suffix) and quantity. */
static int body_col(const csv_table *t, const char *body_suffix, const char *quantity)
{
    for (int i = 0; i < t->n_cols; i++) {
        const char *dot = strrchr(t->header[i], '.');
        if (!dot || strcmp(dot + 1, quantity) != 0) continue;
        size_t len = (size_t)(dot - t->header[i]), sl = strlen(body_suffix);
        if (len >= sl && strncmp(t->header[i] + len - sl, body_suffix, sl) == 0) return i;
    }
    return -1;
}

static int row_of(const csv_table *t, const char *model)
{
    for (int i = 0; i < t->n_rows; i++)
        if (strcmp(t->first[i], model) == 0) return i;
    return -1;
}

static void test_ab_on_the_cradle(void)
{
    cli_result r = EXEC("ab '%s' --models ode,plus --out ab.csv --plot ab.png", cradle);
    ENSURE(r.exit_status == 0 && strstr(r.out, "first impact") != NULL);
    printf("%s", r.out);
    cli_result_free(&r);
    char path[1100];
    snprintf(path, sizeof path, "%s/ab.csv", scratch);
    csv_table t;
    ENSURE(csv_read(path, &t) == 0 && t.n_rows == 2);
    int plus = row_of(&t, "plus"), ode = row_of(&t, "ode");
    ENSURE(plus >= 0 && ode >= 0);
    int n_balls = 0;
    while (n_balls < 16) {
        char name[16];
        snprintf(name, sizeof name, "ball%d", n_balls + 1);
        if (body_col(&t, name, "vx_m_s") < 0) break;
        n_balls++;
    }
    ENSURE(n_balls >= 3);
    char last[16];
    snprintf(last, sizeof last, "ball%d", n_balls);
    double v_far = csv_at(&t, plus, body_col(&t, last, "vx_m_s"));
    /* The balls overlap by 1 nm; ODE's push-out in the step after the impact adds at most
       depth / h = 1e-6 m/s per contact, 4e-6 m/s along the row of four contacts. */
    const double push_out = 4e-6;
    ENSURE_NEAR(fabs(v_far), 2.0,
                push_out); /* PLUS Example 3: the far ball leaves at the striker's 2 m/s */
    for (int b = 1; b < n_balls; b++) {
        char name[16];
        snprintf(name, sizeof name, "ball%d", b);
        ENSURE_NEAR(csv_at(&t, plus, body_col(&t, name, "vx_m_s")), 0.0,
                    push_out); /* the rest stay still */
    }
    /* ODE's own simultaneous answer is not the cradle's: some ball other than the far one moves. */
    double ode_spread = 0;
    for (int b = 1; b < n_balls; b++) {
        char name[16];
        snprintf(name, sizeof name, "ball%d", b);
        ode_spread = fmax(ode_spread, fabs(csv_at(&t, ode, body_col(&t, name, "vx_m_s"))));
    }
    ENSURE(ode_spread > 0.1); /* the spec's row C: 0.8 m/s each */
    csv_free(&t);
    size_t size = 0;
    snprintf(path, sizeof path, "%s/ab.png", scratch);
    char *png = read_file(path, &size);
    ENSURE(png && size > 1000 && memcmp(png, "\x89PNG", 4) == 0);
    free(png);
}

/* set: every kept sample loses energy (Routh never gains, Thm 7); same seed, same cloud. */
/* Occurrences of needle in text. */
static int count_of(const char *text, const char *needle)
{
    int n = 0;
    for (const char *p = text; p && (p = strstr(p, needle)) != NULL; p += strlen(needle)) n++;
    return n;
}

static void test_ode_messages_are_summed_up_unless_verbose(void)
{
    /* the block without friction slip makes ODE's LCP print "LCP internal error, s <= 0" in
       every resting step: held back and listed once, with its count and its first message's
       value filled in; --verbose shows each as ODE does */
    cli_result quiet = EXEC("run %s --model plus", zero_slip);
    cli_result loud = EXEC("run %s --model plus --verbose", zero_slip);
    const char *kind = "LCP internal error, s <= 0 (s=";
    const int quiet_lines = count_of(quiet.err, kind), loud_lines = count_of(loud.err, kind);
    printf("  held back: %d line(s) naming the kind; --verbose: %d\n%s", quiet_lines, loud_lines,
           quiet.err);
    ENSURE(quiet.exit_status == 0 && loud.exit_status == 0);
    ENSURE(quiet_lines == 1 && count_of(quiet.err, "impax run:   1000 x LCP internal error") == 1);
    ENSURE(strstr(quiet.err, "%.4e") == NULL && strstr(loud.err, "%.4e") == NULL);
    ENSURE(loud_lines == 1001); /* each message, then the count once more */
    cli_result_free(&quiet);
    cli_result_free(&loud);
}

static void test_set_samples_the_first_impact(void)
{
    cli_result r = EXEC("set '%s' --samples 200 --seed 3 --out set1.csv --plot set.png", set_world);
    ENSURE(r.exit_status == 0 && strstr(r.out, "kept") != NULL);
    printf("%s", r.out);
    cli_result_free(&r);
    r = EXEC("set '%s' --samples 200 --seed 3 --out set2.csv --plot set.png", set_world);
    ENSURE(r.exit_status == 0);
    cli_result_free(&r);
    r = EXEC("set '%s' --samples 200 --seed 4 --out set3.csv --plot set.png", set_world);
    ENSURE(r.exit_status == 0);
    cli_result_free(&r);
    char p1[1100], p2[1100], p3[1100];
    snprintf(p1, sizeof p1, "%s/set1.csv", scratch);
    snprintf(p2, sizeof p2, "%s/set2.csv", scratch);
    snprintf(p3, sizeof p3, "%s/set3.csv", scratch);
    char *a = read_file(p1, NULL), *b = read_file(p2, NULL), *c = read_file(p3, NULL);
    ENSURE(a && b && c && strcmp(a, b) == 0 && strcmp(a, c) != 0);
    free(a);
    free(b);
    free(c);
    csv_table t;
    ENSURE(csv_read(p1, &t) == 0 && t.n_rows >= 1 && t.n_rows <= 200);
    int dke = csv_col(&t, "delta_ke_J"), contacts = (t.n_cols - 1) / 4;
    ENSURE(dke == t.n_cols - 1 && contacts >= 2);
    double worst_gain = -INFINITY, spread = 0;
    for (int i = 0; i < t.n_rows; i++) worst_gain = fmax(worst_gain, csv_at(&t, i, dke));
    for (int i = 0; i < t.n_rows; i++)
        spread = fmax(spread, fabs(csv_at(&t, i, 2) - csv_at(&t, 0, 2)));
    ENSURE(worst_gain <= 1e-9);
    ENSURE(spread > 1e-3); /* a set, not one outcome */
    csv_free(&t);
}

/* The rocking block (1 m wide, 0.2 m thick) lands flat on both bottom edges: its four corners
   are listed where the world puts them, and the plot shows one contact of each edge (the cloud's
   two segments, one per pivoting edge), not two of one edge, which move as one (a diagonal). */
static void test_set_lists_the_contacts_and_plots_one_of_each_edge(void)
{
    cli_result r =
        EXEC("set '%s' --samples 300 --seed 1 --out edges.csv --plot edges.png", set_world);
    printf("%s", r.out);
    ENSURE(r.exit_status == 0 && png_written(scratch, "edges.png"));
    double x[4][3];
    int listed = 0;
    for (int i = 0; i < 4; i++) {
        char head[64];
        snprintf(head, sizeof head, "  contact %d at (", i);
        const char *at = strstr(r.out, head);
        if (at &&
            sscanf(at + strlen(head), "%lf, %lf, %lf) m", &x[i][0], &x[i][1], &x[i][2]) == 3) {
            ENSURE_NEAR(fabs(x[i][0]), 0.5, 1e-4);
            ENSURE_NEAR(fabs(x[i][1]), 0.1, 1e-4);
            ENSURE_NEAR(x[i][2], 0.0, 1e-4);
            listed++;
        }
    }
    ENSURE(listed == 4);
    int a = -1, b = -1;
    const char *plot = strstr(r.out, "plot: edges.png (contact ");
    ENSURE(plot && sscanf(plot, "plot: edges.png (contact %d against contact %d)", &a, &b) == 2);
    ENSURE(a >= 0 && a < 4 && b >= 0 && b < 4 && a != b);
    if (listed == 4 && a >= 0 && a < 4 && b >= 0 && b < 4)
        ENSURE(fabs(x[a][0] - x[b][0]) > 0.9); /* one contact on each edge, x = -0.5 and +0.5 */
    csv_table t;
    char path[1100];
    snprintf(path, sizeof path, "%s/edges.csv", scratch);
    ENSURE(csv_read(path, &t) == 0 && t.n_rows > 10);
    if (a >= 0 && b >= 0 && t.n_rows > 10) { /* the two vary apart: no diagonal */
        double ma = 0, mb = 0, saa = 0, sbb = 0, sab = 0;
        for (int i = 0; i < t.n_rows; i++)
            ma += csv_at(&t, i, 4 * a + 2) / t.n_rows, mb += csv_at(&t, i, 4 * b + 2) / t.n_rows;
        for (int i = 0; i < t.n_rows; i++) {
            const double da = csv_at(&t, i, 4 * a + 2) - ma, db = csv_at(&t, i, 4 * b + 2) - mb;
            saa += da * da, sbb += db * db, sab += da * db;
        }
        printf("  correlation of the plotted contacts' v_n: %.3f\n", sab / sqrt(saa * sbb));
        ENSURE(saa > 0 && sbb > 0 && sab / sqrt(saa * sbb) < 0.5);
    }
    csv_free(&t);
    cli_result_free(&r);
}

int main(int argc, char **argv)
{
    if (argc != 8) {
        fprintf(stderr,
                "usage: test_cli IMPAX WORLDS_DIR BAD_DIR SCRATCH CRADLE SET_WORLD ZERO_SLIP\n");
        return 2;
    }
    impax = argv[1];
    worlds_dir = argv[2];
    bad_dir = argv[3];
    scratch = argv[4];
    cradle = argv[5];
    set_world = argv[6];
    zero_slip = argv[7];
    RUN(test_every_command_answers_help);
    RUN(test_every_provided_world_passes_check);
    RUN(test_bad_files_report_file_and_line);
    RUN(test_usage_errors_exit_2_naming_the_item);
    RUN(test_run_writes_the_states);
    RUN(test_ab_on_the_cradle);
    RUN(test_set_samples_the_first_impact);
    RUN(test_set_lists_the_contacts_and_plots_one_of_each_edge);
    RUN(test_ode_messages_are_summed_up_unless_verbose);
    return ipx_test_exit();
}
