/* dense_lsq_baseline.h: the library's dense least squares for x86-64's baseline, renamed. */
#define IPX_NO_CLONES
#define ipx_plus_lsq_work_doubles baseline_plus_lsq_work_doubles
#define ipx_plus_lsq baseline_plus_lsq
#define lsq_cod_factor baseline_lsq_cod_factor
#define lsq_cod_apply_qt baseline_lsq_cod_apply_qt
#define lsq_cod_solve baseline_lsq_cod_solve
#define lsq_cod_null baseline_lsq_cod_null
#define lsq_cod_min_norm baseline_lsq_cod_min_norm
#define lsq_cod_cond baseline_lsq_cod_cond

#include "dense_lsq_baseline.h"
#include "numerics/dense_lsq.c"
