/// A progress bar on stderr for runs that take longer than a second of wall time, drawn only
/// when stderr is a terminal (so logs and pipes stay clean) and --quiet was not given.
#ifndef IMPAX_CLI_PROGRESS_H
#define IMPAX_CLI_PROGRESS_H

typedef struct cli_progress {
    const char *label;   /* what runs, e.g. the model name */
    const char *unit;    /* NULL: simulated seconds (t = done / total s); else what is counted */
    double total_s;      /* simulated seconds to reach (or the count) */
    double start_wall_s; /* monotonic clock at the start */
    double last_draw_s;  /* monotonic clock of the last redraw, 0 if never drawn */
    int enabled;         /* stderr is a terminal */
} cli_progress;

double cli_wall_seconds(void); /* monotonic clock, s */
/// --quiet: no bar from now on, terminal or not.
void cli_progress_set_quiet(int quiet);
void cli_progress_start(cli_progress *p, const char *label, double total_s);
/// Redraws at most ten times a second, and only once a second of wall time has passed.
void cli_progress_update(cli_progress *p, double done_s);
/// Erases the bar if one was drawn.
void cli_progress_finish(cli_progress *p);

#endif
