/* VECTOR_CLONES: a function compiled twice, for x86-64's baseline (SSE2) and for AVX2, the
   loader picking the one the processor runs (target_clones). AVX2 without FMA makes the same
   operations in the same order, so the clones give the same bits as long as the function's
   sums keep their order in the source (mathutil.h's partial sums): each file that uses it has a
   test comparing its clones with a baseline build of the file (IPX_NO_CLONES, under names of its
   own: tests/support/dense_lsq_baseline.c, lemke_baseline.c).
   Not under clang: clang 14 names the resolver apart from the declarations in other headers,
   so calls from other files link to nothing (the fuzz build, make fuzz). */
#ifndef IMPAX_VECTOR_CLONES_H
#define IMPAX_VECTOR_CLONES_H

#if !defined(IPX_NO_CLONES) && !defined(__clang__) && defined(__x86_64__) && \
    defined(__has_attribute)
#if __has_attribute(target_clones)
#define VECTOR_CLONES __attribute__((target_clones("avx2", "default")))
#endif
#endif
#ifndef VECTOR_CLONES
#define VECTOR_CLONES /* one build: another processor, or a caller that asks for the baseline */
#endif

#endif
