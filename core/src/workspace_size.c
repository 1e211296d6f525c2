/* What a solve takes of a workspace (see impax/workspace.h): how ipx_solve hands a problem's
   W to the model (its route), the model's bytes for that route, and the bytes of a whole
   solve, by the largest k or for one problem, with the workspace created at that size. */
#include <limits.h>

#include "impax/registry.h"
#include "impax/validate.h"
#include "result_internal.h"
#include "workspace_internal.h"
#include "workspace_size.h"

ipx_w_route ipx_w_route_of(const ipx_params *params, const ipx_problem *p)
{
    if (p->W || !p->Ws) return IPX_W_DENSE;
    return ipx_model_reads_blocks(params, p->k) ? IPX_W_IN_PLACE : IPX_W_COPIED;
}

size_t ipx_model_workspace_bytes_for(const ipx_params *params, const ipx_problem *p)
{
    const ipx_model *m = params->model;
    if (ipx_w_route_of(params, p) == IPX_W_IN_PLACE)
        return m->blocks_workspace_bytes(p->k, params->value);
    return m->workspace_bytes(p->k, params->value);
}

/* k * k (W-sized slices) must not overflow */
static int k_in_range(int k) { return k >= 1 && (size_t)k <= ((size_t)1 << 24); }

/* The result's arrays, then the larger of the validation of a dense W and the model. */
static size_t result_and(int k, size_t model)
{
    const size_t validate = ipx_validate_workspace_bytes(k);
    return ipx_result_bytes(k, IPX_ROWS_PER_CONTACT) + (model > validate ? model : validate);
}

size_t ipx_workspace_bytes(const ipx_params *params, int k_max)
{
    if (!params || !params->model || !k_in_range(k_max)) return 0;
    size_t model = params->model->workspace_bytes(k_max, params->value);
    /* a problem given as blocks gets a dense copy up to the size from which the model reads them */
    const ipx_blocks_from_fn from = params->model->blocks_from;
    const int from_k = from ? from(params->value) : INT_MAX;
    const int dense_k = from_k - 1 < k_max ? from_k - 1 : k_max;
    if (dense_k > 0) model += ipx_ws_doubles_bytes(ipx_w_copy_doubles(dense_k));
    return result_and(k_max, model);
}

size_t ipx_workspace_bytes_for(const ipx_params *params, const ipx_problem *p)
{
    if (!params || !params->model || !p || !k_in_range(p->k)) return 0;
    const int k = p->k;
    const size_t model = ipx_model_workspace_bytes_for(params, p);
    const ipx_w_route route = ipx_w_route_of(params, p);
    /* blocks in place need no validation workspace (a block W is assembled: no curvature check) */
    if (route == IPX_W_IN_PLACE) return ipx_result_bytes(k, IPX_ROWS_PER_CONTACT) + model;
    if (route == IPX_W_COPIED) /* ipx_solve's copy */
        return result_and(k, ipx_ws_doubles_bytes(ipx_w_copy_doubles(k)) + model);
    return result_and(k, model);
}

ipx_workspace *ipx_workspace_create(const ipx_params *params, int k_max)
{
    size_t bytes = ipx_workspace_bytes(params, k_max);
    return bytes ? ipx_workspace_create_bytes(bytes) : NULL;
}
