/// The plots' lines (plot.c, which ab's, replay's and sweep's line plots draw through) in the
/// colours of model_colours.h, the one table the --html pages use too: a PNG of an "ode" line and
/// a "plus:e_min=0.5" entry's line holds pixels of exactly those two table colours, and none of
/// the colours the lines had before (PLplot's cmap0 red and blue); lines that lie on each other
/// within a thousandth of the panel's span are found (cli_plot_coincides) so that the plot marks
/// them, and lines half a percent apart are not.
/// argv: scratch directory.
#include <math.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ensure.h"
#include "model_colours.h"
#include "plot.h"

static const char *scratch;

enum { N = 200 };

/* Pixels of the PNG at path within 6 (per channel) of rgb; -1 if it cannot be read. */
static long count_colour(const char *path, const unsigned char rgb[3])
{
    png_image image;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_file(&image, path)) return -1;
    image.format = PNG_FORMAT_RGB;
    unsigned char *px = malloc(PNG_IMAGE_SIZE(image));
    if (!px || !png_image_finish_read(&image, NULL, px, 0, NULL)) {
        free(px);
        png_image_free(&image);
        return -1;
    }
    long n = 0;
    for (size_t i = 0; i < (size_t)image.width * image.height; i++)
        n += abs(px[3 * i] - rgb[0]) <= 6 && abs(px[3 * i + 1] - rgb[1]) <= 6 &&
             abs(px[3 * i + 2] - rgb[2]) <= 6;
    free(px);
    return n;
}

static void test_lines_take_their_models_colours(void)
{
    static double t[N], y1[N], y2[N];
    for (int i = 0; i < N; i++) t[i] = i * 0.01, y1[i] = sin(t[i]), y2[i] = cos(t[i]);
    const cli_line lines[2] = {{"ode", N, t, y1, NULL}, {"plus:e_min=0.5", N, t, y2, NULL}};
    const cli_panel panel = {"colours", "t (s)", "y", 2, lines};
    char path[1100], msg[256];
    snprintf(path, sizeof path, "%s/colours.png", scratch);
    ENSURE(cli_plot_panels(path, 1, &panel, msg, sizeof msg) == 0);
    unsigned char ode[3], plus[3];
    model_colour("ode", ode);
    model_colour("plus", plus);
    const unsigned char old_red[3] = {255, 0, 0}, old_blue[3] = {0, 0, 255};
    const long n_ode = count_colour(path, ode), n_plus = count_colour(path, plus);
    const long n_red = count_colour(path, old_red), n_blue = count_colour(path, old_blue);
    printf("  pixels: ode's colour %ld, plus's %ld; cmap0 red %ld, blue %ld\n", n_ode, n_plus,
           n_red, n_blue);
    ENSURE(n_ode > 200 && n_plus > 200); /* a line 2 px wide across 700 px, and its legend */
    ENSURE(n_red == 0 && n_blue == 0);
}

static void test_lines_on_each_other_are_found(void)
{
    static double t[N], a[N], b[N], c[N], d[N];
    for (int i = 0; i < N; i++) {
        t[i] = i * 0.01;
        a[i] = -0.45 * exp(-t[i]);               /* span 0.45 * (1 - e^-2) = 0.389 */
        b[i] = a[i] + 3e-4 * sin(7 * t[i]);      /* within 1e-3 of the span: on a */
        c[i] = a[i] + (i == N / 2 ? 2e-3 : 0.0); /* half a percent off at one sample */
        d[i] = a[i];
    }
    const cli_line lines[4] = {{"ode", N, t, a, NULL},
                               {"plus", N, t, b, NULL},
                               {"routh", N, t, c, NULL},
                               {"aplcp", N, t, d, NULL}};
    const cli_panel panel = {"coincide", "t (s)", "v_z (m/s)", 4, lines};
    ENSURE(cli_plot_coincides(&panel, 0) == -1);
    ENSURE(cli_plot_coincides(&panel, 1) == 0);
    ENSURE(cli_plot_coincides(&panel, 2) == -1);
    ENSURE(cli_plot_coincides(&panel, 3) == 0);
    char path[1100], msg[256];
    snprintf(path, sizeof path, "%s/coincide.png", scratch);
    ENSURE(cli_plot_panels(path, 1, &panel, msg, sizeof msg) == 0);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_plot_colours SCRATCH_DIR\n");
        return 2;
    }
    scratch = argv[1];
    RUN(test_lines_take_their_models_colours);
    RUN(test_lines_on_each_other_are_found);
    return ipx_test_exit();
}
