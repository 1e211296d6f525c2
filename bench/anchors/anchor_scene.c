/* The cube-toss scene of worlds/cube_toss.world, for the anchors (anchor.h). */
#include "anchor.h"

anchor_scene anchor_cube_toss_scene(int identified)
{
    /* the data set's nominal edge gives the inertia; the box collides at the cube's size in the
       data's own units, as the world's does (docs/validation.md "The cube's size in the data's
       units") */
    const double nominal_edge_m = 0.1048, box_edge_m = 0.1025, mass_kg = 0.37;
    const double half_m = 0.5 * nominal_edge_m;
    /* the centre of mass off the cube's centre, as worlds/cube_toss.world's <inertial><pose> has
       it (measured from the flights: docs/validation.md "The cube's centre of mass") */
    const double com_z_m = 0.0053;
    /* the data set's README: inertia / mass 0.797 in units of the half width (a uniform cube:
       edge^2 / 6 = 4 a^2 / 6 = 0.667 a^2) */
    const double per_mass_m2 =
        identified ? 0.797 * half_m * half_m : nominal_edge_m * nominal_edge_m / 6.0;
    return (anchor_scene){.edge_m = box_edge_m,
                          .length_m = nominal_edge_m,
                          .mass_kg = mass_kg,
                          .inertia_kgm2 = mass_kg * per_mass_m2,
                          .com_m = {0.0, 0.0, com_z_m},
                          .gravity_mps2 = 9.81,
                          .step_s = 1.0 / 1480.0};
}

cli_body_frame anchor_body_frame(const anchor_scene *scene)
{
    const double axes[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    return cli_body_frame_make(scene->com_m, axes);
}
