/// The near callback the test clients share: plain ODE, as a user's program writes it.
#ifndef IMPAX_CLIENT_CONTACTS_H
#define IMPAX_CLIENT_CONTACTS_H

#include <ode/ode.h>

/// A contact joint's reported forces, and the joint (ODE writes a second body's only where it
/// has one).
typedef struct client_feedback {
    dJointFeedback fb;
    dJointID joint;
} client_feedback;

/// Where and with what surface dSpaceCollide's pairs become contact joints. With feedback set,
/// each contact joint reports its forces (dJointSetFeedback) into the next of its max_feedback
/// entries, as long as there are any (the program sets n_feedback to 0 before each collide).
typedef struct client_contacts {
    dWorldID world;
    dJointGroupID group;
    dSurfaceParameters surface;
    client_feedback *feedback;
    int n_feedback, max_feedback;
} client_contacts;

/// 1 if every force and torque ODE reports in the n_feedback entries is finite (f2, t2 only for
/// a joint with two bodies: ODE writes no second body's); *largest gets the largest |f1| (N).
int client_feedback_finite(const client_contacts *s, double *largest);

/// dSpaceCollide callback (data: a client_contacts): dCollide, then dJointCreateContact and
/// dJointAttach for each point (up to 8 per pair).
void client_near(void *data, dGeomID a, dGeomID b);

#endif
