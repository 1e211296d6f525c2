/// The planar paper scenes (Halm & Posa; docs/models/routh.md §8) built as 3-D rigid bodies whose
/// contacts lie in the plane of motion, so out-of-plane rows decouple and the planar numbers of
/// the papers apply unchanged. Generalised velocities are [xdot, ydot, thetadot].
#ifndef IMPAX_TEST_PAPER_SCENES_H
#define IMPAX_TEST_PAPER_SCENES_H

#include "problem_gen.h"

/// Rocking block (docs/models/routh.md §8.1): w 1 m, h 2 m, m 1 kg, I 5/12, mu 1, flat on the ground, falling
/// at v0 (m/s). Contact 0 = A (bottom-left), 1 = B (bottom-right).
void ipx_scene_rocking_block(ipx_scene *s, double v0);

/// Corner A of the rocking block alone with generalised velocity u = [xdot, ydot, thetadot]
/// and friction mu (docs/models/routh.md §8.7 slip reversal, 8.6 Zeno block).
void ipx_scene_block_corner(ipx_scene *s, double mu, const double u[3]);

/// Corner B of the rocking block alone (the other side), same conventions.
void ipx_scene_block_corner_b(ipx_scene *s, double mu, const double u[3]);

/// Box sliding into a wall (docs/models/routh.md §8.3): unit square, 1 kg, I 1/6, tilted 10 degrees, moving
/// at 1 m/s toward the wall, mu 1 at both. Contact 0 = A (floor), 1 = B (wall).
void ipx_scene_box_wall(ipx_scene *s);

/// Unit point mass on the ground (docs/models/routh.md §8.7): velocity (vx, vy), friction mu.
void ipx_scene_point_mass(ipx_scene *s, double mu, double vx, double vy);

/// Generalised planar velocity [xdot, ydot, thetadot] of body b after an impulse pi (3k).
void ipx_scene_planar_velocity_after(const ipx_scene *s, int b, const double *pi, double u[3]);

/// Newton's cradle of PLUS Example 3 (docs/models/plus.md §6.3): n frictionless balls of radius 0.25 m and
/// 1 kg in a row along -x, touching; ball 0 (the striker) moves at -v_striker along x, the rest
/// are at rest. Contact i joins ball i (body1) and ball i+1 (body2), restitution e.
void ipx_scene_cradle(ipx_scene *s, int n_balls, double v_striker, double e);
#endif
