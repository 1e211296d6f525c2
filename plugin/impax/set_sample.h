/// `impax set`'s sampling: the Routh outcome set of one impact problem (ipx_routh_set) in
/// chunks, so that a progress bar can follow it; the cloud and the summary are those of one call
/// with the same generator (the chunks draw from it in the same order).
#ifndef IMPAX_CLI_SET_SAMPLE_H
#define IMPAX_CLI_SET_SAMPLE_H

#include "impax/registry.h"
#include "impax/rng.h"
#include "impax/routh.h"

/// Runs `samples` trajectories into cloud (capacity >= samples) and fills *total, whose
/// per-contact ranges point into ranges (4k doubles, caller-owned). ws: a "routh" workspace for
/// p->k contacts. Returns IPX_OK, or the status of a failed call with total->message saying why.
ipx_status cli_set_sample(const ipx_problem *p, const ipx_params *params, ipx_rng *rng, int samples,
                          ipx_workspace *ws, ipx_routh_cloud *cloud, ipx_routh_summary *total,
                          double *ranges);

#endif
