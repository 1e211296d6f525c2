/// The near callback the test clients share: plain ODE, as a user's program writes it.
#ifndef IMPAX_CLIENT_CONTACTS_H
#define IMPAX_CLIENT_CONTACTS_H

#include <ode/ode.h>

/// Where and with what surface dSpaceCollide's pairs become contact joints.
typedef struct client_contacts {
    dWorldID world;
    dJointGroupID group;
    dSurfaceParameters surface;
} client_contacts;

/// dSpaceCollide callback (data: a client_contacts): dCollide, then dJointCreateContact and
/// dJointAttach for each point (up to 8 per pair).
void client_near(void *data, dGeomID a, dGeomID b);

#endif
