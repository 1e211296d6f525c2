/// `impax sweep` throughput: a 1000-job Newton's cradle sweep (plus, e = 0.5..1 in 10 steps x
/// 100 seeds, the striker's speed perturbed by +-0.1 m/s, the world's 1 s each) on 1 and 2 local
/// workers and under mpirun -n 2 and -n 3 (1 and 2 workers: rank 0 hands out). Per setting, the
/// best of a few repetitions: jobs per second, the mean time inside a job (its wall_s), and the
/// overhead per job: the time a worker is not inside a job, (batch time x workers - sum of the
/// jobs' wall_s) / jobs, and the CPU time per job of all the processes (the machine's load
/// moves the other figures; CPU time much less). Also checks that every setting wrote the same
/// rows (wall_s aside).
/// Usage: bench_sweep [JOBS_PER_SEED_STEP=100] [REPEATS=3]; IMPAX, CRADLE and MPIRUN are built in.
#define _POSIX_C_SOURCE 200809L /* mkdtemp, popen */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#ifndef IMPAX_BIN
#error "IMPAX_BIN (the impax command) must be defined"
#endif

typedef struct setting {
    const char *name;
    const char *launch; /* printf format: %s the impax binary, then " sweep ..." follows */
    int workers;
    int mpi;
} setting;

static const setting settings[] = {
    {"--jobs 1", "'%s' sweep SPEC --jobs 1", 1, 0},
    {"--jobs 2", "'%s' sweep SPEC --jobs 2", 2, 0},
    {"mpirun -n 2", "'" MPIRUN "' --allow-run-as-root --bind-to none -n 2 '%s' sweep SPEC", 1, 1},
    {"mpirun -n 3",
     "'" MPIRUN "' --allow-run-as-root --oversubscribe --bind-to none -n 3 '%s' sweep SPEC", 2, 1},
};

/* The rows of path without wall_s, sorted (as one string), their sum of wall_s and count. */
static char *rows_of(const char *path, double *wall_sum, int *n)
{
    char command[1400];
    snprintf(command, sizeof command, "sed 's/,\"wall_s\":[0-9.e+-]*}$/}/' '%s' | sort", path);
    FILE *p = popen(command, "r");
    size_t cap = 1 << 20, used = 0, got;
    char *text = malloc(cap);
    while (p && text && (got = fread(text + used, 1, cap - used - 1, p)) > 0) {
        used += got;
        char *grown = used == cap - 1 ? realloc(text, cap *= 2) : text;
        if (!grown) free(text);
        text = grown;
    }
    if (p) pclose(p);
    if (text) text[used] = '\0';
    *wall_sum = 0;
    *n = 0;
    FILE *f = fopen(path, "r");
    char line[4096];
    while (f && fgets(line, sizeof line, f)) {
        const char *w = strstr(line, "\"wall_s\":");
        if (w) *wall_sum += strtod(w + 9, NULL);
        (*n)++;
    }
    if (f) fclose(f);
    return text;
}

/* CPU seconds (user + system) of the children waited for so far. */
static double children_cpu_s(void)
{
    struct rusage u;
    getrusage(RUSAGE_CHILDREN, &u);
    return (double)u.ru_utime.tv_sec + 1e-6 * u.ru_utime.tv_usec + (double)u.ru_stime.tv_sec +
           1e-6 * u.ru_stime.tv_usec;
}

/* Runs one sweep; the batch's seconds from impax's "ran N jobs in T s" line, or -1; *cpu_s the
   CPU time of every process of it. */
static double run_sweep(const setting *s, const char *dir, const char *out, double *cpu_s)
{
    const double cpu0 = children_cpu_s();
    char launch[1024], command[2048];
    snprintf(launch, sizeof launch, s->launch, IMPAX_BIN);
    char *spec = strstr(launch, "SPEC");
    *spec = '\0';
    snprintf(command, sizeof command,
             "cd '%s' && rm -f '%s' && %scradle.spec%s --out '%s' 2>/dev/null", dir, out, launch,
             spec + 4, out);
    FILE *p = popen(command, "r");
    char line[512];
    double t = -1;
    int n;
    while (p && fgets(line, sizeof line, p))
        if (sscanf(line, "ran %d jobs in %lf s", &n, &t) == 2) {}
    if (p && pclose(p) != 0) t = -1;
    *cpu_s = children_cpu_s() - cpu0;
    return t;
}

int main(int argc, char **argv)
{
    const int seeds = argc > 1 ? atoi(argv[1]) : 100, repeats = argc > 2 ? atoi(argv[2]) : 3;
    char dir[] = "/tmp/impax_bench_sweep.XXXXXX";
    if (!mkdtemp(dir)) return 1;
    char path[512];
    snprintf(path, sizeof path, "%s/cradle.spec", dir);
    FILE *f = fopen(path, "w");
    if (!f) return 1;
    fprintf(
        f,
        "world = %s\nmodel = plus\ne = 0.5:1:10\nseed = 0..%d\nperturb = cradle::ball1 vx +-0.1\n"
        "record = velocity cradle::ball5, ke_change, impact_events\n",
        CRADLE, seeds - 1);
    fclose(f);
    const int jobs = 10 * seeds;
    printf("impax sweep, Newton's cradle, %d jobs (plus, 1 s of 1 ms steps each), best of %d:\n",
           jobs, repeats);
    printf("%-12s %8s %9s %12s %14s %12s\n", "setting", "workers", "jobs/s", "job (ms)",
           "overhead/job", "CPU/job");
    char *reference = NULL;
    for (size_t i = 0; i < sizeof settings / sizeof settings[0]; i++) {
        const setting *s = &settings[i];
        if (s->mpi && MPIRUN[0] == '\0') continue;
        double best = -1, best_wall_sum = 0, best_cpu = 0;
        char out[64], rows_path[600];
        char *rows = NULL;
        snprintf(out, sizeof out, "rows%zu.jsonl", i);
        snprintf(rows_path, sizeof rows_path, "%s/%s", dir, out);
        int n = 0;
        for (int r = 0; r < repeats; r++) {
            double wall_sum, cpu;
            const double t = run_sweep(s, dir, out, &cpu);
            free(rows);
            rows = rows_of(rows_path, &wall_sum, &n);
            if (t > 0 && n == jobs && (best < 0 || t < best)) {
                best = t;
                best_wall_sum = wall_sum;
                best_cpu = cpu;
            }
        }
        if (best < 0) {
            printf("%-12s failed\n", s->name);
            free(rows);
            continue;
        }
        const double job_ms = 1e3 * best_wall_sum / jobs; /* of the best repetition */
        printf("%-12s %8d %9.1f %12.3f %11.3f ms %9.3f ms%s\n", s->name, s->workers, jobs / best,
               job_ms, 1e3 * best * s->workers / jobs - job_ms, 1e3 * best_cpu / jobs,
               reference && rows && strcmp(reference, rows) != 0 ? "  ROWS DIFFER" : "");
        if (!reference) reference = rows;
        else free(rows);
    }
    free(reference);
    char command[600];
    snprintf(command, sizeof command, "rm -rf '%s'", dir);
    return system(command) == 0 ? 0 : 1;
}
