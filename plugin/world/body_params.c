/* The replay body's override from the params string: inertia_scale. */
#include "body_params.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "impax/registry.h"
#include "world.h"

/* A factor, not an absolute value: the world keeps its mass and shape, and one key serves every
   world. 0.1..10 covers a solid body's moments between a point mass at the centre and its mass
   on the corners (a cube: 0 and 3 times a uniform cube's) with room either side. */
static const char key_name[] = "inertia_scale";
static const double key_lo = 0.1, key_hi = 10.0;

int ipx_body_param_range(const char *key, double *lo, double *hi)
{
    if (!key || strcmp(key, key_name) != 0) return 0;
    if (lo) *lo = key_lo;
    if (hi) *hi = key_hi;
    return 1;
}

/* inertia_scale of item into the override: 1, 0 if item is another key, -1 with a message. */
static int take_body_key(void *user, const ipx_param_item *item, char *message, size_t message_size)
{
    body_override *out = user;
    if (!ipx_param_item_is(item, key_name)) return 0;
    double x;
    char why[IPX_MESSAGE_SIZE];
    if (ipx_param_number(item, &x, why, sizeof why) != IPX_OK) {
        snprintf(message, message_size, "body %s", why);
        return -1;
    }
    if (!isfinite(x) || x < key_lo || x > key_hi) {
        snprintf(message, message_size,
                 "body parameter %s = %g is out of range [%g, %g] (a factor on the replay "
                 "body's inertia)",
                 key_name, x, key_lo, key_hi);
        return -1;
    }
    out->inertia_scale = x;
    out->set = 1;
    return 1;
}

int body_params_split(const char *text, body_override *out, char *rest, size_t rest_size,
                      char *message, size_t message_size)
{
    memset(out, 0, sizeof *out);
    return ipx_params_split(text, take_body_key, out, rest, rest_size, message, message_size);
}

void body_params_apply(const body_override *o, dBodyID body)
{
    if (!o->set || dBodyIsKinematic(body)) return; /* driven: its inertia plays no part */
    dMass m;
    dBodyGetMass(body, &m);
    for (int i = 0; i < 12; i++) m.I[i] *= o->inertia_scale;
    dBodySetMass(body, &m);
}
