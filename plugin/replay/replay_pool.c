/* Recordings replayed as the jobs of a pool: a job's id is the recording's index, the batch's
   payload the model and the parameters ("model\0params\0"), a result one cli_replay_outcome. */
#include "replay_pool.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct replay_ctx {
    const ipx_scene *scene;
    const cli_recording *recs;
    int n_recs;
} replay_ctx;

static int replay_job(void *ctx, int id, const void *payload, size_t payload_size, cli_buf *result)
{
    const replay_ctx *c = ctx;
    const char *model = payload, *end = model ? memchr(model, '\0', payload_size) : NULL;
    cli_replay_outcome o;
    memset(&o, 0, sizeof o);
    if (!end || !memchr(end + 1, '\0', payload_size - (size_t)(end + 1 - model)) || id < 0 ||
        id >= c->n_recs) {
        o.rc = 2;
        snprintf(o.message, sizeof o.message, "malformed replay job %d", id);
    } else {
        o.rc = cli_replay(c->scene, model, end + 1, &c->recs[id], &o.error, NULL, o.message,
                          sizeof o.message);
    }
    return cli_buf_append(result, &o, sizeof o);
}

typedef struct outcomes {
    cli_replay_outcome *out;
    unsigned char *stored; /* per job: its outcome came back */
} outcomes;

static int store_outcome(void *ctx, int k, const void *result, size_t size)
{
    outcomes *o = ctx;
    if (size != sizeof *o->out) return -1;
    memcpy(&o->out[k], result, size);
    o->stored[k] = 1;
    return 0;
}

int cli_replay_pool(cli_pool *pool, const ipx_scene *scene, const char *model, const char *params,
                    const cli_recording *recs, const int *index, int n, cli_replay_outcome *out,
                    char *message, size_t message_size)
{
    char payload[1024];
    const int len = snprintf(payload, sizeof payload, "%s%c%s", model, '\0', params ? params : "");
    if (len < 0 || (size_t)len + 1 > sizeof payload) {
        snprintf(message, message_size, "parameters too long: %s", params);
        return -1;
    }
    int max_index = -1;
    for (int i = 0; i < n; i++)
        if (index[i] > max_index) max_index = index[i];
    replay_ctx ctx = {scene, recs, max_index + 1};
    outcomes o = {out, calloc((size_t)n + 1, 1)};
    if (!o.stored) {
        snprintf(message, message_size, "out of memory for %d replays", n);
        return -1;
    }
    const cli_batch batch = {.n = n,
                             .id = index,
                             .payload = payload,
                             .payload_size = (size_t)len + 1,
                             .run = replay_job,
                             .run_ctx = &ctx,
                             .done = store_outcome,
                             .done_ctx = &o};
    const int missing = cli_pool_run(pool, &batch, message, message_size);
    if (missing > 0) { /* name the first recording without an outcome: the dead worker's */
        int k = 0;
        while (k < n - 1 && o.stored[k]) k++;
        const size_t used = strlen(message);
        snprintf(message + used, message_size - used,
                 "%s%d of %d replays did not report (the first: %s)", used ? ": " : "", missing, n,
                 recs[index[k]].path);
    }
    free(o.stored);
    return missing == 0 ? 0 : -1;
}

int cli_replay_serve(cli_pool *pool, const ipx_scene *scene, const cli_recording *recs, int n_recs)
{
    replay_ctx ctx = {scene, recs, n_recs};
    return cli_pool_serve(pool, replay_job, &ctx);
}
