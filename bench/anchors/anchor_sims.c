/* The simulators this build has (anchor.h): each where its library was found. */
#include "anchor.h"

const anchor_sim *const anchor_sims[] = {
#ifdef IMPAX_ANCHOR_MUJOCO
    &anchor_mujoco,
#endif
#ifdef IMPAX_ANCHOR_BULLET
    &anchor_bullet,
#endif
};
const int anchor_n_sims = (int)(sizeof anchor_sims / sizeof anchor_sims[0]);
