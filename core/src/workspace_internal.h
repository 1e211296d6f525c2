/// Inside the core: how solvers take memory from a workspace (a bump allocator reset per solve).
#ifndef IMPAX_WORKSPACE_INTERNAL_H
#define IMPAX_WORKSPACE_INTERNAL_H

#include <stddef.h>
#include "impax/types.h"
#include "impax/workspace.h"

struct ipx_workspace {
    unsigned char *base;
    size_t capacity; /* bytes */
    size_t floor;    /* bytes kept for what a call hands back (its result): reset keeps them */
    size_t used;     /* bytes */
};

/* The slicing below is inline: a solve takes a few dozen slices, and out of line their calls
   cost a single-contact PLUS impact 4 % (bench_plus). */
#define IPX_WS_ALIGN 16u

static inline size_t ipx_ws_round_up(size_t bytes)
{
    return (bytes + IPX_WS_ALIGN - 1) & ~(size_t)(IPX_WS_ALIGN - 1);
}

/// Bytes one slice of n doubles / n ints takes (rounded up to keep slices 16-byte aligned).
static inline size_t ipx_ws_doubles_bytes(size_t n) { return ipx_ws_round_up(n * sizeof(double)); }
static inline size_t ipx_ws_ints_bytes(size_t n) { return ipx_ws_round_up(n * sizeof(int)); }

/// Forgets every slice taken since the kept ones (ipx_ws_keep).
void ipx_ws_reset(ipx_workspace *ws);

/// Starts a public call: forgets every slice, the kept ones too.
void ipx_ws_begin(ipx_workspace *ws);

/// Slices (of n doubles / n ints, zeroed) that later resets keep: what the call hands back.
/// NULL if the workspace is too small.
double *ipx_ws_keep_doubles(ipx_workspace *ws, size_t n);
int *ipx_ws_keep_ints(ipx_workspace *ws, size_t n);

/// Bytes left after the kept slices: what a solver may take.
size_t ipx_ws_available(const ipx_workspace *ws);

/// Bytes a slice of n bytes takes (rounded up like the others).
static inline size_t ipx_ws_bytes_bytes(size_t n) { return ipx_ws_round_up(n); }

/// The next bytes of the workspace (a multiple of IPX_WS_ALIGN), or NULL if it is too small.
static inline void *ipx_ws_take(ipx_workspace *ws, size_t bytes)
{
    if (bytes > ws->capacity - ws->used) return NULL;
    void *p = ws->base + ws->used;
    ws->used += bytes;
    return p;
}

/// A slice of n doubles / ints / bytes (uninitialised), or NULL if the workspace is too small.
static inline double *ipx_ws_doubles(ipx_workspace *ws, size_t n)
{
    return ipx_ws_take(ws, ipx_ws_doubles_bytes(n));
}
static inline int *ipx_ws_ints(ipx_workspace *ws, size_t n)
{
    return ipx_ws_take(ws, ipx_ws_ints_bytes(n));
}

static inline void *ipx_ws_bytes(ipx_workspace *ws, size_t n)
{
    return ipx_ws_take(ws, ipx_ws_bytes_bytes(n));
}

#endif
