/// `impax ab/run --html` end to end in a real browser (headless Chromium, SwiftShader, no
/// network): the Newton's cradle page of ode and plus loads without a console error, its poses
/// at t = 0.5 s are the simulation's (impax run --out's rows, to float32 precision), and its
/// picture has each model's colour under each body's projected centre; a 10 s page of 50 falling
/// boxes at 60 frames a second stays under 10 MB; a replay's page shows the recording as one
/// more model, where it was recorded; an unwritable --html is refused before anything runs.
/// argv: impax binary, the cradle world, the cube-toss world, scratch directory, chromium.
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli_run.h"
#include "ensure.h"
#include "impax/ode.h"
#include "toss_gen.h"

static const char *impax, *cradle, *cube_world, *scratch, *chromium;

#define EXEC(...) cli_exec(impax, scratch, __VA_ARGS__)

enum { N_BALLS = 5 };

/* What the page's probe (#probe=1) wrote: per model its frame time, colour, poses and pixels. */
typedef struct probe_model {
    char label[32];
    double t_s;
    int rgb[3];
    double pose[N_BALLS][7];
    int px[N_BALLS][2], pixel[N_BALLS][3];
    int n_poses, n_pixels;
} probe_model;

/* Loads page.html#fragment of the scratch folder in headless Chromium; its DOM goes to dom_name, its log to log_name. */
static int browse(const char *page, const char *fragment, const char *dom_name,
                  const char *log_name)
{
    char cmd[4096];
    snprintf(cmd, sizeof cmd,
             "cd '%s' && timeout 50 '%s' --headless=new --no-sandbox --use-angle=swiftshader "
             "--enable-unsafe-swiftshader"
             " --enable-logging=stderr --v=0 --virtual-time-budget=3000 --window-size=900,700"
             " --proxy-server=127.0.0.1:9 --proxy-bypass-list='<-loopback>' --no-first-run "
             "--disable-extensions"
             " --disable-background-networking --disable-sync --user-data-dir='%s/chromium-profile'"
             " --dump-dom 'file://%s/%s#%s' >'%s' 2>'%s'",
             scratch, chromium, scratch, scratch, page, fragment, dom_name, log_name);
    return system(cmd);
}

/* The lines of the browser's log that say a script failed. */
static int console_errors(const char *log)
{
    int errors = 0;
    for (const char *p = log; p && *p;) {
        const size_t len = strcspn(p, "\n");
        char line[1024];
        snprintf(line, sizeof line, "%.*s", (int)(len < sizeof line - 1 ? len : sizeof line - 1),
                 p);
        if (strstr(line, "Uncaught") ||
            (strstr(line, "CONSOLE") && (strstr(line, "rror") || strstr(line, "ERROR")))) {
            printf("  browser: %s\n", line);
            errors++;
        }
        p += len + (p[len] == '\n');
    }
    return errors;
}

static probe_model *model_named(probe_model *m, int *n, const char *label)
{
    for (int i = 0; i < *n; i++)
        if (strcmp(m[i].label, label) == 0) return &m[i];
    if (*n == 4) return NULL;
    probe_model *out = &m[(*n)++];
    memset(out, 0, sizeof *out);
    snprintf(out->label, sizeof out->label, "%s", label);
    return out;
}

/* Parses the probe's lines; the number of models. */
static int parse_probe(const char *dom, probe_model *models)
{
    int n = 0;
    const char *p = strstr(dom, "id=\"impax-probe\">");
    for (p = p ? strchr(p, '>') + 1 : NULL; p && *p && *p != '<';
         p += strcspn(p, "\n") + (p[strcspn(p, "\n")] != '\0')) {
        char label[32];
        int b, x, y, c[3];
        double v[7];
        probe_model *m;
        if (sscanf(p, "model %31s %lf %d %d %d", label, &v[0], &c[0], &c[1], &c[2]) == 5 &&
            (m = model_named(models, &n, label))) {
            m->t_s = v[0];
            memcpy(m->rgb, c, sizeof c);
        } else if (sscanf(p, "pose %31s %d %lf %lf %lf %lf %lf %lf %lf", label, &b, &v[0], &v[1],
                          &v[2], &v[3], &v[4], &v[5], &v[6]) == 9 &&
                   b >= 0 && b < N_BALLS && (m = model_named(models, &n, label))) {
            memcpy(m->pose[b], v, sizeof v);
            m->n_poses++;
        } else if (sscanf(p, "pixel %31s %d %d %d %d %d %d", label, &b, &x, &y, &c[0], &c[1],
                          &c[2]) == 7 &&
                   b >= 0 && b < N_BALLS && (m = model_named(models, &n, label))) {
            m->px[b][0] = x, m->px[b][1] = y;
            memcpy(m->pixel[b], c, sizeof c);
            m->n_pixels++;
        }
    }
    return n;
}

/* The row of t's CSV at time t_s, or -1. */
static int row_at(const csv_table *t, double t_s)
{
    for (int r = 0; r < t->n_rows; r++)
        if (fabs(csv_at(t, r, 0) - t_s) < 1e-9) return r;
    return -1;
}

/* The page's poses are the simulation's at the frame's time, to float32's precision. */
static void check_poses(const probe_model *m)
{
    char name[1200]; /* the scratch directory's path, as the other paths here */
    ENSURE(snprintf(name, sizeof name, "%s/%s.csv", scratch, m->label) < (int)sizeof name);
    csv_table t;
    ENSURE(csv_read(name, &t) == 0);
    const int row = row_at(&t, m->t_s);
    ENSURE(row >= 0);
    static const char *const cols[7] = {"x_m", "y_m", "z_m", "qw", "qx", "qy", "qz"};
    for (int b = 0; row >= 0 && b < N_BALLS; b++)
        for (int c = 0; c < 7; c++) {
            char col[64];
            snprintf(col, sizeof col, "cradle::ball%d.%s", b + 1, cols[c]);
            const int k = csv_col(&t, col);
            ENSURE(k >= 0);
            if (k >= 0)
                ENSURE_NEAR(m->pose[b][c], csv_at(&t, row, k),
                            2e-7 * fmax(1.0, fabs(csv_at(&t, row, k))));
        }
    csv_free(&t);
}

static int dominant(const int c[3])
{
    return c[0] >= c[1] && c[0] >= c[2] ? 0 : c[1] >= c[2] ? 1 : 2;
}

/* Under each body's projected centre, with the model shown alone: its colour, lit, not the background. */
static void check_pixels(const probe_model *m, const int background[3])
{
    for (int b = 0; b < m->n_pixels; b++) {
        const int *px = m->pixel[b];
        const int spread =
            abs(px[0] - background[0]) + abs(px[1] - background[1]) + abs(px[2] - background[2]);
        const int ok =
            spread > 60 && dominant(px) == dominant(m->rgb) && m->px[b][0] > 0 && m->px[b][0] < 900;
        if (!ok)
            printf("  %s ball %d at (%d, %d): pixel %d %d %d, model colour %d %d %d\n", m->label,
                   b + 1, m->px[b][0], m->px[b][1], px[0], px[1], px[2], m->rgb[0], m->rgb[1],
                   m->rgb[2]);
        ENSURE(ok);
    }
}

/* Loads scratch/page at t = 0.5 s with the probe in Chromium and checks what every page must
   show: no script error, and each model's n_bodies poses and its colour under each body's
   centre. The models found (at most 4) into found; their number. */
static int probe_page(const char *page, int n_bodies, probe_model *found)
{
    char path[1200];
    snprintf(path, sizeof path, "%s/%s", scratch, page);
    char *html = read_file(path, NULL);
    ENSURE(html && strstr(html, "<script src") == NULL &&
           strstr(html, "REVISION") != NULL); /* three.js inlined */
    free(html);
    ENSURE(browse(page, "t=0.5&probe=1", "dom.html", "browser.log") == 0);
    snprintf(path, sizeof path, "%s/dom.html", scratch);
    char *dom = read_file(path, NULL);
    snprintf(path, sizeof path, "%s/browser.log", scratch);
    char *log = read_file(path, NULL);
    ENSURE(dom && log);
    ENSURE(log && console_errors(log) == 0);
    ENSURE(dom && strstr(dom, "<pre id=\"impax-errors\"></pre>") != NULL);
    const int n = dom ? parse_probe(dom, found) : 0;
    int background[3] = {0, 0, 0};
    const char *bg = dom ? strstr(dom, "background ") : NULL;
    ENSURE(bg &&
           sscanf(bg, "background %d %d %d", &background[0], &background[1], &background[2]) == 3);
    for (int m = 0; m < n; m++) {
        printf("  %s: frame at t = %.9f s, %d poses, %d pixels\n", found[m].label, found[m].t_s,
               found[m].n_poses, found[m].n_pixels);
        ENSURE(fabs(found[m].t_s - 0.5) < 0.5 / 60 && found[m].n_poses == n_bodies &&
               found[m].n_pixels == n_bodies);
        check_pixels(&found[m], background);
    }
    free(dom);
    free(log);
    return n;
}

static void test_cradle_page_shows_where_the_simulation_put_the_balls(void)
{
    cli_result r = EXEC("ab %s --models ode,plus --html cradle.html", cradle);
    ENSURE(r.exit_status == 0);
    cli_result_free(&r);
    const char *models[2] = {"ode", "plus"};
    for (int m = 0; m < 2; m++) {
        r = EXEC("run %s --model %s --out %s.csv", cradle, models[m], models[m]);
        ENSURE(r.exit_status == 0);
        cli_result_free(&r);
    }
    probe_model found[4];
    const int n = probe_page("cradle.html", N_BALLS, found);
    ENSURE(n == 2);
    for (int m = 0; m < n; m++) check_poses(&found[m]);
    /* the models differ at 0.5 s: plus's ball 5 left alone, ode's row moved off together */
    if (n == 2) ENSURE(fabs(found[0].pose[1][0] - found[1].pose[1][0]) > 0.1);
}

/* A cube tossed under plus, recorded at 148 Hz, replayed under ode and plus: the page's
   "recorded" cube is the recording's sample at 0.5 s, plus's reproduces it, ode's differs. */
static void test_replay_page_shows_the_recording_as_a_model(void)
{
    const cli_sample start = {
        0, {0, 0, 0.25}, {0.95, 0.2, 0.1, 0.05}, {1.2, 0.2, -1.5}, {2, -3, 1}};
    char path[1200];
    snprintf(path, sizeof path, "%s/toss.csv", scratch);
    ENSURE(toss_write(cube_world, "plus", "", &start, 0.8, 148, path) == 0);
    cli_result r = EXEC("replay %s --data toss.csv --model ode,plus --html toss.html", cube_world);
    ENSURE(r.exit_status == 0);
    cli_result_free(&r);
    probe_model found[4];
    const int n = probe_page("toss.html", 1, found);
    ENSURE(n == 3 && strcmp(found[0].label, "recorded") == 0 &&
           strcmp(found[2].label, "plus") == 0);
    csv_table t;
    ENSURE(csv_read(path, &t) == 0 && t.n_rows == 119);
    const int row = n == 3 ? row_at(&t, found[0].t_s) : -1; /* 74/148 s */
    ENSURE(row == 74);
    for (int c = 0; row >= 0 && c < 7; c++) {
        const double recorded = csv_at(&t, row, 1 + c);
        ENSURE_NEAR(found[0].pose[0][c], recorded, 2e-7 * fmax(1.0, fabs(recorded)));
        ENSURE_NEAR(found[2].pose[0][c], recorded, 1e-5);
    }
    if (n == 3) ENSURE(fabs(found[1].pose[0][0] - found[0].pose[0][0]) > 1e-3);
    csv_free(&t);
}

/* 50 unit boxes in a 10 x 5 grid, 2 m apart, falling 1 m onto a plane; 5 ms steps. */
static void write_boxes_world(const char *path)
{
    FILE *f = fopen(path, "w");
    ENSURE(f != NULL);
    if (!f) return;
    fprintf(f, "<?xml version=\"1.0\"?>\n<sdf version=\"1.6\"><world name=\"boxes\"><gravity>0 0 "
               "-9.81</gravity>"
               "<physics type=\"ode\"><max_step_size>0.005</max_step_size></physics>"
               "<model name=\"ground\"><static>true</static><link name=\"l\"><collision "
               "name=\"c\"><geometry><plane>"
               "<normal>0 0 1</normal></plane></geometry></collision></link></model>\n");
    for (int i = 0; i < 50; i++)
        fprintf(f,
                "<model name=\"box%d\"><pose>%d %d 1.5 0.1 0.2 0.3</pose><link "
                "name=\"l\"><inertial><mass>1</mass>"
                "<inertia><ixx>0.1667</ixx><iyy>0.1667</iyy><izz>0.1667</izz></inertia></inertial>"
                "<collision name=\"c\"><geometry><box><size>1 1 "
                "1</size></box></geometry></collision></link></model>\n",
                i, 2 * (i % 10), 2 * (i / 10));
    fprintf(f, "</world></sdf>\n");
    fclose(f);
}

static void test_fifty_boxes_for_ten_seconds_stay_under_10_mb(void)
{
    char path[1200];
    snprintf(path, sizeof path, "%s/boxes.world", scratch);
    write_boxes_world(path);
    cli_result r = EXEC("run boxes.world --model plus --duration 10 --html boxes.html");
    if (r.exit_status != 0) printf("%s", r.err);
    ENSURE(r.exit_status == 0);
    cli_result_free(&r);
    snprintf(path, sizeof path, "%s/boxes.html", scratch);
    struct stat st;
    ENSURE(stat(path, &st) == 0);
    printf("  50 boxes, 10 s at 60 frames a second: %.2f MB\n", (double)st.st_size / 1e6);
    ENSURE(st.st_size > 1000000 && st.st_size < 10000000);
}

static void test_unwritable_html_is_refused_before_running(void)
{
    cli_result r = EXEC("ab %s --models ode,plus --html no-such-dir/page.html", cradle);
    ENSURE(r.exit_status == 1 && strstr(r.err, "--html 'no-such-dir/page.html'") != NULL &&
           r.out[0] == '\0');
    cli_result_free(&r);
    r = EXEC("run %s --html no-such-dir/page.html", cradle);
    ENSURE(r.exit_status == 1 && strstr(r.err, "--html 'no-such-dir/page.html'") != NULL &&
           r.out[0] == '\0');
    cli_result_free(&r);
    r = EXEC("replay %s --data x.csv --html no-such-dir/page.html", cradle);
    ENSURE(r.exit_status == 1 && strstr(r.err, "--html 'no-such-dir/page.html'") != NULL &&
           r.out[0] == '\0');
    cli_result_free(&r);
    r = EXEC("run %s --html page.html --html-fps 0", cradle);
    ENSURE(r.exit_status == 2 && strstr(r.err, "--html-fps") != NULL);
    cli_result_free(&r);
    r = EXEC("ab %s --html-fps 30", cradle);
    ENSURE(r.exit_status == 2 && strstr(r.err, "give --html") != NULL);
    cli_result_free(&r);
}

int main(int argc, char **argv)
{
    if (argc != 6) {
        fprintf(stderr,
                "usage: test_cli_html IMPAX CRADLE_WORLD CUBE_WORLD SCRATCH_DIR CHROMIUM\n");
        return 2;
    }
    impax = argv[1];
    cradle = argv[2];
    cube_world = argv[3];
    scratch = argv[4];
    chromium = argv[5];
    ipx_ode_capture_messages(0); /* toss_write's dWorldStep messages: counted, not printed */
    RUN(test_unwritable_html_is_refused_before_running);
    RUN(test_cradle_page_shows_where_the_simulation_put_the_balls);
    RUN(test_replay_page_shows_the_recording_as_a_model);
    RUN(test_fifty_boxes_for_ten_seconds_stay_under_10_mb);
    return ipx_test_exit();
}
