/// `impax ab/run --html` end to end in a real browser (headless Chromium, SwiftShader, no
/// network): the Newton's cradle page of every model loads without a console error, its poses
/// at t = 0.5 s are the simulation's (impax run --out's rows, to float32 precision); with all
/// models shown at once, each model has a lane of its own and its colour (model_colours.c's, the
/// one table) under each of its bodies' projected centres in that lane, and every body stays in
/// its lane's view over the whole run; the box bin's pile shows over the bin's front wall and
/// the rocking block's top is in view; the energy strip's range holds the curves inside its
/// frame, with more than two ticks of at most three significant digits; a 10 s page of 50
/// falling boxes at 60 frames a second stays under 10 MB; a replay's page shows the recording as
/// one more model, where it was recorded; an unwritable --html is refused before anything runs.
/// argv: impax binary, the worlds directory, scratch directory, chromium.
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli_run.h"
#include "ensure.h"
#include "impax/ode.h"
#include "model_colours.h"
#include "replay.h"
#include "toss_gen.h"

static const char *impax, *worlds, *scratch, *chromium;
static char cradle[1024], cube_world[1024];

#define EXEC(...) cli_exec(impax, scratch, __VA_ARGS__)

enum { N_BALLS = 5, MAX_BODIES = 32, MAX_MODELS = 8 };

/* What the page's probe (#probe=1) wrote: per model its frame time, colour, lane (x, y, w, h in
   CSS pixels), poses and pixels, and how far its bodies reach in its lane's view (-1..1). */
typedef struct probe_model {
    char label[32];
    double t_s, fit;
    int rgb[3], lane[4];
    double pose[MAX_BODIES][7];
    int px[MAX_BODIES][2], pixel[MAX_BODIES][3];
    int n_poses, n_pixels, has_lane, has_fit;
} probe_model;

/* What the probe says of the energy strip: the energies' range, the axis, the ticks. */
typedef struct probe_energy {
    double lo, hi, axis_lo, axis_hi;
    int n_ticks;
    double tick[32];
    char label[32][32];
} probe_energy;

/* Loads page.html#fragment of the scratch folder in headless Chromium; its DOM goes to dom_name, its log to log_name. */
static int browse(const char *page, const char *fragment, const char *dom_name,
                  const char *log_name)
{
    char cmd[4096];
    snprintf(cmd, sizeof cmd,
             "cd '%s' && timeout 50 '%s' --headless=new --no-sandbox --use-angle=swiftshader "
             "--enable-unsafe-swiftshader"
             " --enable-logging=stderr --v=0 --virtual-time-budget=3000 --window-size=1200,800"
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
    if (*n == MAX_MODELS) return NULL;
    probe_model *out = &m[(*n)++];
    memset(out, 0, sizeof *out);
    snprintf(out->label, sizeof out->label, "%s", label);
    return out;
}

/* Parses the probe's lines into models and energy; the number of models. */
static int parse_probe(const char *dom, probe_model *models, probe_energy *energy)
{
    int n = 0;
    memset(energy, 0, sizeof *energy);
    const char *p = strstr(dom, "id=\"impax-probe\">");
    for (p = p ? strchr(p, '>') + 1 : NULL; p && *p && *p != '<';
         p += strcspn(p, "\n") + (p[strcspn(p, "\n")] != '\0')) {
        char label[32];
        int b, x, y, c[4];
        double v[7];
        probe_model *m;
        if (sscanf(p, "model %31s %lf %d %d %d", label, &v[0], &c[0], &c[1], &c[2]) == 5 &&
            (m = model_named(models, &n, label))) {
            m->t_s = v[0];
            memcpy(m->rgb, c, 3 * sizeof *c);
        } else if (sscanf(p, "lane %31s %d %d %d %d", label, &c[0], &c[1], &c[2], &c[3]) == 5 &&
                   (m = model_named(models, &n, label))) {
            memcpy(m->lane, c, sizeof c);
            m->has_lane = 1;
        } else if (sscanf(p, "fit %31s %lf", label, &v[0]) == 2 &&
                   (m = model_named(models, &n, label))) {
            m->fit = v[0];
            m->has_fit = 1;
        } else if (sscanf(p, "pose %31s %d %lf %lf %lf %lf %lf %lf %lf", label, &b, &v[0], &v[1],
                          &v[2], &v[3], &v[4], &v[5], &v[6]) == 9 &&
                   b >= 0 && b < MAX_BODIES && (m = model_named(models, &n, label))) {
            memcpy(m->pose[b], v, sizeof v);
            m->n_poses++;
        } else if (sscanf(p, "pixel %31s %d %d %d %d %d %d", label, &b, &x, &y, &c[0], &c[1],
                          &c[2]) == 7 &&
                   b >= 0 && b < MAX_BODIES && (m = model_named(models, &n, label))) {
            m->px[b][0] = x, m->px[b][1] = y;
            memcpy(m->pixel[b], c, 3 * sizeof *c);
            m->n_pixels++;
        } else if (sscanf(p, "energy %lf %lf axis %lf %lf", &energy->lo, &energy->hi,
                          &energy->axis_lo, &energy->axis_hi) == 4) {
        } else if (energy->n_ticks < 32 &&
                   sscanf(p, "etick %lf %31s", &energy->tick[energy->n_ticks],
                          energy->label[energy->n_ticks]) == 2) {
            energy->n_ticks++;
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

/* How far pixel px is from colour c lit at brightness k (the best k in [0.35, 1.6]: shading
   darkens a face, a highlight brightens it), in the 0..255 units of the channels. */
static double lit_distance(const int px[3], const unsigned char c[3])
{
    double pc = 0, cc = 0;
    for (int i = 0; i < 3; i++) pc += px[i] * (double)c[i], cc += (double)c[i] * c[i];
    const double k = fmin(1.6, fmax(0.35, pc / cc));
    double d = 0;
    for (int i = 0; i < 3; i++) d += (px[i] - k * c[i]) * (px[i] - k * c[i]);
    return sqrt(d);
}

/* The index of the table's colour (model_colours.h) px is nearest to, lit; -1 if px is grey
   (a wall, the ground, the background: its channels within 12 of each other). */
static int nearest_colour(const int px[3])
{
    const int lo =
        px[0] < px[1] ? (px[0] < px[2] ? px[0] : px[2]) : (px[1] < px[2] ? px[1] : px[2]);
    const int hi =
        px[0] > px[1] ? (px[0] > px[2] ? px[0] : px[2]) : (px[1] > px[2] ? px[1] : px[2]);
    int best = -1;
    if (hi - lo <= 12) { /* grey: a grey entry's (the recording's) if it is that dark, lit */
        for (int i = 0; i < MODEL_COLOURS_NAMED; i++) {
            unsigned char c[3];
            model_colour(model_colour_name(i), c);
            if (c[0] == c[1] && c[1] == c[2] && lit_distance(px, c) < 30) best = i;
        }
        return best;
    }
    double best_d = INFINITY;
    for (int i = 0; i < MODEL_COLOURS_NAMED; i++) {
        unsigned char c[3];
        model_colour(model_colour_name(i), c);
        const double d = lit_distance(px, c);
        if (d < best_d) best_d = d, best = i;
    }
    return best;
}

/* The probe's colour of m is the table's. */
static void check_colour(const probe_model *m)
{
    unsigned char c[3];
    model_colour(m->label, c);
    const int ok = m->rgb[0] == c[0] && m->rgb[1] == c[1] && m->rgb[2] == c[2];
    if (!ok)
        printf("  %s: page colour %d %d %d, table %d %d %d\n", m->label, m->rgb[0], m->rgb[1],
               m->rgb[2], c[0], c[1], c[2]);
    ENSURE(ok);
}

/* 1 if body b's projected centre is inside m's lane. */
static int in_lane(const probe_model *m, int b)
{
    return m->px[b][0] > m->lane[0] && m->px[b][0] < m->lane[0] + m->lane[2] &&
           m->px[b][1] > m->lane[1] && m->px[b][1] < m->lane[1] + m->lane[3];
}

/* With every model shown: m's bodies' centres are in m's lane, and body b (all if must_show is
   NULL, else those with must_show[b]) has m's colour (the table's entry for its name) under its
   centre; no centre shows another model's colour. The bodies in m's colour. */
static int check_pixels(const probe_model *m, const int *must_show)
{
    unsigned char own[3];
    model_colour(m->label, own);
    int own_index = -1, shown = 0;
    for (int i = 0; i < MODEL_COLOURS_NAMED; i++) {
        unsigned char c[3];
        model_colour(model_colour_name(i), c);
        if (memcmp(c, own, 3) == 0) own_index = i;
    }
    ENSURE(own_index >= 0);
    for (int b = 0; b < m->n_pixels; b++) {
        const int seen = nearest_colour(m->pixel[b]);
        const int ok =
            in_lane(m, b) && (seen == own_index || (seen < 0 && must_show && !must_show[b]));
        shown += seen == own_index;
        if (!ok)
            printf("  %s body %d at (%d, %d), lane %d %d %d %d: pixel %d %d %d (nearest %s)\n",
                   m->label, b, m->px[b][0], m->px[b][1], m->lane[0], m->lane[1], m->lane[2],
                   m->lane[3], m->pixel[b][0], m->pixel[b][1], m->pixel[b][2],
                   seen >= 0 ? model_colour_name(seen) : "grey");
        ENSURE(ok);
    }
    return shown;
}

/* Lanes do not overlap: no model's lane meets another's. */
static void check_lanes_apart(const probe_model *m, int n)
{
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) {
            const int *a = m[i].lane, *b = m[j].lane;
            const int apart = a[0] + a[2] <= b[0] || b[0] + b[2] <= a[0] || a[1] + a[3] <= b[1] ||
                              b[1] + b[3] <= a[1];
            if (!apart) printf("  lanes of %s and %s overlap\n", m[i].label, m[j].label);
            ENSURE(apart);
        }
}

/* The energy strip: every energy strictly inside the axis (1 % of it clear of the frame), more
   than two ticks, each labelled with its value in at most three significant digits. */
static void check_energy_strip(const probe_energy *e)
{
    const double span = e->axis_hi - e->axis_lo;
    printf("  energy %.6g to %.6g J on an axis %.6g to %.6g J, %d ticks\n", e->lo, e->hi,
           e->axis_lo, e->axis_hi, e->n_ticks);
    ENSURE(span > 0 && e->lo - e->axis_lo > 0.01 * span && e->axis_hi - e->hi > 0.01 * span);
    ENSURE(e->n_ticks > 2);
    for (int i = 0; i < e->n_ticks; i++) {
        int digits = 0, leading = 1;
        for (const char *c = e->label[i]; *c; c++)
            if (*c >= '0' && *c <= '9' && !(leading && *c == '0')) digits++, leading = 0;
        const double value = strtod(e->label[i], NULL);
        const int ok = digits <= 3 && fabs(value - e->tick[i]) <= 1e-9 * fmax(1, fabs(value)) &&
                       e->tick[i] >= e->axis_lo && e->tick[i] <= e->axis_hi;
        if (!ok) printf("  tick %.17g labelled '%s'\n", e->tick[i], e->label[i]);
        ENSURE(ok);
    }
}

/* Loads scratch/page at fragment with the probe in Chromium and checks what every page must
   show: no script error; each model's n_bodies poses, its colour the table's, a lane of its own,
   its bodies inside the lane's view over the whole run; the energy strip. The models found (at
   most MAX_MODELS) into found; their number. */
static int probe_page(const char *page, const char *fragment, int n_bodies, probe_model *found)
{
    char path[1200];
    snprintf(path, sizeof path, "%s/%s", scratch, page);
    char *html = read_file(path, NULL);
    ENSURE(html && strstr(html, "<script src") == NULL &&
           strstr(html, "REVISION") != NULL); /* three.js inlined */
    free(html);
    ENSURE(browse(page, fragment, "dom.html", "browser.log") == 0);
    snprintf(path, sizeof path, "%s/dom.html", scratch);
    char *dom = read_file(path, NULL);
    snprintf(path, sizeof path, "%s/browser.log", scratch);
    char *log = read_file(path, NULL);
    ENSURE(dom && log);
    ENSURE(log && console_errors(log) == 0);
    ENSURE(dom && strstr(dom, "<pre id=\"impax-errors\"></pre>") != NULL);
    probe_energy energy;
    const int n = dom ? parse_probe(dom, found, &energy) : 0;
    for (int m = 0; m < n; m++) {
        printf("  %s: frame at t = %.9f s, %d poses, %d pixels, lane %d %d %d %d, reach %.3f\n",
               found[m].label, found[m].t_s, found[m].n_poses, found[m].n_pixels, found[m].lane[0],
               found[m].lane[1], found[m].lane[2], found[m].lane[3], found[m].fit);
        ENSURE(found[m].n_poses == n_bodies && found[m].n_pixels == n_bodies && found[m].has_lane &&
               found[m].has_fit);
        ENSURE(found[m].fit < 1.0); /* every body, every frame: inside the view */
        check_colour(&found[m]);
    }
    check_lanes_apart(found, n);
    check_energy_strip(&energy);
    free(dom);
    free(log);
    return n;
}

/* The cradle under every model at once (ab's default): each model in its own lane, its colour
   under each ball; plus, routh and aplcp put the balls in the same places, which one view of all
   would show as one colour. */
static void test_cradle_page_shows_every_model_in_a_lane_of_its_own(void)
{
    cli_result r = EXEC("ab %s --html cradle.html", cradle);
    ENSURE(r.exit_status == 0);
    cli_result_free(&r);
    const char *models[2] = {"ode", "plus"};
    for (int m = 0; m < 2; m++) {
        r = EXEC("run %s --model %s --out %s.csv", cradle, models[m], models[m]);
        ENSURE(r.exit_status == 0);
        cli_result_free(&r);
    }
    probe_model found[MAX_MODELS];
    const int n = probe_page("cradle.html", "t=0.5&probe=1", N_BALLS, found);
    ENSURE(n == 7);
    for (int m = 0; m < n; m++) {
        ENSURE(fabs(found[m].t_s - 0.5) < 0.5 / 60);
        check_pixels(&found[m], NULL);
        if (strcmp(found[m].label, "ode") == 0 || strcmp(found[m].label, "plus") == 0)
            check_poses(&found[m]);
    }
    /* the models differ at 0.5 s: plus's ball 5 left alone, ode's row moved off together */
    if (n == 7) ENSURE(fabs(found[0].pose[1][0] - found[1].pose[1][0]) > 0.1);
}

/* The box bin (27 boxes, four walls 0.3 m high) at 0.9 s, the pile at rest, under four models:
   the top layer of each model's pile (its nine highest boxes) shows in the model's colour over
   the front wall, and no box's centre shows another model's colour. */
static void test_box_bin_pile_shows_over_the_front_wall(void)
{
    cli_result r =
        EXEC("ab %s/box_bin.world --models ode,plus,routh,aplcp --html bin.html", worlds);
    ENSURE(r.exit_status == 0);
    cli_result_free(&r);
    probe_model found[MAX_MODELS];
    const int n = probe_page("bin.html", "t=0.9&probe=1", 27, found);
    ENSURE(n == 4);
    for (int m = 0; m < n; m++) {
        int top[MAX_BODIES] = {0};
        for (int k = 0; k < 9; k++) { /* the k-th highest box */
            int best = -1;
            for (int b = 0; b < 27; b++)
                if (!top[b] && (best < 0 || found[m].pose[b][2] > found[m].pose[best][2])) best = b;
            top[best] = 1;
        }
        const int shown = check_pixels(&found[m], top);
        printf("  %s: %d of 27 box centres in its colour\n", found[m].label, shown);
    }
}

/* The rocking block, 2 m tall, under four models: all of it in each lane's view. */
static void test_rocking_block_is_in_view(void)
{
    cli_result r = EXEC("ab %s/routh_rocking_block.world --models ode,plus,routh,aplcp --html "
                        "block.html",
                        worlds);
    ENSURE(r.exit_status == 0);
    cli_result_free(&r);
    probe_model found[MAX_MODELS];
    const int n = probe_page("block.html", "t=0.5&probe=1", 1, found);
    ENSURE(n == 4);
    for (int m = 0; m < n; m++) check_pixels(&found[m], NULL);
}

/* A cube tossed under plus, recorded at 148 Hz, replayed under ode and plus: the page's
   "recorded" cube is the recording's sample at 0.5 s, plus's reproduces it, ode's differs. The
   page stores the bodies' own poses: the cube's centre of mass and axes (its centre 5.3 mm off:
   replay.h's frame), what the recording's sample makes of them. */
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
    probe_model found[MAX_MODELS];
    const int n = probe_page("toss.html", "t=0.5&probe=1", 1, found);
    ENSURE(n == 3 && strcmp(found[0].label, "recorded") == 0 &&
           strcmp(found[2].label, "plus") == 0);
    for (int m = 0; m < n; m++) {
        ENSURE(fabs(found[m].t_s - 0.5) < 0.5 / 60);
        check_pixels(&found[m], NULL);
    }
    csv_table t;
    ENSURE(csv_read(path, &t) == 0 && t.n_rows == 119);
    const int row = n == 3 ? row_at(&t, found[0].t_s) : -1; /* 74/148 s */
    ENSURE(row == 74);
    ipx_scene *scene = toss_scene_load(cube_world);
    ENSURE(scene != NULL);
    const cli_body_frame frame = scene ? cli_replay_frame(scene) : cli_body_frame_identity();
    if (scene) ipx_scene_free(scene);
    cli_sample tracked = {0}, body;
    for (int c = 0; row >= 0 && c < 7; c++)
        *(c < 3 ? &tracked.x_m[c] : &tracked.q[c - 3]) = csv_at(&t, row, 1 + c);
    cli_body_frame_to_body(&frame, &tracked, &body);
    for (int c = 0; row >= 0 && c < 7; c++) {
        const double recorded = c < 3 ? body.x_m[c] : body.q[c - 3];
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
    ENSURE(r.exit_status == 2 && strstr(r.err, "--html 'no-such-dir/page.html'") != NULL &&
           r.out[0] == '\0');
    cli_result_free(&r);
    r = EXEC("run %s --html no-such-dir/page.html", cradle);
    ENSURE(r.exit_status == 2 && strstr(r.err, "--html 'no-such-dir/page.html'") != NULL &&
           r.out[0] == '\0');
    cli_result_free(&r);
    r = EXEC("replay %s --data x.csv --html no-such-dir/page.html", cradle);
    ENSURE(r.exit_status == 2 && strstr(r.err, "--html 'no-such-dir/page.html'") != NULL &&
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
    if (argc != 5) {
        fprintf(stderr, "usage: test_cli_html IMPAX WORLDS_DIR SCRATCH_DIR CHROMIUM\n");
        return 2;
    }
    impax = argv[1];
    worlds = argv[2];
    scratch = argv[3];
    chromium = argv[4];
    snprintf(cradle, sizeof cradle, "%s/plus_ex3_newtons_cradle.world", worlds);
    snprintf(cube_world, sizeof cube_world, "%s/cube_toss.world", worlds);
    ipx_ode_capture_messages(0); /* toss_write's dWorldStep messages: counted, not printed */
    RUN(test_unwritable_html_is_refused_before_running);
    RUN(test_cradle_page_shows_every_model_in_a_lane_of_its_own);
    RUN(test_box_bin_pile_shows_over_the_front_wall);
    RUN(test_rocking_block_is_in_view);
    RUN(test_replay_page_shows_the_recording_as_a_model);
    RUN(test_fifty_boxes_for_ten_seconds_stay_under_10_mb);
    return ipx_test_exit();
}
