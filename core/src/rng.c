#include <math.h>

#include "mathutil.h"

#include "impax/rng.h"

uint64_t ipx_mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

uint64_t ipx_splitmix64(uint64_t *state) { return ipx_mix64(*state += IPX_GOLDEN_GAMMA); }

void ipx_rng_seed(ipx_rng *rng, uint64_t seed)
{
    for (int i = 0; i < 4; i++) rng->s[i] = ipx_splitmix64(&seed);
}

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t ipx_rng_next(ipx_rng *rng)
{
    uint64_t *s = rng->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

double ipx_rng_uniform_open0(ipx_rng *rng)
{
    /* 53 random bits -> (0, 1] */
    return (double)((ipx_rng_next(rng) >> 11) + 1) * 0x1.0p-53;
}

double ipx_rng_uniform(ipx_rng *rng, double lo, double hi)
{
    double u = (double)(ipx_rng_next(rng) >> 11) * 0x1.0p-53; /* [0, 1) */
    return lo + (hi - lo) * u;
}

double ipx_rng_normal(ipx_rng *rng)
{
    double u1 = ipx_rng_uniform_open0(rng);
    double u2 = ipx_rng_uniform(rng, 0.0, 1.0);
    return sqrt(-2.0 * log(u1)) * cos(2.0 * IPX_PI * u2);
}
