#include "plot.h"

#include <math.h>
#include <plplot.h>
#include <stdio.h>
#include <string.h>

#include "axis.h"
#include "model_colours.h"

/* Up to STACKED panels one above the other, more in two columns (a panel per body). */
enum {
    PNG_WIDTH = 1000,
    PNG_HEIGHT_PER_PANEL = 420,
    STACKED = 3,
    PNG_COLUMN_WIDTH = 800,
    PNG_ROW_HEIGHT = 360
};

/* Legend: line samples this fraction of the subpage wide, text at this scale. */
static const double LEGEND_LINE = 0.05, LEGEND_TEXT = 0.8, CHAR_WIDTH = 0.7;

/* A panel's line l takes cmap0 entry FIRST_LINE_COLOUR + l, set to its model's colour. */
enum { FIRST_LINE_COLOUR = 16, MAX_LEGEND = 16, MARKS = 12 };
/* Line styles in turn (continuous, long dashes, short dashes, dash-dot), so that two entries of
   one model (one colour) still differ. */
static const PLINT line_style[] = {1, 3, 2, 4};
#define LINE_STYLE(i) line_style[(i) % (int)(sizeof line_style / sizeof line_style[0])]
/* Markers of lines that lie on another: a different glyph per line, at staggered samples. */
static const char *const marker[] = {"o", "x", "+", "*", "^", "="};
#define MARKER(i) marker[(i) % (int)(sizeof marker / sizeof marker[0])]

typedef struct bounds {
    double x0, x1, y0, y1;
    int any;
} bounds;

static void extend(bounds *b, int n, const double *x, const double *y)
{
    for (int i = 0; i < n; i++) {
        if (!isfinite(x[i]) || !isfinite(y[i])) continue;
        if (!b->any) {
            b->x0 = b->x1 = x[i];
            b->y0 = b->y1 = y[i];
            b->any = 1;
        }
        b->x0 = fmin(b->x0, x[i]);
        b->x1 = fmax(b->x1, x[i]);
        b->y0 = fmin(b->y0, y[i]);
        b->y1 = fmax(b->y1, y[i]);
    }
}

/* Every plot's axes come from cli_axis_range: a margin, and a span PLplot can label. */
static void pad(bounds *b)
{
    cli_axis_range(b->x0, b->x1, &b->x0, &b->x1);
    cli_axis_range(b->y0, b->y1, &b->y0, &b->y1);
}

/* PLplot exits the process when it cannot open its output: check first. */
static int writable(const char *path, char *message, size_t message_size)
{
    FILE *f = fopen(path, "wb");
    if (!f) {
        snprintf(message, message_size, "cannot write the plot '%s'", path);
        return 0;
    }
    fclose(f);
    return 1;
}

/* The y span the panel's lines cover (0 if none is finite). */
static double y_span(const cli_panel *p)
{
    bounds b = {0};
    for (int l = 0; l < p->n_lines; l++) extend(&b, p->lines[l].n, p->lines[l].x, p->lines[l].y);
    return b.any ? b.y1 - b.y0 : 0.0;
}

int cli_plot_coincides(const cli_panel *p, int l)
{
    const double tolerance = CLI_PLOT_COINCIDE * y_span(p);
    const cli_line *a = &p->lines[l];
    for (int k = 0; k < l; k++) {
        const cli_line *b = &p->lines[k];
        int same = a->n == b->n && a->n > 0;
        for (int i = 0; same && i < a->n; i++)
            same = a->x[i] == b->x[i] && (fabs(a->y[i] - b->y[i]) <= tolerance ||
                                          (!isfinite(a->y[i]) && !isfinite(b->y[i])));
        if (same) return k;
    }
    return -1;
}

/* 1 if line l lies on another line of the panel, or another on it: it gets markers. */
static int marked(const cli_panel *p, int l)
{
    if (cli_plot_coincides(p, l) >= 0) return 1;
    for (int k = l + 1; k < p->n_lines; k++)
        if (cli_plot_coincides(p, k) == l) return 1;
    return 0;
}

static void begin(const char *path, int n_panels)
{
    const int columns = n_panels > STACKED ? 2 : 1, rows = (n_panels + columns - 1) / columns;
    char geometry[32];
    if (columns == 1)
        snprintf(geometry, sizeof geometry, "%dx%d", PNG_WIDTH, PNG_HEIGHT_PER_PANEL * rows);
    else
        snprintf(geometry, sizeof geometry, "%dx%d", PNG_COLUMN_WIDTH * columns,
                 PNG_ROW_HEIGHT * rows);
    plsdev("pngcairo");
    plsfnam(path);
    plsetopt("geometry", geometry);
    plscolbg(255, 255, 255); /* white page, dark ink */
    plscol0(15, 0, 0, 0);
    plssub(columns, rows);
    plscmap0n(FIRST_LINE_COLOUR + MAX_LEGEND);
    plinit();
}

/* Sets cmap0 entries FIRST_LINE_COLOUR.. to the colours of the panel's lines' models. */
static void line_colours(const cli_panel *p)
{
    for (int l = 0; l < p->n_lines && l < MAX_LEGEND; l++) {
        unsigned char c[3];
        model_colour(p->lines[l].model ? p->lines[l].model : p->lines[l].name, c);
        plscol0(FIRST_LINE_COLOUR + l, c[0], c[1], c[2]);
    }
}

/* The legend's text of line l: its name, and the line it lies on ("routh = plus"). */
static void legend_text(const cli_panel *p, int l, char *text, size_t size)
{
    const int on = cli_plot_coincides(p, l);
    if (on >= 0) snprintf(text, size, "%s = %s", p->lines[l].name, p->lines[on].name);
    else snprintf(text, size, "%s", p->lines[l].name);
}

static void legend(const cli_panel *p)
{
    PLINT opt_array[MAX_LEGEND], text_colors[MAX_LEGEND], line_colors[MAX_LEGEND],
        line_styles[MAX_LEGEND], symbol_numbers[MAX_LEGEND];
    PLFLT line_widths[MAX_LEGEND], symbol_scales[MAX_LEGEND];
    const char *texts[MAX_LEGEND], *symbols[MAX_LEGEND];
    char text[MAX_LEGEND][160];
    int n = p->n_lines < MAX_LEGEND ? p->n_lines : MAX_LEGEND;
    for (int i = 0; i < n; i++) {
        opt_array[i] = PL_LEGEND_LINE | (marked(p, i) ? PL_LEGEND_SYMBOL : 0);
        text_colors[i] = line_colors[i] = FIRST_LINE_COLOUR + i;
        line_styles[i] = LINE_STYLE(i);
        line_widths[i] = 2.0;
        symbol_numbers[i] = 1;
        symbol_scales[i] = 1.0;
        symbols[i] = MARKER(i);
        legend_text(p, i, text[i], sizeof text[i]);
        texts[i] = text[i];
    }
    PLFLT width, height;
    pllegend(&width, &height, PL_LEGEND_BACKGROUND | PL_LEGEND_BOUNDING_BOX,
             PL_POSITION_OUTSIDE | PL_POSITION_RIGHT, 0.01, 0.0, LEGEND_LINE, 0, 15, 1, 0, 0, n,
             opt_array, 1.0, LEGEND_TEXT, 2.0, 0.0, text_colors, (const char *const *)texts, NULL,
             NULL, NULL, NULL, line_colors, line_styles, line_widths, line_colors, symbol_scales,
             symbol_numbers, (const char *const *)symbols);
}

/* Line l's markers: MARKS of them, staggered by l so that lines on each other show each. */
static void markers(const cli_panel *p, int l)
{
    const cli_line *line = &p->lines[l];
    for (int k = 0; k < MARKS; k++) {
        const int i =
            (int)(((double)k + (double)(l % 4 + 1) / 5.0) / MARKS * (double)(line->n - 1) + 0.5);
        if (i >= 0 && i < line->n && isfinite(line->x[i]) && isfinite(line->y[i]))
            plstring(1, &line->x[i], &line->y[i], MARKER(l));
    }
}

/* The width of p's legend in mm: its line samples, gaps and longest name at the legend's text
   size (a character is about CHAR_WIDTH of its height wide). */
static double legend_mm(const cli_panel *p, double char_mm, double subpage_mm)
{
    size_t longest = 0;
    for (int l = 0; l < p->n_lines && l < MAX_LEGEND; l++) {
        char text[160];
        legend_text(p, l, text, sizeof text);
        if (strlen(text) > longest) longest = strlen(text);
    }
    return (LEGEND_LINE + 0.02) * subpage_mm +
           CHAR_WIDTH * char_mm * LEGEND_TEXT * (double)(longest + 2);
}

/* A line panel's axes and grid: margins for the tick labels, axis labels and title, and on the
   right the legend's room (the legend goes outside the axes, so that it hides no line). */
static void frame(const cli_panel *p, const bounds *b)
{
    pladv(0);
    PLFLT default_mm, char_mm, x0, x1, y0, y1;
    plgchr(&default_mm, &char_mm);
    plgspa(&x0, &x1, &y0, &y1); /* the subpage, mm */
    const double width = x1 - x0, height = y1 - y0;
    const double right = fmin(legend_mm(p, char_mm, width) + char_mm, 0.45 * width);
    plsvpa(9.0 * char_mm, width - right, 5.0 * char_mm, height - 3.5 * char_mm);
    plwind(b->x0, b->x1, b->y0, b->y1);
    plbox("bcgnst", 0.0, 0, "bcgnstv", 0.0, 0);
}

int cli_plot_panels(const char *path, int n_panels, const cli_panel *panels, char *message,
                    size_t message_size)
{
    for (int p = 0; p < n_panels; p++) {
        bounds b = {0};
        for (int l = 0; l < panels[p].n_lines; l++)
            extend(&b, panels[p].lines[l].n, panels[p].lines[l].x, panels[p].lines[l].y);
        if (!b.any) {
            snprintf(message, message_size, "nothing finite to plot in '%s'", panels[p].title);
            return -1;
        }
    }
    if (!writable(path, message, message_size)) return -1;
    begin(path, n_panels);
    for (int p = 0; p < n_panels; p++) {
        const cli_panel *panel = &panels[p];
        bounds b = {0};
        for (int l = 0; l < panel->n_lines; l++)
            extend(&b, panel->lines[l].n, panel->lines[l].x, panel->lines[l].y);
        pad(&b);
        plcol0(15);
        frame(panel, &b);
        pllab(panel->x_label, panel->y_label, panel->title);
        line_colours(panel);
        for (int l = 0; l < panel->n_lines && l < MAX_LEGEND; l++) {
            plcol0(FIRST_LINE_COLOUR + l);
            pllsty(LINE_STYLE(l));
            plwidth(2.0);
            plline(panel->lines[l].n, panel->lines[l].x, panel->lines[l].y);
            pllsty(1);
            if (marked(panel, l)) markers(panel, l);
        }
        pllsty(1);
        plwidth(1.0);
        legend(panel);
    }
    plend();
    return 0;
}

int cli_plot_points(const char *path, const char *title, const char *x_label, const char *y_label,
                    int n, const double *x, const double *y, char *message, size_t message_size)
{
    bounds b = {0};
    extend(&b, n, x, y);
    if (!b.any) {
        snprintf(message, message_size, "nothing finite to plot in '%s'", title);
        return -1;
    }
    if (!writable(path, message, message_size)) return -1;
    pad(&b);
    begin(path, 1);
    plcol0(15);
    plenv(b.x0, b.x1, b.y0, b.y1, 0, 2);
    pllab(x_label, y_label, title);
    plcol0(9);
    plpoin(n, x, y, 17); /* 17: a filled dot */
    plend();
    return 0;
}
