/// Inside the core: how ipx_solve hands a problem's W to the model and what that costs in the
/// workspace (workspace_size.c).
#ifndef IMPAX_WORKSPACE_SIZE_H
#define IMPAX_WORKSPACE_SIZE_H

#include <stddef.h>
#include "impax/types.h"

struct ipx_params;

/// How ipx_solve hands p's W to the model: as given (a dense W, or blocks the model reads in
/// place), or as a dense copy of the blocks made in the workspace.
typedef enum ipx_w_route { IPX_W_DENSE, IPX_W_IN_PLACE, IPX_W_COPIED } ipx_w_route;
ipx_w_route ipx_w_route_of(const struct ipx_params *params, const struct ipx_problem *p);

/// Doubles of the dense W of k contacts, which ipx_solve keeps in the workspace when the route
/// is IPX_W_COPIED.
static inline size_t ipx_w_copy_doubles(int k)
{
    const size_t n = (size_t)IPX_ROWS_PER_CONTACT * (size_t)k;
    return n * n;
}

/// The model's own bytes (beyond the result's arrays) for p's size and W's route: its
/// blocks_workspace_bytes in place, else its workspace_bytes.
size_t ipx_model_workspace_bytes_for(const struct ipx_params *params, const struct ipx_problem *p);

#endif
