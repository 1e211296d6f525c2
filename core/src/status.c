#include "impax/types.h"

const char *ipx_status_name(ipx_status s)
{
    switch (s) {
    case IPX_OK: return "ok";
    case IPX_ERR_INPUT: return "bad input";
    case IPX_ERR_WORKSPACE: return "workspace too small";
    case IPX_ERR_LCP_RAY: return "LCP ray termination";
    case IPX_ERR_LCP_PIVOTS: return "LCP pivot limit";
    case IPX_ERR_NOT_CONVERGED: return "not converged";
    case IPX_ERR_NUMERIC: return "numerical failure";
    }
    return "unknown status";
}
