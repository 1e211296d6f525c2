/* bench_replay: solves a file of captured problems (bench_scenes' BENCH_CAPTURE) under one or
   more models, each with its own parameters, so that two settings or two builds are timed on
   the same problems (a chaotic scene's runs are not; see core/include/impax/problem_file.h).
     build/bench/bench_replay FILE ENTRY [ENTRY ...]      ENTRY = MODEL or MODEL:PARAMS
   e.g. `bench_replay /tmp/c-bin-routh.ipxp routh routh:lcp_switch=16,lcp_fallback=96`.
   Per entry: the time of the solves (the sum over the problems of each one's median over
   BENCH_REPEATS runs, default 3), its ratio to the first entry's, the problems the model
   failed on, those answered with a limit reached (limits_hit: a fallback, a loose LCP, a cost
   bound; the model's header says which), those whose answer breaks an invariant the model
   promises or that a safety net changed (the checker at the model tests' tolerances:
   non-penetration down to a model's eps_v, PLUS's velocity floor), and how far the post-impact
   velocities are from the first entry's (|dv|max / |v_pre|max per problem: median, 90th percentile,
   largest, and how many answers differ by more than 1e-9 so), and a hash of its answers (status,
   impulses, post-impact velocities and limits of every problem's first solve, bit for bit): two
   builds that give the same hash on the same file answer the same, the check a restructuring
   passes. Then the time by problem size, and the counts the models report, summed (rounds,
   intervals, least-squares solves, Newton iterations: the work done, whatever the machine's load).
   BENCH_MIN_K (default 1): only problems of at least that many contacts;
   BENCH_SHOW=1: the checker's findings for each answer that breaks a promise;
   BENCH_EACH=1: a line per problem and entry (contacts, time, the counts, limits_hit), to find
   the dear ones in a capture. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "impax/check.h"
#include "impax/impax.h"
#include "model_test.h"
#include "impax/problem_file.h"
#include "timing.h"

#define MAX_ENTRIES 8
#define MAX_REPEATS 21
#define N_SIZES 6
static const int size_edge[N_SIZES] = {8, 16, 32, 64, 128, 1 << 30}; /* k below each */
static const char *size_name[N_SIZES] = {"<8", "8-15", "16-31", "32-63", "64-127", "128+"};

typedef struct entry {
    const char *text;
    ipx_params params;
    double total_us, size_us[N_SIZES];
    int fails, broken, limited;                  /* limited: answers with a limits_hit bit set */
    int bit_count[32];                           /* answers with each limits_hit bit */
    long long rounds, intervals, solves, newton; /* counts summed over the first repeat */
    double *v_post; /* 3k per problem, concatenated (the first repeat's answers) */
    uint64_t hash;  /* FNV-1a over the first repeat's answers, bit for bit */
} entry;

static uint64_t fnv1a(uint64_t h, const void *bytes, size_t n)
{
    const unsigned char *b = bytes;
    for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 0x100000001b3ULL;
    return h;
}

static int load(const char *path, int min_k, ipx_problem_record **out, int *n, int *k_max)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "bench_replay: cannot read '%s'\n", path);
        return -1;
    }
    int cap = 0, read = 0;
    *n = 0, *k_max = 0;
    for (;; read++) {
        ipx_problem_record rec;
        char message[256];
        const int got = ipx_problem_read(f, &rec, message, sizeof message);
        if (got == 0) break;
        if (got < 0 && feof(f)) { /* a capture the budget killed mid-record */
            fprintf(stderr, "bench_replay: %s, record %d: %s at the end of the file: left out\n",
                    path, read + 1, message);
            break;
        }
        if (got < 0) {
            fprintf(stderr, "bench_replay: %s, record %d: %s\n", path, read + 1, message);
            fclose(f);
            return -1;
        }
        if (rec.problem.k < min_k) {
            ipx_problem_record_free(&rec);
            continue;
        }
        if (*n == cap) {
            cap = cap ? 2 * cap : 256;
            ipx_problem_record *grown = realloc(*out, sizeof **out * (size_t)cap);
            if (!grown) {
                fprintf(stderr, "bench_replay: no memory for %d problems\n", cap);
                fclose(f);
                return -1;
            }
            *out = grown;
        }
        if (rec.problem.k > *k_max) *k_max = rec.problem.k;
        (*out)[(*n)++] = rec;
    }
    fclose(f);
    return 0;
}

static int size_class(int k)
{
    int c = 0;
    while (k >= size_edge[c]) c++;
    return c;
}

/* Counts what the first solve of problem i gave: a failure, limits reached, checker findings
   (the model's promises and its safety nets at the tests' tolerances: ipx_test_check_findings,
   non-penetration down to eps_v); keeps its post-impact velocities (NaN on failure). */
static void judge(entry *e, const ipx_problem *p, int i, ipx_status st, const ipx_result *res,
                  unsigned kinds, double eps_v, double *v_post, int show)
{
    const size_t rows = 3 * (size_t)p->k;
    for (size_t x = 0; x < rows; x++) v_post[x] = st == IPX_OK ? res->v_post[x] : NAN;
    e->hash = fnv1a(e->hash, &st, sizeof st);
    if (st != IPX_OK) {
        e->fails++;
        return;
    }
    e->hash = fnv1a(e->hash, res->impulse, sizeof(double) * rows);
    e->hash = fnv1a(e->hash, res->v_post, sizeof(double) * rows);
    e->hash = fnv1a(e->hash, &res->counts.limits_hit, sizeof res->counts.limits_hit);
    if (res->counts.limits_hit != 0) e->limited++;
    e->rounds += res->counts.rounds, e->intervals += res->counts.intervals;
    e->solves += res->counts.lsq_solves, e->newton += res->counts.newton_iters;
    for (int b = 0; b < 32; b++) e->bit_count[b] += (res->counts.limits_hit >> b) & 1u;
    char lines[1024];
    if (ipx_test_check_findings(p, res, kinds, eps_v, lines, sizeof lines) == 0) return;
    e->broken++;
    if (show)
        printf("  %s, problem %d (k = %d, limits_hit 0x%x):\n%s", e->text, i + 1, p->k,
               res->counts.limits_hit, lines);
}

/* Solves every problem `repeats` times under e; the first run's answers are judged and kept. */
static int replay(entry *e, const ipx_problem_record *recs, int n, int k_max, int repeats, int show,
                  int each)
{
    e->hash = 0xcbf29ce484222325ULL;
    ipx_workspace *ws = ipx_workspace_create(&e->params, k_max);
    if (!ws) {
        fprintf(stderr, "bench_replay: no workspace for %s at k = %d\n", e->text, k_max);
        return -1;
    }
    const unsigned kinds = e->params.model->promises(e->params.value) | IPX_CHECK_SAFETY_NET;
    /* a model's own velocity floor (PLUS's eps_v: a contact approaching slower observes, and the
       impact ends there) is non-penetration's absolute tolerance, as in its tests */
    const int iv = ipx_param_index(e->params.model, "eps_v");
    const double eps_v = iv >= 0 ? e->params.value[iv] : ipx_check_default_options().tol_abs;
    size_t offset = 0;
    for (int i = 0; i < n; i++) {
        const ipx_problem *p = &recs[i].problem;
        double t[MAX_REPEATS];
        ipx_counts first = {0};
        for (int r = 0; r < repeats; r++) {
            ipx_result res;
            const double t0 = ipx_now_us();
            const ipx_status st = ipx_solve(&e->params, p, ws, &res);
            t[r] = ipx_now_us() - t0;
            if (r > 0) continue;
            judge(e, p, i, st, &res, kinds, eps_v, e->v_post + offset, show);
            if (st == IPX_OK) first = res.counts;
        }
        const double us = ipx_median(t, repeats);
        if (each)
            printf("  %s, problem %d: k %d, %.0f us, rounds %ld, intervals %ld, solves %ld, Newton "
                   "%ld, limits_hit 0x%x\n",
                   e->text, i + 1, p->k, us, (long)first.rounds, (long)first.intervals,
                   (long)first.lsq_solves, (long)first.newton_iters, first.limits_hit);
        e->total_us += us;
        e->size_us[size_class(p->k)] += us;
        offset += 3 * (size_t)p->k;
    }
    ipx_workspace_destroy(ws);
    return 0;
}

static int by_value(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

#define DIFFER 1e-9 /* |dv|max / |v_pre|max above which two answers count as different */

/* The distance of e's answers from the first entry's: per problem |dv|max / |v_pre|max; then
   how many answers differ from the first entry's, by more than DIFFER or in failing. */
static void print_distance(const entry *first, const entry *e, const ipx_problem_record *recs,
                           int n)
{
    double *d = malloc(sizeof(double) * (size_t)n);
    if (!d) return;
    int m = 0, differ = 0;
    size_t offset = 0;
    for (int i = 0; i < n; i++) {
        const size_t rows = 3 * (size_t)recs[i].problem.k;
        double dv = 0.0, vmax = 0.0;
        int both = 1;
        for (size_t x = 0; x < rows; x++) {
            const double a = first->v_post[offset + x], b = e->v_post[offset + x];
            both = both && !isnan(a) && !isnan(b);
            dv = fmax(dv, fabs(a - b));
            vmax = fmax(vmax, fabs(recs[i].problem.v[x]));
        }
        if (both && vmax > 0.0) d[m++] = dv / vmax;
        differ += !both || dv > DIFFER * vmax;
        offset += rows;
    }
    qsort(d, (size_t)m, sizeof *d, by_value);
    if (m > 0)
        printf("  %8.2g %8.2g %8.2g", d[m / 2], d[(9 * m) / 10 < m ? (9 * m) / 10 : m - 1],
               d[m - 1]);
    printf("  %d differ", differ);
    free(d);
}

int main(int argc, char **argv)
{
    if (argc < 3 || argc - 2 > MAX_ENTRIES) {
        fprintf(stderr,
                "usage: bench_replay FILE ENTRY [ENTRY ...] (at most %d), ENTRY = MODEL or "
                "MODEL:PARAMS (e.g. routh:lcp_switch=16,lcp_fallback=96)\n",
                MAX_ENTRIES);
        return 2;
    }
    const char *rep = getenv("BENCH_REPEATS"), *mk = getenv("BENCH_MIN_K"),
               *sb = getenv("BENCH_SHOW"), *be = getenv("BENCH_EACH");
    const int show = sb && strcmp(sb, "1") == 0, each = be && strcmp(be, "1") == 0;
    const int repeats = rep && *rep ? atoi(rep) : 3, min_k = mk && *mk ? atoi(mk) : 1;
    if (repeats < 1 || repeats > MAX_REPEATS || min_k < 1) {
        fprintf(stderr, "bench_replay: BENCH_REPEATS must be 1..%d and BENCH_MIN_K >= 1\n",
                MAX_REPEATS);
        return 2;
    }
    entry entries[MAX_ENTRIES];
    const int n_entries = argc - 2;
    memset(entries, 0, sizeof entries);
    for (int e = 0; e < n_entries; e++) {
        char name[64], message[IPX_MESSAGE_SIZE];
        const char *text = argv[e + 2], *colon = strchr(text, ':');
        const size_t len = colon ? (size_t)(colon - text) : strlen(text);
        snprintf(name, sizeof name, "%.*s", (int)(len < sizeof name ? len : sizeof name - 1), text);
        entries[e].text = text;
        if (ipx_params_init(&entries[e].params, name, message, sizeof message) != IPX_OK ||
            (colon &&
             ipx_params_parse(&entries[e].params, colon + 1, message, sizeof message) != IPX_OK)) {
            fprintf(stderr, "bench_replay: %s: %s\n", text, message);
            return 2;
        }
    }
    ipx_problem_record *recs = NULL;
    int n = 0, k_max = 0;
    if (load(argv[1], min_k, &recs, &n, &k_max) != 0) return 1;
    if (n == 0) {
        fprintf(stderr, "bench_replay: %s has no problem of %d contacts or more\n", argv[1], min_k);
        return 1;
    }
    size_t rows = 0;
    int count[N_SIZES] = {0}, k_min = k_max;
    for (int i = 0; i < n; i++) {
        const int k = recs[i].problem.k;
        rows += 3 * (size_t)k, count[size_class(k)]++;
        if (k < k_min) k_min = k;
    }
    printf("%s: %d problems of %d..%d contacts; per problem the median of %d solves\n", argv[1], n,
           k_min, k_max, repeats);
    printf("%-40s %10s %6s %6s %7s %7s  %s\n", "entry", "solves ms", "ratio", "failed", "broken",
           "limits", "|dv|/|v| against the first: median, p90, max; answers beyond 1e-9");
    for (int e = 0; e < n_entries; e++) {
        entries[e].v_post = malloc(sizeof(double) * rows);
        if (!entries[e].v_post || replay(&entries[e], recs, n, k_max, repeats, show, each) != 0)
            return 1;
        printf("%-40s %10.1f %6.2f %6d %7d %7d", entries[e].text, 1e-3 * entries[e].total_us,
               entries[e].total_us / entries[0].total_us, entries[e].fails, entries[e].broken,
               entries[e].limited);
        if (e > 0) print_distance(&entries[0], &entries[e], recs, n);
        printf("\n");
        fflush(stdout);
    }
    printf("by size (ms; problems):");
    for (int c = 0; c < N_SIZES; c++)
        if (count[c]) printf("  k %s (%d)", size_name[c], count[c]);
    printf("\n");
    for (int e = 0; e < n_entries; e++) {
        printf("%-40s", entries[e].text);
        for (int c = 0; c < N_SIZES; c++)
            if (count[c]) printf(" %9.1f", 1e-3 * entries[e].size_us[c]);
        printf("\n");
        free(entries[e].v_post);
    }
    for (int e = 0; e < n_entries; e++)
        printf("%s: answers hash %016llx\n", entries[e].text, (unsigned long long)entries[e].hash);
    for (int e = 0; e < n_entries; e++)
        printf("%s: rounds %lld, intervals %lld, least-squares solves %lld, Newton iterations "
               "%lld\n",
               entries[e].text, entries[e].rounds, entries[e].intervals, entries[e].solves,
               entries[e].newton);
    for (int e = 0; e < n_entries; e++) {
        if (!entries[e].limited) continue;
        printf("%s: limits_hit bits (answers):", entries[e].text);
        for (int b = 0; b < 32; b++)
            if (entries[e].bit_count[b]) printf(" 0x%x (%d)", 1u << b, entries[e].bit_count[b]);
        printf("\n");
    }
    for (int i = 0; i < n; i++) ipx_problem_record_free(&recs[i]);
    free(recs);
    return 0;
}
