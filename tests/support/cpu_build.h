/// Which build of the library's processor clones (core/src/numerics/vector_clones.h) this
/// processor runs, for the tests that compare them with their baseline builds.
#ifndef IMPAX_TEST_CPU_BUILD_H
#define IMPAX_TEST_CPU_BUILD_H

/// Prints "this processor has AVX2: the library runs its AVX2 build" (or lacks, baseline).
void ipx_print_clone_build(void);

#endif
