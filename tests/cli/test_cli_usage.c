/// What a new user meets first: every `--help` shows an example command line that runs as
/// printed (on the installed example worlds: the test runs it on the source's, the only
/// difference); an output that cannot be written exits 2 (bad usage, as documented) before
/// anything runs, under every command and output option; a missing file is named without a
/// line number; every message starts "impax CMD: "; `impax models` is a user's text; ODE's LCP
/// does not fail on the rocking block.
/// argv: impax binary, the source's worlds directory, the installed worlds directory the help
/// names, scratch directory.
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli_run.h"
#include "ensure.h"
#include "impax/ode.h"
#include "toss_gen.h"

static const char *impax, *worlds_dir, *installed_dir, *scratch;

#define EXEC(...) cli_exec(impax, scratch, __VA_ARGS__)

/* Three tosses of the cube-toss world under ode into scratch/tosses: the recordings the replay
   and fit examples ask for. */
static void make_tosses(void)
{
    static const cli_sample tosses[] = {
        {0, {0, 0, 0.25}, {0.95, 0.2, 0.1, 0.05}, {1.2, 0.2, -1.5}, {2, -3, 1}},
        {0, {0, 0, 0.25}, {0.9, -0.1, 0.3, 0.2}, {-0.8, 0.6, -2.0}, {-4, 1, 2}},
        {0, {0, 0, 0.25}, {1, 0, 0, 0}, {1.5, 0, -1.8}, {0, 0, 3}},
    };
    char dir[1100], world[1100];
    snprintf(dir, sizeof dir, "%s/tosses", scratch);
    snprintf(world, sizeof world, "%s/cube_toss.world", worlds_dir);
    mkdir(dir, 0777);
    for (int i = 0; i < 3; i++) {
        char path[1200];
        snprintf(path, sizeof path, "%s/toss_%d.csv", dir, i);
        ENSURE(toss_write(world, "ode", "mu=0.3,e=0.5", &tosses[i], 0.4, 148, path) == 0);
    }
}

/* Appends to out the example lines of a help text: a line "  impax ..." after a line starting
   "example", with its continuation lines (after a backslash, as in the shell; indented deeper)
   joined, the installed worlds directory replaced by the source's. Returns the number of
   examples. */
static int examples(const char *help, char out[][2048], int max)
{
    int n = 0, in_example = 0;
    for (const char *line = help; *line && n < max;) {
        const char *end = strchr(line, '\n');
        const size_t len = end ? (size_t)(end - line) : strlen(line);
        if (strncmp(line, "example", 7) == 0) {
            in_example = 1;
        } else if (in_example && strncmp(line, "  impax ", 8) == 0) {
            snprintf(out[n++], 2048, "%.*s", (int)len - 8, line + 8);
        } else if (in_example && n > 0 && strncmp(line, "    ", 4) == 0) {
            size_t used = strlen(out[n - 1]);
            ENSURE(used >= 2 && strcmp(out[n - 1] + used - 2, " \\") == 0); /* pastes whole */
            if (used >= 2) out[n - 1][used -= 2] = '\0';
            snprintf(out[n - 1] + used, 2048 - used, " %.*s", (int)len, line);
        } else {
            in_example = 0;
        }
        line += len + (end != NULL);
    }
    for (int i = 0; i < n; i++) { /* the installed worlds are the source's */
        char *at;
        while ((at = strstr(out[i], installed_dir)) != NULL) {
            char rest[2048];
            snprintf(rest, sizeof rest, "%s", at + strlen(installed_dir));
            snprintf(at, 2048 - (size_t)(at - out[i]), "%s%s", worlds_dir, rest);
        }
    }
    return n;
}

static void test_every_help_shows_an_example_that_runs(void)
{
    static const char *const commands[] = {"",       "run",   "ab",     "set", "check",
                                           "models", "sweep", "replay", "fit"};
    for (size_t c = 0; c < sizeof commands / sizeof commands[0]; c++) {
        cli_result h = c ? EXEC("%s --help", commands[c]) : EXEC("--help");
        ENSURE(h.exit_status == 0);
        char lines[4][2048];
        const int n = examples(h.out, lines, 4);
        printf("  impax %s --help: %d example(s)\n", commands[c], n);
        ENSURE(n >= 1);
        for (int i = 0; i < n; i++) {
            printf("    impax %s\n", lines[i]);
            cli_result r = EXEC("%s", lines[i]);
            if (r.exit_status != 0) printf("%s%s", r.out, r.err);
            ENSURE(r.exit_status == 0);
            cli_result_free(&r);
        }
        cli_result_free(&h);
    }
}

static void test_help_names_html_the_worlds_and_the_spec_format(void)
{
    cli_result r = EXEC("--help");
    ENSURE(strstr(r.out, "--html") != NULL && strstr(r.out, installed_dir) != NULL);
    cli_result_free(&r);
    r = EXEC("sweep --help");
    static const char *const keys[] = {"world ",   "model ",  "duration", "seed ",
                                       "perturb ", "record ", "LO:HI:N"};
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) ENSURE(strstr(r.out, keys[k]));
    cli_result_free(&r);
}

/* Every output option of every command that cannot be written: exit 2, the option and path
   named after "impax CMD: ", and nothing run (nothing on stdout). */
static void test_an_unwritable_output_exits_2_before_anything_runs(void)
{
    static const struct {
        const char *cmd, *args, *option;
    } cases[] = {
        {"run", "%s/routh_rocking_block.world", "--out"},
        {"run", "%s/routh_rocking_block.world", "--trace"},
        {"run", "%s/routh_rocking_block.world", "--html"},
        {"ab", "%s/routh_rocking_block.world --models ode,plus", "--out"},
        {"ab", "%s/routh_rocking_block.world --models ode,plus", "--plot"},
        {"ab", "%s/routh_rocking_block.world --models ode,plus", "--html"},
        {"set", "%s/routh_rocking_block.world", "--out"},
        {"set", "%s/routh_rocking_block.world", "--plot"},
        {"replay", "%s/cube_toss.world --data tosses", "--out"},
        {"replay", "%s/cube_toss.world --data tosses", "--plot"},
        {"replay", "%s/cube_toss.world --data tosses", "--html"},
        {"fit", "%s/cube_toss.world --data tosses --model plus --fit mu", "--out"},
        {"sweep", "%s/routh_rocking_block.spec", "--out"},
        {"sweep", "%s/routh_rocking_block.spec", "--plot"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char args[1200], expect[256];
        snprintf(args, sizeof args, cases[i].args, worlds_dir);
        snprintf(expect, sizeof expect, "impax %s: cannot write %s '/nonexistent/x'", cases[i].cmd,
                 cases[i].option);
        cli_result r = EXEC("%s %s %s /nonexistent/x", cases[i].cmd, args, cases[i].option);
        printf("  %s %s: exit %d\n", cases[i].cmd, cases[i].option, r.exit_status);
        ENSURE(r.exit_status == 2);
        ENSURE(strstr(r.err, expect) != NULL);
        ENSURE(r.out[0] == '\0'); /* nothing simulated, nothing loaded */
        if (r.exit_status != 2 || !strstr(r.err, expect)) printf("%s%s", r.out, r.err);
        cli_result_free(&r);
    }
}

static void test_a_missing_file_is_named_without_a_line(void)
{
    cli_result r = EXEC("run no_such.world");
    ENSURE(r.exit_status == 1);
    ENSURE(strstr(r.err, "cannot open no_such.world: No such file or directory") != NULL);
    ENSURE(strstr(r.err, ":0:") == NULL);
    cli_result_free(&r);
    r = EXEC("replay %s/cube_toss.world --data no_such_dir", worlds_dir);
    ENSURE(r.exit_status == 1 && strstr(r.err, "cannot open no_such_dir: ") != NULL);
    cli_result_free(&r);
}

static void test_messages_start_with_the_command(void)
{
    static const char *const bad[][2] = {
        {"run %s/cube_toss.world --duration -1", "impax run: --duration needs"},
        {"ab %s/cube_toss.world --html-fps 0 --html x.html", "impax ab: --html-fps needs"},
        {"set %s/cube_toss.world --samples 0", "impax set: --samples needs"},
        {"sweep %s/routh_rocking_block.spec --jobs 0", "impax sweep: --jobs needs"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cli_result r = EXEC(bad[i][0], worlds_dir);
        ENSURE(r.exit_status == 2 && strstr(r.err, bad[i][1]) != NULL);
        if (!strstr(r.err, bad[i][1])) printf("  expected '%s' in: %s", bad[i][1], r.err);
        cli_result_free(&r);
    }
}

static void test_the_rocking_block_leaves_odes_lcp_whole(void)
{
    /* with no friction slip ODE printed "LCP internal error, s <= 0" in each of its 1000 steps
       (worlds/README.md; tests/world/test_world_runs.c checks every world and model) */
    cli_result r = EXEC("ab %s/routh_rocking_block.world --models ode,plus,routh", worlds_dir);
    ENSURE(r.exit_status == 0 && strstr(r.err, "LCP internal error") == NULL);
    ENSURE(strstr(r.err, "ODE printed") == NULL);
    cli_result_free(&r);
}

static void test_models_is_a_users_text(void)
{
    cli_result r = EXEC("models");
    ENSURE(r.exit_status == 0);
    ENSURE(strstr(r.out, "docs/models/plus.md") != NULL);
    int lines = 0;
    for (const char *p = r.out; (p = strchr(p, '\n')) != NULL; p++) lines++;
    printf("  impax models: %d lines\n", lines);
    ENSURE(lines <= 80);
    cli_result_free(&r);
    r = EXEC("models plus aplcp jia routh bowling gonthier");
    ENSURE(r.exit_status == 0 && strstr(r.out, "IMPAX_SEED") != NULL);
    ENSURE(strstr(r.out, "IPX_") == NULL);
    ENSURE(strstr(r.out, "spec ") == NULL && strstr(r.out, "spec:") == NULL);
    ENSURE(strstr(r.out, "deviation ") == NULL && strstr(r.out, "§") == NULL);
    ENSURE(strstr(r.out, "PLUS_AUTO") == NULL);
    cli_result_free(&r);
}

int main(int argc, char **argv)
{
    if (argc != 5) {
        fprintf(stderr, "usage: test_cli_usage IMPAX WORLDS_DIR INSTALLED_WORLDS_DIR SCRATCH\n");
        return 2;
    }
    impax = argv[1];
    worlds_dir = argv[2];
    installed_dir = argv[3];
    scratch = argv[4];
    ipx_ode_capture_messages(0); /* toss_write's dWorldStep messages: counted, not printed */
    make_tosses();
    RUN(test_every_help_shows_an_example_that_runs);
    RUN(test_help_names_html_the_worlds_and_the_spec_format);
    RUN(test_an_unwritable_output_exits_2_before_anything_runs);
    RUN(test_a_missing_file_is_named_without_a_line);
    RUN(test_messages_start_with_the_command);
    RUN(test_the_rocking_block_leaves_odes_lcp_whole);
    RUN(test_models_is_a_users_text);
    return ipx_test_exit();
}
