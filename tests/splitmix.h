/* splitmix.h - the tests' seeded random numbers (SplitMix64): one
 * definition for the random-traffic tests, so a seed means the same
 * stream in each. */
#ifndef STC_TESTS_SPLITMIX_H
#define STC_TESTS_SPLITMIX_H

#include <stdint.h>

static inline uint64_t rng_next(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

#endif
