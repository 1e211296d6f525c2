/// The problems the sparse minimum-norm solve's tests build PLUS's systems of
/// (test_sparse_lsq, test_sparse_reuse): large, sparse, and singular wherever boxes touch face
/// on face.
#ifndef IMPAX_TEST_SPARSE_SCENES_H
#define IMPAX_TEST_SPARSE_SCENES_H

#include "impax/impax.h"

/// What a test does with one problem of k contacts: W (3k x 3k), v (3k); what names its kind.
typedef void ipx_test_scene_visit(int k, const double *W, const double *v, ipx_rng *rng,
                                  const char *what, void *user);

/// Bins, then towers, of boxes of 32, 56 (churning) and 80 contacts (pile_gen.h), then six random
/// piles of 40 to 60 contacts (problem_gen.h), each handed to visit in turn; rng makes the scenes
/// and is handed on.
void ipx_test_sparse_scenes(ipx_rng *rng, ipx_test_scene_visit *visit, void *user);

#endif
