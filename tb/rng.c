/* rng.c - the harness's seeded random stream (rng.h). */
#include "rng.h"

void rng_seed(rng *random, uint64_t seed)
{
    random->state = seed * 0x2545f4914f6cdd1dull + 1;
}

uint64_t rng_next(rng *random)
{
    uint64_t z = (random->state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

unsigned rng_below(rng *random, unsigned n)
{
    return n ? (unsigned)(rng_next(random) % n) : 0;
}

bool rng_percent(rng *random, unsigned percent)
{
    return rng_below(random, 100) < percent;
}
