#include "cpu_build.h"

#include <stdio.h>

void ipx_print_clone_build(void)
{
#if defined(__x86_64__) && defined(__GNUC__)
    const int avx2 = __builtin_cpu_supports("avx2");
    printf("this processor %s AVX2: the library runs its %s build\n", avx2 ? "has" : "lacks",
           avx2 ? "AVX2" : "baseline");
#else
    printf("not x86-64 with GCC: the library has one build\n");
#endif
}
