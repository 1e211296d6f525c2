/* bench_scenes: whole ODE programs driven through the adapter's public API (impax/ode.h, as
   bench_ode_step), h = 1 ms, each scene under ODE alone and under each model:
     bin        200 boxes (0.1 m, 1 kg) dropped into an open bin, 3 s, dWorldQuickStep (20 iterations)
     stack      10 boxes (0.2 m, 1 kg) stacked with 2 cm gaps, dropped on the ground, 2 s, dWorldStep
     chain      20 capsules joined by ball joints, dropped flat on the ground, 2 s, dWorldStep
     quadruped  torso box + 4 two-link legs (hinges held by velocity servos), 3 s, dWorldStep
   Every contact: mu 0.6, bounce 0.3, bounce_vel 0.05 m/s, at most 4 points per geom pair.
   Per (scene, model): median wall and CPU time (CLOCK_PROCESS_CPUTIME_ID) over the repeats,
   their ratio to ODE alone in the same run, impact events and fallbacks (ipx_ode_get_stats),
   the most contacts in a problem handed to the model (from the event callback: the stats
   have no such counter), the time inside impax per impact event, and the position
   recovery's island projections (iterative ones, failures). Counts are the last repeat's.
   Each run is a child process: one that passes the budget is killed, marked "budget" with its
   last step's figures, and not repeated. ODE's messages (dMessage) are
   counted and listed under the row.
   Environment: BENCH_SCENES (comma list, default all), BENCH_MODELS (default
   plus,routh,aplcp,bowling; "ode" is the pass-through), BENCH_REPEATS (default 5),
   BENCH_BUDGET_S (s of wall time per run, default 120), BENCH_PARAMS (adapter and model
   parameters given to every model), BENCH_SEED (ODE's dRandSetSeed, default 1: the boxes'
   jitter and QuickStep's constraint order; the bin is chaotic, so a model's time on it is a
   sample of one trajectory: compare models over several seeds, or builds on a capture),
   BENCH_CAPTURE=PREFIX (write every problem handed to a model to PREFIX-SCENE-MODEL.ipxp, for
   bench_replay; the run's times then include the writing), IMPAX_VERBOSE=1 (print ODE's
   messages as they come). */
#define _POSIX_C_SOURCE 200809L /* clock_gettime, fork */
#define _DEFAULT_SOURCE         /* MAP_ANONYMOUS */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <ode/ode.h>

#include "impax/ode.h"
#include "ode_bodies.h"
#include "ode_collide.h"
#include "impax/problem_file.h"
#include "timing.h"

#define H 0.001 /* s, the step */
#define PI 3.14159265358979323846
#define MAX_REPEATS 101
#define NOTE "                      " /* indent of the notes under a table row */

typedef struct sim {
    dWorldID world;
    dSpaceID space;
    dJointGroupID group;
    ipx_ode_context *ipx;
    int max_k;            /* largest problem (contacts) handed to a model */
    long early_fallbacks; /* islands that fell back before their problem was built */
    FILE *capture;        /* BENCH_CAPTURE: the problems handed to the model go here */
} sim;

typedef struct scene {
    const char *name;
    double seconds; /* simulated time, s */
    int quick;      /* 1: dWorldQuickStep, 0: dWorldStep */
    void (*build)(sim *);
} scene;

typedef struct outcome {
    double wall_us, cpu_us, impax_us; /* of a run; measure gives their medians over the repeats */
    long events, fallbacks, early_fallbacks;
    long projections, projections_iterative, projection_failures; /* position recovery's */
    double projection_us;
    int max_k;
    double reached;          /* simulated s done */
    int stopped;             /* 1: the budget cut the run off */
    char last_fallback[256]; /* the adapter's message for the last fallback ("" if none) */
    char ode_messages[512];  /* ODE's messages in a finished run, counted by kind ("" if none) */
} outcome;

/* ---- the world ------------------------------------------------------------------------- */

static void near_callback(void *data, dGeomID a, dGeomID b)
{
    sim *s = data;
    dBodyID b1 = dGeomGetBody(a), b2 = dGeomGetBody(b);
    if (!b1 && !b2) return; /* static against static */
    if (b1 && b2 && dAreConnectedExcluding(b1, b2, dJointTypeContact)) return; /* jointed links */
    bench_collide(s->ipx, s->world, s->group, a, b);
}

/* Largest problem and early fallbacks (an island that fails while it is gathered, bad body data
   or memory, has no problem, so its size is unknown). Runs inside the pre-step, with the context
   locked. */
static void on_event(const ipx_ode_event *ev, void *user)
{
    sim *s = user;
    if (ev->k > s->max_k) s->max_k = ev->k;
    if (!ev->ok && !ev->problem) s->early_fallbacks++;
    if (s->capture && ev->problem && ipx_problem_write(s->capture, ev->problem) != 0) {
        fprintf(stderr, "bench_scenes: BENCH_CAPTURE: writing failed: the capture stops here\n");
        fclose(s->capture);
        s->capture = NULL;
    }
}

/* A dynamic capsule: radius and cylinder length (m) along its local z, mass (kg), centre (m). */
static dBodyID add_capsule(sim *s, double radius, double length, double mass, const double pos[3],
                           const dReal *R)
{
    dBodyID b = dBodyCreate(s->world);
    dMass m;
    dMassSetCapsuleTotal(&m, mass, 3, radius, length);
    dBodySetMass(b, &m);
    dBodySetPosition(b, pos[0], pos[1], pos[2]);
    if (R) dBodySetRotation(b, R);
    dGeomSetBody(dCreateCapsule(s->space, radius, length), b);
    return b;
}

/* A static box (no body): sides and centre (m). */
static void add_wall(sim *s, double lx, double ly, double lz, double x, double y, double z)
{
    dGeomSetPosition(dCreateBox(s->space, lx, ly, lz), x, y, z);
}

/* dRandReal in [-a, a]. */
static double jitter(double a) { return a * (2.0 * dRandReal() - 1.0); }

/* ---- the scenes ------------------------------------------------------------------------ */

/* 0.7 m x 0.7 m bin, walls 0.05 m thick and 0.6 m tall; 8 layers of 5 x 5 boxes, 0.13 m apart
   and 0.15 m between layers, each shifted by up to 1 cm and tilted by up to 0.2 rad. */
static void build_bin(sim *s)
{
    const double in = 0.35, t = 0.05, wall_h = 0.6, side[3] = {0.1, 0.1, 0.1};
    add_wall(s, t, 2 * in + 2 * t, wall_h, in + t / 2, 0, wall_h / 2);
    add_wall(s, t, 2 * in + 2 * t, wall_h, -in - t / 2, 0, wall_h / 2);
    add_wall(s, 2 * in, t, wall_h, 0, in + t / 2, wall_h / 2);
    add_wall(s, 2 * in, t, wall_h, 0, -in - t / 2, wall_h / 2);
    for (int i = 0; i < 200; i++) {
        const double pos[3] = {0.13 * (i % 5 - 2) + jitter(0.01),
                               0.13 * ((i / 5) % 5 - 2) + jitter(0.01), 0.1 + 0.15 * (i / 25)};
        dMatrix3 R;
        dRFromAxisAndAngle(R, jitter(1), jitter(1), 1, jitter(0.2));
        bench_box(s->world, s->space, 1.0, side, pos, R);
    }
}

/* Box i's bottom at 0.02 + 0.22 i m, shifted by up to 5 mm and turned by up to 0.05 rad. */
static void build_stack(sim *s)
{
    const double side[3] = {0.2, 0.2, 0.2};
    for (int i = 0; i < 10; i++) {
        const double pos[3] = {jitter(0.005), jitter(0.005), 0.12 + 0.22 * i};
        dMatrix3 R;
        dRFromAxisAndAngle(R, 0, 0, 1, jitter(0.05));
        bench_box(s->world, s->space, 1.0, side, pos, R);
    }
}

/* 20 capsules (radius 0.02 m, cylinder 0.08 m, 0.1 kg) along x, 0.1 m apart, 0.3 m up, a ball
   joint halfway between neighbours. */
static void build_chain(sim *s)
{
    dMatrix3 R;
    dRFromAxisAndAngle(R, 0, 1, 0, PI / 2); /* local z along world x */
    dBodyID prev = 0;
    for (int i = 0; i < 20; i++) {
        const double pos[3] = {0.1 * i, 0, 0.3};
        dBodyID b = add_capsule(s, 0.02, 0.08, 0.1, pos, R);
        if (prev) {
            dJointID j = dJointCreateBall(s->world, 0);
            dJointAttach(j, prev, b);
            dJointSetBallAnchor(j, pos[0] - 0.05, 0, 0.3);
        }
        prev = b;
    }
}

/* A hinge about y at anchor (m) whose motor holds zero speed with at most 30 N m: a servo. */
static void add_servo(sim *s, dBodyID a, dBodyID b, double x, double y, double z)
{
    dJointID j = dJointCreateHinge(s->world, 0);
    dJointAttach(j, a, b);
    dJointSetHingeAnchor(j, x, y, z);
    dJointSetHingeAxis(j, 0, 1, 0);
    dJointSetHingeParam(j, dParamVel, 0);
    dJointSetHingeParam(j, dParamFMax, 30);
}

/* Torso 0.6 x 0.3 x 0.1 m, 8 kg; at each corner a thigh and a shin (capsules, radius 0.03 m,
   cylinder 0.2 m, 1 kg) hanging straight down from hip and knee servos; feet 0.1 m up. */
static void build_quadruped(sim *s)
{
    const double torso[3] = {0.6, 0.3, 0.1}, hip_z = 0.1 + 2 * 0.26;
    const double centre[3] = {0, 0, hip_z + torso[2] / 2};
    dBodyID body = bench_box(s->world, s->space, 8.0, torso, centre, NULL);
    for (int leg = 0; leg < 4; leg++) {
        const double x = leg & 1 ? 0.25 : -0.25, y = leg & 2 ? 0.19 : -0.19;
        const double thigh_c[3] = {x, y, hip_z - 0.13}, shin_c[3] = {x, y, hip_z - 0.39};
        dBodyID thigh = add_capsule(s, 0.03, 0.2, 1.0, thigh_c, NULL);
        dBodyID shin = add_capsule(s, 0.03, 0.2, 1.0, shin_c, NULL);
        add_servo(s, body, thigh, x, y, hip_z);
        add_servo(s, thigh, shin, x, y, hip_z - 0.26);
    }
}

static const scene scenes[] = {
    {"bin", 3.0, 1, build_bin},
    {"stack", 2.0, 0, build_stack},
    {"chain", 2.0, 0, build_chain},
    {"quadruped", 3.0, 0, build_quadruped},
};
#define N_SCENES (sizeof scenes / sizeof scenes[0])

/* ---- running --------------------------------------------------------------------------- */

static double cpu_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return 1e6 * (double)t.tv_sec + 1e-3 * (double)t.tv_nsec;
}

/* The adapter on world under model with BENCH_PARAMS; exits with the message if they are bad. */
static ipx_ode_context *adapter(dWorldID world, const char *model)
{
    char msg[256];
    ipx_ode_context *ipx = ipx_ode_create(world);
    if (ipx_ode_configure(ipx, model, getenv("BENCH_PARAMS"), msg, sizeof msg) != 0) {
        fprintf(stderr, "bench_scenes: model %s: %s\n", model, msg);
        exit(2);
    }
    return ipx;
}

/* BENCH_SEED and BENCH_CAPTURE, read and checked once by main before any run. */
static struct {
    unsigned long seed;  /* dRandSetSeed: the jitter, QuickStep's order */
    const char *capture; /* "" or the capture files' prefix */
} runs;

/* The world of sc, with the adapter under model (NULL: ODE alone). */
static void setup(sim *s, const scene *sc, const char *model)
{
    memset(s, 0, sizeof *s);
    dRandSetSeed(runs.seed);
    s->world = dWorldCreate();
    dWorldSetGravity(s->world, 0, 0, -9.81);
    dWorldSetQuickStepNumIterations(s->world, 20);
    s->space = dHashSpaceCreate(0);
    s->group = dJointGroupCreate(0);
    dCreatePlane(s->space, 0, 0, 1, 0);
    if (model) {
        s->ipx = adapter(s->world, model);
        ipx_ode_set_event_callback(s->ipx, on_event, s);
        if (*runs.capture) { /* each repeat writes the same file again: the runs are deterministic */
            char path[1024];
            snprintf(path, sizeof path, "%s-%s-%s.ipxp", runs.capture, sc->name, model);
            s->capture = fopen(path, "wb");
            if (!s->capture) {
                fprintf(stderr, "bench_scenes: BENCH_CAPTURE: cannot write '%s'\n", path);
                _exit(2);
            }
        }
    }
    sc->build(s);
}

static void teardown(sim *s)
{
    if (s->capture) fclose(s->capture);
    ipx_ode_destroy(s->ipx);
    dJointGroupDestroy(s->group);
    dSpaceDestroy(s->space);
    dWorldDestroy(s->world);
}

/* Writes the run's figures so far into *out. */
static void publish(const sim *s, long steps_done, double w0, double c0, outcome *out)
{
    out->wall_us = ipx_now_us() - w0;
    out->cpu_us = cpu_us() - c0;
    out->reached = (double)steps_done * H;
    if (s->ipx) {
        const ipx_ode_stats st = ipx_ode_get_stats(s->ipx);
        if (st.fallbacks != out->fallbacks)
            snprintf(out->last_fallback, sizeof out->last_fallback, "%s", st.last_message);
        out->events = st.impact_events;
        out->fallbacks = st.fallbacks;
        out->projections = st.recovery_islands;
        out->projections_iterative = st.recovery_iterative;
        out->projection_failures = st.recovery_failures;
        out->projection_us = 1e6 * st.recovery_seconds;
        out->impax_us = 1e6 * st.seconds;
    }
    out->max_k = s->max_k;
    out->early_fallbacks = s->early_fallbacks;
}

/* One run of sc under model, its figures published into *out after every step. */
static void simulate(const scene *sc, const char *model, outcome *out)
{
    sim s;
    setup(&s, sc, model);
    const long steps = (long)(sc->seconds / H + 0.5);
    const double w0 = ipx_now_us(), c0 = cpu_us();
    for (long i = 0; i < steps; i++) {
        dSpaceCollide(s.space, &s, near_callback);
        if (s.ipx) {
            if (sc->quick) ipx_ode_quick_step(s.ipx, H);
            else ipx_ode_step(s.ipx, H);
            ipx_ode_empty_group(s.ipx, s.group);
        } else {
            if (sc->quick) dWorldQuickStep(s.world, H);
            else dWorldStep(s.world, H);
            dJointGroupEmpty(s.group);
        }
        publish(&s, i + 1, w0, c0, out);
    }
    teardown(&s);
}

/* simulate in a child process, so that even one step that never ends is cut off: after
   budget_us of wall time the child is killed and *out holds its last published step. */
static void run_bounded(const scene *sc, const char *model, double budget_us, outcome *out)
{
    outcome *shared =
        mmap(NULL, sizeof *shared, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (shared == MAP_FAILED) {
        perror("bench_scenes: mmap");
        exit(1);
    }
    memset(shared, 0, sizeof *shared);
    fflush(stdout);
    const double t0 = ipx_now_us();
    const pid_t child = fork();
    if (child < 0) {
        perror("bench_scenes: fork");
        exit(1);
    }
    if (child == 0) {
        simulate(sc, model, shared);
        FILE *f = fmemopen(shared->ode_messages, sizeof shared->ode_messages, "w");
        if (f) {
            ipx_ode_report_messages(f, NOTE);
            fclose(f);
        }
        _exit(0);
    }
    int status = 0;
    const struct timespec poll = {0, 10000000}; /* 10 ms */
    while (waitpid(child, &status, WNOHANG) == 0) {
        if (ipx_now_us() - t0 > budget_us) {
            kill(child, SIGKILL);
            waitpid(child, &status, 0);
            shared->stopped = 1;
            shared->wall_us = ipx_now_us() - t0; /* the budget: the ratio's lower bound */
            break;
        }
        nanosleep(&poll, NULL);
    }
    if (!shared->stopped && !(WIFEXITED(status) && WEXITSTATUS(status) == 0)) {
        fprintf(stderr, "bench_scenes: %s under %s: the run died (status %d)\n", sc->name,
                model ? model : "ODE", status);
        exit(1);
    }
    *out = *shared;
    munmap(shared, sizeof *shared);
}

/* Medians of the times over up to `repeats` runs (one only if the budget stops it). */
static outcome measure(const scene *sc, const char *model, int repeats, double budget_us)
{
    double wall[MAX_REPEATS], cpu[MAX_REPEATS], inside[MAX_REPEATS];
    outcome o;
    int n = 0;
    while (n < repeats) {
        run_bounded(sc, model, budget_us, &o);
        wall[n] = o.wall_us, cpu[n] = o.cpu_us, inside[n] = o.impax_us;
        n++;
        if (o.stopped) break;
    }
    o.wall_us = ipx_median(wall, n);
    o.cpu_us = ipx_median(cpu, n);
    o.impax_us = ipx_median(inside, n);
    return o;
}

/* ---- the table ------------------------------------------------------------------------- */

/* A ratio, or ">r" (a lower bound) when the budget stopped the run. */
static void ratio_text(char *buf, size_t size, double t, double base, const outcome *o,
                       const outcome *ode)
{
    if (ode->stopped) snprintf(buf, size, "-");
    else snprintf(buf, size, o->stopped ? ">%.2f" : "%.2f", t / base);
}

static void print_row(const scene *sc, const char *model, const outcome *o, const outcome *ode)
{
    char wr[16], cr[16], status[32], maxk[16], per[16];
    ratio_text(wr, sizeof wr, o->wall_us, ode->wall_us, o, ode);
    ratio_text(cr, sizeof cr, o->cpu_us, ode->cpu_us, o, ode);
    if (o->stopped) snprintf(status, sizeof status, "budget @%.3f s", o->reached);
    else snprintf(status, sizeof status, "ok");
    snprintf(maxk, sizeof maxk, "%d%s", o->max_k, o->early_fallbacks ? "+" : "");
    if (o->events) snprintf(per, sizeof per, "%.1f", o->impax_us / (double)o->events);
    else snprintf(per, sizeof per, "-");
    if (!model) snprintf(maxk, sizeof maxk, "-");
    printf("%-10s %-8s %10.1f %7s %10.1f %7s %8ld %9ld %6s %10s  %s\n", sc->name,
           model ? model : "(ODE)", o->wall_us / 1000, wr, o->cpu_us / 1000, cr, o->events,
           o->fallbacks, maxk, per, status);
    if (o->fallbacks) printf(NOTE "last fallback: %s\n", o->last_fallback);
    if (o->projections)
        printf(NOTE
               "recovery: %ld island projections (%ld by the iterative LCP), %ld failed, %.1f ms\n",
               o->projections, o->projections_iterative, o->projection_failures,
               o->projection_us / 1000);
    printf("%s", o->ode_messages);
}

/* Copies the next comma-separated item of *list into item; 0 when there is none left. */
static int next_item(const char **list, char *item, size_t size)
{
    while (**list == ',') (*list)++;
    size_t n = strcspn(*list, ",");
    if (n == 0) return 0;
    snprintf(item, size, "%.*s", (int)n, *list);
    *list += n;
    return 1;
}

static int listed(const char *list, const char *name)
{
    char item[64];
    while (next_item(&list, item, sizeof item))
        if (strcmp(item, name) == 0) return 1;
    return 0;
}

static const char *env_or(const char *name, const char *fallback)
{
    const char *v = getenv(name);
    return v && *v ? v : fallback;
}

int main(void)
{
    const char *scene_list = env_or("BENCH_SCENES", "bin,stack,chain,quadruped");
    char item[64];
    const char *models = env_or("BENCH_MODELS", "plus,routh,aplcp,bowling");
    int repeats = atoi(env_or("BENCH_REPEATS", "5"));
    const double budget_s = atof(env_or("BENCH_BUDGET_S", "120"));
    const char *seed = env_or("BENCH_SEED", "1");
    if (strspn(seed, "0123456789") != strlen(seed) || strlen(seed) > 9) {
        fprintf(stderr, "bench_scenes: BENCH_SEED='%s': use a whole number below 10^9\n", seed);
        return 2;
    }
    runs.seed = strtoul(seed, NULL, 10);
    runs.capture = env_or("BENCH_CAPTURE", "");
    if (*runs.capture) { /* its files are made in the runs: their directory must take them */
        char dir[1024] = ".";
        const char *slash = strrchr(runs.capture, '/');
        if (slash) snprintf(dir, sizeof dir, "%.*s", (int)(slash - runs.capture) + 1, runs.capture);
        if (access(dir, W_OK) != 0) {
            fprintf(stderr, "bench_scenes: BENCH_CAPTURE='%s': directory '%s' is not writable\n",
                    runs.capture, dir);
            return 2;
        }
    }
    if (repeats < 1 || repeats > MAX_REPEATS || !(budget_s > 0)) {
        fprintf(stderr, "bench_scenes: BENCH_REPEATS must be 1..%d and BENCH_BUDGET_S > 0\n",
                MAX_REPEATS);
        return 2;
    }
    for (const char *l = scene_list; next_item(&l, item, sizeof item);) {
        size_t i = 0;
        while (i < N_SCENES && strcmp(scenes[i].name, item) != 0) i++;
        if (i == N_SCENES)
            fprintf(stderr, "bench_scenes: no scene %s (bin, stack, chain, quadruped)\n", item);
    }
    dInitODE2(0);
    dWorldID probe = dWorldCreate(); /* every model and BENCH_PARAMS checked before any run */
    for (const char *m = models; next_item(&m, item, sizeof item);)
        ipx_ode_destroy(adapter(probe, item));
    dWorldDestroy(probe);
    ipx_ode_capture_messages(atoi(env_or("IMPAX_VERBOSE", "0")) != 0); /* counted per run */
    printf("h = 1 ms; median of %d run(s); budget %g s of wall time per run; BENCH_SEED=%s; "
           "BENCH_PARAMS=%s\n",
           repeats, budget_s, seed, env_or("BENCH_PARAMS", ""));
    printf("%-10s %-8s %10s %7s %10s %7s %8s %9s %6s %10s  %s\n", "scene", "model", "wall ms",
           "ratio", "cpu ms", "ratio", "events", "fallbacks", "max k", "us/event", "status");
    for (size_t i = 0; i < N_SCENES; i++) {
        const scene *sc = &scenes[i];
        if (!listed(scene_list, sc->name)) continue;
        const outcome ode = measure(sc, NULL, repeats, 1e6 * budget_s);
        print_row(sc, NULL, &ode, &ode);
        for (const char *m = models; next_item(&m, item, sizeof item);) {
            const outcome o = measure(sc, item, repeats, 1e6 * budget_s);
            print_row(sc, item, &o, &ode);
        }
        fflush(stdout);
    }
    printf(
        "events: islands solved and handed back; fallbacks: islands left to ODE; max k: most\n"
        "contacts in a problem handed to the model, '+' when some islands fell back before their\n"
        "problem was built (e.g. bad body data: their size is unknown); us/event:\n"
        "wall time in impax (pre-steps and the post-steps' projections) per event; ratios against "
        "ODE\n"
        "alone, '>' a lower bound when the budget stopped the run; recovery: islands whose\n"
        "penetration the post-steps projected (a failed one keeps it for that step) and the wall\n"
        "time of those projections.\n");
    dCloseODE();
    return 0;
}
