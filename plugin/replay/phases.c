/* The phases of a recorded toss from its own poses and velocities (phases.h). */
#include "phases.h"

#include <math.h>

#include "quat.h"

cli_phase_limits cli_phase_default_limits(void)
{
    /* Measured on the 285 cube tosses (docs/command.md): at rest the lowest vertex reads -3.3 to
       -0.8 mm (the data set's table sits that far above the cube's geometry); in contact the
       fastest vertex's speed has a noise peak at 0.003 m/s, motion above 0.02 m/s and the
       fewest samples between 0.010 and 0.016 m/s. A fall from the contact tolerance reaches
       sqrt(2 g tol): slower approaches are rolling and noise of a contact, not impacts. */
    const double tol_m = 0.002, g_mps2 = 9.81;
    return (cli_phase_limits){.contact_tol_m = tol_m,
                              .impact_speed_mps = sqrt(2.0 * g_mps2 * tol_m),
                              .window_s = 0.015, /* two 148 Hz samples either side */
                              .rest_speed_mps = 0.015};
}

const char *cli_phase_name(cli_phase p)
{
    static const char *const names[CLI_PHASE_COUNT] = {
        "flight", "first impact", "later impacts", "airborne", "sliding/rolling", "rest"};
    return p >= 0 && p < CLI_PHASE_COUNT ? names[p] : "?";
}

static double dot(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

typedef struct contact_state {
    double lowest_m;     /* height of the lowest vertex above the plane */
    double approach_mps; /* fastest approach towards the plane of the vertices in contact */
    double fastest_mps;  /* speed of the fastest vertex */
} contact_state;

/* The box's eight vertices at sample s: heights above the plane and velocities v + w x r. */
static contact_state state_of(const cli_sample *s, const cli_phase_box *box, double tol_m)
{
    double R[9], B[9], w[3];
    cli_quat_rotation(s->q, R);
    cli_quat_rotation(box->quat, B);
    cli_turn(R, s->w_body_radps, w);
    contact_state c = {INFINITY, -INFINITY, 0.0};
    for (int v = 0; v < 8; v++) {
        const double corner[3] = {(v & 1 ? 1 : -1) * box->half_m[0],
                                  (v & 2 ? 1 : -1) * box->half_m[1],
                                  (v & 4 ? 1 : -1) * box->half_m[2]};
        double in_body[3], r[3], p[3], u[3];
        cli_turn(B, corner, in_body);
        for (int i = 0; i < 3; i++) in_body[i] += box->pos_m[i];
        cli_turn(R, in_body, r);
        for (int i = 0; i < 3; i++) p[i] = s->x_m[i] + r[i];
        u[0] = s->v_mps[0] + w[1] * r[2] - w[2] * r[1];
        u[1] = s->v_mps[1] + w[2] * r[0] - w[0] * r[2];
        u[2] = s->v_mps[2] + w[0] * r[1] - w[1] * r[0];
        const double height = dot(box->normal, p) - box->offset_m;
        c.lowest_m = fmin(c.lowest_m, height);
        if (height <= tol_m) c.approach_mps = fmax(c.approach_mps, -dot(box->normal, u));
        c.fastest_mps = fmax(c.fastest_mps, sqrt(dot(u, u)));
    }
    return c;
}

double cli_phase_lowest_m(const cli_sample *s, const cli_phase_box *box)
{
    return state_of(s, box, -INFINITY).lowest_m;
}

/* Samples within window_s of sample j that are not yet an impact become `as`. */
static void mark_window(const cli_recording *rec, int j, double window_s, cli_phase as,
                        unsigned char *phase)
{
    const double t = rec->samples[j].t_s;
    for (int k = j; k >= 0 && t - rec->samples[k].t_s <= window_s; k--)
        if (phase[k] != CLI_PHASE_FIRST_IMPACT) phase[k] = (unsigned char)as;
    for (int k = j + 1; k < rec->n && rec->samples[k].t_s - t <= window_s; k++)
        if (phase[k] != CLI_PHASE_FIRST_IMPACT) phase[k] = (unsigned char)as;
}

int cli_phases_classify(const cli_recording *rec, const cli_phase_box *box,
                        const cli_phase_limits *limits, unsigned char *phase)
{
    const double tol = limits->contact_tol_m;
    int first = -1;
    for (int k = 0; k < rec->n; k++) {
        const contact_state c = state_of(&rec->samples[k], box, tol);
        if (c.lowest_m > tol) phase[k] = first < 0 ? CLI_PHASE_FLIGHT : CLI_PHASE_AIRBORNE;
        else phase[k] = c.fastest_mps < limits->rest_speed_mps ? CLI_PHASE_REST : CLI_PHASE_SLIDING;
        if (first < 0 && c.lowest_m <= tol) first = k;
    }
    if (first < 0) return -1;
    mark_window(rec, first, limits->window_s, CLI_PHASE_FIRST_IMPACT, phase);
    const double t_first = rec->samples[first].t_s;
    for (int k = first + 1; k < rec->n; k++) {
        if (rec->samples[k].t_s - t_first <= limits->window_s) continue; /* the first impact's */
        const contact_state c = state_of(&rec->samples[k], box, tol);
        if (c.lowest_m <= tol && c.approach_mps > limits->impact_speed_mps)
            mark_window(rec, k, limits->window_s, CLI_PHASE_LATER_IMPACT, phase);
    }
    return first;
}
