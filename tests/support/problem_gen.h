/// Random impact problems from random rigid bodies, for property tests and benches.
/// W comes from real bodies (ipx_bodies_assemble), so it is symmetric PSD by construction and
/// has the structure a host would produce (shared bodies couple contacts).
#ifndef IMPAX_TEST_PROBLEM_GEN_H
#define IMPAX_TEST_PROBLEM_GEN_H

#include "impax/impax.h"

/// Contacts (and rows) a generated scene holds: the tests' own fixed size, not a library limit.
#define IPX_TEST_MAX_CONTACTS 64
#define IPX_TEST_MAX_ROWS (IPX_ROWS_PER_CONTACT * IPX_TEST_MAX_CONTACTS)

/// A scene of free rigid bodies and contacts, and the problem made from it (fixed size: no
/// allocation). Large: keep it static or on the heap.
typedef struct ipx_scene {
    ipx_problem problem;
    int n_bodies;
    ipx_body bodies[IPX_TEST_MAX_CONTACTS];
    double body_size[IPX_TEST_MAX_CONTACTS]; /* m, half-extent of each generated body */
    ipx_contact_frame frames[IPX_TEST_MAX_CONTACTS];
    double body_vel[6 * IPX_TEST_MAX_CONTACTS];
    double W[IPX_TEST_MAX_ROWS * IPX_TEST_MAX_ROWS];
    double v[IPX_TEST_MAX_ROWS];
    ipx_contact contact[IPX_TEST_MAX_CONTACTS];
} ipx_scene;

/// Assembles W and v from the bodies, frames and velocities of the first k contacts and points
/// s->problem at them.
void ipx_scene_finish(ipx_scene *s, int k);

/// Options of the generator.
typedef struct ipx_gen_options {
    double mu_max;         ///< friction coefficients drawn from [0, mu_max]
    double e_max;          ///< restitution drawn from [0, e_max]
    double p_world;        ///< probability that a contact's second body is the world
    double p_frictionless; ///< probability that a contact has mu = 0
} ipx_gen_options;

/// mu_max 1, e_max 1, p_world 0.3, p_frictionless 0.1.
ipx_gen_options ipx_gen_default_options(void);

/// k contacts among about k/2 + 1 random bodies (masses 0.1..10 kg, sizes 0.05..0.5 m, inertia
/// of a solid of that size, random orientation), contact points on the body's surface scale,
/// random normals; body velocities drawn so that at least one contact
/// approaches. Fills g->problem.
void ipx_gen_random(ipx_scene *g, int k, const ipx_gen_options *opt, ipx_rng *rng);

#endif
