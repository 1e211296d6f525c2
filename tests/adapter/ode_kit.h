/// Helpers for the ODE adapter tests: ODE's own Jacobian rows as an oracle (its exported
/// getInfo2, docs/ode-host.md §5: private and version-locked, so test use only), row-space
/// comparison, and small scene builders.
#ifndef IMPAX_TEST_ODE_KIT_H
#define IMPAX_TEST_ODE_KIT_H

#include <ode/ode.h>

/// ODE 0.16.2's rows of joint j in the caller's attach order (row i: J[i][0..5] for
/// dJointGetBody(j, 0), J[i][6..11] for dJointGetBody(j, 1)). Returns the row count, or -1 if
/// the oracle is unavailable for this type. h: step (s) for ODE's right-hand sides (unused here).
int ode_oracle_rows(dJointID j, double J[][12], int max_rows);

/// Rank of the n rows of length len (Gram-Schmidt with relative tolerance tol).
int rows_rank(const double *rows, int n, int len, double tol);

/// 1 if the row spaces of A (na rows) and B (nb rows) of 12 entries are equal within tol.
int same_row_space(double A[][12], int na, double B[][12], int nb, double tol);

/// A box body of mass m (kg) and sides (m) at position p with rotation from axis-angle (rad).
dBodyID kit_box(dWorldID w, double m, const double side[3], const double p[3], const double axis[3],
                double angle);

/// A solid ball body of mass m (kg) and radius r (m) at position p.
dBodyID kit_ball(dWorldID w, double m, double r, const double p[3]);

/// A uniform random number in [lo, hi) from a small LCG state (deterministic across runs).
double kit_uniform(unsigned long long *state, double lo, double hi);

/// Moves the n bodies down (or up) together so that the lowest corner of b[0], a box of sides
/// side (m), is depth (m) below the ground z = 0.
void kit_sink(dBodyID *b, int n, const double side[3], double depth);

/// Kinetic energy (J) of the n bodies.
double kit_energy(dBodyID *b, int n);

/// A dContact at point p with normal n (into body 1, unit), depth d (m), friction mu and
/// restitution e (0 = no dContactBounce) with bounce_vel (m/s).
dContact kit_contact(const double p[3], const double n[3], double depth, double mu, double e,
                     double bounce_vel);

/// dCollide(a, b) (up to 8 points), each point handed to ipx_ode_contact with surface, as a
/// near callback of an adapter test does. Returns the number of points.
struct ipx_ode_context;
int kit_collide(struct ipx_ode_context *ipx, dWorldID world, dJointGroupID group,
                const dSurfaceParameters *surface, dGeomID a, dGeomID b);

/// The end of a one-step test: ipx_ode_post_step, then the context, the contact group and the
/// world destroyed.
void kit_finish(struct ipx_ode_context *ipx, dJointGroupID group, dWorldID world);

/// A world with gravity -9.81 z, a ground plane z = 0, a simple space, a contact group and an
/// impax context: every contact gets the surface template, the step is the adapter's around
/// dWorldStep (quick = 0) or dWorldQuickStep (quick = 1).
typedef struct kit_sim {
    dWorldID world;
    dSpaceID space;
    dJointGroupID group;
    struct ipx_ode_context *ipx;
    dSurfaceParameters surface;
    int quick;
} kit_sim;

/// Makes the world; model and params as ipx_ode_configure takes them (the configuration must
/// be valid: a test failure otherwise). Returns 0.
int kit_sim_make(kit_sim *s, const char *model, const char *params,
                 const dSurfaceParameters *surface, int quick);
/// Collide, the adapter's step of h seconds, empty the contact group.
void kit_sim_step(kit_sim *s, double h);
void kit_sim_free(kit_sim *s);

#endif
