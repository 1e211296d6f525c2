/* The contact-surface keys of a params string (mu, e, bounce_vel, rolling, spinning: world.h,
   ipx_contact_param_range): parsed out of the text the model would otherwise get, and applied to
   every contact the simulation creates. Private to plugin/world. */
#ifndef IMPAX_WORLD_CONTACT_PARAMS_H
#define IMPAX_WORLD_CONTACT_PARAMS_H

#include <stddef.h>

#include "impax/ode.h"

typedef enum contact_key {
    CONTACT_MU,
    CONTACT_E,
    CONTACT_BOUNCE_VEL,
    CONTACT_ROLLING,
    CONTACT_SPINNING,
    CONTACT_KEYS
} contact_key;

typedef struct contact_override {
    int set[CONTACT_KEYS];      /* 1: the key was given */
    double value[CONTACT_KEYS]; /* mu (-), e (-), bounce_vel (m/s), rolling, spinning (m) */
} contact_override;

/// Takes the contact keys out of "key=value,..." text (NULL or "": none) into *out and copies
/// the other items, in their order and without the white space around them, into rest
/// (rest_size bytes). The list follows ipx_params_next's rules (an empty item is an error). 0,
/// or -1 with a message naming the key and its range for a value that is not a number, not
/// finite or out of range.
int contact_params_split(const char *text, contact_override *out, char *rest, size_t rest_size,
                         char *message, size_t message_size);

/// Replaces the given values of c's surface (mu sets mu and mu2; rolling sets rho and rho2,
/// spinning rhoN, and either turns on ODE's dContactRolling).
void contact_params_apply(const contact_override *o, dContact *c);

#endif
