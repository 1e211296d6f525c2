/// `impax sweep` end to end on the rocking block (Halm & Posa's set-valued landing: routh's
/// outcome depends on the seed, aplcp's does not): the same rows (wall_s aside) on 1 and 4 local
/// workers and on 4 MPI ranks; a crash midway, a cut last line and a killed worker are
/// completed by a rerun; a bad spec names the file and line and runs nothing; the plots.
/// argv: impax binary, rocking-block world, bad world, scratch directory, mpirun ("-": none).
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli_run.h"
#include "ensure.h"

static const char *impax, *block_world, *bad_world, *mpirun;
static char scratch[1024];

#define EXEC(...) cli_exec(impax, scratch, __VA_ARGS__)
/* a command line with environment variables first */
#define ENV_EXEC(...) cli_exec("/usr/bin/env", scratch, __VA_ARGS__)

/* 2 models x 3 values of mu x 10 seeds, each landing perturbed by the seed. */
static const char grid_spec[] = "# the rocking block's landing, two models\n"
                                "world = worlds/*.world   # a glob, relative to this file\n"
                                "model = routh\n"
                                "model = aplcp\n"
                                "duration = 0.05\n"
                                "mu = 0.5:1:3\n"
                                "seed = 0..9\n"
                                "perturb = block::block vz +-0.05\n"
                                "record = angular_velocity block::block, velocity block::block\n"
                                "record = ke_change, impact_events, fallbacks, wall_s\n";
enum { GRID_JOBS = 60 };

/* Writes (mode "w") or appends ("a") text to scratch/name. */
static void put_text(const char *name, const char *mode, const char *text)
{
    char path[1200];
    snprintf(path, sizeof path, "%s/%s", scratch, name);
    FILE *f = fopen(path, mode);
    ENSURE(f != NULL);
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

static char *scratch_file(const char *name)
{
    char path[1200];
    snprintf(path, sizeof path, "%s/%s", scratch, name);
    return read_file(path, NULL);
}

static int compare_lines(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The rows of a file without their wall_s, sorted, one string; *n the rows. NULL if none. */
static char *row_set(const char *name, int *n)
{
    char *text = scratch_file(name), *save = NULL;
    *n = 0;
    if (!text) return NULL;
    const size_t size = strlen(text);
    char **line = malloc((size / 2 + 1) * sizeof *line);
    for (char *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
        char *wall = strstr(l, ",\"wall_s\":");
        if (wall) strcpy(wall, "}");
        line[(*n)++] = l;
    }
    qsort(line, (size_t)*n, sizeof *line, compare_lines);
    char *set = calloc(size + 2, 1);
    for (int i = 0; i < *n; i++) strcat(strcat(set, line[i]), "\n");
    free(line);
    free(text);
    return set;
}

static int count_of(const char *text, const char *needle)
{
    int n = 0;
    for (const char *p = strstr(text, needle); p; p = strstr(p + 1, needle)) n++;
    return n;
}

static char *reference; /* the rows of --jobs 1 */

static int row_count(const char *name)
{
    int n;
    free(row_set(name, &n));
    return n;
}

/* 1 if name has a row for every job, the same as --jobs 1's (wall_s aside). */
static int same_rows_as_reference(const char *name)
{
    int n;
    char *rows = row_set(name, &n);
    const int same = n == GRID_JOBS && reference && rows && strcmp(reference, rows) == 0;
    free(rows);
    return same;
}

/* Removes scratch/name: every sweep of a test starts from no rows. */
static void remove_rows(const char *name)
{
    char path[1200];
    snprintf(path, sizeof path, "%s/%s", scratch, name);
    unlink(path);
}

static void test_rows_do_not_depend_on_the_workers(void)
{
    remove_rows("jobs1.jsonl");
    remove_rows("jobs4.jsonl");
    cli_result r = EXEC("sweep grid.spec --jobs 1 --out jobs1.jsonl");
    ENSURE(r.exit_status == 0 &&
           strstr(r.out, "60 jobs (1 world x 2 models x 3 grid points x 10 seeds)") != NULL);
    printf("%s%s", r.out, r.err);
    cli_result_free(&r);
    int n1;
    reference = row_set("jobs1.jsonl", &n1);
    ENSURE(n1 == GRID_JOBS);
    r = EXEC("sweep grid.spec --jobs 4 --out jobs4.jsonl");
    ENSURE(r.exit_status == 0 && strstr(r.out, "on 4 fork workers") != NULL);
    cli_result_free(&r);
    ENSURE(same_rows_as_reference("jobs4.jsonl"));
    /* every row ran; routh's landings differ with the seed, aplcp's only by the perturbation */
    ENSURE(reference && count_of(reference, "\"status\":\"ok\"") == GRID_JOBS);
    ENSURE(reference && count_of(reference, "\"model\":\"routh\"") == GRID_JOBS / 2);
    ENSURE(reference &&
           strstr(reference, "\"world\":\"worlds/routh_rocking_block.world\",\"model\":\"aplcp\","
                             "\"params\":{\"mu\":0.75},\"seed\":9,\"status\":\"ok\"") != NULL);
}

static void test_rows_are_the_same_on_mpi_ranks(void)
{
    if (strcmp(mpirun, "-") == 0) {
        printf("  skipped: impax built without MPI or no mpirun\n");
        return;
    }
    remove_rows("mpi.jsonl");
    /* Open MPI's own allocations outlive MPI_Finalize: no leak check for the ranks */
    cli_result r = ENV_EXEC(
        "LSAN_OPTIONS=detect_leaks=0 '%s' --allow-run-as-root --oversubscribe -n 4 '%s' sweep "
        "grid.spec --out mpi.jsonl",
        mpirun, impax);
    ENSURE(r.exit_status == 0 && strstr(r.out, "on 3 MPI workers") != NULL);
    printf("%s", r.out);
    if (r.exit_status != 0) fprintf(stderr, "%s", r.err);
    cli_result_free(&r);
    ENSURE(same_rows_as_reference("mpi.jsonl"));
}

static void test_a_rerun_completes_a_crashed_sweep(void)
{
    remove_rows("resume.jsonl");
    cli_result r = ENV_EXEC(
        "IMPAX_SWEEP_STOP_AFTER=13 '%s' sweep grid.spec --jobs 3 --out resume.jsonl", impax);
    ENSURE(r.exit_status == 1 && strstr(r.err, "IMPAX_SWEEP_STOP_AFTER=13") != NULL);
    cli_result_free(&r);
    ENSURE(row_count("resume.jsonl") == 13);
    /* a row cut short by the crash */
    put_text("resume.jsonl", "a",
             "{\"world\":\"worlds/routh_rocking_block.world\",\"model\":\"routh\",\"par");
    r = EXEC("sweep grid.spec --jobs 3 --out resume.jsonl");
    ENSURE(r.exit_status == 0 && strstr(r.out, "13 already in resume.jsonl") != NULL &&
           strstr(r.out, "cut short") != NULL && strstr(r.out, "ran 47 jobs") != NULL);
    cli_result_free(&r);
    ENSURE(same_rows_as_reference("resume.jsonl"));
    r = EXEC("sweep grid.spec --jobs 3 --out resume.jsonl"); /* nothing left */
    ENSURE(r.exit_status == 0 && strstr(r.out, "60 already") != NULL &&
           strstr(r.out, "nothing to run") != NULL);
    cli_result_free(&r);
}

static void test_a_crashed_mpi_sweep_is_completed_on_mpi(void)
{
    if (strcmp(mpirun, "-") == 0) return;
    remove_rows("mpi_resume.jsonl");
    const char *mpi = "LSAN_OPTIONS=detect_leaks=0 '%s' --allow-run-as-root --oversubscribe -n 4 "
                      "%s '%s' sweep grid.spec "
                      "--out mpi_resume.jsonl";
    cli_result r = ENV_EXEC(mpi, mpirun, "-x IMPAX_SWEEP_STOP_AFTER=21", impax);
    ENSURE(r.exit_status != 0);
    cli_result_free(&r);
    ENSURE(row_count("mpi_resume.jsonl") == 21);
    r = ENV_EXEC(mpi, mpirun, "", impax);
    ENSURE(r.exit_status == 0 && strstr(r.out, "21 already") != NULL);
    cli_result_free(&r);
    ENSURE(same_rows_as_reference("mpi_resume.jsonl"));
}

static void test_a_dead_worker_loses_only_its_job(void)
{
    remove_rows("dead.jsonl");
    cli_result r =
        ENV_EXEC("IMPAX_SWEEP_CRASH_JOB=7 '%s' sweep grid.spec --jobs 3 --out dead.jsonl", impax);
    ENSURE(r.exit_status == 1 && strstr(r.err, "1 of 60 jobs did not finish") != NULL &&
           strstr(r.err, "died during job 7 (killed by signal 9)") != NULL &&
           strstr(r.err, "run the same command again"));
    printf("  %s", r.err);
    cli_result_free(&r);
    ENSURE(row_count("dead.jsonl") == GRID_JOBS - 1);
    r = EXEC("sweep grid.spec --jobs 3 --out dead.jsonl");
    ENSURE(r.exit_status == 0 && strstr(r.out, "ran 1 job ") != NULL);
    cli_result_free(&r);
    ENSURE(same_rows_as_reference("dead.jsonl"));
}

/* spec has a bad line; the message names the file, the line and expect, and nothing runs. */
static void bad_spec(const char *spec, int status, const char *line, const char *expect)
{
    put_text("bad.spec", "w", spec);
    remove_rows("bad.jsonl");
    cli_result r = EXEC("sweep bad.spec --out bad.jsonl");
    char where[64];
    snprintf(where, sizeof where, "bad.spec:%s", line);
    ENSURE(r.exit_status == status && strstr(r.err, where) != NULL &&
           strstr(r.err, expect) != NULL);
    if (r.exit_status != status || !strstr(r.err, expect))
        fprintf(stderr, "  got %d: %s", r.exit_status, r.err);
    char *rows = scratch_file("bad.jsonl");
    ENSURE(rows == NULL && strstr(r.out, "ran ") == NULL);
    free(rows);
    cli_result_free(&r);
}

static void test_a_bad_spec_names_file_and_line_and_runs_nothing(void)
{
    bad_spec("world = worlds/*.world\nmodel = routh\n\nmodel = plush\n", 2,
             "4:", "unknown model 'plush'");
    bad_spec("world = worlds/*.world\nmodel = routh\nmu = 0.1:0.9:0\n", 2, "3:", "empty range");
    bad_spec("world = worlds/*.world\nmodel = routh\nseed = 9..3\n", 2, "3:", "empty range 9..3");
    bad_spec(
        "world = worlds/*.world\nmodel = routh\nrecord = velocity block::lid\n", 2, "3:",
        "unknown body 'block::lid' (bodies of worlds/routh_rocking_block.world: block::block)");
    bad_spec("world = worlds/*.world\nmodel = routh\nperturb = lid vx 0.1\n", 2,
             "3:", "unknown body 'lid'");
    bad_spec("world = worlds/*.world\nmodel = routh\nmux = 0.5\n", 2, "3:", "unknown key 'mux'");
    bad_spec("world = worlds/*.world\nmodel = routh\nmodel = plus\nv_plastic = 0.1\n", 2,
             "4:", "nor a parameter of model routh");
    bad_spec("world = worlds/*.world\nmodel = routh\nmu = 0.5, 12\n", 2,
             "3:", "mu = 12 is outside its range");
    bad_spec("world = worlds/*.world\nmodel = plus max_rounds=-3\n", 2, "2:", "model plus");
    bad_spec("world = worlds/*.world\nmodel = routh\nrecord = speed\n", 2,
             "3:", "unknown quantity 'speed'");
    bad_spec("world = worlds/*.world\nmodel = routh\nmu 0.5\n", 2, "3:", "expected KEY = VALUE");
    /* a step count beyond a long: (long) of it was undefined and simulated nothing */
    bad_spec("world = worlds/*.world\nmodel = routh\nduration = 1e300\n", 2, "1:", "more than");
    bad_spec("world = nowhere/*.world\nmodel = routh\n", 2,
             "1:", "no world file matches 'nowhere/*.world'");
    char spec[1400];
    snprintf(spec, sizeof spec, "model = routh\nworld = %s\n", bad_world);
    bad_spec(spec, 1, "2:", "does not load");
    bad_spec("world = worlds/*.world\n", 2, " names no model", "model = NAME");
}

static int is_png(const char *name)
{
    char *data = scratch_file(name);
    const int ok = data && strncmp(data + 1, "PNG", 3) == 0;
    free(data);
    return ok;
}

static void test_plots_of_a_grid_and_of_the_seeds(void)
{
    cli_result r = EXEC("sweep grid.spec --out jobs1.jsonl --plot grid.png");
    ENSURE(r.exit_status == 0 && strstr(r.out, "plot: grid.png") != NULL && is_png("grid.png"));
    cli_result_free(&r);
    /* no grid: the outcome scatter of every seed (aplcp's constant columns: zero-width ranges) */
    remove_rows("seeds.jsonl");
    remove_rows("one.jsonl");
    put_text("seeds.spec", "w",
             "world = worlds/routh_rocking_block.world\nmodel = routh\nmodel = aplcp\n"
             "duration = 0.05\nseed = 0..19\nrecord = angular_velocity block::block\n");
    r = EXEC("sweep seeds.spec --jobs 2 --plot seeds.png");
    ENSURE(r.exit_status == 0 && strstr(r.out, "rows: seeds.jsonl") != NULL && is_png("seeds.png"));
    cli_result_free(&r);
    put_text("one.spec", "w",
             "world = worlds/routh_rocking_block.world\nmodel = aplcp\nduration = 0.05\n"
             "record = fallbacks\n");
    r = EXEC("sweep one.spec --plot one.png"); /* one point, one value: both axes have zero width */
    ENSURE(r.exit_status == 0 && is_png("one.png"));
    cli_result_free(&r);
}

static void test_started_by_mpirun_without_mpi_rank_0_works_alone(void)
{
    remove_rows("rank0.jsonl");
    cli_result r = ENV_EXEC(
        "IMPAX_MPI=0 OMPI_COMM_WORLD_SIZE=3 OMPI_COMM_WORLD_RANK=1 '%s' sweep seeds.spec --out "
        "rank1.jsonl",
        impax);
    ENSURE(r.exit_status == 0 && r.out[0] == '\0' && r.err[0] == '\0');
    cli_result_free(&r);
    r = ENV_EXEC("IMPAX_MPI=0 OMPI_COMM_WORLD_SIZE=3 OMPI_COMM_WORLD_RANK=0 '%s' sweep seeds.spec "
                 "--jobs 2 --out "
                 "rank0.jsonl",
                 impax);
    ENSURE(r.exit_status == 0 && strstr(r.err, "started by mpirun (3 ranks)") != NULL &&
           strstr(r.out, "on 2 fork workers") != NULL);
    cli_result_free(&r);
    r = EXEC("sweep --help");
    ENSURE(r.exit_status == 0 && strstr(r.out, "usage: impax sweep SPEC") != NULL);
    cli_result_free(&r);
}

int main(int argc, char **argv)
{
    if (argc != 6) {
        fprintf(stderr, "usage: test_sweep IMPAX BLOCK_WORLD BAD_WORLD SCRATCH MPIRUN|-\n");
        return 2;
    }
    impax = argv[1];
    block_world = argv[2];
    bad_world = argv[3];
    mpirun = argv[5];
    snprintf(scratch, sizeof scratch, "%s", argv[4]);
    char dir[1100], copy[1200];
    snprintf(dir, sizeof dir, "%s/worlds", scratch);
    mkdir(dir, 0777);
    snprintf(copy, sizeof copy, "%s/routh_rocking_block.world", dir);
    char *world = read_file(block_world, NULL);
    FILE *f = world ? fopen(copy, "w") : NULL;
    if (!f) {
        fprintf(stderr, "test_sweep: cannot copy %s to %s\n", block_world, copy);
        return 1;
    }
    fputs(world, f);
    fclose(f);
    free(world);
    put_text("grid.spec", "w", grid_spec);
    RUN(test_rows_do_not_depend_on_the_workers);
    RUN(test_rows_are_the_same_on_mpi_ranks);
    RUN(test_a_rerun_completes_a_crashed_sweep);
    RUN(test_a_crashed_mpi_sweep_is_completed_on_mpi);
    RUN(test_a_dead_worker_loses_only_its_job);
    RUN(test_a_bad_spec_names_file_and_line_and_runs_nothing);
    RUN(test_plots_of_a_grid_and_of_the_seeds);
    RUN(test_started_by_mpirun_without_mpi_rank_0_works_alone);
    free(reference);
    return ipx_test_exit();
}
