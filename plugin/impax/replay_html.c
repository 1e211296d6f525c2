#include "replay_html.h"

#include <stdio.h>
#include <stdlib.h>

#include "html_view.h"

/* Frames of the replay body along samples s[0..n) (times from s[0]'s), the world's other bodies
   where they start: each frame is the sample nearest its time, set into sim's body. 0, or -1. */
static int sample_frames(cli_frames *f, ipx_sim *sim, int body, const cli_body_frame *body_frame,
                         const cli_sample *s, int n, double step_s, double fps)
{
    const double t0 = s[0].t_s, span = s[n - 1].t_s - t0;
    if (cli_frames_start(f, sim, span, step_s, fps) != 0) return -1;
    int k = 0;
    for (int frame = 0; frame <= (int)(span * fps + 1e-9); frame++) {
        const double t = frame / fps;
        while (k + 1 < n && s[k + 1].t_s - t0 - t <= t - (s[k].t_s - t0)) k++;
        /* a sample a failed simulation never reached (zero quaternion) leaves the body where it was */
        cli_sample b;
        cli_body_frame_to_body(body_frame, &s[k], &b);
        cli_body_set_state(ipx_sim_body(sim, body), &b);
        if (cli_frames_store(f, sim, s[k].t_s - t0) != 0) return -1;
    }
    return 0;
}

int replay_write_html(const char *path, const ipx_scene *scene, const replay_set *set, double fps)
{
    char msg[512];
    const int n = set->n_models + 1;
    cli_frames *frames = calloc((size_t)n, sizeof *frames);
    html_model *views = calloc((size_t)n, sizeof *views);
    ipx_sim *sim = ipx_sim_create(scene, "ode", "", msg, sizeof msg);
    const int body = sim && set->body ? ipx_sim_body_index(sim, set->body) : -1;
    const cli_recording *rec = &set->recs[set->show];
    const cli_body_frame frame = cli_replay_frame(scene);
    int rc = frames && views && body >= 0 ? 0 : -1;
    for (int m = 0; m < n && rc == 0; m++) {
        views[m] = (html_model){m == 0 ? "recorded" : set->models[m - 1], &frames[m]};
        rc = sample_frames(&frames[m], sim, body, &frame, m == 0 ? rec->samples : set->shown[m - 1],
                           rec->n, ipx_scene_step_size(scene), fps);
    }
    if (sim) ipx_sim_destroy(sim);
    if (rc != 0)
        fprintf(stderr, "impax replay: --html '%s': out of memory, or no replay body\n", path);
    else rc = html_view_write("replay", path, scene, n, views);
    for (int m = 0; frames && m < n; m++) cli_frames_free(&frames[m]);
    free(frames);
    free(views);
    return rc;
}
