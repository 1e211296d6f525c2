/// The jobs of a sweep: every world x model x grid point x seed, in that order (the last grid
/// axis and then the seed varying fastest), and what identifies each: its key in the rows and
/// the parameters its simulation gets.
#ifndef IMPAX_CLI_SWEEP_JOBS_H
#define IMPAX_CLI_SWEEP_JOBS_H

#include "job_pool.h"
#include "sweep_spec.h"

enum { SWEEP_MAX_JOBS = 1 << 30, SWEEP_MAX_AXES = 16 };

typedef struct sweep_job {
    int world, model, seed; /* indices into the spec's arrays */
    int grid[SWEEP_MAX_AXES];
} sweep_job;

/// Jobs in the spec, or -1 if more than SWEEP_MAX_JOBS.
long long sweep_job_count(const sweep_spec *spec);
void sweep_job_decode(const sweep_spec *spec, int index, sweep_job *job);

/// The parameters ipx_sim_create gets: the model's own, the grid's values, and seed=S for a
/// model with a seed parameter. 0, or -1 if they do not fit in size bytes.
int sweep_job_params(const sweep_spec *spec, const sweep_job *job, char *out, size_t size);

/// Appends the job's key, the start of its row: "world":"...","model":"..."[,"model_params":
/// "..."],"params":{"mu":0.1,...},"seed":N (no braces). 0 or -1 (memory).
int sweep_job_key(const sweep_spec *spec, const sweep_job *job, cli_buf *out);

/// Runs job index in a fresh simulation of its world (sweep_sim.c) and appends its row: the key,
/// "status" ("ok", or "failed" and "error" when the simulation stopped), "values" (the recorded
/// quantities; null where a world lacks the body or a number is not finite) and "wall_s", then
/// a newline. Everything but wall_s depends on the job alone. 0 or -1 (memory).
int sweep_job_run(const sweep_spec *spec, int index, cli_buf *row);

/// Appends text as a JSON string (quoted, escaped). 0 or -1.
int sweep_json_string(cli_buf *out, const char *text);

#endif
