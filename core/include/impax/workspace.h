/// impax core: caller-owned, reusable scratch memory, so that a solve never allocates.
///
/// A workspace is sized once for a model, its parameters and the largest k it will see
/// (ipx_workspace_create), then reused for every solve. A solve takes slices of it from the
/// start each time; nothing it holds survives between solves.
#ifndef IMPAX_WORKSPACE_H
#define IMPAX_WORKSPACE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ipx_workspace ipx_workspace;
struct ipx_params;
struct ipx_problem;

/// Bytes a workspace needs to solve problems of up to k_max contacts with these parameters, W
/// given densely or as blocks (the dense copy ipx_solve makes for a model that reads W densely
/// included; a large allocation's untouched pages cost no memory). O(k_max^2): a dense W's.
size_t ipx_workspace_bytes(const struct ipx_params *params, int k_max);

/// Bytes a workspace needs to solve p with these parameters (ipx_solve), for p's size and the
/// form of its W: O(k) for a problem that gives W as blocks (ipx_problem.Ws) to a model that
/// reads them (ipx_model_reads_blocks: aplcp and routh above their dense fallback), where
/// ipx_workspace_bytes counts O(k^2) for a dense W; the same as ipx_workspace_bytes(params, p->k)
/// for a dense W, less the block copy. Hosts with large islands size (or grow) their workspace
/// by this. 0 if params or p is NULL or p->k is out of range.
size_t ipx_workspace_bytes_for(const struct ipx_params *params, const struct ipx_problem *p);

/// One allocation sized by ipx_workspace_bytes; NULL if k_max is out of range or memory is short.
ipx_workspace *ipx_workspace_create(const struct ipx_params *params, int k_max);

/// A workspace of a given size in bytes (for callers that size it themselves).
ipx_workspace *ipx_workspace_create_bytes(size_t bytes);

void ipx_workspace_destroy(ipx_workspace *ws);

/// Capacity in bytes.
size_t ipx_workspace_capacity(const ipx_workspace *ws);

#ifdef __cplusplus
}
#endif
#endif
