/// Random impacts of boxes, as robots and mechanisms meet them: a box landing on the ground on
/// an edge, three corners or a face, and stacks of boxes (chains of up to 8 contacts). Masses,
/// sizes, orientations, friction, restitution and velocities are drawn per problem; the
/// tangential slip ranges from 0 to 10 times the approach speed. Used by the PLUS property
/// tests (issue plus-slip) and usable by any model's.
#ifndef IMPAX_TEST_BOX_SCENES_H
#define IMPAX_TEST_BOX_SCENES_H

#include "problem_gen.h"

/// One box on the ground (+z), touching with k = 2 (an edge), 3 (three corners of a face) or 4
/// (a face) corners. At least one contact approaches.
void ipx_gen_box_landing(ipx_scene *s, int k, ipx_rng *rng);

/// A stack of boxes on the ground (+z): each box rests on the one below (the bottom one on the
/// ground) at 1 or 2 points, k contacts in all (2..8). At least one contact approaches.
void ipx_gen_box_stack(ipx_scene *s, int k, ipx_rng *rng);

/// One of the two above, drawn at random: a landing with 2..4 contacts or a stack with 2..8.
void ipx_gen_box_scene(ipx_scene *s, ipx_rng *rng);

#endif
