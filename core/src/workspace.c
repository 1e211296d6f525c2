/* The workspace arena (see impax/workspace.h, workspace_internal.h): one allocation, sliced
   from the start by each solve; the slices a call hands back are kept across its resets. */
#include <stdlib.h>
#include <string.h>

#include "workspace_internal.h"

void ipx_ws_reset(ipx_workspace *ws) { ws->used = ws->floor; }
void ipx_ws_begin(ipx_workspace *ws) { ws->used = ws->floor = 0; }
size_t ipx_ws_available(const ipx_workspace *ws) { return ws->capacity - ws->floor; }

static void *keep(ipx_workspace *ws, size_t bytes)
{
    ws->used = ws->floor;
    void *p = ipx_ws_take(ws, bytes);
    if (p) {
        memset(p, 0, bytes);
        ws->floor = ws->used;
    }
    return p;
}

double *ipx_ws_keep_doubles(ipx_workspace *ws, size_t n)
{
    return keep(ws, ipx_ws_doubles_bytes(n));
}
int *ipx_ws_keep_ints(ipx_workspace *ws, size_t n) { return keep(ws, ipx_ws_ints_bytes(n)); }

ipx_workspace *ipx_workspace_create_bytes(size_t bytes)
{
    ipx_workspace *ws = malloc(sizeof *ws + bytes + IPX_WS_ALIGN);
    if (!ws) return NULL;
    /* the slices start at the first aligned address after the header */
    unsigned char *raw = (unsigned char *)(ws + 1);
    size_t pad = (IPX_WS_ALIGN - ((size_t)raw % IPX_WS_ALIGN)) % IPX_WS_ALIGN;
    ws->base = raw + pad;
    ws->capacity = bytes;
    ws->used = ws->floor = 0;
    return ws;
}

void ipx_workspace_destroy(ipx_workspace *ws) { free(ws); }

size_t ipx_workspace_capacity(const ipx_workspace *ws) { return ws ? ws->capacity : 0; }
