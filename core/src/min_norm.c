#include "min_norm.h"

#include "impax/linalg.h"
#include "impax/plus.h"

size_t ipx_min_norm_work_doubles(int n)
{
    const size_t lapack = ipx_lsq_work_doubles(n, n), small = ipx_plus_lsq_work_doubles(n, n);
    return lapack > small ? lapack : small;
}

ipx_status ipx_min_norm_solve(int n, double *A, double *b, double rcond, double *work, int *iwork,
                              int *rank_out)
{
    return n <= IPX_PLUS_LSQ_SMALL ? ipx_plus_lsq(n, n, A, b, rcond, work, iwork, rank_out)
                                   : ipx_lsq_min_norm(n, n, A, b, rcond, work, iwork, rank_out);
}
