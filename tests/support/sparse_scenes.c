/* The sparse solve's test problems (sparse_scenes.h). */
#include <stdlib.h>

#include "ensure.h"
#include "pile_gen.h"
#include "problem_gen.h"
#include "sparse_scenes.h"

void ipx_test_sparse_scenes(ipx_rng *rng, ipx_test_scene_visit *visit, void *user)
{
    for (int kind = 0; kind < 2; kind++)
        for (int k = 32; k <= 80; k += 24) {
            ipx_pile_options o = ipx_pile_default_options(kind ? IPX_PILE_STACK : IPX_PILE_BIN);
            o.motion = k == 56 ? IPX_PILE_CHURNING : IPX_PILE_SETTLED;
            ipx_pile pile;
            ENSURE(ipx_pile_make(&pile, k, &o, rng) == 0);
            visit(k, pile.W, pile.v, rng, kind ? "towers" : "bin", user);
            ipx_pile_free(&pile);
        }
    ipx_scene *scene = malloc(sizeof *scene);
    ipx_gen_options g = ipx_gen_default_options();
    for (int trial = 0; trial < 6; trial++) {
        ipx_gen_random(scene, 40 + 4 * trial, &g, rng);
        visit(scene->problem.k, scene->W, scene->v, rng, "random pile", user);
    }
    free(scene);
}
