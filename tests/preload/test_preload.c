/* The LD_PRELOAD shim under plain ODE programs that know nothing of impax (tests/clients/) and
   under ODE's own demos (built from Debian's ode source package with our headless drawstuff):
   IMPAX_MODEL=ode is bit-identical to no shim; plus gives the cradle's and the flat brick's
   closed-form answers; the trace is JSON Lines with the documented keys; the summary; a bad
   configuration stops the program with status 2 before it simulates; IMPAX_CAPTURE keeps the
   problems a model failed on; lifetimes churned in two threads; the demos under every
   registered model.
   Arguments: LD_PRELOAD value (sanitizer runtimes first, then the shim), client directory,
   scratch directory, ODE source directory (its demos; "" to skip them), dsstub.c. */
#include <glob.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_run.h"
#include "ensure.h"
#include "impax/impax.h"
#include "json_check.h"
#include "model_test.h"

static const char *preload, *clients, *scratch, *ode_source, *dsstub;

/* Runs client (a path) with "ENV" assignments, the shim preloaded unless env says NOSHIM. */
static cli_result run_client(const char *env, const char *client)
{
    if (strstr(env, "NOSHIM")) return cli_exec("/usr/bin/env", scratch, "%s '%s'", env, client);
    return cli_exec("/usr/bin/env", scratch, "LD_PRELOAD='%s' %s '%s'", preload, env, client);
}

static char *client_path(const char *name)
{
    static char path[4][1024];
    static int next;
    char *p = path[next++ % 4];
    snprintf(p, sizeof path[0], "%s/client_%s", clients, name);
    return p;
}

/* Doubles printed by a client (after an optional leading word). */
static int read_numbers(const char *text, double *x, int max)
{
    int n = 0;
    const char *p = text;
    while (*p && n < max) {
        char *end;
        const double v = strtod(p, &end);
        if (end == p) {
            p++;
            continue;
        }
        x[n++] = v;
        p = end;
    }
    return n;
}

static void test_model_ode_is_bit_identical_to_no_shim(void)
{
    const char *names[2] = {"cradle", "brick"}; /* churn's threads print in any order */
    for (int i = 0; i < 2; i++) {
        cli_result plain = run_client("NOSHIM=1", client_path(names[i]));
        cli_result shim = run_client("IMPAX_MODEL=ode", client_path(names[i]));
        ENSURE(plain.exit_status == 0 && shim.exit_status == 0);
        ENSURE(strlen(plain.out) > 0 && strcmp(plain.out, shim.out) == 0);
        cli_result_free(&plain);
        cli_result_free(&shim);
    }
}

/* Five equal balls, the first at 1 m/s, e = 1: PLUS sends the last one off at 1 m/s and stops
   the others (their 1 nm overlaps leave ODE's push-out, erp depth / h = 2e-7 m/s per contact);
   momentum 1 kg m/s and energy 0.5 J are kept. ODE alone spreads the impulse over every
   contact: the striker bounces back. */
static void test_plus_gives_the_cradle_answer(void)
{
    cli_result plus = run_client("IMPAX_MODEL=plus", client_path("cradle"));
    cli_result ode = run_client("NOSHIM=1", client_path("cradle"));
    double v[5], w[5];
    ENSURE(plus.exit_status == 0 && read_numbers(plus.out, v, 5) == 5);
    ENSURE(read_numbers(ode.out, w, 5) == 5);
    double p = 0.0, T = 0.0;
    for (int i = 0; i < 5; i++) {
        p += v[i];
        T += 0.5 * v[i] * v[i];
        if (i < 4) ENSURE(fabs(v[i]) < 1e-6);
    }
    printf("  plus: last ball %.9f m/s, others below %.1e m/s; ODE alone: striker %.6f m/s\n", v[4],
           fmax(fabs(v[0]), fabs(v[3])), w[0]);
    ENSURE_NEAR(v[4], 1.0, 1e-6);
    ENSURE_NEAR(p, 1.0, 1e-9);
    ENSURE_NEAR(T, 0.5, 1e-6);
    ENSURE(w[0] < -0.1); /* ODE's own answer is the wrong one */
    cli_result_free(&plus);
    cli_result_free(&ode);
}

/* The brick lands flat on four corners: by symmetry no spin and no sideways motion, and the
   rebound is e |v-| before ODE's step adds -g h (the contacts separate: ODE adds nothing). */
static void test_plus_lands_the_brick_flat(void)
{
    cli_result r = run_client("IMPAX_MODEL=plus", client_path("brick"));
    double x[7];
    ENSURE(r.exit_status == 0 && read_numbers(r.out, x, 7) == 7);
    const double vz_before = x[0], vz_after = x[3];
    printf("  brick: %.6f -> %.9f m/s (e |v-| - g h = %.9f), spin %.1e rad/s\n", vz_before,
           vz_after, 0.5 * fabs(vz_before) - 9.81 * 0.001, fmax(fabs(x[4]), fabs(x[5])));
    ENSURE_NEAR(vz_after, 0.5 * fabs(vz_before) - 9.81 * 0.001, 1e-12);
    for (int i = 1; i < 3; i++) ENSURE(fabs(x[i]) < 1e-12);
    for (int i = 4; i < 7; i++) ENSURE(fabs(x[i]) < 1e-12);
    cli_result_free(&r);
}

/* The plastic drop under the shim (both steppers): ODE alone pushes the 4 mm penetration out as
   velocity and the sphere climbs back centimetres; every impulse model with the default
   recovery=position keeps it down (below 1 mm); recovery=ode in IMPAX_PARAMS restores ODE's. */
static void test_plastic_drop_stays_down_under_the_shim(void)
{
    const char *const stepper[2] = {"world", "quick"};
    const char *const models[] = {"plus", "aplcp", "routh", "jia", "bowling"};
    for (int q = 0; q < 2; q++) {
        char path[1100];
        snprintf(path, sizeof path, "%s' '%s", client_path("plastic_drop"), stepper[q]);
        double ode = -1.0, restored = -1.0;
        cli_result r = run_client("NOSHIM=1", path);
        ENSURE(r.exit_status == 0 && read_numbers(r.out, &ode, 1) == 1);
        cli_result_free(&r);
        r = run_client("IMPAX_MODEL=plus IMPAX_PARAMS=recovery=ode", path);
        ENSURE(r.exit_status == 0 && read_numbers(r.out, &restored, 1) == 1);
        cli_result_free(&r);
        printf("  %s: rebound under ODE alone %.4f m, plus with recovery=ode %.4f m\n", stepper[q],
               ode, restored);
        ENSURE(ode > 0.01 && restored > 0.01);
        for (size_t m = 0; m < sizeof models / sizeof *models; m++) {
            char env[64];
            double up = -1.0;
            snprintf(env, sizeof env, "IMPAX_MODEL=%s", models[m]);
            r = run_client(env, path);
            ENSURE(r.exit_status == 0 && read_numbers(r.out, &up, 1) == 1);
            ENSURE(up >= 0.0 && up < 1e-3);
            if (!(up >= 0.0 && up < 1e-3))
                printf("  %s %s: rebound %.4g m\n%s", models[m], stepper[q], up, r.err);
            cli_result_free(&r);
        }
    }
}

static void test_trace_is_json_lines_with_the_documented_keys(void)
{
    char env[1200], path[1024];
    snprintf(path, sizeof path, "%s/cradle.jsonl", scratch);
    snprintf(env, sizeof env, "IMPAX_MODEL=plus IMPAX_TRACE='%s'", path);
    cli_result r = run_client(env, client_path("cradle"));
    ENSURE(r.exit_status == 0);
    char *text = read_file(path, NULL);
    ENSURE(text != NULL);
    /* the checker itself: it rejects what JSON rejects */
    ENSURE(json_check_object("{\"a\":[1,-2.5e3,null],\"b\":\"x\\\"y\"}"));
    ENSURE(!json_check_object("{\"a\":nan}") && !json_check_object("{\"a\":1,}"));
    ENSURE(!json_check_object("{\"a\":01}") && !json_check_object("[1]"));
    int lines = 0;
    static const char *keys[] = {"step",      "time",      "world",    "model",        "contacts",
                                 "status",    "ke_before", "ke_after", "delta_stored", "work_other",
                                 "vn_before", "vn_after",  "impulse",  "energy_frame", "rounds",
                                 "intervals", "lcp_solves"};
    for (char *line = text, *next; text && *line; line = next) {
        next = strchr(line, '\n');
        ENSURE(next != NULL); /* every object ends its line */
        if (!next) break;
        *next++ = '\0';
        lines++;
        ENSURE(json_check_object(line));
        for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
            char quoted[64];
            snprintf(quoted, sizeof quoted, "\"%s\":", keys[k]);
            ENSURE(strstr(line, quoted) != NULL);
        }
        if (lines == 1) { /* the striker hits the row: four contacts, 0.5 J kept */
            ENSURE(strstr(line, "\"model\":\"plus\"") && strstr(line, "\"contacts\":4"));
            ENSURE(strstr(line, "\"status\":\"ok\""));
            ENSURE(strstr(line, "\"ke_before\":0.5,") || strstr(line, "\"ke_before\":0.49999"));
        }
    }
    printf("  %d trace lines\n", lines);
    ENSURE(lines >= 1);
    free(text);
    cli_result_free(&r);
}

static void test_verbose_prints_a_summary_at_exit(void)
{
    cli_result r = run_client("IMPAX_MODEL=plus IMPAX_VERBOSE=1", client_path("cradle"));
    ENSURE(r.exit_status == 0);
    ENSURE(strstr(r.err, "impax: model plus: 1 impact events, 0 left to ODE (fallbacks), 0 "
                         "with limits_hit set") != NULL);
    ENSURE(strstr(r.err, "s in impax, 1 world, 100 steps") != NULL);
    cli_result_free(&r);
    /* PLUS's cost bound at one solve: the cradle's impact is answered by the plastic finish */
    r = run_client("IMPAX_MODEL=plus IMPAX_PARAMS=max_solves=1 IMPAX_VERBOSE=1",
                   client_path("cradle"));
    ENSURE(r.exit_status == 0);
    ENSURE(strstr(r.err, "1 impact events, 0 left to ODE (fallbacks), 1 with limits_hit set") !=
           NULL);
    cli_result_free(&r);
    r = run_client("IMPAX_MODEL=ode IMPAX_VERBOSE=1", client_path("cradle"));
    ENSURE(r.exit_status == 0 && strstr(r.err, "impax: model ode: pass-through") != NULL);
    cli_result_free(&r);
}

/* Occurrences of needle in text. */
static int count_of(const char *text, const char *needle)
{
    int n = 0;
    for (const char *p = text; (p = strstr(p, needle)); p += strlen(needle)) n++;
    return n;
}

/* 1 if the file holds only whole JSON objects, one per line; *lines gets their count. */
static int whole_json_lines(const char *path, int *lines)
{
    char *text = read_file(path, NULL);
    *lines = 0;
    if (!text) return 0;
    int ok = 1;
    for (char *line = text, *next; *line; line = next) {
        next = strchr(line, '\n');
        if (!next) { /* a cut last line */
            ok = 0;
            break;
        }
        *next++ = '\0';
        ok &= json_check_object(line);
        ++*lines;
    }
    free(text);
    return ok;
}

/* Trace writes that fail (issue [hardening] 13): a device that takes nothing (/dev/full: no
   space), a file that takes no writes (/proc/version, as root: an I/O error; otherwise it does
   not open), a file size limit reached mid-line (ulimit -f: the last line would be cut). The
   program runs to the end (status 0), says it once on stderr, stops tracing, the summary says
   so, and the file holds whole lines. Before, every write failed in silence and the file ended
   in a cut line. And a FIFO with no reader, which used to block the program before main, is
   refused at once (status 2). */
static void test_failed_trace_writes_are_said_once_and_stop_the_trace(void)
{
    static const char *const sinks[2] = {"/dev/full", "/proc/version"};
    for (int i = 0; i < 2; i++) {
        char env[256];
        snprintf(env, sizeof env, "IMPAX_MODEL=plus IMPAX_VERBOSE=1 IMPAX_TRACE=%s", sinks[i]);
        cli_result r = run_client(env, client_path("cradle"));
        printf("  %s: status %d, %s", sinks[i], r.exit_status, r.err);
        char named[64];
        snprintf(named, sizeof named, "IMPAX_TRACE='%s'", sinks[i]);
        ENSURE(strstr(r.err, named) != NULL);
        if (r.exit_status == 0) { /* opened: the writes fail */
            ENSURE(count_of(r.err, "tracing stopped") == 1 && count_of(r.err, named) == 1);
            ENSURE(strstr(r.err, "1 impact events") &&
                   strstr(r.err, "trace stopped after 0 events"));
            ENSURE(strstr(r.out, "1.0000") || strlen(r.out) > 0); /* the program ran to its end */
        } else {
            ENSURE(r.exit_status == 2 &&
                   strstr(r.err, "cannot open it for writing")); /* not root */
        }
        cli_result_free(&r);
    }
    /* 2 blocks of 512 bytes (dash's ulimit unit); SIGXFSZ ignored, as a program would */
    cli_result r = cli_exec(
        "/bin/sh", scratch,
        "-c \"rm -f limited.jsonl; trap '' XFSZ; ulimit -f 2; LD_PRELOAD='%s' IMPAX_MODEL=plus "
        "IMPAX_VERBOSE=1 IMPAX_TRACE=limited.jsonl '%s' >/dev/null\"",
        preload, client_path("churn"));
    char path[1100];
    snprintf(path, sizeof path, "%s/limited.jsonl", scratch);
    int lines = 0;
    const int whole = whole_json_lines(path, &lines);
    printf("  ulimit -f 2: status %d, %d whole lines kept; %s", r.exit_status, lines, r.err);
    ENSURE(r.exit_status == 0 && whole && lines >= 1);
    ENSURE(count_of(r.err, "tracing stopped") == 1 && strstr(r.err, "File too large"));
    ENSURE(strstr(r.err, "44 impact events") && strstr(r.err, "trace stopped after"));
    cli_result_free(&r);
    r = cli_exec("/bin/sh", scratch,
                 "-c \"rm -f noreader.fifo; mkfifo noreader.fifo; LD_PRELOAD='%s' IMPAX_MODEL=plus "
                 "IMPAX_TRACE=noreader.fifo timeout 60 '%s'\"",
                 preload, client_path("cradle"));
    printf("  FIFO with no reader: status %d, %s", r.exit_status, r.err);
    ENSURE(r.exit_status == 2 &&
           strstr(r.err, "IMPAX_TRACE='noreader.fifo': a FIFO with no reader"));
    ENSURE(r.out[0] == '\0'); /* refused before main: nothing simulated */
    cli_result_free(&r);
}

/* IMPAX_TRACE set on a wrapper (xvfb-run, a shell script) that starts the program: every
   process of the wrapper loads the shim too. Before, each emptied the file when it started, so
   the commands the wrapper ran after the program (xvfb-run's cleanup) left it empty, and each
   printed its own "0 impact events" summary. Only the process that steps a world touches the
   trace and says a summary. */
static void test_trace_set_on_a_wrapper_holds_the_program_s_events(void)
{
    cli_result r =
        cli_exec("/bin/sh", scratch,
                 "-c \"rm -f wrapped.jsonl; LD_PRELOAD='%s' IMPAX_MODEL=plus IMPAX_VERBOSE=1 "
                 "IMPAX_TRACE=wrapped.jsonl /bin/sh -c '/bin/true; %s; /bin/true; "
                 "/bin/ls >/dev/null'\"",
                 preload, client_path("cradle"));
    char path[1100];
    snprintf(path, sizeof path, "%s/wrapped.jsonl", scratch);
    int lines = 0;
    const int whole = whole_json_lines(path, &lines);
    printf("  wrapped: status %d, %d trace lines; %s", r.exit_status, lines, r.err);
    ENSURE(r.exit_status == 0);
    ENSURE(whole && lines == 1); /* the cradle's one impact */
    ENSURE(count_of(r.err, "impax: model plus:") == 1 && strstr(r.err, "1 impact events"));
    cli_result_free(&r);
}

/* Each bad item: status 2, one line naming it, and nothing simulated (no output). */
static void test_bad_configuration_stops_before_the_program_runs(void)
{
    static const struct {
        const char *env, *says;
    } bad[] = {
        {"IMPAX_MODEL=nosuch", "IMPAX_MODEL='nosuch': unknown model (accepted: ode, "},
        {"IMPAX_MODEL=plus IMPAX_PARAMS=bogus=1", "bogus"},
        {"IMPAX_MODEL=plus IMPAX_PARAMS=theta_max=nan", "theta_max"},
        {"IMPAX_MODEL=ode IMPAX_PARAMS=v_plastic=0.1", "model 'ode'"},
        {"IMPAX_SEED=-3", "IMPAX_SEED='-3'"},
        {"IMPAX_VERBOSE=yes", "IMPAX_VERBOSE='yes'"},
        {"IMPAX_TRACE=/nonexistent/dir/trace.jsonl", "IMPAX_TRACE='/nonexistent/dir/trace.jsonl'"},
        {"IMPAX_CAPTURE=/nonexistent/dir", "IMPAX_CAPTURE='/nonexistent/dir': not a directory"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cli_result r = run_client(bad[i].env, client_path("cradle"));
        ENSURE(r.exit_status == 2);
        ENSURE(strncmp(r.err, "impax: ", 7) == 0 && strstr(r.err, bad[i].says) != NULL);
        ENSURE(strchr(r.err, '\n') == r.err + strlen(r.err) - 1); /* one line */
        ENSURE(r.out[0] == '\0');
        if (r.exit_status != 2 || !strstr(r.err, bad[i].says))
            fprintf(stderr, "  %s: status %d, said: %s\n", bad[i].env, r.exit_status, r.err);
        cli_result_free(&r);
    }
}

/* IMPAX_CAPTURE: aplcp made to fail (one sweep of its iterative solver, no dense fallback, no
   exact blocks, no loose answer) on the brick's flat landing, four corner contacts at once. Each event left to
   ODE is written to the directory, with a note of why; the first is the landing itself: four
   contacts with the brick's surface (mu 0.5, bounce 0.5 above 1 cm/s), v_tol = accuracy_steps
   |g| h, the same approach at every corner (the brick is flat), and aplcp at its defaults brings
   all four to rest from the problem read back (an inelastic flat landing), asked exactly. */
static void test_capture_keeps_the_problems_a_model_failed_on(void)
{
    cli_result r = cli_exec(
        "/bin/sh", scratch,
        "-c \"rm -rf captures; mkdir captures; LD_PRELOAD='%s' IMPAX_MODEL=aplcp IMPAX_VERBOSE=1 "
        "IMPAX_PARAMS=lcp_switch=1,max_sweeps=1,lcp_fallback=0,lcp_accept=0,block_rounds=0,"
        "accuracy_steps=2 "
        "IMPAX_CAPTURE=captures '%s'\"",
        preload, client_path("brick"));
    printf("  brick under a failing aplcp: status %d, %s", r.exit_status, r.err);
    ENSURE(r.exit_status == 0 && strstr(r.err, "captured in captures") != NULL);
    cli_result_free(&r);
    char pattern[1100];
    snprintf(pattern, sizeof pattern, "%s/captures/impax-*-0.ipxp", scratch);
    glob_t g;
    ENSURE(glob(pattern, 0, NULL, &g) == 0 && g.gl_pathc == 1);
    if (g.gl_pathc != 1) return;
    FILE *f = fopen(g.gl_pathv[0], "rb");
    ENSURE(f != NULL);
    if (!f) return;
    ipx_problem_record rec;
    char message[256] = "";
    ENSURE(ipx_problem_read(f, &rec, message, sizeof message) == 1);
    fclose(f);
    const ipx_problem *p = &rec.problem;
    ENSURE(p->k == 4);
    if (p->k != 4) return;
    ENSURE_NEAR(p->v_tol, 2 * 9.81 * 0.001, 1e-15);
    for (int i = 0; i < 4; i++) {
        ENSURE(p->contact[i].mu == 0.5 && p->contact[i].e == 0.5 &&
               p->contact[i].v_capture == 0.01);
        ENSURE(p->v[3 * i + IPX_N] < 0.0);
        ENSURE_NEAR(p->v[3 * i + IPX_N], p->v[IPX_N], 1e-12);
    }
    const ipx_params par = ipx_test_params("aplcp", "");
    ipx_workspace *ws = ipx_workspace_create(&par, p->k);
    ipx_result res;
    ipx_problem exact = *p; /* v_tol = 0: the dense Lemke, not the iterative solver to v_tol */
    exact.v_tol = 0.0;
    ENSURE(ipx_solve(&par, &exact, ws, &res) == IPX_OK);
    for (int i = 0; i < 4; i++) ENSURE(fabs(res.v_post[3 * i + IPX_N]) < 1e-9);
    ipx_workspace_destroy(ws);
    ipx_problem_record_free(&rec);
    /* the note beside it */
    char note_path[1100], note[1024] = "";
    snprintf(note_path, sizeof note_path, "%.1090s", g.gl_pathv[0]);
    memcpy(note_path + strlen(note_path) - 4, "txt", 4);
    f = fopen(note_path, "r");
    ENSURE(f != NULL);
    if (f) {
        note[fread(note, 1, sizeof note - 1, f)] = '\0';
        fclose(f);
    }
    printf("  %s:\n%s", note_path, note);
    ENSURE(strstr(note, "model aplcp\n") && strstr(note, "max_sweeps=1") && strstr(note, "k 4\n") &&
           strstr(note, "iterative LCP solver reached residual"));
    globfree(&g);
}

/* The note gives the parameters the model ran with: under IMPAX_SEED, routh's seed is the
   shim's (offset by the world's index, 0 for the brick's one world), not the default of its
   IMPAX_PARAMS. routh is made to fail as aplcp is above. */
static void test_capture_notes_the_seed_the_world_ran_with(void)
{
    cli_result r = cli_exec(
        "/bin/sh", scratch,
        "-c \"rm -rf seeded; mkdir seeded; LD_PRELOAD='%s' IMPAX_MODEL=routh IMPAX_SEED=7 "
        "IMPAX_PARAMS=lcp_switch=1,max_sweeps=1,lcp_fallback=0,lcp_accept=0,block_rounds=0 "
        "IMPAX_CAPTURE=seeded '%s' && cat seeded/impax-*-0.txt\"",
        preload, client_path("brick"));
    printf("  brick under a failing routh, IMPAX_SEED=7: status %d, note:\n%s", r.exit_status,
           r.out);
    ENSURE(r.exit_status == 0 && strstr(r.out, "model routh\n") && strstr(r.out, "world 0\n"));
    ENSURE(strstr(r.out, ",seed=7,") != NULL);
    cli_result_free(&r);
}

/* Two worlds in two threads, bodies destroyed under live contacts, groups destroyed and made
   again, a loose contact destroyed, a world destroyed with a full group: every model runs it
   through (the sanitizers, or valgrind in the plain build, judge the memory). */
static void test_lifetimes_churned_in_two_threads(void)
{
    for (int m = 0; m < ipx_model_count(); m++) {
        char env[128];
        snprintf(env, sizeof env, "IMPAX_MODEL=%s IMPAX_VERBOSE=1", ipx_model_at(m)->name);
        cli_result r = run_client(env, client_path("churn"));
        ENSURE(r.exit_status == 0);
        int rounds = 0;
        for (const char *p = r.out; (p = strstr(p, " steps\n")); p++) rounds++;
        ENSURE(rounds == 4);
        ENSURE(strstr(r.err, "4 worlds, 1304 steps") != NULL);
        cli_result_free(&r);
    }
    cli_result a = run_client("IMPAX_MODEL=routh IMPAX_SEED=7", client_path("cradle"));
    cli_result b = run_client("IMPAX_MODEL=routh IMPAX_SEED=7", client_path("cradle"));
    ENSURE(a.exit_status == 0 && strcmp(a.out, b.out) == 0); /* same seed, same run */
    cli_result_free(&a);
    cli_result_free(&b);
}

/* Builds ODE demo `name` (file in the source's ode/demo) with our drawstuff into scratch. */
static int build_demo(const char *demo_dir, const char *file, const char *name)
{
    char args[4096];
    const int cpp = strstr(file, ".cpp") != NULL;
    snprintf(args, sizeof args,
             "-O1 -w -idirafter '%s/../../include' -I'%s' -DDRAWSTUFF_TEXTURE_PATH='\"/none\"' "
             "'%s/%s' '%s/dsstub.o' -o '%s' -lode -lm",
             demo_dir, demo_dir, demo_dir, file, scratch, name);
    cli_result r = cli_exec(cpp ? "c++" : "cc", scratch, "%s", args);
    if (r.exit_status != 0) fprintf(stderr, "  building %s: %s\n", file, r.err);
    const int ok = r.exit_status == 0;
    cli_result_free(&r);
    return ok;
}

static long summary_count(const char *err, const char *what)
{
    const char *p = strstr(err, what);
    if (!p) return -1;
    while (p > err && p[-1] != ' ' && p[-1] != ':') p--;
    while (p > err && p[-1] == ' ') p--;
    while (p > err && p[-1] >= '0' && p[-1] <= '9') p--;
    return strtol(p, NULL, 10);
}

static void test_ode_demos_run_under_every_model(void)
{
    char demo_dir[1024], probe[1200];
    snprintf(demo_dir, sizeof demo_dir, "%s/ode/demo", ode_source);
    snprintf(probe, sizeof probe, "%s/demo_chain1.c", demo_dir);
    char *found = read_file(probe, NULL);
    if (!found)
        fprintf(stderr, "  no ODE demos at %s: `make test` fetches them (apt-get source ode)\n",
                demo_dir);
    ENSURE(found != NULL);
    free(found);
    if (!found) return;
    cli_result stub = cli_exec("cc", scratch, "-c -w -idirafter '%s/include' '%s' -o dsstub.o",
                               ode_source, dsstub);
    ENSURE(stub.exit_status == 0);
    cli_result_free(&stub);
    ENSURE(build_demo(demo_dir, "demo_boxstack.cpp", "demo_boxstack"));
    ENSURE(build_demo(demo_dir, "demo_chain1.c", "demo_chain1"));
    static const char *demos[2] = {"demo_boxstack", "demo_chain1"};
    /* boxstack drops nothing by itself: keys b (box), s (sphere), c (capsule), x (composite),
       y (cylinder), v (convex), one every 20 frames */
    static const char *keys = "b@0,s@20,b@40,c@60,b@80,x@100,y@120,v@140,b@160,s@180";
    for (int m = 0; m < ipx_model_count(); m++) {
        const char *model = ipx_model_at(m)->name;
        for (int d = 0; d < 2; d++) {
            char env[2048], path[1200], trace[1024];
            snprintf(trace, sizeof trace, "%s/%s_%s.jsonl", scratch, demos[d], model);
            /* the demos' contacts have mu = dInfinity: every model takes them as they are */
            snprintf(env, sizeof env,
                     "DS_FRAMES=600 DS_CMDS=%s IMPAX_MODEL=%s IMPAX_VERBOSE=1 IMPAX_TRACE='%s'",
                     keys, model, trace);
            snprintf(path, sizeof path, "%s/%s", scratch, demos[d]);
            cli_result r = run_client(env, path);
            char *text = read_file(trace, NULL);
            const long events = summary_count(r.err, "impact events");
            printf("  %-14s %-8s exit %d, %ld impact events, %ld left to ODE\n", demos[d], model,
                   r.exit_status, events, summary_count(r.err, "left to ODE"));
            ENSURE(r.exit_status == 0);
            ENSURE(events > 0);
            ENSURE(text && !strstr(text, "nan") && !strstr(text, "null,\"ke_after\""));
            ENSURE(!strstr(r.out, "nan"));
            free(text);
            cli_result_free(&r);
        }
    }
}

int main(int argc, char **argv)
{
    if (argc != 6) {
        fprintf(stderr, "usage: test_preload PRELOAD CLIENT_DIR SCRATCH ODE_SOURCE DSSTUB_C\n");
        return 2;
    }
    preload = argv[1], clients = argv[2], scratch = argv[3], ode_source = argv[4], dsstub = argv[5];
    RUN(test_model_ode_is_bit_identical_to_no_shim);
    RUN(test_plus_gives_the_cradle_answer);
    RUN(test_plus_lands_the_brick_flat);
    RUN(test_plastic_drop_stays_down_under_the_shim);
    RUN(test_trace_is_json_lines_with_the_documented_keys);
    RUN(test_verbose_prints_a_summary_at_exit);
    RUN(test_failed_trace_writes_are_said_once_and_stop_the_trace);
    RUN(test_trace_set_on_a_wrapper_holds_the_program_s_events);
    RUN(test_bad_configuration_stops_before_the_program_runs);
    RUN(test_capture_keeps_the_problems_a_model_failed_on);
    RUN(test_capture_notes_the_seed_the_world_ran_with);
    RUN(test_lifetimes_churned_in_two_threads);
    RUN(test_ode_demos_run_under_every_model);
    return ipx_test_exit();
}
