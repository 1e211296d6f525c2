/* A running simulation of a scene: the ODE world, its bodies and geoms, and the impax context. */
#ifndef IMPAX_WORLD_SIM_INTERNAL_H
#define IMPAX_WORLD_SIM_INTERNAL_H

#include "body_params.h"
#include "contact_params.h"
#include "scene_internal.h"

enum { SIM_MAX_PAIR_CONTACTS = 64 }; /* dCollide's buffer per geom pair */

struct ipx_sim {
    const ipx_scene *scene;
    dWorldID world;
    dSpaceID space;
    dJointGroupID contacts;
    ipx_ode_context *ipx;
    contact_override contact; /* the params' contact keys, applied to every contact */
    body_override body_keys;  /* the params' body key, applied to the replay body */
    int n_bodies;
    dBodyID *body;      /* per body */
    int *body_link;     /* per body: its link */
    int *link_body;     /* per link: its body, -1 if static */
    dGeomID *geom;      /* per collision */
    double time;        /* s */
    double penetration; /* m, deepest contact of the last step */
    int had_impact;     /* the last step had an impacting contact */
    int failed;         /* ODE reported an error during the last step */
    char ode_message[256];
};

/// Creates the scene's bodies, geoms and joints in sim->world / sim->space. 0, or -1 with a message.
int ipx_sim_build(ipx_sim *sim, char *message, size_t message_size);
/// Collides every pair, creating contact joints through the impax context (Gazebo's rules).
void ipx_sim_collide(ipx_sim *sim);

#endif
