/* impax-demo: every registered impact model on two paper scenes, straight from the core (no ODE).
   `make demo` runs it until `impax ab` on the provided worlds takes its place. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model_table.h"
#include "paper_scenes.h"

static ipx_scene scene;

/* The models to show: each registered one with its defaults, plus AP-LCP with Newton's target. */
typedef void (*row_printer)(const char *label, const ipx_result *r);

/* Solves the current scene with one model and parameter text and prints the row (the result's
   arrays live in the workspace, so it is printed before the workspace goes). */
static void solve_and_print(const char *model, const char *params, const char *label,
                            row_printer print)
{
    ipx_params par;
    ipx_result r = {.status = IPX_ERR_INPUT};
    ipx_workspace *ws = NULL;
    if (ipx_params_init(&par, model, r.message, sizeof r.message) == IPX_OK &&
        ipx_params_parse(&par, params, r.message, sizeof r.message) == IPX_OK) {
        ws = ipx_workspace_create(&par, scene.problem.k);
        if (ws) ipx_solve(&par, &scene.problem, ws, &r);
        else snprintf(r.message, sizeof r.message, "out of memory for the workspace");
    }
    print(label, &r);
    ipx_workspace_destroy(ws);
}

static void each_model(row_printer print)
{
    for (int i = 0; i < ipx_model_count(); i++) {
        const char *name = ipx_model_at(i)->name;
        solve_and_print(name, "", name, print);
    }
    solve_and_print("aplcp", "newton_restitution=1", "aplcp newton_restitution=1", print);
}

static void cradle_row(const char *label, const ipx_result *r)
{
    printf("  %-28s", label);
    if (r->status != IPX_OK) {
        printf("%s\n", r->message);
        return;
    }
    double vel[6 * IPX_TEST_MAX_CONTACTS];
    for (int i = 0; i < 6 * scene.n_bodies; i++) vel[i] = scene.body_vel[i];
    ipx_bodies_apply_impulse(scene.n_bodies, scene.bodies, scene.problem.k, scene.frames,
                             r->impulse, vel);
    for (int b = 0; b < scene.n_bodies; b++) printf(" %+6.3f", vel[6 * b]);
    printf("   %7.4f\n", 2.0 + r->delta_ke);
}

static void block_row(const char *label, const ipx_result *r)
{
    printf("  %-28s", label);
    if (r->status != IPX_OK) {
        printf("%s\n", r->message);
        return;
    }
    double u[3];
    ipx_scene_planar_velocity_after(&scene, 0, r->impulse, u);
    double ke0 = 0.5 * scene.body_vel[1] * scene.body_vel[1];
    printf(" %+8.5f %+8.5f %+8.5f   %8.5f %8.5f   %9.6f\n", u[0], u[1], u[2], r->v_post[IPX_N],
           r->v_post[3 + IPX_N], ke0 + r->delta_ke);
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--models") == 0) {
        ipx_print_models(stdout);
        return EXIT_SUCCESS;
    }
    if (argc > 1) {
        fprintf(stderr, "usage: impax-demo [--models]\n");
        return 2;
    }
    printf("impax demo: every registered impact model on two paper scenes (core only)\n\n");

    ipx_scene_cradle(&scene, 5, 2.0, 1.0);
    printf("Newton's cradle (PLUS paper, Example 3): 5 balls, striker at 2 m/s, e = 1, KE 2 J.\n"
           "Physics: only the far ball leaves, at 2 m/s (velocities -0 -0 -0 -0 -2).\n");
    printf("  %-28s %s\n", "model", "  ball velocities along x (m/s)       KE after (J)");
    each_model(cradle_row);

    const double v0 = sqrt(2.0 * 9.81 * 0.01);
    ipx_scene_rocking_block(&scene, v0);
    printf(
        "\nRocking block (Halm & Posa, section 8.1): 1 x 2 m block dropped flat from 1 cm, mu 1.\n"
        "Physics: any ordering from rest to a pivot lifting one corner at up to 0.09302 m/s;\n"
        "a simultaneous LCP (AP) predicts rest.\n");
    printf("  %-28s %8s %8s %8s   %8s %8s   %9s\n", "model", "xdot", "ydot", "thetadot", "lift A",
           "lift B", "KE after");
    each_model(block_row);
    return EXIT_SUCCESS;
}
