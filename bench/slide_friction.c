/* slide_friction: how hard recorded face slides decelerate, against the slip speed
   (docs/validation.md "The slides' friction rises with their speed").
     build/bench/slide_friction WORLD --data PATH
   WORLD gives the recorded body's box, the plane and gravity (its replay body, as `impax replay
   --phases` takes them); PATH is a recording or a directory of them. For every sample where the
   box slides flat on a face (tests/support/slide_friction.h) it takes the effective friction
   coefficient, the deceleration over g, and prints:
   - per band of slip speed: the samples, and their coefficients' median and mean;
   - per slide (a recording's longest run of such samples, if it spans enough speed): the slope
     of a line through its coefficients against its speed, and the line's value at 0.3 m/s;
     their median and middle half, and the slopes' mean with its standard error.
   A simulator's twins of the same recordings (bench/twin_tosses) read through the same program
   show what the measurement gives for a known friction law. Exit 0, 1 (a file or the world
   failed) or 2 (usage). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "phase_errors.h"
#include "slide_friction.h"
#include "toss_gen.h"

#define REF_SPEED_MPS 0.3

static const double band_edges_mps[] = {0.05, 0.1, 0.2, 0.3, 0.5, 0.8, 1.5};
#define N_BANDS ((int)(sizeof band_edges_mps / sizeof band_edges_mps[0]) - 1)

static int by_value(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The q-quantile (0..1) of v[0..n-1], n > 0, sorting v: the nearest rank. */
static double quantile(double *v, int n, double q)
{
    qsort(v, (size_t)n, sizeof *v, by_value);
    return v[(int)lround(q * (n - 1))];
}

static void print_bands(const slide_point *pts, int n)
{
    printf("slip speed (m/s)  samples  mu_eff median  mean\n");
    double *mu = malloc(sizeof *mu * (size_t)(n > 0 ? n : 1));
    for (int b = 0; b < N_BANDS && mu; b++) {
        int m = 0;
        double sum = 0.0;
        for (int i = 0; i < n; i++)
            if (pts[i].speed_mps >= band_edges_mps[b] && pts[i].speed_mps < band_edges_mps[b + 1]) {
                mu[m++] = pts[i].mu_eff;
                sum += pts[i].mu_eff;
            }
        if (m > 0)
            printf("%5.2f to %-5.2f    %7d  %13.3f  %.3f\n", band_edges_mps[b],
                   band_edges_mps[b + 1], m, quantile(mu, m, 0.5), sum / m);
    }
    free(mu);
}

static void print_slides(double *slope, double *mu_ref, int n)
{
    if (n < 2) {
        printf("slides: %d long enough for a line\n", n);
        return;
    }
    double sum = 0.0, sum2 = 0.0;
    for (int i = 0; i < n; i++) {
        sum += slope[i];
        sum2 += slope[i] * slope[i];
    }
    const double mean = sum / n, sd = sqrt(fmax(0.0, (sum2 - n * mean * mean) / (n - 1)));
    printf("slides with a line: %d\n", n);
    printf("  d mu_eff / d speed (s/m): median %.3f, middle half %.3f to %.3f, mean %.3f "
           "(standard error %.3f)\n",
           quantile(slope, n, 0.5), quantile(slope, n, 0.25), quantile(slope, n, 0.75), mean,
           sd / sqrt(n));
    printf("  mu_eff at %.1f m/s: median %.3f, middle half %.3f to %.3f\n", REF_SPEED_MPS,
           quantile(mu_ref, n, 0.5), quantile(mu_ref, n, 0.25), quantile(mu_ref, n, 0.75));
}

static int usage(const char *why)
{
    fprintf(stderr, "slide_friction: %s\nusage: slide_friction WORLD --data PATH\n", why);
    return 2;
}

int main(int argc, char **argv)
{
    if (argc != 4 || strcmp(argv[2], "--data") != 0) return usage("WORLD --data PATH is needed");
    ipx_scene *scene = toss_scene_load(argv[1]);
    if (!scene) return 1;
    char message[512];
    cli_phase_box box;
    double g[3];
    cli_recording *recs = NULL;
    int n_recs = 0, rc = 0;
    if (cli_phase_box_of_scene(scene, &box, message, sizeof message) != 0 ||
        cli_recordings_load(argv[3], &recs, &n_recs, message, sizeof message) != 0) {
        fprintf(stderr, "slide_friction: %s\n", message);
        rc = 1;
    }
    ipx_scene_replay_gravity(scene, g);
    const slide_limits limits = slide_default_limits();
    long total = 0;
    for (int r = 0; r < n_recs; r++) total += recs[r].n;
    slide_point *pts = malloc(sizeof *pts * (size_t)(total > 0 ? total : 1));
    double *slope = malloc(sizeof *slope * (size_t)(n_recs > 0 ? n_recs : 1));
    double *mu_ref = malloc(sizeof *mu_ref * (size_t)(n_recs > 0 ? n_recs : 1));
    int n_pts = 0, n_lines = 0;
    for (int r = 0; r < n_recs && rc == 0 && pts && slope && mu_ref; r++) {
        const int k = slide_points(&recs[r], &box, g, &limits, pts + n_pts);
        if (slide_line(pts + n_pts, k, &limits, REF_SPEED_MPS, &mu_ref[n_lines], &slope[n_lines]) ==
            0)
            n_lines++;
        n_pts += k;
    }
    if (rc == 0 && !(pts && slope && mu_ref)) {
        fprintf(stderr, "slide_friction: out of memory\n");
        rc = 1;
    }
    if (rc == 0) {
        printf("%d recordings, %d sliding samples (%ld in all)\n", n_recs, n_pts, total);
        print_bands(pts, n_pts);
        print_slides(slope, mu_ref, n_lines);
    }
    free(pts);
    free(slope);
    free(mu_ref);
    cli_recordings_free(recs, n_recs);
    ipx_scene_free(scene);
    return rc;
}
