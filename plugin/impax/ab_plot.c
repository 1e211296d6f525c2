#include "ab_plot.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plot.h"

enum { MAX_MODELS = 64 };

static const struct {
    const char *name, *label;
} quantities[AB_N_QUANTITIES] = {
    [AB_X] = {"x", "x (m)"},
    [AB_Y] = {"y", "y (m)"},
    [AB_Z] = {"z", "z (m)"},
    [AB_VX] = {"vx", "v_x (m/s)"},
    [AB_VY] = {"vy", "v_y (m/s)"},
    [AB_VZ] = {"vz", "v_z (m/s)"},
    [AB_SPEED] = {"speed", "speed (m/s)"},
    [AB_HEIGHT] = {"height", "height (m)"},
    [AB_ENERGY] = {"energy", "total energy (J)"},
};

/* Quantity q of body b at sample j of s. */
static double value(const cli_series *s, int q, int j, int b)
{
    const size_t at = 3 * ((size_t)j * (size_t)s->n_bodies + (size_t)b);
    const double *x = s->x_m + at, *v = s->v_m_s + at;
    switch (q) {
    case AB_X:
    case AB_Y:
    case AB_Z: return x[q - AB_X];
    case AB_VX:
    case AB_VY:
    case AB_VZ: return v[q - AB_VX];
    case AB_SPEED: return sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    case AB_HEIGHT: return s->up[0] * x[0] + s->up[1] * x[1] + s->up[2] * x[2];
    default: return s->energy_j[j];
    }
}

static int parse_quantity(const char *text, int *q, char *message, size_t size)
{
    *q = -1;
    if (!text) return 0;
    for (int i = 0; i < AB_N_QUANTITIES; i++)
        if (strcmp(text, quantities[i].name) == 0) *q = i;
    if (*q < 0)
        snprintf(
            message, size,
            "--plot-quantity: unknown '%s' (accepted: x, y, z, vx, vy, vz, speed, height, energy)",
            text);
    return *q < 0 ? -1 : 0;
}

/* 1 if item names body name: the full name, its link (after the last "::") or its model. */
static int names_body(const char *item, size_t len, const char *name)
{
    const char *sep = strrchr(name, ':');
    const char *link = sep ? sep + 1 : name;
    if (strlen(name) == len && strncmp(name, item, len) == 0) return 1;
    if (strlen(link) == len && strncmp(link, item, len) == 0) return 1;
    return strncmp(name, item, len) == 0 && strncmp(name + len, "::", 2) == 0;
}

static void add_body(ab_plot *p, int b)
{
    for (int i = 0; i < p->n_bodies; i++)
        if (p->body[i] == b) return;
    if (p->n_bodies < (int)(sizeof p->body / sizeof p->body[0])) p->body[p->n_bodies++] = b;
}

static int explicit_bodies(ab_plot *p, const char *list, int n_names, const char *const *names,
                           char *message, size_t size)
{
    p->explicit_bodies = 1;
    for (const char *item = list; *item;) {
        const size_t len = strcspn(item, ",");
        const int before = p->n_bodies;
        for (int b = 0; b < n_names; b++)
            if (len && names_body(item, len, names[b])) add_body(p, b);
        if (len && p->n_bodies == before) {
            int used =
                snprintf(message, size, "--plot-body: no body '%.*s' (bodies:", (int)len, item);
            for (int b = 0; b < n_names && used > 0 && (size_t)used < size; b++)
                used +=
                    snprintf(message + used, size - (size_t)used, "%s %s", b ? "," : "", names[b]);
            if (used > 0 && (size_t)used < size) snprintf(message + used, size - (size_t)used, ")");
            return -1;
        }
        item += len + (item[len] == ',');
    }
    if (p->n_bodies > AB_PLOT_MAX_PANELS) {
        snprintf(message, size, "--plot-body: %d bodies chosen, at most %d panels", p->n_bodies,
                 AB_PLOT_MAX_PANELS);
        return -1;
    }
    if (p->n_bodies == 0) {
        snprintf(message, size, "--plot-body names no body");
        return -1;
    }
    snprintf(p->group, sizeof p->group, "the bodies --plot-body chose");
    return 0;
}

/* Every body: a world of many one-body models (a bin of boxes) differs anywhere, not only in
   its plot body's model. */
static void default_bodies(ab_plot *p, int n_names)
{
    for (int b = 0; b < n_names; b++) add_body(p, b);
    snprintf(p->group, sizeof p->group, "the world's %d bodies", n_names);
}

int ab_plot_prepare(ab_plot *p, const char *bodies, const char *quantity, int n_names,
                    const char *const *names, char *message, size_t message_size)
{
    memset(p, 0, sizeof *p);
    if (parse_quantity(quantity, &p->quantity, message, message_size) != 0) return -1;
    if (bodies) return explicit_bodies(p, bodies, n_names, names, message, message_size);
    default_bodies(p, n_names);
    if (p->n_bodies == 0 && p->quantity < 0)
        p->quantity = AB_ENERGY; /* nothing moves: the energy */
    if (p->n_bodies == 0 && p->quantity != AB_ENERGY) {
        snprintf(message, message_size, "--plot-quantity %s: the world has no moving body",
                 quantity);
        return -1;
    }
    return 0;
}

/* Samples every model has. */
static int common_samples(int n_models, const cli_series *series)
{
    int n = series[0].n;
    for (int m = 1; m < n_models; m++)
        if (series[m].n < n) n = series[m].n;
    return n;
}

/* The velocity component along which the candidates' velocities change most, over every model. */
static int main_motion(const ab_plot *p, int n_models, const cli_series *series, int n)
{
    double change[3] = {0, 0, 0};
    for (int a = 0; a < 3; a++)
        for (int m = 0; m < n_models; m++)
            for (int i = 0; i < p->n_bodies; i++) {
                double lo = INFINITY, hi = -INFINITY;
                for (int j = 0; j < n; j++) {
                    const double v = value(&series[m], AB_VX + a, j, p->body[i]);
                    lo = fmin(lo, v);
                    hi = fmax(hi, v);
                }
                if (hi >= lo) change[a] += hi - lo;
            }
    int best = 0;
    for (int a = 1; a < 3; a++)
        if (change[a] > change[best]) best = a;
    return AB_VX + best;
}

/* How far apart the models' curves of q for body b get. */
static double model_spread(int q, int b, int n_models, const cli_series *series, int n)
{
    double worst = 0;
    for (int j = 0; j < n; j++) {
        double lo = INFINITY, hi = -INFINITY;
        for (int m = 0; m < n_models; m++) {
            const double v = value(&series[m], q, j, b);
            lo = fmin(lo, v);
            hi = fmax(hi, v);
        }
        if (hi - lo > worst) worst = hi - lo;
    }
    return worst;
}

/* The bodies drawn: every candidate (in the order given), or the AB_PLOT_DEFAULT_BODIES whose
   curves differ most between the models, the most different first. Returns their number. */
static int drawn_bodies(const ab_plot *p, int q, int n_models, const cli_series *series, int n,
                        int *drawn)
{
    const int count = p->n_bodies;
    memcpy(drawn, p->body, (size_t)count * sizeof *drawn);
    if (p->explicit_bodies) return count;
    double *spread = malloc((size_t)count * sizeof *spread);
    if (!spread) return count < AB_PLOT_DEFAULT_BODIES ? count : AB_PLOT_DEFAULT_BODIES;
    for (int i = 0; i < count; i++) spread[i] = model_spread(q, drawn[i], n_models, series, n);
    for (int i = 1; i < count; i++) /* insertion sort, stable: equal spreads keep body order */
        for (int j = i; j > 0 && spread[j] > spread[j - 1]; j--) {
            const double s = spread[j];
            const int b = drawn[j];
            spread[j] = spread[j - 1], drawn[j] = drawn[j - 1];
            spread[j - 1] = s, drawn[j - 1] = b;
        }
    free(spread);
    return count < AB_PLOT_DEFAULT_BODIES ? count : AB_PLOT_DEFAULT_BODIES;
}

int ab_plot_write(const ab_plot *p, const char *path, int n_models, const char *const *labels,
                  const cli_series *series, const char *const *names, char *message,
                  size_t message_size)
{
    if (n_models > MAX_MODELS) n_models = MAX_MODELS;
    const int n = common_samples(n_models, series);
    const int q = p->quantity >= 0 ? p->quantity : main_motion(p, n_models, series, n);
    int drawn[sizeof p->body / sizeof p->body[0]];
    const int n_panels = q == AB_ENERGY ? 1 : drawn_bodies(p, q, n_models, series, n, drawn);
    double *y = malloc((size_t)n_panels * (size_t)n_models * (size_t)(n > 0 ? n : 1) * sizeof *y);
    cli_line *lines = malloc((size_t)n_panels * (size_t)n_models * sizeof *lines);
    cli_panel panels[AB_PLOT_MAX_PANELS];
    char titles[AB_PLOT_MAX_PANELS][200];
    if (!y || !lines) {
        free(y);
        free(lines);
        snprintf(message, message_size, "out of memory for the plot");
        return -1;
    }
    for (int k = 0; k < n_panels; k++) {
        for (int m = 0; m < n_models; m++) {
            double *col = y + ((size_t)k * (size_t)n_models + (size_t)m) * (size_t)n;
            for (int j = 0; j < n; j++)
                col[j] = value(&series[m], q, j, q == AB_ENERGY ? 0 : drawn[k]);
            lines[k * n_models + m] = (cli_line){labels[m], n, series[m].t_s, col, NULL};
        }
        snprintf(titles[k], sizeof titles[k], "%s",
                 q == AB_ENERGY ? "the world's total energy" : names[drawn[k]]);
        panels[k] =
            (cli_panel){titles[k], "t (s)", quantities[q].label, n_models, lines + k * n_models};
    }
    const int rc = cli_plot_panels(path, n_panels, panels, message, message_size);
    if (rc == 0 && q == AB_ENERGY) printf("plot: %s (total energy)\n", path);
    else if (rc == 0)
        printf("plot: %s (%s of %d of %s, a panel each)\n", path, quantities[q].label, n_panels,
               p->group);
    free(y);
    free(lines);
    return rc;
}
