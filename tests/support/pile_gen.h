/// Large impact problems as bins and stacks of boxes make them (issue scale): a bin of boxes in
/// layers (each box on the ground or on one or two boxes below it, touching neighbours and the
/// bin's walls at some points) and towers of boxes standing side by side. Contacts couple only
/// through the bodies they share, so W is block-sparse, as in a real pile. Arrays are allocated
/// (no size limit: k may exceed the core's per-problem limit) and W is assembled body by body in
/// O(k x contacts per body), not from dense Jacobians.
///
/// Velocities ("settled"): every box falls at g h (one 1 ms step of gravity) with a 1 mm/s
/// jitter, and 1..3 boxes of the top layer strike at 0.5..3 m/s with slip and spin: a box
/// landing on a pile at rest. ("churning"): every box has a random velocity of up to 1 m/s and
/// 5 rad/s: every contact active at once, the hardest case for an iterative solver.
#ifndef IMPAX_TEST_PILE_GEN_H
#define IMPAX_TEST_PILE_GEN_H

#include "impax/impax.h"

typedef enum ipx_pile_kind {
    IPX_PILE_BIN,  ///< boxes in layers in a walled bin, brick bond on odd layers
    IPX_PILE_STACK ///< towers of up to `tower` boxes, each box on the one below
} ipx_pile_kind;

typedef enum ipx_pile_motion {
    IPX_PILE_SETTLED, ///< a pile at rest, a few boxes striking its top
    IPX_PILE_CHURNING ///< every box moving at random
} ipx_pile_motion;

typedef struct ipx_pile_options {
    ipx_pile_kind kind;
    ipx_pile_motion motion;
    int side;          ///< boxes per row of a bin layer (bin), towers per row (stack)
    int tower;         ///< stack: boxes per tower
    double mass_ratio; ///< box masses log-uniform in [1, mass_ratio] kg (1 = all 1 kg)
    double mu;         ///< friction of every contact (< 0: uniform in [0, 1] per problem)
} ipx_pile_options;

/// bin, settled, side 5, tower 8, mass_ratio 1, mu 0.6.
ipx_pile_options ipx_pile_default_options(ipx_pile_kind kind);

typedef struct ipx_pile {
    ipx_problem problem; ///< k contacts, W (3k x 3k), v, contact: points into the arrays
    int k, n_bodies;
    ipx_body *bodies;
    ipx_contact_frame *frames;
    double *body_vel; ///< 6 per body
    double *W, *v;
    ipx_contact *contact;
    int blocks; ///< non-zero 3 x 3 blocks of W (contact pairs sharing a body)
} ipx_pile;

/// Builds a pile with exactly k contacts (boxes are added layer by layer until k contacts exist;
/// the last box may keep only some of its contacts). Returns 0, or -1 if memory is short.
int ipx_pile_make(ipx_pile *s, int k, const ipx_pile_options *opt, ipx_rng *rng);

/// Frees the arrays (s itself is the caller's).
void ipx_pile_free(ipx_pile *s);

#endif
