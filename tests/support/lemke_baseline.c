/* lemke_baseline.h: the library's Lemke for x86-64's baseline, renamed. */
#define IPX_NO_CLONES
#define ipx_lemke_work_doubles baseline_lemke_work_doubles
#define ipx_lemke_work_ints baseline_lemke_work_ints
#define ipx_lemke_default_max_pivots baseline_lemke_default_max_pivots
#define ipx_lemke baseline_lemke

#include "lemke_baseline.h"
#include "numerics/lemke.c"
