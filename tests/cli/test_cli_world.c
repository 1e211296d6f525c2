/// The `impax` command on the world loader's hardening: a duration whose step count does not fit
/// is refused (exit 2) instead of simulating nothing (issue [hardening] 6).
/// argv: impax binary, worlds directory, bad-worlds directory, scratch directory.
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_run.h"
#include "ensure.h"

static const char *impax, *worlds_dir, *bad_dir, *scratch;

#define EXEC(...) cli_exec(impax, scratch, __VA_ARGS__)

static void test_durations_of_too_many_steps_are_refused(void)
{
    static const char *const durations[] = {"1e300", "9.3e15"};
    for (int i = 0; i < 2; i++) {
        cli_result r = EXEC("run '%s/plus_ex3_newtons_cradle.world' --duration %s", worlds_dir, durations[i]);
        printf("  --duration %s: exit %d, %s", durations[i], r.exit_status, r.err);
        ENSURE(r.exit_status == 2 && strstr(r.err, "steps of 0.001 s, more than") != NULL);
        ENSURE(strstr(r.out, "simulated in 0 steps") == NULL);
        cli_result_free(&r);
        r = EXEC("ab '%s/plus_ex3_newtons_cradle.world' --models ode --duration %s", worlds_dir, durations[i]);
        ENSURE(r.exit_status == 2 && strstr(r.err, "more than") != NULL);
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
    RUN(test_durations_of_too_many_steps_are_refused);
    return ipx_test_exit();
}
