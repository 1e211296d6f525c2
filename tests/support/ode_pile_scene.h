/// Piles as users' ODE programs make them (issue [piles]): a deterministic draw, from one seed
/// and the project's rng (impax/rng.h), of a scene from the ranges a user's program might have:
/// 50-400 bodies (boxes of aspect up to 3:1, spheres, capsules, or mixed), 0.05-5 kg, a bin or
/// an open floor, mu 0.1-1 or dInfinity, bounce 0-0.8 above 0.0-0.5 m/s, world CFM 1e-10-1e-4,
/// ERP 0.1-0.9, max correcting velocity 0.1 m/s to unlimited, surface layer 0-2 mm, QuickStep
/// with 10-50 iterations or dWorldStep, h 1-20 ms, bodies dropped at once or one after another;
/// and the plain ODE program that runs it, through the ODE adapter (impax/ode.h) or with ODE
/// alone. Shared by bench/bench_piles.c (the full family) and tests/adapter/test_ode_piles.c
/// (small members of it: the same draw with a smaller body range).
#ifndef IMPAX_TEST_ODE_PILE_SCENE_H
#define IMPAX_TEST_ODE_PILE_SCENE_H

#include <stddef.h>
#include <stdint.h>

#include <ode/ode.h>

#include "impax/ode.h"

typedef enum pile_shapes {
    PILE_BOXES,
    PILE_SPHERES,
    PILE_CAPSULES,
    PILE_MIXED ///< each body's shape drawn among the three
} pile_shapes;

/// Everything a reader needs to rebuild the scene (pile_scene_format prints it on one line).
typedef struct pile_spec {
    uint64_t seed;        ///< the draw's seed; also seeds the bodies' draw and dRandSetSeed
    int bodies;           ///< number of dynamic bodies
    pile_shapes shapes;   ///< body shapes
    double size_m;        ///< m, the largest extent of a body (box side, sphere and capsule length)
    double aspect;        ///< largest/smallest extent of a box or capsule, 1..3
    double mass_lo_kg;    ///< kg, body masses log-uniform in [mass_lo_kg, mass_hi_kg]
    double mass_hi_kg;    ///< kg
    int bin;              ///< 1: a square bin with walls; 0: an open floor
    int layers;           ///< layers of the drop grid (the pile's depth in bodies, roughly)
    double mu;            ///< Coulomb friction of every contact (dInfinity possible)
    int approx1;          ///< 1: dContactApprox1 in the contacts' mode
    double bounce;        ///< restitution (0: no dContactBounce)
    double bounce_vel;    ///< m/s, ODE's bounce_vel
    int max_points;       ///< contact points per geom pair (dCollide's flags)
    double cfm;           ///< world CFM
    double erp;           ///< world ERP
    double max_correct;   ///< m/s, dWorldSetContactMaxCorrectingVel (dInfinity: ODE's default)
    double surface_layer; ///< m, dWorldSetContactSurfaceLayer
    int iterations;       ///< QuickStep's iterations; 0: dWorldStep
    double h;             ///< s, the step
    double seconds;       ///< s of simulated time
    double release_every; ///< s between two bodies' release (0: all at once)
    double drop_gap_m;    ///< m, height of the lowest layer's bodies above the floor
} pile_spec;

/// Bounds of the draw that a caller may narrow (the test draws small members of the family).
typedef struct pile_draw_range {
    int bodies_lo, bodies_hi; ///< body count, log-uniform in [lo, hi]
    int step_bodies_hi; ///< dWorldStep scenes draw at most this many bodies (its LCP is dense)
} pile_draw_range;

/// The family of issue [piles]: 50-400 bodies, dWorldStep scenes at most 60 (ODE's own dense
/// LCP costs seconds per step on a pile of hundreds of contacts: no user program runs that).
pile_draw_range pile_default_range(void);

/// Draws the scene of seed, run for `seconds` of simulated time (a sequential release ends by
/// half of it).
void pile_draw(uint64_t seed, const pile_draw_range *range, double seconds, pile_spec *spec);

/// One line: every field of spec, with units. Returns what snprintf returns.
int pile_format(const pile_spec *spec, char *buf, size_t size);

/// A running scene. The near callback hands contacts to ipx (ipx_ode_contact) when it is set,
/// else makes ODE's own contact joints.
typedef struct pile_world {
    pile_spec spec;
    dWorldID world;
    dSpaceID space;
    dJointGroupID group;
    ipx_ode_context *ipx; ///< NULL: ODE alone
    dBodyID *body;        ///< spec.bodies, NULL until released
    int released;         ///< bodies made so far
    long step;            ///< steps done
    long steps;           ///< steps of the whole run (seconds / h, rounded up)
    long contact_points;  ///< contact points made so far (ODE's joints or the adapter's)
} pile_world;

/// Makes the world of spec (bodies released at step 0 made at once). With model NULL, ODE
/// alone; else the adapter configured with model and params (NULL: defaults). Returns 0, or -1
/// with a message (bad model or parameters, no memory): nothing is left allocated then.
int pile_world_make(pile_world *w, const pile_spec *spec, const char *model, const char *params,
                    char *message, size_t size);

/// One step: the bodies due are released, collision, the adapter's step (or ODE's), the contact
/// group emptied. Returns what ODE's step returns.
int pile_world_step(pile_world *w);

/// J: the kinetic energy of the bodies released so far (translation and rotation).
double pile_world_kinetic_energy(const pile_world *w);

void pile_world_free(pile_world *w);

#endif
