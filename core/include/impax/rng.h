/// impax core: a small seeded random generator (xoshiro256**) owned by the caller.
/// Same seed, same stream; independent generators for independent worlds.
#ifndef IMPAX_RNG_H
#define IMPAX_RNG_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ipx_rng {
    uint64_t s[4];
} ipx_rng;

/// 2^64 / golden ratio: splitmix64's increment (an odd constant that walks every 64-bit word).
#define IPX_GOLDEN_GAMMA 0x9e3779b97f4a7c15ULL

/// splitmix64's finaliser: a bijection of 64-bit words in which every input bit reaches every
/// output bit. Counter-based generators hash (seed, counter) through it.
uint64_t ipx_mix64(uint64_t z);

/// One splitmix64 step: advances *state by IPX_GOLDEN_GAMMA and returns its mix (Steele, Lea,
/// Flood 2014). Small, seeded by any word, good enough for shuffles and seeding.
uint64_t ipx_splitmix64(uint64_t *state);

/// Seeds the state from one 64-bit seed (through splitmix64, so seed 0 is fine).
void ipx_rng_seed(ipx_rng *rng, uint64_t seed);

/// Next raw 64-bit value.
uint64_t ipx_rng_next(ipx_rng *rng);

/// Uniform in (0, 1]: never 0, so a sampled Routh cap is never empty.
double ipx_rng_uniform_open0(ipx_rng *rng);

/// Uniform in [lo, hi).
double ipx_rng_uniform(ipx_rng *rng, double lo, double hi);

/// Standard normal (Box-Muller).
double ipx_rng_normal(ipx_rng *rng);

#ifdef __cplusplus
}
#endif
#endif
