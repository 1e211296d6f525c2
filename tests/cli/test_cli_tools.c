/// The `impax` command's tools around the simulations: `set` on an outcome set that is one point
/// (it hung inside PLplot) with its progress and its reasons for discarded samples; `impax models`
/// (every registered model with its parameters), `--version`, `--quiet`, and `run --trace` (one
/// valid JSON object per impact event, with the documented keys).
/// argv: impax binary, worlds directory, scratch directory, the project's version,
/// tests/cli/worlds/zero_slip_block.world (ODE's LCP fails in every step of it).
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli_run.h"
#include "ensure.h"
#include "impax/registry.h"
#include "json_check.h"

static const char *impax, *worlds_dir, *scratch, *version, *zero_slip;

#define EXEC(...) cli_exec(impax, scratch, __VA_ARGS__)

/* 1 if scratch/name is a PNG of more than 1000 bytes. */
static void test_set_on_a_one_point_outcome_set_finishes_and_plots(void)
{
    /* A ball on a plane with Poisson restitution: every sample is the same outcome, equal to
       round-off; the plot's axis had a span of a few ulps and PLplot looped forever. */
    cli_result r =
        cli_exec("timeout", scratch,
                 "120 '%s' set '%s/gonthier_bouncing_sphere.world' --params poisson_restitution=1 "
                 "--samples 100 --plot one_point.png",
                 impax, worlds_dir);
    printf("%s%s", r.out, r.err);
    ENSURE(r.exit_status == 0); /* 124: timed out */
    ENSURE(strstr(r.out, "100 samples: 100 kept") != NULL);
    ENSURE(strstr(r.out, "-0.0000") == NULL);
    ENSURE(png_written(scratch, "one_point.png"));
    cli_result_free(&r);
}

static void test_set_says_why_samples_were_discarded(void)
{
    cli_result r =
        EXEC("set '%s/routh_rocking_block.world' --samples 100 --params max_steps=1", worlds_dir);
    printf("%s", r.out);
    ENSURE(r.exit_status == 0);
    ENSURE(strstr(r.out, "unterminated") != NULL);
    ENSURE(strstr(r.out, "had not ended the impact after max_steps = 1 impulse steps") != NULL);
    cli_result_free(&r);
}

static void test_set_checks_its_outputs_before_simulating(void)
{
    cli_result r = EXEC("set '%s/routh_rocking_block.world' --plot /nonexistent/x.png", worlds_dir);
    ENSURE(r.exit_status == 2 && strstr(r.err, "--plot '/nonexistent/x.png'") != NULL);
    ENSURE(strstr(r.out, "first impact") == NULL); /* nothing simulated */
    cli_result_free(&r);
    char png[1100];
    snprintf(png, sizeof png, "%s/routh_rocking_block_set.png", scratch);
    remove(png);
    r = EXEC("set '%s/routh_rocking_block.world' --samples 10", worlds_dir);
    ENSURE(r.exit_status == 0);
    ENSURE(!png_written(scratch, "routh_rocking_block_set.png")); /* no plot unless asked for */
    cli_result_free(&r);
}

/* Monotonic wall clock, s. */
static double wall_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* On a terminal (script(1) gives one) a run longer than a second shows a bar. How long a run
   of n samples takes depends on the build and the machine's load, so n doubles until a run
   took more than 1.5 s of wall time (the bar's own clock starts after the world is read). */
static void test_set_shows_its_progress_on_a_terminal(void)
{
    for (long samples = 20000; samples <= 2560000; samples *= 2) {
        const double start = wall_seconds();
        cli_result r =
            cli_exec("script", scratch,
                     "-qec \"'%s' set '%s/routh_rocking_block.world' --samples %ld\" /dev/null",
                     impax, worlds_dir, samples);
        const double wall_s = wall_seconds() - start;
        ENSURE(r.exit_status == 0);
        if (wall_s > 1.5 || r.exit_status != 0) {
            char total[64];
            snprintf(total, sizeof total, " / %ld samples", samples);
            printf("  %ld samples, %.2f s of wall time\n", samples, wall_s);
            ENSURE(strstr(r.out, "routh    [") != NULL && strstr(r.out, total) != NULL);
            cli_result_free(&r);
            return;
        }
        cli_result_free(&r);
    }
    ENSURE(!"no run of set took more than 1.5 s");
}

/* 1 if text has a line that starts with start. */
static int has_line(const char *text, const char *start)
{
    const size_t n = strlen(start);
    for (const char *p = text; p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
        if (strncmp(p, start, n) == 0) return 1;
    return 0;
}

static void test_models_lists_every_model_with_its_parameters(void)
{
    char names[512] = "ode"; /* named, every model is listed in full */
    for (int i = 0; i < ipx_model_count(); i++)
        snprintf(names + strlen(names), sizeof names - strlen(names), " %s", ipx_model_at(i)->name);
    cli_result r = EXEC("models %s", names);
    ENSURE(r.exit_status == 0 && has_line(r.out, "ode: "));
    for (int i = 0; i < ipx_model_count(); i++) {
        const ipx_model *m = ipx_model_at(i);
        char line[128];
        snprintf(line, sizeof line, "%s: ", m->name);
        ENSURE(has_line(r.out, line));
        if (!has_line(r.out, line)) printf("  no line for %s\n", m->name);
        for (int j = 0; j < m->n_params; j++) { /* name, default, range */
            snprintf(line, sizeof line, "  %-20s default %g", m->params[j].name, m->params[j].def);
            ENSURE(has_line(r.out, line));
            if (!has_line(r.out, line)) printf("  no line '%s'\n", line);
        }
    }
    ENSURE(strstr(r.out, "default 0.523599 rad; [1e-06, 1.5]") !=
           NULL); /* plus's theta_max: unit, range */
    ENSURE(has_line(r.out, "  mu ") && has_line(r.out, "  recovery "));
    /* the environment variables it names are the shim's (plugin/preload/shim_config.c) */
    ENSURE(strstr(r.out, "IMPAX_SEED") != NULL && strstr(r.out, "IPX_") == NULL);
    cli_result_free(&r);
    r = EXEC("models routh");
    ENSURE(r.exit_status == 0 && has_line(r.out, "routh: ") && !has_line(r.out, "plus: "));
    cli_result_free(&r);
    r = EXEC("models nosuch");
    ENSURE(r.exit_status == 2 && strstr(r.err, "unknown model 'nosuch'") && strstr(r.err, "plus"));
    cli_result_free(&r);
}

static void test_version_is_the_projects(void)
{
    cli_result r = EXEC("--version");
    char expected[64];
    snprintf(expected, sizeof expected, "impax %s\n", version);
    ENSURE(r.exit_status == 0 && strcmp(r.out, expected) == 0);
    cli_result_free(&r);
}

static void test_quiet_draws_no_bar_and_lists_no_ode_messages(void)
{
    cli_result r = cli_exec(
        "script", scratch,
        "-qec \"'%s' set '%s/routh_rocking_block.world' --samples 20000 --quiet\" /dev/null", impax,
        worlds_dir);
    ENSURE(r.exit_status == 0 && strstr(r.out, "20000 samples") &&
           !strstr(r.out, " / 20000 samples"));
    cli_result_free(&r);
    r = EXEC("run %s --model plus --quiet", zero_slip); /* ODE's LCP fails in every step */
    ENSURE(r.exit_status == 0 && strstr(r.out, "impact events") && !strstr(r.err, "LCP internal"));
    cli_result_free(&r);
    r = EXEC("replay --quiet --help"); /* replay has a --quiet of its own: it still gets it */
    ENSURE(r.exit_status == 0 && strstr(r.out, "usage: impax replay"));
    cli_result_free(&r);
}

/* The number after key in text ("impact events     7"), or -1. */
static long count_after(const char *text, const char *key)
{
    const char *at = strstr(text, key);
    return at ? strtol(at + strlen(key), NULL, 10) : -1;
}

static void test_run_trace_writes_one_json_object_per_impact_event(void)
{
    cli_result r = EXEC("run %s/gonthier_bouncing_sphere.world --model plus --trace bounces.jsonl",
                        worlds_dir);
    ENSURE(r.exit_status == 0);
    const long events = count_after(r.out, "impact events");
    cli_result_free(&r);
    char path[1100];
    snprintf(path, sizeof path, "%s/bounces.jsonl", scratch);
    char *text = read_file(path, NULL);
    ENSURE(text != NULL);
    static const char *keys[] = {"step",      "time",     "world",     "model",
                                 "contacts",  "status",   "ke_before", "ke_after",
                                 "vn_before", "vn_after", "impulse",   "point",
                                 "normal",    "rounds",   "intervals", "lcp_solves"};
    long lines = 0;
    for (char *line = text, *next; text && *line; line = next) {
        next = strchr(line, '\n');
        ENSURE(next != NULL);
        if (!next) break;
        *next++ = '\0';
        ENSURE(json_check_object(line));
        for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
            char quoted[64];
            snprintf(quoted, sizeof quoted, "\"%s\":", keys[k]);
            ENSURE(strstr(line, quoted) != NULL);
        }
        if (lines++ == 0) { /* the drop from 1 m: the first bounce, in the step from t = 0.452 s */
            const char *t = strstr(line, "\"time\":");
            ENSURE(t && fabs(strtod(t + 7, NULL) - 0.452) < 1e-9);
            ENSURE(strstr(line, "\"model\":\"plus\"") &&
                   strstr(line, "\"contacts\":1,\"status\":\"ok\""));
            /* the sphere (r = 0.1 m, above the origin) touches the plane z = 0 under its centre */
            double p[3] = {1, 1, 1}, n[3] = {0, 0, 0};
            const char *pt = strstr(line, "\"point\":[["), *nm = strstr(line, "\"normal\":[[");
            ENSURE(pt && sscanf(pt + 10, "%lf,%lf,%lf", &p[0], &p[1], &p[2]) == 3);
            ENSURE(nm && sscanf(nm + 11, "%lf,%lf,%lf", &n[0], &n[1], &n[2]) == 3);
            ENSURE(fabs(p[0]) < 1e-12 && fabs(p[1]) < 1e-12 && fabs(p[2]) < 0.01);
            ENSURE(n[0] == 0.0 && n[1] == 0.0 && fabs(n[2]) == 1.0);
        }
    }
    printf("  %ld impact events, %ld trace lines\n", events, lines);
    ENSURE(events >= 3 && lines == events);
    free(text);
}

int main(int argc, char **argv)
{
    if (argc != 6) {
        fprintf(stderr, "usage: test_cli_tools IMPAX WORLDS_DIR SCRATCH VERSION ZERO_SLIP_WORLD\n");
        return 2;
    }
    impax = argv[1];
    worlds_dir = argv[2];
    scratch = argv[3];
    version = argv[4];
    zero_slip = argv[5];
    RUN(test_set_on_a_one_point_outcome_set_finishes_and_plots);
    RUN(test_set_says_why_samples_were_discarded);
    RUN(test_set_checks_its_outputs_before_simulating);
    RUN(test_set_shows_its_progress_on_a_terminal);
    RUN(test_models_lists_every_model_with_its_parameters);
    RUN(test_version_is_the_projects);
    RUN(test_quiet_draws_no_bar_and_lists_no_ode_messages);
    RUN(test_run_trace_writes_one_json_object_per_impact_event);
    return ipx_test_exit();
}
