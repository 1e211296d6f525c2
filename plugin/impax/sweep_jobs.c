/* The jobs of a sweep: enumeration, keys, parameters. */
#include "sweep_jobs.h"

#include <stdio.h>
#include <string.h>

long long sweep_job_count(const sweep_spec *spec)
{
    long long n = (long long)spec->n_worlds * spec->n_models * spec->n_seeds;
    for (int a = 0; a < spec->n_axes && n <= SWEEP_MAX_JOBS; a++) n *= spec->axis[a].n;
    return n <= SWEEP_MAX_JOBS && spec->n_axes <= SWEEP_MAX_AXES ? n : -1;
}

void sweep_job_decode(const sweep_spec *spec, int index, sweep_job *job)
{
    memset(job, 0, sizeof *job);
    job->seed = index % spec->n_seeds;
    index /= spec->n_seeds;
    for (int a = spec->n_axes - 1; a >= 0; a--) {
        job->grid[a] = index % spec->axis[a].n;
        index /= spec->axis[a].n;
    }
    job->model = index % spec->n_models;
    job->world = index / spec->n_models;
}

int sweep_job_params(const sweep_spec *spec, const sweep_job *job, char *out, size_t size)
{
    const sweep_model *m = &spec->model[job->model];
    size_t used = (size_t)snprintf(out, size, "%s", m->params);
    for (int a = 0; a < spec->n_axes && used < size; a++)
        used += (size_t)snprintf(out + used, size - used, "%s%s=%s", used ? "," : "",
                                 spec->axis[a].key, spec->axis[a].text[job->grid[a]]);
    if (m->has_seed && used < size)
        used += (size_t)snprintf(out + used, size - used, "%sseed=%lld", used ? "," : "",
                                 spec->seed[job->seed]);
    return used < size ? 0 : -1;
}

int sweep_json_string(cli_buf *out, const char *text)
{
    int rc = cli_buf_append(out, "\"", 1);
    for (const unsigned char *p = (const unsigned char *)text; *p && rc == 0; p++) {
        if (*p == '"' || *p == '\\') rc = cli_buf_printf(out, "\\%c", *p);
        else if (*p < 0x20) rc = cli_buf_printf(out, "\\u%04x", *p);
        else rc = cli_buf_append(out, p, 1);
    }
    return rc == 0 ? cli_buf_append(out, "\"", 1) : -1;
}

int sweep_job_key(const sweep_spec *spec, const sweep_job *job, cli_buf *out)
{
    const sweep_model *m = &spec->model[job->model];
    int rc = cli_buf_printf(out, "\"world\":");
    rc |= sweep_json_string(out, spec->world[job->world].name);
    rc |= cli_buf_printf(out, ",\"model\":\"%s\"", m->name);
    if (m->params[0]) {
        rc |= cli_buf_printf(out, ",\"model_params\":");
        rc |= sweep_json_string(out, m->params);
    }
    rc |= cli_buf_printf(out, ",\"params\":{");
    for (int a = 0; a < spec->n_axes; a++)
        rc |= cli_buf_printf(out, "%s\"%s\":%s", a ? "," : "", spec->axis[a].key,
                             spec->axis[a].text[job->grid[a]]);
    rc |= cli_buf_printf(out, "},\"seed\":%lld", spec->seed[job->seed]);
    return rc ? -1 : 0;
}
