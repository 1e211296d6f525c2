/* bench_piles: the family of piles of issue [piles], one scene per seed (drawn by
   tests/support/ode_pile_scene.h from the ranges a user's program might have), each run as a
   plain ODE program under ODE alone and through the adapter (impax/ode.h) under each model.
   Per (seed, model): the CPU time (CLOCK_PROCESS_CPUTIME_ID of the run's steps, median over the
   repeats) and its ratio to ODE alone on the same seed in the same run of this program, impact
   events, wall ms inside impax per event, the largest island handed to the model (contacts),
   events answered at a limit (limits_hit), fallbacks and their reasons (the adapter's message
   with its numbers and addresses blanked, counted), the bodies' kinetic energy at the end, the
   contact points per step, and the ratio per contact point (CPU per contact point against ODE
   alone's: the host's step costs about in proportion to its contacts, and a pile that settles
   sooner under a model than under ODE's own bounce holds more of them); then per model the
   distribution of both ratios over the seeds (median, worst and its seed), each run's ratio per
   contact point over the part it ran. Each run is a child process: one that passes its
   budget (wall time, or CPU time as a multiple of ODE alone's) is killed and reported as
   "> budget" (its ratio a lower bound, from the last step it finished), and not repeated.

     bench_piles [options] SEED...        a SEED is a number or a range A-B
       --models LIST   comma list of aplcp, routh, plus, bowling, gonthier, jia, ode
                       (default all but ode; "ode" is the adapter's pass-through)
       --repeats N     runs per (seed, model), default 3
       --budget S      wall seconds per run, default 120
       --budget-ratio R  also stop a model's run once its CPU time passes R times ODE
                       alone's on the seed (CPU time: a loaded machine stretches wall time):
                       its ratio is then reported as "> R"
       --time S        simulated seconds per scene, default 1.5 (a sequential release ends by
                       half of it)
       --params P      adapter and model parameters given to every model
       --capture DIR   every problem a model (but jia) fell back on, in the first repeat,
                       written to DIR/piles-SEED-MODEL.ipxp (core/include/impax/problem_file.h), for
                       bench_replay and the regression set
       --list          print the seeds' scenes only

   Run with OPENBLAS_NUM_THREADS=1 (docs/performance.md "BLAS threads"). */
#define _POSIX_C_SOURCE 200809L /* clock_gettime, fork, fmemopen */
#define _DEFAULT_SOURCE         /* MAP_ANONYMOUS */
#include <ctype.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <ode/ode.h>

#include "impax/ode.h"
#include "ode_pile_scene.h"
#include "impax/problem_file.h"
#include "timing.h"

#define MAX_SEEDS 1000
#define MAX_MODELS 8
#define MAX_REPEATS 51
#define MAX_REASONS 6
#define REASON_SIZE 200
#define NOTE "                                 " /* indent of the notes under a row */

typedef struct outcome {
    double cpu_us, wall_us, impax_us; /* of a run; measure() gives their medians */
    long steps_done, events, fallbacks, early_fallbacks, at_limit, captured, ode_messages;
    long contact_points; /* made by the run's steps */
    double ke_end_j;     /* J: the bodies' kinetic energy after the last step */
    int max_k;
    int stopped; /* 1: the budget cut the run off */
    int died;    /* 1: the child ended abnormally (its status in died_status) */
    int died_status;
    int n_reasons;
    long reason_count[MAX_REASONS], other_reasons;
    char reason[MAX_REASONS][REASON_SIZE];
} outcome;

typedef struct options {
    const char *models[MAX_MODELS];
    int n_models, repeats;
    double budget_s, budget_ratio, seconds; /* budget_ratio 0: none */
    const char *params, *capture;
} options;

typedef struct child_run {
    outcome *out;
    FILE *capture; /* NULL: no capture */
    const char *capture_path;
} child_run;

/* ---- in the child ---------------------------------------------------------------------- */

static double cpu_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return 1e6 * (double)t.tv_sec + 1e-3 * (double)t.tv_nsec;
}

/* The message with its numbers and addresses blanked to '#': one key per kind of failure. */
static void reason_key(const char *status, char *key, size_t size)
{
    size_t n = 0;
    for (const char *s = status; *s && n + 1 < size;) {
        if (isdigit((unsigned char)*s) ||
            ((*s == '-' || *s == '+' || *s == '.') && isdigit((unsigned char)s[1]))) {
            while (*s && (isalnum((unsigned char)*s) || *s == '.' || *s == '-' || *s == '+')) s++;
            key[n++] = '#';
        } else {
            key[n++] = *s++;
        }
    }
    key[n] = '\0';
}

static void count_reason(outcome *o, const char *status)
{
    char key[REASON_SIZE];
    reason_key(status, key, sizeof key);
    for (int i = 0; i < o->n_reasons; i++)
        if (strcmp(o->reason[i], key) == 0) {
            o->reason_count[i]++;
            return;
        }
    if (o->n_reasons == MAX_REASONS) {
        o->other_reasons++;
        return;
    }
    snprintf(o->reason[o->n_reasons], REASON_SIZE, "%s", key);
    o->reason_count[o->n_reasons++] = 1;
}

/* Runs inside the pre-step with the context locked. */
static void on_event(const ipx_ode_event *ev, void *user)
{
    child_run *c = user;
    outcome *o = c->out;
    if (ev->k > o->max_k) o->max_k = ev->k;
    if (ev->ok) {
        if (ev->counts.limits_hit) o->at_limit++;
        return;
    }
    count_reason(o, ev->status);
    if (!ev->problem) {
        o->early_fallbacks++;
        return;
    }
    if (!c->capture_path) return;
    if (!c->capture) c->capture = fopen(c->capture_path, "wb");
    if (!c->capture || ipx_problem_write(c->capture, ev->problem) != 0) {
        fprintf(stderr, "bench_piles: cannot write %s: the capture stops here\n", c->capture_path);
        if (c->capture) fclose(c->capture);
        c->capture = NULL;
        c->capture_path = NULL;
        return;
    }
    o->captured++;
}

/* One run of spec under model (NULL: ODE alone), its figures published into *out after every
   step. */
static void simulate(const pile_spec *spec, const char *model, const char *params,
                     const char *capture_path, outcome *out)
{
    char msg[256];
    pile_world w;
    if (pile_world_make(&w, spec, model, params, msg, sizeof msg) != 0) {
        fprintf(stderr, "bench_piles: %s\n", msg);
        _exit(2);
    }
    child_run c = {out, NULL, capture_path};
    if (w.ipx) ipx_ode_set_event_callback(w.ipx, on_event, &c);
    const double w0 = ipx_now_us(), c0 = cpu_us();
    while (w.step < w.steps) {
        pile_world_step(&w);
        out->wall_us = ipx_now_us() - w0;
        out->cpu_us = cpu_us() - c0;
        out->steps_done = w.step;
        out->contact_points = w.contact_points;
        if (w.ipx) {
            const ipx_ode_stats st = ipx_ode_get_stats(w.ipx);
            out->events = st.impact_events;
            out->fallbacks = st.fallbacks;
            out->impax_us = 1e6 * st.seconds;
        }
    }
    out->ke_end_j = pile_world_kinetic_energy(&w);
    if (c.capture) fclose(c.capture);
    pile_world_free(&w);
}

/* ---- in the parent --------------------------------------------------------------------- */

/* us of CPU time on clock id (0 if it cannot be read) */
static double cpu_of(clockid_t id)
{
    struct timespec t;
    if (id == (clockid_t)-1 || clock_gettime(id, &t) != 0) return 0.0;
    return 1e6 * (double)t.tv_sec + 1e-3 * (double)t.tv_nsec;
}

/* simulate in a child process, killed after budget_us of wall time or cpu_budget_us of its
   CPU time (0: none); *out then holds its last published step. */
static void run_bounded(const pile_spec *spec, const char *model, const options *opt,
                        double cpu_budget_us, const char *capture_path, outcome *out)
{
    outcome *shared =
        mmap(NULL, sizeof *shared, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (shared == MAP_FAILED) {
        perror("bench_piles: mmap");
        exit(1);
    }
    memset(shared, 0, sizeof *shared);
    fflush(stdout);
    const double t0 = ipx_now_us();
    const pid_t child = fork();
    if (child < 0) {
        perror("bench_piles: fork");
        exit(1);
    }
    if (child == 0) {
        ipx_ode_capture_messages(0);
        simulate(spec, model, opt->params, capture_path, shared);
        FILE *null = fopen("/dev/null", "w");
        shared->ode_messages = ipx_ode_report_messages(null, "");
        if (null) fclose(null);
        _exit(0);
    }
    int status = 0;
    const struct timespec poll = {0, 10000000}; /* 10 ms */
    clockid_t child_cpu; /* the child's CPU clock: read in the middle of a long step too */
    if (clock_getcpuclockid(child, &child_cpu) != 0) child_cpu = (clockid_t)-1;
    while (waitpid(child, &status, WNOHANG) == 0) {
        if (ipx_now_us() - t0 > 1e6 * opt->budget_s ||
            (cpu_budget_us > 0 && cpu_of(child_cpu) > cpu_budget_us)) {
            kill(child, SIGKILL);
            waitpid(child, &status, 0);
            shared->stopped = 1;
            break;
        }
        nanosleep(&poll, NULL);
    }
    if (!shared->stopped && !(WIFEXITED(status) && WEXITSTATUS(status) == 0)) {
        shared->died = 1;
        shared->died_status = status;
    }
    *out = *shared;
    munmap(shared, sizeof *shared);
}

/* Medians of the times over the repeats (one run only if it was stopped or died); a model's
   run also stops at budget_ratio x ODE alone's CPU time ode_cpu_us (0: unknown). */
static outcome measure(const pile_spec *spec, const char *model, const options *opt,
                       double ode_cpu_us)
{
    const double cpu_budget_us = model ? opt->budget_ratio * ode_cpu_us : 0.0;
    double cpu[MAX_REPEATS], wall[MAX_REPEATS], inside[MAX_REPEATS];
    char path[1024];
    outcome o;
    long captured = 0; /* the first run's */
    int n = 0;
    while (n < opt->repeats) {
        const char *capture_path = NULL;
        /* jia refuses every island of more than one contact by design (docs/models/jia.md):
           those are not failing problems, and a pile's are megabytes each */
        if (opt->capture && model && strcmp(model, "jia") != 0 && n == 0) {
            snprintf(path, sizeof path, "%s/piles-%llu-%s.ipxp", opt->capture,
                     (unsigned long long)spec->seed, model);
            remove(path); /* a file from an earlier run of the same seed must not stay */
            capture_path = path;
        }
        run_bounded(spec, model, opt, cpu_budget_us, capture_path, &o);
        if (n == 0) captured = o.captured;
        cpu[n] = o.cpu_us, wall[n] = o.wall_us, inside[n] = o.impax_us;
        n++;
        if (o.stopped || o.died) break;
    }
    o.cpu_us = ipx_median(cpu, n);
    o.wall_us = ipx_median(wall, n);
    o.impax_us = ipx_median(inside, n);
    o.captured = captured;
    return o;
}

/* ratio of a run (NaN if there is none: ODE alone did not finish); per_contact: of the CPU time
   per contact point */
static double ratio_of(const outcome *o, const outcome *ode, int per_contact)
{
    if (ode->stopped || ode->died || !(ode->cpu_us > 0)) return 0.0 / 0.0;
    if (!per_contact) return o->cpu_us / ode->cpu_us;
    if (!(o->contact_points > 0 && ode->contact_points > 0)) return 0.0 / 0.0;
    return o->cpu_us / (double)o->contact_points / (ode->cpu_us / (double)ode->contact_points);
}

static void print_row(const pile_spec *spec, const char *model, const outcome *o,
                      const outcome *ode)
{
    char ratio[24], per[24], status[64], per_ct[24], ke[24];
    const double r = ratio_of(o, ode, 0), rc = ratio_of(o, ode, 1);
    if (r != r) snprintf(ratio, sizeof ratio, "-");
    else snprintf(ratio, sizeof ratio, o->stopped ? ">%.2f" : "%.2f", r);
    if (rc != rc) snprintf(per_ct, sizeof per_ct, "-");
    else snprintf(per_ct, sizeof per_ct, "%.2f", rc);
    if (o->stopped || o->died) snprintf(ke, sizeof ke, "-");
    else snprintf(ke, sizeof ke, "%.3g", o->ke_end_j);
    if (o->events) snprintf(per, sizeof per, "%.3f", 1e-3 * o->impax_us / (double)o->events);
    else snprintf(per, sizeof per, "-");
    const long steps = (long)(spec->seconds / spec->h + 1.0 - 1e-9);
    if (o->stopped)
        snprintf(status, sizeof status, "> budget at step %ld of %ld", o->steps_done, steps);
    else if (o->died) snprintf(status, sizeof status, "died (status %d)", o->died_status);
    else snprintf(status, sizeof status, "ok");
    const double per_step = o->steps_done ? (double)o->contact_points / (double)o->steps_done : 0.0;
    printf("%-6llu %-8s %10.1f %8s %8ld %9s %6d %8ld %9ld %8.0f %8s %9s  %s\n",
           (unsigned long long)spec->seed, model ? model : "(ODE)", o->cpu_us / 1000, ratio,
           o->events, per, o->max_k, o->at_limit, o->fallbacks, per_step, per_ct, ke, status);
    for (int i = 0; i < o->n_reasons; i++)
        printf(NOTE "%6ld x %s\n", o->reason_count[i], o->reason[i]);
    if (o->other_reasons) printf(NOTE "%6ld x (other reasons)\n", o->other_reasons);
    if (o->captured) printf(NOTE "%ld problems captured\n", o->captured);
    if (o->ode_messages) printf(NOTE "ODE messages: %ld\n", o->ode_messages);
}

/* ---- the distribution over seeds ------------------------------------------------------- */

typedef struct tally {
    double ratio[MAX_SEEDS], per_contact[MAX_SEEDS];
    unsigned long long seed[MAX_SEEDS];
    int n, stopped, died;
    long events, fallbacks, at_limit;
    int seeds_with_fallbacks;
} tally;

static void tally_add(tally *t, const pile_spec *spec, const outcome *o, const outcome *ode)
{
    t->events += o->events;
    t->fallbacks += o->fallbacks;
    t->at_limit += o->at_limit;
    t->seeds_with_fallbacks += o->fallbacks > 0;
    t->stopped += o->stopped;
    t->died += o->died;
    const double r = ratio_of(o, ode, 0);
    if (r != r || o->died) return;
    t->ratio[t->n] = r;
    t->per_contact[t->n] = ratio_of(o, ode, 1);
    t->seed[t->n++] = (unsigned long long)spec->seed;
}

/* The median and the worst (with its seed) of x over t's seeds, as text. */
static void spread(const tally *t, const double *x, char med[32], char max[48])
{
    double sorted[MAX_SEEDS];
    memcpy(sorted, x, sizeof sorted[0] * (size_t)t->n);
    int worst = 0;
    for (int i = 1; i < t->n; i++)
        if (x[i] > x[worst]) worst = i;
    const char *bound = t->stopped ? ">=" : "";
    snprintf(med, 32, "-");
    snprintf(max, 48, "-");
    if (t->n) {
        snprintf(med, 32, "%s%.2f", bound, ipx_median(sorted, t->n));
        snprintf(max, 48, "%s%.2f (seed %llu)", bound, x[worst], t->seed[worst]);
    }
}

static void print_tally(const char *model, const tally *t)
{
    char med[32], max[48], med_ct[32], max_ct[48];
    spread(t, t->ratio, med, max);
    spread(t, t->per_contact, med_ct, max_ct);
    printf("%-8s %6d %10s %22s %8d %5d %10ld %9ld %10ld %6d %10s %22s\n", model, t->n, med, max,
           t->stopped, t->died, t->events, t->at_limit, t->fallbacks, t->seeds_with_fallbacks,
           med_ct, max_ct);
}

/* ---- options --------------------------------------------------------------------------- */

static int usage(const char *prog)
{
    fprintf(stderr,
            "usage: %s [--models LIST] [--repeats N] [--budget S] [--budget-ratio R] [--time S]\n"
            "          [--params P] [--capture DIR] [--list] SEED...   (SEED: a number or a range "
            "A-B)\n",
            prog);
    return 2;
}

static int parse_models(char *list, options *opt)
{
    static const char *const known[] = {"aplcp",    "routh", "plus", "bowling",
                                        "gonthier", "jia",   "ode"};
    opt->n_models = 0;
    for (char *item = strtok(list, ","); item; item = strtok(NULL, ",")) {
        size_t i = 0;
        while (i < sizeof known / sizeof known[0] && strcmp(known[i], item) != 0) i++;
        if (i == sizeof known / sizeof known[0] || opt->n_models == MAX_MODELS) {
            fprintf(stderr,
                    "bench_piles: --models: '%s' is not one of aplcp, routh, plus, "
                    "bowling, gonthier, jia, ode\n",
                    item);
            return -1;
        }
        opt->models[opt->n_models++] = known[i];
    }
    return opt->n_models ? 0 : -1;
}

/* Appends the seeds of "N" or "A-B" to seeds; -1 on a malformed item or too many. */
static int parse_seeds(const char *text, unsigned long long *seeds, int *n)
{
    char *end;
    const unsigned long long a = strtoull(text, &end, 10);
    unsigned long long b = a;
    if (end == text) return -1;
    if (*end == '-') {
        const char *from = end + 1;
        b = strtoull(from, &end, 10);
        if (end == from) return -1;
    }
    if (*end || b < a || b - a >= MAX_SEEDS) return -1;
    for (unsigned long long s = a; s <= b; s++) {
        if (*n == MAX_SEEDS) return -1;
        seeds[(*n)++] = s;
    }
    return 0;
}

int main(int argc, char **argv)
{
    static unsigned long long seeds[MAX_SEEDS];
    char models_text[256] = "aplcp,routh,plus,bowling,gonthier,jia";
    options opt = {{0}, 0, 3, 120.0, 0.0, 1.5, NULL, NULL};
    int n_seeds = 0, list_only = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const int has_value = i + 1 < argc;
        if (!strcmp(a, "--models") && has_value)
            snprintf(models_text, sizeof models_text, "%s", argv[++i]);
        else if (!strcmp(a, "--repeats") && has_value) opt.repeats = atoi(argv[++i]);
        else if (!strcmp(a, "--budget") && has_value) opt.budget_s = atof(argv[++i]);
        else if (!strcmp(a, "--budget-ratio") && has_value) opt.budget_ratio = atof(argv[++i]);
        else if (!strcmp(a, "--time") && has_value) opt.seconds = atof(argv[++i]);
        else if (!strcmp(a, "--params") && has_value) opt.params = argv[++i];
        else if (!strcmp(a, "--capture") && has_value) opt.capture = argv[++i];
        else if (!strcmp(a, "--list")) list_only = 1;
        else if (parse_seeds(a, seeds, &n_seeds) != 0) return usage(argv[0]);
    }
    if (parse_models(models_text, &opt) != 0 || n_seeds == 0) return usage(argv[0]);
    if (opt.repeats < 1 || opt.repeats > MAX_REPEATS || !(opt.budget_s > 0) || !(opt.seconds > 0) ||
        !(opt.budget_ratio >= 0)) {
        fprintf(stderr,
                "bench_piles: --repeats must be 1..%d, --budget and --time > 0, --budget-ratio "
                ">= 0\n",
                MAX_REPEATS);
        return 2;
    }
    if (opt.capture && access(opt.capture, W_OK) != 0) {
        fprintf(stderr, "bench_piles: --capture '%s': not a writable directory\n", opt.capture);
        return 2;
    }
    dInitODE2(0);
    /* every model and --params checked before any run */
    char msg[256];
    dWorldID probe = dWorldCreate();
    for (int m = 0; m < opt.n_models; m++) {
        ipx_ode_context *ipx = ipx_ode_create(probe);
        if (ipx_ode_configure(ipx, opt.models[m], opt.params, msg, sizeof msg) != 0) {
            fprintf(stderr, "bench_piles: model %s: %s\n", opt.models[m], msg);
            return 2;
        }
        ipx_ode_destroy(ipx);
    }
    dWorldDestroy(probe);

    const pile_draw_range range = pile_default_range();
    printf("bench_piles: %d seed(s), %g s simulated each, median CPU of %d run(s), budget %g s "
           "wall per run and %g x ODE's CPU time (0: none), params '%s'\n",
           n_seeds, opt.seconds, opt.repeats, opt.budget_s, opt.budget_ratio,
           opt.params ? opt.params : "");
    static tally tallies[MAX_MODELS];
    for (int s = 0; s < n_seeds; s++) {
        pile_spec spec;
        pile_draw(seeds[s], &range, opt.seconds, &spec);
        char line[512];
        pile_format(&spec, line, sizeof line);
        printf("\n%s\n", line);
        if (list_only) continue;
        printf("%-6s %-8s %10s %8s %8s %9s %6s %8s %9s %8s %8s %9s  %s\n", "seed", "model",
               "cpu ms", "ratio", "events", "ms/event", "max k", "at limit", "fallbacks", "ct/step",
               "ratio/ct", "KE end J", "status");
        const outcome ode = measure(&spec, NULL, &opt, 0.0);
        print_row(&spec, NULL, &ode, &ode);
        for (int m = 0; m < opt.n_models; m++) {
            const outcome o =
                measure(&spec, opt.models[m], &opt, ode.stopped || ode.died ? 0.0 : ode.cpu_us);
            print_row(&spec, opt.models[m], &o, &ode);
            tally_add(&tallies[m], &spec, &o, &ode);
        }
        fflush(stdout);
    }
    if (!list_only) {
        printf("\nover the seeds (CPU ratio to ODE alone; '>=' a lower bound when a run was "
               "stopped by the budget):\n");
        printf("%-8s %6s %10s %22s %8s %5s %10s %9s %10s %6s %10s %22s\n", "model", "seeds",
               "median", "worst", "> budget", "died", "events", "at limit", "fallbacks", "seeds",
               "median/ct", "worst/ct");
        for (int m = 0; m < opt.n_models; m++) print_tally(opt.models[m], &tallies[m]);
        printf("ms/event: wall ms inside impax (pre-steps, post-steps' projections) per event; "
               "max k: most contacts in a problem handed to the model; at limit: events answered "
               "with a limit hit (limits_hit); fallbacks: islands left to ODE, by reason "
               "(numbers blanked to #); seeds: seeds with a fallback; ct/step: contact points "
               "per step; ratio/ct: the CPU ratio per contact point (the host's step costs about "
               "in proportion to its contacts); KE end J: the bodies' kinetic energy at the end "
               "('-': the run was stopped).\n");
    }
    dCloseODE();
    return 0;
}
