/// The `impax` command's tools around the simulations: `set` on an outcome set that is one point
/// (it hung inside PLplot) with its progress and its reasons for discarded samples.
/// argv: impax binary, worlds directory, scratch directory.
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_run.h"
#include "ensure.h"

static const char *impax, *worlds_dir, *scratch;

#define EXEC(...) cli_exec(impax, scratch, __VA_ARGS__)

/* 1 if scratch/name is a PNG of more than 1000 bytes. */
static int is_png(const char *name)
{
    char path[1100];
    snprintf(path, sizeof path, "%s/%s", scratch, name);
    size_t size = 0;
    char *png = read_file(path, &size);
    const int ok = png && size > 1000 && memcmp(png, "\x89PNG", 4) == 0;
    free(png);
    return ok;
}

static void test_set_on_a_one_point_outcome_set_finishes_and_plots(void)
{
    /* A ball on a plane with Poisson restitution: every sample is the same outcome, equal to
       round-off; the plot's axis had a span of a few ulps and PLplot looped forever. */
    cli_result r = cli_exec("timeout", scratch,
                            "120 '%s' set '%s/gonthier_bouncing_sphere.world' --params poisson_restitution=1 "
                            "--samples 100 --plot one_point.png",
                            impax, worlds_dir);
    printf("%s%s", r.out, r.err);
    ENSURE(r.exit_status == 0); /* 124: timed out */
    ENSURE(strstr(r.out, "100 samples: 100 kept") != NULL);
    ENSURE(strstr(r.out, "-0.0000") == NULL);
    ENSURE(is_png("one_point.png"));
    cli_result_free(&r);
}

static void test_set_says_why_samples_were_discarded(void)
{
    cli_result r = EXEC("set '%s/routh_rocking_block.world' --samples 100 --params max_steps=1", worlds_dir);
    printf("%s", r.out);
    ENSURE(r.exit_status == 0);
    ENSURE(strstr(r.out, "unterminated") != NULL);
    ENSURE(strstr(r.out, "had not ended the impact after max_steps = 1 impulse steps") != NULL);
    cli_result_free(&r);
}

static void test_set_checks_its_outputs_before_simulating(void)
{
    cli_result r = EXEC("set '%s/routh_rocking_block.world' --plot /nonexistent/x.png", worlds_dir);
    ENSURE(r.exit_status == 1 && strstr(r.err, "--plot '/nonexistent/x.png'") != NULL);
    ENSURE(strstr(r.out, "first impact") == NULL); /* nothing simulated */
    cli_result_free(&r);
    char png[1100];
    snprintf(png, sizeof png, "%s/routh_rocking_block_set.png", scratch);
    remove(png);
    r = EXEC("set '%s/routh_rocking_block.world' --samples 10", worlds_dir);
    ENSURE(r.exit_status == 0);
    ENSURE(!is_png("routh_rocking_block_set.png")); /* no plot unless asked for */
    cli_result_free(&r);
}

/* On a terminal (script(1) gives one) a run longer than a second shows a bar. */
static void test_set_shows_its_progress_on_a_terminal(void)
{
    cli_result r = cli_exec("script", scratch, "-qec \"'%s' set '%s/routh_rocking_block.world' --samples 20000\" /dev/null",
                            impax, worlds_dir);
    ENSURE(r.exit_status == 0);
    ENSURE(strstr(r.out, "routh    [") != NULL && strstr(r.out, " / 20000 samples") != NULL);
    cli_result_free(&r);
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: test_cli_tools IMPAX WORLDS_DIR SCRATCH\n");
        return 2;
    }
    impax = argv[1];
    worlds_dir = argv[2];
    scratch = argv[3];
    RUN(test_set_on_a_one_point_outcome_set_finishes_and_plots);
    RUN(test_set_says_why_samples_were_discarded);
    RUN(test_set_checks_its_outputs_before_simulating);
    RUN(test_set_shows_its_progress_on_a_terminal);
    return ipx_test_exit();
}
