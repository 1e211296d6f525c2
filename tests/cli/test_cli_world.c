/// The `impax` command on the world loader's hardening (issue [hardening] 3, 5, 6, [ux] 1): check
/// and run accept and refuse the same files with the same FILE:LINE: messages, values out of range
/// are refused by both (exit 1, never ODE's abort, 134), a duration whose step count does not fit
/// is refused (exit 2) instead of simulating nothing, and a world as Gazebo 11 saves it checks and
/// runs with its energy conserved up to the losses of landing.
/// argv: impax binary, worlds directory, bad-worlds directory, scratch directory.
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_run.h"
#include "ensure.h"

static const char *impax, *worlds_dir, *bad_dir, *scratch;

#define EXEC(...) cli_exec(impax, scratch, __VA_ARGS__)

/* check and run refuse the file with one same diagnostic naming its line. */
static void expect_both_refuse(const char *file, const char *diagnostic)
{
    cli_result check = EXEC("check '%s/%s'", bad_dir, file),
               run = EXEC("run '%s/%s' --duration 0.01", bad_dir, file);
    printf("  %s: check exit %d, run exit %d\n", file, check.exit_status, run.exit_status);
    ENSURE(check.exit_status == 1 && run.exit_status == 1);
    ENSURE(strstr(check.err, diagnostic) != NULL && strstr(run.err, diagnostic) != NULL);
    if (!strstr(check.err, diagnostic)) printf("%s", check.err);
    cli_result_free(&check);
    cli_result_free(&run);
}

static void test_check_refuses_what_run_refuses(void)
{
    expect_both_refuse("model_param_rejected.world",
                       "model_param_rejected.world:7: <impax:params> for model plus: model 'plus' "
                       "has no parameter 'bogus'");
    expect_both_refuse("params_trailing_comma.world",
                       "params_trailing_comma.world:6: <impax:params> for model plus: "
                       "empty item");
    expect_both_refuse("out_of_range.world",
                       "out_of_range.world:6: <gravity> of magnitude 1e+10 m/s^2 is out of range");
}

static void test_durations_of_too_many_steps_are_refused(void)
{
    static const char *const durations[] = {"1e300", "9.3e15"};
    for (int i = 0; i < 2; i++) {
        cli_result r =
            EXEC("run '%s/plus_ex3_newtons_cradle.world' --duration %s", worlds_dir, durations[i]);
        printf("  --duration %s: exit %d, %s", durations[i], r.exit_status, r.err);
        ENSURE(r.exit_status == 2 && strstr(r.err, "steps of 0.001 s, more than") != NULL);
        ENSURE(strstr(r.out, "simulated in 0 steps") == NULL);
        cli_result_free(&r);
        r = EXEC("ab '%s/plus_ex3_newtons_cradle.world' --models ode --duration %s", worlds_dir,
                 durations[i]);
        ENSURE(r.exit_status == 2 && strstr(r.err, "more than") != NULL);
        cli_result_free(&r);
    }
}

/* "energy A J at the start, B J at the end" of run's summary. */
static int energies(const char *out, double *start, double *end)
{
    const char *at = strstr(out, "  energy ");
    return at && sscanf(at, "  energy %lf J at the start, %lf J at the end", start, end) == 2 ? 0
                                                                                              : -1;
}

static void test_a_gazebo_saved_world_checks_and_runs(void)
{
    cli_result check = EXEC("check '%s/gazebo_box_drop.world'", worlds_dir);
    ENSURE(check.exit_status == 0 && strstr(check.out, ": ok") != NULL &&
           strstr(check.err, "error") == NULL);
    cli_result_free(&check);
    static const char *const models[] = {"plus", "ode", "routh"};
    for (int m = 0; m < 3; m++) {
        cli_result r = EXEC("run '%s/gazebo_box_drop.world' --model %s", worlds_dir, models[m]);
        double e0 = 0, e1 = 0;
        ENSURE(r.exit_status == 0 && energies(r.out, &e0, &e1) == 0);
        printf("  %s: exit %d, energy %.4f J -> %.4f J\n", models[m], r.exit_status, e0, e1);
        ENSURE(e1 < e0 && e1 > 4.8 && e1 < 5.0); /* at rest, flat: m g 0.5 m = 4.9 J */
        cli_result_free(&r);
    }
}

int main(int argc, char **argv)
{
    if (argc != 5) {
        fprintf(stderr, "usage: test_cli_world IMPAX WORLDS_DIR BAD_DIR SCRATCH\n");
        return 2;
    }
    impax = argv[1];
    worlds_dir = argv[2];
    bad_dir = argv[3];
    scratch = argv[4];
    RUN(test_check_refuses_what_run_refuses);
    RUN(test_durations_of_too_many_steps_are_refused);
    RUN(test_a_gazebo_saved_world_checks_and_runs);
    return ipx_test_exit();
}
