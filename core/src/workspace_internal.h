/// Inside the core: how solvers take memory from a workspace (a bump allocator reset per solve).
#ifndef IMPAX_WORKSPACE_INTERNAL_H
#define IMPAX_WORKSPACE_INTERNAL_H

#include <stddef.h>
#include "impax/workspace.h"

struct ipx_workspace {
    unsigned char *base;
    size_t capacity; /* bytes */
    size_t used;     /* bytes */
};

/// Bytes one slice of n doubles / n ints takes (rounded up to keep slices 16-byte aligned).
size_t ipx_ws_doubles_bytes(size_t n);
size_t ipx_ws_ints_bytes(size_t n);

/// Forgets every slice taken so far.
void ipx_ws_reset(ipx_workspace *ws);

/// A slice of n doubles / ints (uninitialised), or NULL if the workspace is too small.
double *ipx_ws_doubles(ipx_workspace *ws, size_t n);
int *ipx_ws_ints(ipx_workspace *ws, size_t n);

#endif
