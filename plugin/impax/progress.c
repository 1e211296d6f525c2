#define _POSIX_C_SOURCE 200809L
#include "progress.h"

#include <stdio.h>
#include <time.h>
#include <unistd.h>

enum { BAR_WIDTH = 30 };

static int quiet; /* --quiet: set once by main, before any bar */

void cli_progress_set_quiet(int q) { quiet = q; }

double cli_wall_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void cli_progress_start(cli_progress *p, const char *label, double total_s)
{
    p->label = label;
    p->unit = NULL;
    p->total_s = total_s;
    p->start_wall_s = cli_wall_seconds();
    p->last_draw_s = 0.0;
    p->enabled = !quiet && isatty(STDERR_FILENO);
}

void cli_progress_update(cli_progress *p, double done_s)
{
    if (!p->enabled) return;
    double now = cli_wall_seconds();
    if (now - p->start_wall_s < 1.0 || now - p->last_draw_s < 0.1) return;
    p->last_draw_s = now;
    double frac = p->total_s > 0 ? done_s / p->total_s : 1.0;
    if (frac > 1.0) frac = 1.0;
    int filled = (int)(frac * BAR_WIDTH);
    char bar[BAR_WIDTH + 1];
    for (int i = 0; i < BAR_WIDTH; i++) bar[i] = i < filled ? '#' : '.';
    bar[BAR_WIDTH] = '\0';
    if (p->unit)
        fprintf(stderr, "\r%-8s [%s] %3.0f%%  %.0f / %.0f %s", p->label, bar, 100.0 * frac, done_s,
                p->total_s, p->unit);
    else
        fprintf(stderr, "\r%-8s [%s] %3.0f%%  t = %.3f / %.3f s", p->label, bar, 100.0 * frac,
                done_s, p->total_s);
    fflush(stderr);
}

void cli_progress_finish(cli_progress *p)
{
    if (p->enabled && p->last_draw_s > 0) fprintf(stderr, "\r\033[K");
}
