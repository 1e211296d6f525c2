/// Vertical stacks and free chains of many contacts, for the scale tests of the round-based
/// models (PLUS's rounds on stacks and chains; issue [scale]). Every scene is built from real
/// rigid bodies (ipx_bodies_assemble), so W has the structure a host would produce: each body
/// couples the contacts above and below it.
#ifndef IMPAX_TEST_STACK_SCENES_H
#define IMPAX_TEST_STACK_SCENES_H

#include "impax/rng.h"
#include "problem_gen.h"

/// How a stack is set in motion and what it is made of.
typedef struct ipx_stack_options {
    double mu;        ///< friction at every contact
    double e;         ///< restitution (PLUS: e_min) at every contact
    double v_capture; ///< m/s, at every contact
    double speed;     ///< m/s, downward speed of what moves
    int struck;       ///< 1: only the top body moves (struck from above); 0: the whole stack drops
    double slip;      ///< horizontal speed of what moves, as a fraction of speed
    double
        spin; ///< rad/s about a horizontal axis (spheres) or the vertical (boxes), per m/s of speed
    int ground; ///< 1: the bottom body rests on the ground (contact 0); 0: a free chain
} ipx_stack_options;

/// mu 0.5, e 0.5, v_capture 0.01, speed 1, struck 1, slip 0.3, spin 0.5, ground 1.
ipx_stack_options ipx_stack_default_options(void);

/// n spheres (radius 0.1 m, 1 kg; with rng, masses 0.2..5 kg) in a vertical column touching at
/// one point each: contact 0 sphere 0 on the ground (if o->ground), then sphere i on sphere
/// i - 1. k = n with the ground, n - 1 without. With rng, each moving sphere's slip direction,
/// spin axis and the tangent frames are drawn at random (else fixed: slip along x, spin about y).
void ipx_scene_sphere_stack(ipx_scene *s, int n, const ipx_stack_options *o, ipx_rng *rng);

/// n boxes (half-extents 0.2 x 0.15 x 0.1 m, 1 kg; with rng, masses 0.2..5 kg and small offsets
/// and yaws) stacked face on face, `corners` (1..4) contacts per interface at the corners of the
/// overlap: k = corners * n with the ground, corners * (n - 1) without. With rng the slip and
/// spin senses and the tangent frames are drawn at random.
void ipx_scene_box_tower(ipx_scene *s, int n, int corners, const ipx_stack_options *o,
                         ipx_rng *rng);

#endif
