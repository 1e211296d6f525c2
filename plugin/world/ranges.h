/* The physical ranges a world's values must lie in (worlds/README.md, "Ranges"): generous for
   real scenes from a micro-gripper to a ship, and inside what ODE 0.16 computes without
   asserting (its hash space turns AABB corners divided by the cell size into ints; its
   normalisations and its Cholesky factor of the inertia fail on vectors and tensors out of
   scale). Private to plugin/world. */
#ifndef IMPAX_WORLD_RANGES_H
#define IMPAX_WORLD_RANGES_H

#define RANGE_GRAVITY 1e4 /* m/s^2, |g| at most (a thousand g) */
#define RANGE_POSITION \
    1e6 /* m, each world coordinate of a link, inertial frame, collision, joint anchor */
#define RANGE_SIZE_MIN 1e-6 /* m, box sides, radii and lengths, from a micron ... */
#define RANGE_SIZE_MAX 1e6  /* ... to a thousand kilometres */
#define RANGE_MASS_MIN 1e-9 /* kg, a microgram ... */
#define RANGE_MASS_MAX 1e12 /* ... to a billion tonnes */
#define RANGE_GYRATION_MIN \
    1e-6 /* m, sqrt(principal moment / mass): a body's size, so the sizes' range */
#define RANGE_GYRATION_MAX 1e6
#define RANGE_INERTIA_RATIO \
    1e-12 /* smallest principal moment / largest, at least (a needle a million times longer than thick) */
#define RANGE_SPEED 1e6        /* m/s and rad/s, |v| and |w| of an initial velocity */
#define RANGE_RUN_POSITION 1e8 /* m, a run stops when a body gets farther from the origin ... */
#define RANGE_RUN_SPEED 1e8    /* m/s and rad/s, ... or faster than this */

#endif
