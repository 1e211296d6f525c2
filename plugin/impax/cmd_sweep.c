/* impax sweep SPEC: a batch of simulations (worlds x models x grid x seeds) on local processes
   or on the ranks of mpirun, one JSON row per job, resumable. */
#define _GNU_SOURCE /* getopt_long */
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "job_pool.h"
#include "outputs.h"
#include "progress.h"
#include "sweep_jobs.h"
#include "sweep_out.h"
#include "sweep_plot.h"

static const char help[] =
    "usage: impax sweep SPEC [--jobs N] [--out FILE.jsonl] [--plot FILE.png]\n"
    "\n"
    "Runs every job of SPEC (its worlds x models x parameter grid x seeds) and writes one JSON\n"
    "row per job as it finishes: the job's key (world, model, model_params, params, seed),\n"
    "status, the recorded values and wall_s. A rerun with the same output skips the jobs\n"
    "already there (resume after a crash). Every number of a row but wall_s depends only on\n"
    "the job, not on the number of workers or the order they finish in.\n"
    "Under `mpirun -n N impax sweep SPEC` rank 0 hands out the jobs and writes the rows, the\n"
    "other ranks run them.\n"
    "\n"
    "  --jobs N      local worker processes (default: the processors this process may use)\n"
    "  --out FILE    the rows (default: SPEC's name with .jsonl, in the current directory)\n"
    "  --plot FILE   PNG: with a one-parameter grid, each recorded value against it, one line\n"
    "                per model (the mean over seeds); otherwise the outcome scatter of the first\n"
    "                two recorded values, one colour per model\n"
    "\n"
    "SPEC is a text file of KEY = VALUE lines (# starts a comment; docs/command.md \"The spec\"):\n"
    "  world    = FILE or glob, relative to SPEC (repeatable)\n"
    "  model    = NAME [key=value,...]: ode or an impax model (repeatable)\n"
    "  duration = simulated seconds (default: each world's <impax:duration>)\n"
    "  seed     = A..B, a list 1,5,9, or both (default 0)\n"
    "  perturb  = BODY vx|vy|vz|wx|wy|wz +-RANGE: a uniform sample added to the initial velocity\n"
    "  record   = position|orientation|velocity|angular_velocity BODY, ke_change,\n"
    "             energy_change, impact_ke_change, impact_events, impact_contacts, fallbacks,\n"
    "             first_impact_t, max_penetration, wall_s (default ke_change, impact_events,\n"
    "             fallbacks)\n"
    "  KEY      = LO:HI:N or a list 0,0.5,1: a grid axis over a contact key (mu, e, bounce_vel,\n"
    "             rolling, spinning), the body key inertia_scale, an adapter key or a\n"
    "             parameter of every listed model\n"
    "\n"
    "Exit status: 0 every job has its row, 1 a world or the spec cannot be read or jobs did not\n"
    "finish (run again to complete them), 2 bad usage, a wrong spec (named: FILE:LINE) or an\n"
    "output that cannot be written (checked before anything runs).\n"
    "\n"
    "example (the spec: 2 models x 3 friction coefficients x 10 seeds of the rocking block):\n"
    "  impax sweep " CLI_WORLDS "/routh_rocking_block.spec --jobs 2 --out block.jsonl \\\n"
    "              --plot block.png\n";

typedef struct sweep_cli {
    const char *spec, *out, *plot;
    int jobs;
} sweep_cli;

/* The master's bookkeeping while rows come in. */
typedef struct sweep_progress {
    FILE *out;
    int written, stop_after; /* IMPAX_SWEEP_STOP_AFTER: a crash after that many rows (test hook) */
    cli_progress bar;
} sweep_progress;

static int parse_options(int argc, char **argv, sweep_cli *o)
{
    static const struct option options[] = {{"jobs", required_argument, NULL, 'j'},
                                            {"out", required_argument, NULL, 'o'},
                                            {"plot", required_argument, NULL, 'P'},
                                            {"help", no_argument, NULL, 'h'},
                                            {NULL, 0, NULL, 0}};
    long v;
    int c;
    while ((c = getopt_long(argc, argv, "j:o:P:h", options, NULL)) != -1) {
        switch (c) {
        case 'j':
            if (cli_parse_int(optarg, "--jobs", 1, 4096, &v) != 0) return CLI_USAGE;
            o->jobs = (int)v;
            break;
        case 'o': o->out = optarg; break;
        case 'P': o->plot = optarg; break;
        case 'h': fputs(help, stdout); return -1;
        default: return cli_usage_error("sweep", "unknown option");
        }
    }
    if (optind != argc - 1) return cli_usage_error("sweep", "give exactly one spec file");
    o->spec = argv[optind];
    return CLI_OK;
}

/* A worker's job. IMPAX_SWEEP_CRASH_JOB=K kills the worker that starts job K (test hook). */
static int run_job(void *ctx, int id, const void *payload, size_t payload_size, cli_buf *result)
{
    (void)payload;
    (void)payload_size;
    const sweep_spec *spec = ctx;
    const char *crash = getenv("IMPAX_SWEEP_CRASH_JOB");
    char *end;
    if (crash && *crash && strtol(crash, &end, 10) == id && *end == '\0') raise(SIGKILL);
    if (id < 0 || id >= sweep_job_count(spec)) return -1;
    return sweep_job_run(spec, id, result);
}

static int write_row(void *ctx, int k, const void *row, size_t size)
{
    (void)k;
    sweep_progress *p = ctx;
    if (fwrite(row, 1, size, p->out) != size || fflush(p->out) != 0) return -1;
    p->written++;
    cli_progress_update(&p->bar, p->written);
    if (p->stop_after > 0 && p->written >= p->stop_after) {
        fprintf(stderr, "impax sweep: IMPAX_SWEEP_STOP_AFTER=%d: stopping here (test hook)\n",
                p->stop_after);
        _exit(CLI_FAILED);
    }
    return 0;
}

static void mark_done(void *ctx, int job, const char *row, size_t len)
{
    (void)row;
    (void)len;
    ((unsigned char *)ctx)[job] = 1;
}

/* SPEC's file name with .jsonl instead of its extension. */
static void default_out(const char *spec, char *out, size_t size)
{
    const char *base = strrchr(spec, '/');
    base = base ? base + 1 : spec;
    const char *dot = strrchr(base, '.');
    snprintf(out, size, "%.*s.jsonl", dot && dot != base ? (int)(dot - base) : (int)strlen(base),
             base);
}

/* The jobs without a row in the output; *partial_at as sweep_rows_read. -1 on error. */
static int jobs_to_run(const sweep_spec *spec, const sweep_index *index, const char *out, int *todo,
                       long *partial_at)
{
    const int n = index->n;
    unsigned char *done = calloc((size_t)n + 1, 1);
    char message[512];
    int other, m = 0;
    if (!done || sweep_rows_read(out, index, mark_done, done, &other, partial_at, message,
                                 sizeof message) != 0) {
        fprintf(stderr, "impax sweep: %s\n", done ? message : "out of memory");
        free(done);
        return -1;
    }
    for (int j = 0; j < n; j++)
        if (!done[j]) todo[m++] = j;
    int grid = 1;
    for (int a = 0; a < spec->n_axes; a++) grid *= spec->axis[a].n;
    printf("sweep %s: %d jobs (%d world%s x %d model%s x %d grid point%s x %d seed%s), %d already "
           "in %s\n",
           spec->path, n, spec->n_worlds, spec->n_worlds == 1 ? "" : "s", spec->n_models,
           spec->n_models == 1 ? "" : "s", grid, grid == 1 ? "" : "s", spec->n_seeds,
           spec->n_seeds == 1 ? "" : "s", n - m, out);
    if (other)
        printf("  %s also has %d row%s of jobs not in this spec (kept)\n", out, other,
               other == 1 ? "" : "s");
    if (*partial_at >= 0)
        printf("  its last row was cut short (a crash): dropped, that job runs again\n");
    free(done);
    return m;
}

/* Runs the jobs in todo, appending their rows. 0, or 1 when some did not finish. */
static int run_jobs(cli_pool *pool, const sweep_spec *spec, const char *out_path, long partial_at,
                    const int *todo, int n)
{
    char message[512];
    if (n == 0 && partial_at < 0) {
        printf("nothing to run: every job has its row\n");
        return CLI_OK;
    }
    sweep_progress p = {.out = sweep_out_open(out_path, partial_at, message, sizeof message)};
    if (!p.out) {
        fprintf(stderr, "impax sweep: %s\n", message);
        return CLI_FAILED;
    }
    const char *stop = getenv("IMPAX_SWEEP_STOP_AFTER");
    p.stop_after = stop ? atoi(stop) : 0;
    cli_progress_start(&p.bar, "sweep", n);
    p.bar.unit = "jobs";
    const cli_batch batch = {.n = n,
                             .id = todo,
                             .run = run_job,
                             .run_ctx = (void *)spec,
                             .done = write_row,
                             .done_ctx = &p};
    const int missing = cli_pool_run(pool, &batch, message, sizeof message);
    cli_progress_finish(&p.bar);
    const double wall = cli_wall_seconds() - p.bar.start_wall_s;
    const int write_failed = fclose(p.out) != 0;
    const int workers = cli_pool_workers(pool) < n ? cli_pool_workers(pool) : n;
    printf("ran %d job%s in %.3f s on %d %s worker%s: %.2f jobs/s\n", p.written,
           p.written == 1 ? "" : "s", wall, workers, cli_pool_transport(pool),
           workers == 1 ? "" : "s", wall > 0 ? p.written / wall : 0.0);
    if (missing != 0 || write_failed) {
        fprintf(stderr,
                "impax sweep: %d of %d jobs did not finish (%s): run the same command again to "
                "complete them\n",
                missing < 0 ? n : missing, n, write_failed ? "cannot write the rows" : message);
        return CLI_FAILED;
    }
    return CLI_OK;
}

/* Before anything runs: the rows' file (SPEC's name by default) and the plot can be written. */
static int outputs_writable(const sweep_cli *o)
{
    char out_default[1024];
    if (!o->out) default_out(o->spec, out_default, sizeof out_default);
    return cli_check_output("sweep", "--out", o->out ? o->out : out_default) == 0 &&
           (!o->plot || cli_check_output("sweep", "--plot", o->plot) == 0);
}

static int master(cli_pool *pool, const sweep_cli *o, const sweep_spec *spec)
{
    char out_default[1024], message[512];
    const char *out = o->out;
    if (!out) {
        default_out(o->spec, out_default, sizeof out_default);
        out = out_default;
    }
    sweep_index index;
    if (sweep_index_build(spec, &index) != 0) {
        fprintf(stderr, "impax sweep: out of memory for %lld job keys\n", sweep_job_count(spec));
        return CLI_FAILED;
    }
    int *todo = malloc(((size_t)index.n + 1) * sizeof *todo);
    long partial_at = -1;
    const int n = todo ? jobs_to_run(spec, &index, out, todo, &partial_at) : -1;
    int rc = n < 0 ? CLI_FAILED : run_jobs(pool, spec, out, partial_at, todo, n);
    printf("rows: %s\n", out);
    if (rc == CLI_OK && o->plot) {
        if (sweep_plot(spec, &index, out, o->plot, message, sizeof message) != 0) {
            fprintf(stderr, "impax sweep: %s\n", message);
            rc = CLI_FAILED;
        } else {
            printf("plot: %s\n", o->plot);
        }
    }
    free(todo);
    sweep_index_free(&index);
    return rc;
}

int cli_cmd_sweep(int argc, char **argv)
{
    sweep_cli o = {.jobs = cli_pool_default_jobs()};
    const int parsed = parse_options(argc, argv, &o);
    if (parsed != CLI_OK) return parsed < 0 ? CLI_OK : parsed;
    char message[1024];
    int rc;
    cli_pool *pool = cli_pool_open("sweep", o.jobs, &rc);
    if (!pool) return rc;
    sweep_spec spec;
    rc = sweep_spec_load(o.spec, &spec, message, sizeof message);
    const int master_process = cli_pool_is_master(pool);
    if (rc != 0 && master_process) fprintf(stderr, "%s\n", message);
    if (rc == 0 && master_process && !outputs_writable(&o)) rc = CLI_USAGE;
    if (!cli_pool_agree(pool, rc == 0, message)) rc = rc ? rc : CLI_FAILED;
    else if (master_process) rc = master(pool, &o, &spec);
    else rc = cli_pool_serve(pool, run_job, &spec) == 0 ? CLI_OK : CLI_FAILED;
    if (spec.path) sweep_spec_free(&spec);
    cli_pool_close(pool);
    return rc;
}
