/* The replay body's key of a params string (inertia_scale: world.h, ipx_body_param_range): parsed
   out of the text the model would otherwise get, and applied to the body once the world is
   built. Private to plugin/world. */
#ifndef IMPAX_WORLD_BODY_PARAMS_H
#define IMPAX_WORLD_BODY_PARAMS_H

#include <stddef.h>

#include "impax/ode.h"

typedef struct body_override {
    int set;              /* 1: inertia_scale was given */
    double inertia_scale; /* -, factor on the inertia tensor about the centre of mass */
} body_override;

/// Takes inertia_scale out of "key=value,..." text (NULL or "": none) into *out and copies the
/// other items, in their order, into rest (rest_size bytes); ipx_params_next's rules. 0, or -1
/// with a message naming the key and its range for a value that is not a number, not finite or
/// out of range.
int body_params_split(const char *text, body_override *out, char *rest, size_t rest_size,
                      char *message, size_t message_size);

/// Scales body's inertia tensor by the override's factor (mass and centre of mass unchanged).
void body_params_apply(const body_override *o, dBodyID body);

#endif
