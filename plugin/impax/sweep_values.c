/* `impax sweep`'s spec: the value lines (grid axes, seeds, perturbations, recorded quantities). */
#define _POSIX_C_SOURCE 200809L /* strtok_r */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sweep_spec.h"

enum { MAX_VALUES = 1000000, MAX_SEEDS = 10000000 };
#define MAX_SEED 9007199254740991LL /* 2^53 - 1: routh's `seed` range */

static char *strip(char *s)
{
    while (*s == ' ' || *s == '\t') s++;
    size_t n = strlen(s);
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t')) s[--n] = '\0';
    return s;
}

static int parse_real(const char *text, double *v)
{
    char *end;
    errno = 0;
    *v = strtod(text, &end);
    return end != text && *end == '\0' && errno == 0 && isfinite(*v) ? 0 : -1;
}

static int parse_integer(const char *text, long long lo, long long hi, long long *v)
{
    char *end;
    errno = 0;
    *v = strtoll(text, &end, 10);
    return end != text && *end == '\0' && errno == 0 && *v >= lo && *v <= hi ? 0 : -1;
}

/* Appends one value to axis a, as the 15-digit text the rows and the simulation get. */
static int axis_push(sweep_axis *a, double v, char *message, size_t message_size)
{
    if (a->n == MAX_VALUES) {
        snprintf(message, message_size, "%s takes at most %d values", a->key, MAX_VALUES);
        return -1;
    }
    char(*text)[SWEEP_VALUE] =
        sweep_grow(a->text, (size_t)a->n + 1, sizeof *text, message, message_size);
    if (text) a->text = text;
    double *value =
        text ? sweep_grow(a->value, (size_t)a->n + 1, sizeof *value, message, message_size) : NULL;
    if (!value) return -1;
    a->value = value;
    snprintf(a->text[a->n], SWEEP_VALUE, "%.15g", v);
    a->value[a->n] = strtod(a->text[a->n], NULL);
    for (int i = 0; i < a->n; i++)
        if (strcmp(a->text[i], a->text[a->n]) == 0) {
            snprintf(message, message_size, "%s = %s is given twice", a->key, a->text[i]);
            return -1;
        }
    a->n++;
    return 0;
}

/* LO:HI:N, N values from LO to HI (both included). */
static int axis_range(sweep_axis *a, char *item, char *message, size_t message_size)
{
    char shown[128];
    snprintf(shown, sizeof shown, "%s", item);
    char *second = strchr(item, ':'), *third = second ? strchr(second + 1, ':') : NULL;
    double lo, hi;
    long long n;
    if (third) *second = *third = '\0';
    if (!third || parse_real(strip(item), &lo) != 0 || parse_real(strip(second + 1), &hi) != 0 ||
        parse_integer(strip(third + 1), 0, MAX_VALUES, &n) != 0) {
        snprintf(message, message_size, "%s: a range is LO:HI:N (N values from LO to HI), not '%s'",
                 a->key, shown);
        return -1;
    }
    if (n == 0 || (n == 1 && lo != hi)) {
        snprintf(message, message_size, "%s: empty range %s (%s)", a->key, shown,
                 n == 0 ? "no values" : "one value cannot go from LO to a different HI");
        return -1;
    }
    for (long long i = 0; i < n; i++) {
        const double v = i == n - 1 ? hi : lo + (hi - lo) * (double)i / (double)(n - 1);
        if (axis_push(a, v, message, message_size) != 0) return -1;
    }
    return 0;
}

static int valid_key(const char *key)
{
    if (!((*key >= 'a' && *key <= 'z') || (*key >= 'A' && *key <= 'Z') || *key == '_')) return 0;
    for (const char *p = key; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
              *p == '_'))
            return 0;
    return 1;
}

int sweep_parse_axis(sweep_spec *spec, const char *key, const char *text, int line, char *message,
                     size_t message_size)
{
    if (!valid_key(key) || strlen(key) >= sizeof spec->axis->key) {
        snprintf(message, message_size,
                 "unknown key '%s' (a parameter name is letters, digits and _)", key);
        return -1;
    }
    for (int i = 0; i < spec->n_axes; i++)
        if (strcmp(spec->axis[i].key, key) == 0) {
            snprintf(message, message_size, "%s is given twice (lines %d and %d)", key,
                     spec->axis[i].line, line);
            return -1;
        }
    sweep_axis *grown =
        sweep_grow(spec->axis, (size_t)spec->n_axes + 1, sizeof *grown, message, message_size);
    if (!grown) return -1;
    spec->axis = grown;
    char *copy = strdup(text);
    if (!copy) {
        snprintf(message, message_size, "out of memory");
        return -1;
    }
    spec->axis = grown;
    sweep_axis *a = &spec->axis[spec->n_axes++];
    *a = (sweep_axis){.line = line};
    strcpy(a->key, key);
    int rc = 0;
    char *save = NULL;
    for (char *item = strtok_r(copy, ",", &save); item && rc == 0;
         item = strtok_r(NULL, ",", &save)) {
        double v;
        item = strip(item);
        if (strchr(item, ':')) rc = axis_range(a, item, message, message_size);
        else if (parse_real(item, &v) == 0) rc = axis_push(a, v, message, message_size);
        else {
            snprintf(message, message_size,
                     "%s: '%s' is not a number (give V, V1,V2,... or LO:HI:N)", key, item);
            rc = -1;
        }
    }
    if (rc == 0 && a->n == 0) {
        snprintf(message, message_size, "%s has no values", key);
        rc = -1;
    }
    free(copy);
    return rc;
}

static int compare_seed(const void *a, const void *b)
{
    const long long x = *(const long long *)a, y = *(const long long *)b;
    return (x > y) - (x < y);
}

/* A..B (both included) or one seed, appended. */
static int seed_item(sweep_spec *spec, char *item, char *message, size_t message_size)
{
    char *dots = strstr(item, "..");
    long long a, b;
    if (dots) *dots = '\0';
    const int ok = parse_integer(strip(item), 0, MAX_SEED, &a) == 0 &&
                   (dots ? parse_integer(strip(dots + 2), 0, MAX_SEED, &b) == 0 : (b = a, 1));
    if (!ok) {
        snprintf(message, message_size,
                 "seed takes whole numbers in [0, %lld] and ranges A..B, not '%s%s%s'", MAX_SEED,
                 item, dots ? ".." : "", dots ? dots + 2 : "");
        return -1;
    }
    if (b < a) {
        snprintf(message, message_size, "seed: empty range %lld..%lld", a, b);
        return -1;
    }
    if (b - a >= MAX_SEEDS - spec->n_seeds) {
        snprintf(message, message_size, "seed: at most %d seeds", MAX_SEEDS);
        return -1;
    }
    long long *seed = sweep_grow(spec->seed, (size_t)(spec->n_seeds + (b - a) + 1), sizeof *seed,
                                 message, message_size);
    if (!seed) return -1;
    spec->seed = seed;
    for (long long s = a; s <= b; s++) spec->seed[spec->n_seeds++] = s;
    return 0;
}

int sweep_parse_seeds(sweep_spec *spec, const char *text, int line, char *message,
                      size_t message_size)
{
    if (spec->seed_line) {
        snprintf(message, message_size, "seed is given twice (lines %d and %d)", spec->seed_line,
                 line);
        return -1;
    }
    spec->seed_line = line;
    char *copy = strdup(text), *save = NULL;
    int rc = copy ? 0 : -1;
    for (char *item = copy ? strtok_r(copy, ",", &save) : NULL; item && rc == 0;
         item = strtok_r(NULL, ",", &save))
        rc = seed_item(spec, item, message, message_size);
    free(copy);
    if (rc == 0 && spec->n_seeds == 0) {
        snprintf(message, message_size, "seed has no values");
        rc = -1;
    }
    long long *sorted = rc == 0 ? malloc((size_t)spec->n_seeds * sizeof *sorted) : NULL;
    if (sorted) {
        memcpy(sorted, spec->seed, (size_t)spec->n_seeds * sizeof *sorted);
        qsort(sorted, (size_t)spec->n_seeds, sizeof *sorted, compare_seed);
        for (int i = 1; i < spec->n_seeds && rc == 0; i++)
            if (sorted[i] == sorted[i - 1]) {
                snprintf(message, message_size, "seed %lld is given twice", sorted[i]);
                rc = -1;
            }
        free(sorted);
    }
    return rc;
}

int sweep_parse_perturb(sweep_spec *spec, const char *text, int line, char *message,
                        size_t message_size)
{
    static const char *const components[6] = {"vx", "vy", "vz", "wx", "wy", "wz"};
    char body[SWEEP_NAME], component[8], range[64];
    int used = 0;
    if (sscanf(text, "%127s %7s %63s %n", body, component, range, &used) != 3 ||
        text[used] != '\0') {
        snprintf(message, message_size,
                 "perturb takes BODY COMPONENT RANGE (e.g. cradle::ball1 vx 0.05), not '%s'", text);
        return -1;
    }
    int c = 0;
    while (c < 6 && strcmp(components[c], component) != 0) c++;
    const char *number = range;
    if (strncmp(number, "+-", 2) == 0) number += 2;
    else if (strncmp(number, "\xc2\xb1", 2) == 0) number += 2; /* U+00B1 */
    double r;
    if (c == 6 || parse_real(number, &r) != 0 || r < 0) {
        snprintf(message, message_size, "perturb: %s",
                 c == 6 ? "COMPONENT is one of vx vy vz wx wy wz (initial velocity, world frame)"
                        : "RANGE is a finite number >= 0 (m/s or rad/s)");
        return -1;
    }
    for (int i = 0; i < spec->n_perturbs; i++)
        if (strcmp(spec->perturb[i].body, body) == 0 && spec->perturb[i].component == c) {
            snprintf(message, message_size, "perturb %s %s is given twice (lines %d and %d)", body,
                     component, spec->perturb[i].line, line);
            return -1;
        }
    sweep_perturb *grown = sweep_grow(spec->perturb, (size_t)spec->n_perturbs + 1, sizeof *grown,
                                      message, message_size);
    if (!grown) return -1;
    spec->perturb = grown;
    sweep_perturb *p = &spec->perturb[spec->n_perturbs++];
    *p = (sweep_perturb){.component = c, .range = r, .line = line};
    strcpy(p->body, body);
    return 0;
}

/* One item of a record line: QUANTITY or QUANTITY BODY. */
static int record_item(sweep_spec *spec, char *item, int line, char *message, size_t message_size)
{
    item = strip(item);
    char *body = item + strcspn(item, " \t");
    if (*body) *body++ = '\0';
    body = strip(body);
    int q = 0;
    while (q < SWEEP_QUANTITIES && strcmp(sweep_quantity_name((sweep_quantity)q), item) != 0) q++;
    const int per_body = q <= SWEEP_ANGULAR_VELOCITY;
    if (q == SWEEP_QUANTITIES) {
        snprintf(message, message_size,
                 "record: unknown quantity '%s' (accepted: position, orientation, velocity, "
                 "angular_velocity BODY; "
                 "ke_change, energy_change, impact_ke_change, impact_events, impact_contacts, "
                 "fallbacks, "
                 "first_impact_t, max_penetration, wall_s)",
                 item);
        return -1;
    }
    if (per_body != (*body != '\0') || strlen(body) >= SWEEP_NAME) {
        if (per_body)
            snprintf(message, message_size, "record: %s needs a body (e.g. %s model::link)", item,
                     item);
        else snprintf(message, message_size, "record: %s takes no body", item);
        return -1;
    }
    for (int i = 0; i < spec->n_records; i++)
        if (spec->record[i].what == (sweep_quantity)q && strcmp(spec->record[i].body, body) == 0) {
            snprintf(message, message_size, "record: %s%s%s is given twice", item, *body ? " " : "",
                     body);
            return -1;
        }
    sweep_record *grown =
        sweep_grow(spec->record, (size_t)spec->n_records + 1, sizeof *grown, message, message_size);
    if (!grown) return -1;
    spec->record = grown;
    sweep_record *r = &spec->record[spec->n_records++];
    *r = (sweep_record){.what = (sweep_quantity)q, .line = line};
    strcpy(r->body, body);
    return 0;
}

int sweep_parse_record(sweep_spec *spec, const char *text, int line, char *message,
                       size_t message_size)
{
    char *copy = strdup(text), *save = NULL;
    int rc = copy ? 0 : -1;
    for (char *item = copy ? strtok_r(copy, ",", &save) : NULL; item && rc == 0;
         item = strtok_r(NULL, ",", &save))
        rc = record_item(spec, item, line, message, message_size);
    free(copy);
    return rc;
}
