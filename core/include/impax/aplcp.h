/// impax core: the Anitescu-Potra simultaneous impact LCP (Halm & Posa eq. (31)-(35); routh.md
/// sections 2 and 7): velocity complementarity at every contact and Coulomb friction linearised
/// by a polygon of friction directions, solved as one LCP. Inelastic by default; optionally a
/// Newton restitution target v_n+ >= -e v_n- at contacts approaching faster than v_capture.
/// It is the baseline closest to ODE's own contact handling.
#ifndef IMPAX_APLCP_H
#define IMPAX_APLCP_H

#include "impax/registry.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Parameter indices of the "aplcp" model (see its table for ranges and docs).
enum {
    IPX_APLCP_FRICTION_DIRECTIONS = 0, ///< k: directions of the friction polygon (even)
    IPX_APLCP_NEWTON_RESTITUTION,      ///< 1: target v_n+ >= -e v_n- (Newton); 0: inelastic
    IPX_APLCP_MAX_PIVOTS,              ///< Lemke pivot limit; 0 = automatic
    IPX_APLCP_N_PARAMS
};

extern const ipx_model ipx_model_aplcp;

#ifdef __cplusplus
}
#endif
#endif
